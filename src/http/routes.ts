// THE route table: every route once, with the kinds it serves and its body shape. app.ts registers each
// row per kind; openapi.ts documents the same rows; tests loop over them for cross-cutting behaviour.
import * as entities from './handlers/entities.js';
import * as meta from './handlers/meta.js';
import { searchTerms } from './handlers/search.js';
import type { Route } from './route.js';
import { PATCH_BODY, payload } from './schemas.js';

const BOTH = ['item', 'property'] as const;

const SEARCH_QUERY: Route['query'] = {
  q: { type: 'string', required: true, description: 'The search text' },
  lang: { type: 'string', required: true, description: 'Language code of the search (alias: language)' },
  limit: { type: 'integer', description: 'Number of results, 0..500 (default 10)' },
  offset: { type: 'integer', description: 'Number of results to skip (default 0)' },
};

/**
 * Search and suggest (spec §4.7): one declaration, served under /v0 as the spec says and under /v1 as an
 * alias (REFERENCE D3).
 */
const SEARCH_ROUTES: Route[] = (['v0', 'v1'] as const).flatMap((version) => [
  { method: 'GET', path: `/${version}/search/{kind}`, kinds: BOTH, tag: 'search', success: [200],
    summary: 'Find items or properties whose label or alias contains every word of q', query: SEARCH_QUERY,
    handler: searchTerms('search') },
  { method: 'GET', path: `/${version}/suggest/{kind}`, kinds: BOTH, tag: 'search', success: [200],
    summary: 'Find items or properties whose label or alias starts with q', query: SEARCH_QUERY,
    handler: searchTerms('suggest') },
] satisfies Route[]);

export const ROUTES: Route[] = [
  { method: 'GET', path: '/v1/entities/{entity}', kinds: BOTH, tag: 'entities', success: [200],
    summary: 'Read an item or property', handler: entities.getEntity,
    query: { _fields: { type: 'string', description: 'Comma-separated top-level fields to return' } } },
  { method: 'POST', path: '/v1/entities/{kind}', kinds: BOTH, tag: 'entities', success: [201], creation: true,
    summary: 'Create an item or property', body: (kind) => payload(kind.createField, 'object'),
    handler: entities.createEntity },
  { method: 'PATCH', path: '/v1/entities/{entity}', kinds: BOTH, tag: 'entities', success: [200],
    summary: 'Change an item or property with a JSON Patch', body: PATCH_BODY, handler: entities.patchEntity },
  { method: 'GET', path: '/v1/property-data-types', tag: 'meta', success: [200],
    summary: 'The supported property data types and their value types', handler: meta.propertyDataTypes },
  ...SEARCH_ROUTES,
];
