// THE route table: every route once, with the kinds it serves and its body shape. app.ts registers each
// row per kind; openapi.ts documents the same rows; tests loop over them for cross-cutting behaviour.
import * as entities from './handlers/entities.js';
import * as meta from './handlers/meta.js';
import * as terms from './handlers/terms.js';
import { addAliases } from './handlers/aliases.js';
import * as statements from './handlers/statements.js';
import * as sitelinks from './handlers/sitelinks.js';
import { searchTerms } from './handlers/search.js';
import * as history from './handlers/history.js';
import { mergeItem } from './handlers/merge.js';
import { getConstraintViolations } from './handlers/constraints.js';
import { postQuickStatements, QS_FORMATS } from '../quickstatements/index.js';
import { getChanges } from './handlers/changes.js';
import * as batch from './handlers/batch.js';
import { findByStatements, getIncomingLinks } from './handlers/lookup.js';
import type { Route } from './route.js';
import { META_ONLY, PATCH_BODY, payload } from './schemas.js';
import { META_SCHEMA } from '../meta.js';
import { KINDS } from '../../domain/kinds.js';

/** Routes every kind has; those of the kinds with sitelinks; those of the kinds that can be merged (and redirect). */
const BOTH = KINDS.map((k) => k.name);
const WITH_SITELINKS = KINDS.filter((k) => k.hasSitelinks).map((k) => k.name);
const MERGEABLE = KINDS.filter((k) => k.redirects).map((k) => k.name);
const STATEMENT_BODY = payload('statement', 'object');

/** Labels and descriptions have the same six routes (docs/api.md §10.2), for both kinds. */
function textTermRoutes(field: terms.TextField): Route[] {
  const base = `/v1/entities/{entity}/${field}`;
  const one = terms.VALUE_FIELD[field];
  const notDefined = field === 'labels' ? 'label-not-defined' : 'description-not-defined';
  return [
    { method: 'GET', path: base, kinds: BOTH, tag: field, success: [200], returns: 'TermMap',
      summary: `Read all ${field} of an item or property`, handler: terms.getTermMap(field) },
    { method: 'GET', path: `${base}/{language_code}`, kinds: BOTH, tag: field, success: [200], returns: 'Term',
      errors: [notDefined], summary: `Read the ${one} in one language`, handler: terms.getTerm(field) },
    { method: 'GET', path: `/v1/entities/{entity}/${field}_with_language_fallback/{language_code}`, kinds: BOTH,
      tag: field, success: [200, 307], returns: 'Term', errors: [notDefined],
      summary: `Read the ${one} in a language or its fallback languages`, handler: terms.getTermWithFallback(field) },
    { method: 'PUT', path: `${base}/{language_code}`, kinds: BOTH, tag: field, success: [200], returns: 'Term',
      errors: ['data-policy-violation'], summary: `Set the ${one} in one language`, body: payload(one, 'string'),
      write: terms.putTerm(field) },
    { method: 'PATCH', path: base, kinds: BOTH, tag: field, success: [200], returns: 'TermMap',
      errors: ['data-policy-violation'], summary: `Change the ${field} with a JSON Patch`, body: PATCH_BODY,
      write: terms.patchTerms(field) },
    { method: 'DELETE', path: `${base}/{language_code}`, kinds: BOTH, tag: field, success: [200], returns: 'Message',
      errors: [notDefined], summary: `Remove the ${one} in one language`, body: META_ONLY, write: terms.deleteTerm(field) },
  ];
}

const SEARCH_QUERY: Route['query'] = {
  q: { type: 'string', required: true, description: 'The search text' },
  lang: { type: 'string', required: true, description: 'Language code of the search (alias: language)' },
  limit: { type: 'integer', description: 'Number of results, 0..500 (default 10)' },
  offset: { type: 'integer', description: 'Number of results to skip (default 0)' },
};

/**
 * Search and suggest (spec §4.7): one declaration, served under /v0 as the spec says and under /v1 as an
 * alias (docs/api.md D3).
 */
const SEARCH_ROUTES: Route[] = (['v0', 'v1'] as const).flatMap((version) => [
  { method: 'GET', path: `/${version}/search/{kind}`, kinds: BOTH, tag: 'search', success: [200], returns: 'SearchResults',
    summary: 'Find items or properties whose label or alias contains every word of q', query: SEARCH_QUERY,
    handler: searchTerms('search') },
  { method: 'GET', path: `/${version}/suggest/{kind}`, kinds: BOTH, tag: 'search', success: [200], returns: 'SearchResults',
    summary: 'Find items or properties whose label or alias starts with q', query: SEARCH_QUERY,
    handler: searchTerms('suggest') },
] satisfies Route[]);

export const ROUTES: Route[] = [
  { method: 'GET', path: '/v1/entities/{entity}', kinds: BOTH, tag: 'entities', success: [200], returns: 'Entity',
    summary: 'Read an item or property', handler: entities.getEntity,
    query: { _fields: { type: 'string', description: 'Comma-separated top-level fields to return' } } },
  { method: 'POST', path: '/v1/entities/{kind}', kinds: BOTH, tag: 'entities', success: [201], creation: true, returns: 'Entity', errors: ['data-policy-violation'],
    summary: 'Create an item or property', body: (kind) => payload(kind.createField, 'object'),
    write: entities.createEntity },
  { method: 'PATCH', path: '/v1/entities/{entity}', kinds: BOTH, tag: 'entities', success: [200], returns: 'Entity', errors: ['data-policy-violation', 'patch-result-referenced-resource-not-found', 'patch-result-modified-read-only-value', 'patched-statement-group-property-id-mismatch'],
    summary: 'Change an item or property with a JSON Patch', body: PATCH_BODY, write: entities.patchEntity },
  ...textTermRoutes('labels'),
  ...textTermRoutes('descriptions'),
  // docs/api.md §10.3: no PUT and no DELETE on aliases; app.ts answers those with 405.
  { method: 'GET', path: '/v1/entities/{entity}/aliases', kinds: BOTH, tag: 'aliases', success: [200], returns: 'AliasMap',
    summary: 'Read all aliases of an item or property', handler: terms.getTermMap('aliases') },
  { method: 'GET', path: '/v1/entities/{entity}/aliases/{language_code}', kinds: BOTH, tag: 'aliases', success: [200], returns: 'Aliases', errors: ['aliases-not-defined'],
    summary: 'Read the aliases in one language', handler: terms.getTerm('aliases') },
  { method: 'POST', path: '/v1/entities/{entity}/aliases/{language_code}', kinds: BOTH, tag: 'aliases', returns: 'Aliases',
    success: [200, 201], summary: 'Add aliases in one language', body: payload('aliases', 'array'), write: addAliases },
  { method: 'PATCH', path: '/v1/entities/{entity}/aliases', kinds: BOTH, tag: 'aliases', success: [200], returns: 'AliasMap',
    summary: 'Change the aliases with a JSON Patch', body: PATCH_BODY, write: terms.patchTerms('aliases') },

  // Statements (docs/api.md §10.4): one handler per verb serves the entity-scoped and the global paths alike.
  { method: 'GET', path: '/v1/entities/{entity}/statements', kinds: BOTH, tag: 'statements', success: [200], returns: 'StatementMap',
    summary: "An entity's statements, grouped by property", handler: statements.getStatements,
    query: { property: { type: 'string', description: 'Only the statements of this property, e.g. P31' } } },
  { method: 'POST', path: '/v1/entities/{entity}/statements', kinds: BOTH, tag: 'statements', success: [201], returns: 'Statement', errors: ['referenced-resource-not-found'],
    summary: 'Add a statement', body: STATEMENT_BODY, write: statements.addStatement },
  { method: 'GET', path: '/v1/entities/{entity}/statements/{statement_id}', kinds: BOTH, tag: 'statements', returns: 'Statement',
    success: [200], summary: 'Read one statement', handler: statements.getStatement },
  { method: 'PUT', path: '/v1/entities/{entity}/statements/{statement_id}', kinds: BOTH, tag: 'statements', returns: 'Statement', errors: ['referenced-resource-not-found', 'cannot-modify-read-only-value'],
    success: [200], summary: 'Replace one statement', body: STATEMENT_BODY, write: statements.putStatement },
  { method: 'PATCH', path: '/v1/entities/{entity}/statements/{statement_id}', kinds: BOTH, tag: 'statements', returns: 'Statement', errors: ['patch-result-referenced-resource-not-found', 'patch-result-modified-read-only-value'],
    success: [200], summary: 'Change one statement with a JSON Patch', body: PATCH_BODY, write: statements.patchStatement },
  { method: 'DELETE', path: '/v1/entities/{entity}/statements/{statement_id}', kinds: BOTH, tag: 'statements', returns: 'Message',
    success: [200], summary: 'Remove one statement', body: META_ONLY, write: statements.deleteStatement },
  { method: 'GET', path: '/v1/statements/{statement_id}', tag: 'statements', success: [200], returns: 'Statement',
    summary: 'Read one statement of any entity', handler: statements.getStatement },
  { method: 'PUT', path: '/v1/statements/{statement_id}', tag: 'statements', success: [200], returns: 'Statement', errors: ['referenced-resource-not-found', 'cannot-modify-read-only-value'],
    summary: 'Replace one statement of any entity', body: STATEMENT_BODY, write: statements.putStatement },
  { method: 'PATCH', path: '/v1/statements/{statement_id}', tag: 'statements', success: [200], returns: 'Statement', errors: ['patch-result-referenced-resource-not-found', 'patch-result-modified-read-only-value'],
    summary: 'Change one statement of any entity with a JSON Patch', body: PATCH_BODY, write: statements.patchStatement },
  { method: 'DELETE', path: '/v1/statements/{statement_id}', tag: 'statements', success: [200], returns: 'Message',
    summary: 'Remove one statement of any entity', body: META_ONLY, write: statements.deleteStatement },

  // Sitelinks (docs/api.md §10.5): items only.
  { method: 'GET', path: '/v1/entities/{entity}/sitelinks', kinds: WITH_SITELINKS, tag: 'sitelinks', success: [200], returns: 'SitelinkMap',
    summary: "Read an item's sitelinks", handler: sitelinks.getSitelinks },
  { method: 'PATCH', path: '/v1/entities/{entity}/sitelinks', kinds: WITH_SITELINKS, tag: 'sitelinks', success: [200], returns: 'SitelinkMap', errors: ['data-policy-violation'],
    summary: "Change an item's sitelinks with a JSON Patch", body: PATCH_BODY, write: sitelinks.patchSitelinks },
  { method: 'GET', path: '/v1/entities/{entity}/sitelinks/{site_id}', kinds: WITH_SITELINKS, tag: 'sitelinks', success: [200], returns: 'Sitelink', errors: ['sitelink-not-defined'],
    summary: "Read an item's sitelink to one site", handler: sitelinks.getSitelink },
  { method: 'PUT', path: '/v1/entities/{entity}/sitelinks/{site_id}', kinds: WITH_SITELINKS, tag: 'sitelinks', success: [200], returns: 'Sitelink', errors: ['data-policy-violation'],
    summary: "Add or replace an item's sitelink to one site", body: payload('sitelink', 'object'),
    write: sitelinks.putSitelink },
  { method: 'DELETE', path: '/v1/entities/{entity}/sitelinks/{site_id}', kinds: WITH_SITELINKS, tag: 'sitelinks', success: [200], returns: 'Message', errors: ['sitelink-not-defined'],
    summary: "Remove an item's sitelink to one site", body: META_ONLY, write: sitelinks.deleteSitelink },

  // History (docs/api.md §10.9): the revisions of an entity, one revision's document, a revert, an undo.
  { method: 'GET', path: '/v1/entities/{entity}/history', kinds: BOTH, tag: 'history', success: [200], returns: 'History',
    summary: 'The revisions of an item or property, newest first', handler: history.getHistory,
    query: { limit: { type: 'integer', description: 'Revisions per page, 1..500 (default 50)' },
      before: { type: 'integer', description: 'Only revisions older than this revision id (the `next` of the page before)' } } },
  { method: 'GET', path: '/v1/entities/{entity}/revisions/{revision_id}', kinds: BOTH, tag: 'history', success: [200],
    returns: 'Entity', summary: 'An item or property as it was after one of its revisions', handler: history.getRevision },
  { method: 'POST', path: '/v1/entities/{entity}/revert', kinds: BOTH, tag: 'history', success: [200], returns: 'Entity',
    errors: ['revision-not-found', 'data-policy-violation'], body: payload('revision', 'integer'),
    summary: 'Make an earlier revision the current one, as a new revision', write: history.revertEntity },
  { method: 'POST', path: '/v1/entities/{entity}/undo', kinds: BOTH, tag: 'history', success: [200], returns: 'Entity',
    errors: ['revision-not-found', 'undo-conflict', 'data-policy-violation'], body: payload('revision', 'integer'),
    summary: 'Undo what one revision changed, where nothing has changed it since', write: history.undoEntity },

  // Property constraints (docs/api.md §10.18): what the entity breaks of its properties' constraints.
  { method: 'GET', path: '/v1/entities/{entity}/constraint-violations', kinds: BOTH, tag: 'constraints', success: [200],
    returns: 'ConstraintViolations', errors: ['constraint-checks-off'],
    summary: 'The constraints (P2302) of its properties that the entity breaks, checked now', handler: getConstraintViolations },

  // Merge (docs/api.md §9.4): the path's item moves its content into another and becomes a redirect to it.
  { method: 'POST', path: '/v1/entities/{entity}/merge', kinds: MERGEABLE, tag: 'entities', success: [200], returns: 'Merge',
    errors: ['merge-into-self', 'merge-conflict', 'referenced-resource-not-found', 'data-policy-violation'],
    summary: 'Merge this item into another: its terms, sitelinks and statements move there, and it becomes a redirect',
    body: { type: 'object', required: ['into'], properties: { into: { type: 'string' },
      ignore_conflicts: { type: 'array', items: { enum: ['description', 'sitelink', 'statement'] } }, ...META_SCHEMA } },
    write: mergeItem },

  // QuickStatements batches (docs/api.md §10.17): many edits of many entities, each command reported.
  { method: 'POST', path: '/v1/quickstatements', tag: 'quickstatements', success: [200], returns: 'QuickStatements',
    summary: 'Run a QuickStatements batch (V1 or CSV): one revision per group of commands on one entity, every command reported',
    body: { type: 'object', required: ['commands'], properties: { commands: { type: 'string' },
      format: { enum: [...QS_FORMATS] }, ...META_SCHEMA } },
    handler: postQuickStatements },

  // Many entities in one request (docs/api.md §10.11).
  { method: 'GET', path: '/v1/entities', tag: 'entities', success: [200], returns: 'Batch', handler: batch.getEntities,
    summary: 'Read up to 500 items and properties at once',
    query: {
      ids: { type: 'string', required: true, description: 'Comma-separated item and property ids (at most 500)' },
      _fields: { type: 'string', description: 'Comma-separated top-level fields to return' },
      languages: { type: 'string', description: 'Comma-separated languages: only these terms' },
      fallback: { type: 'string', description: '1: a label or description missing in a language comes from its fallback chain' },
    } },
  { method: 'POST', path: '/v1/entities', tag: 'entities', success: [200], returns: 'Batch', readOnly: true, handler: batch.postEntities,
    summary: 'Read up to 500 items and properties at once (the ids in the body)',
    body: { type: 'object', required: ['ids'], properties: { ids: { type: 'array' }, _fields: { type: 'array' },
      languages: { type: 'array' }, fallback: { type: 'boolean' } } } },

  // Lookup by statement value (docs/api.md §10.12).
  { method: 'GET', path: '/v1/entities/{kind}', kinds: BOTH, tag: 'entities', success: [200], returns: 'Lookup',
    summary: 'List the items or properties, or find those that have a statement with a given value', handler: findByStatements,
    query: {
      statement: { type: 'string',
        description: 'P214:113230702, P31:Q5, or P625:* (any value); repeat it and every condition must hold (at most 10); absent: every one' },
      limit: { type: 'integer', description: 'Ids per page, 1..500 (default 50)' },
      after: { type: 'string', description: 'The `next` of the page before' },
    } },

  // What links here (docs/api.md §10.19): the statements elsewhere whose value is this entity.
  { method: 'GET', path: '/v1/entities/{entity}/incoming-links', kinds: BOTH, tag: 'entities', success: [200], returns: 'IncomingLinks',
    summary: 'The items and properties with a statement whose value is this entity, and the properties that link',
    handler: getIncomingLinks,
    query: {
      limit: { type: 'integer', description: 'Entities per page, 1..500 (default 50)' },
      after: { type: 'string', description: 'The `next` of the page before (an item or property id)' },
    } },

  { method: 'GET', path: '/v1/changes', tag: 'changes', success: [200], returns: 'Changes',
    summary: 'Every revision the store commits, in commit order, after a cursor', handler: getChanges,
    query: {
      since: { type: 'string', description: 'The `next` (or a `cursor`) of an earlier page; absent or 0: the first change' },
      limit: { type: 'integer', description: 'Changes per page, 1..1000 (default 100)' },
      entity: { type: 'string', description: 'Comma-separated entity ids: only their changes' },
      types: { type: 'string', description: 'item, property, or item|property' },
      user: { type: 'string', description: 'Comma-separated users (account names or addresses, as recorded): only their revisions' },
      bot: { type: 'string', description: '0: leave bot edits out; 1: only bot edits' },
      order: { type: 'string', description: 'oldest (default): commit order; newest: backwards from `since` (absent: the latest), `next` null on the oldest page' },
      format: { type: 'string', description: 'json (default), or rdf: each change as a Wikimedia rdf_change event (the RDF it adds and removes, in Turtle)' },
    } },

  { method: 'GET', path: '/v1/property-data-types', tag: 'meta', success: [200], returns: 'DataTypes',
    summary: 'The supported property data types and their value types', handler: meta.propertyDataTypes },
  { method: 'GET', path: '/v1/statistics', tag: 'meta', success: [200], returns: 'Statistics',
    summary: 'How many items and properties the store holds, and redirects', handler: meta.statistics },
  ...SEARCH_ROUTES,
];
