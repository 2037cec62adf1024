// Entia's OpenAPI 3.1 document, generated from the route table, the error table and the response schemas, so
// it always describes exactly what is registered: per route its parameters (path, query, conditional
// headers), its body, its success body, its redirects, 304/412 and the error codes it can answer.
import { ERRORS, type ErrorCode } from '../../domain/errors.js';
import type { BoundRoute } from './route.js';
import { SCHEMAS, type ResponseSchema } from './openapi-schemas.js';
import { namesRedirectableEntity, routeErrors } from './route-errors.js';
import { ITEM, KINDS } from '../../domain/kinds.js';

const PARAM_DESCRIPTIONS: Record<string, string> = {
  ...Object.fromEntries(KINDS.map((k) => [k.pathParameter, `${k.noun} id, e.g. ${k.example}`])),
  language_code: 'Term language code, e.g. en',
  site_id: 'Site id, e.g. enwiki',
  statement_id: 'Statement id, <entity id>$<GUID>',
  revision_id: 'Revision id, a positive integer (an ETag without its quotes)',
};

const header = (name: string, description: string) => ({ name, in: 'header', required: false, schema: { type: 'string' }, description });
const IF_MATCH = header('If-Match', 'Only if the entity\'s revision is one of these ETags ("<revision>"), else 412');
const IF_NONE_MATCH = header('If-None-Match', 'Reads: 304 if the revision is one of these; writes: 412 if it is');
const IF_MODIFIED_SINCE = header('If-Modified-Since', 'Reads: 304 if not modified since this HTTP date');
const IF_UNMODIFIED_SINCE = header('If-Unmodified-Since', 'Only if not modified since this HTTP date, else 412');

const EMPTY = (description: string, headers?: Record<string, unknown>) => ({ description, ...(headers ? { headers } : {}) });
const LOCATION = { Location: { description: 'Absolute URL', schema: { type: 'string' } } };
const REVISION_HEADERS = {
  ETag: { description: 'The entity\'s revision, "<revision id>"', schema: { type: 'string' } },
  'Last-Modified': { description: 'Time of that revision', schema: { type: 'string' } },
};

function successSchema(returns: ResponseSchema, b: BoundRoute): Record<string, unknown> {
  const name = returns === 'Entity' ? (b.kind ?? ITEM).noun : returns;
  return { $ref: `#/components/schemas/${name}` };
}

/** Error responses grouped by status, each listing exactly the codes of that status the route can answer. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of byStatus) {
    out[String(status)] = {
      description: list.join(', '),
      content: { 'application/json': { schema: {
        allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: list } } }],
      } } },
    };
  }
  return out;
}

function operation(b: BoundRoute): Record<string, unknown> {
  const { route, kind } = b;
  const hasEntity = [...KINDS.map((k) => k.pathParameter), 'statement_id'].some((name) => b.path.includes(`{${name}}`));
  const isRead = route.method === 'GET';
  const params = [...b.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1], in: 'path', required: true, schema: { type: 'string' }, description: PARAM_DESCRIPTIONS[m[1]] ?? m[1],
  }));
  const query = Object.entries(route.query ?? {}).map(([name, q]) => ({
    name, in: 'query', required: q.required ?? false, schema: { type: q.type }, description: q.description,
  }));
  const conditional = !hasEntity ? [] : isRead ? [IF_NONE_MATCH, IF_MODIFIED_SINCE, IF_MATCH, IF_UNMODIFIED_SINCE]
    : [IF_MATCH, IF_NONE_MATCH, IF_UNMODIFIED_SINCE];
  const body = typeof route.body === 'function' ? route.body(kind!) : route.body;
  const responses: Record<string, unknown> = {};
  for (const status of route.success) {
    responses[String(status)] = status === 307
      ? EMPTY('The term exists only in a fallback language: Location names it', LOCATION)
      : { description: 'Success', headers: b.path.endsWith('/revert') ? { ...REVISION_HEADERS, 'Entia-Revert': {
        description: '`reverted` (a new revision was written) or `unchanged` (the entity already had that content)',
        schema: { enum: ['reverted', 'unchanged'] } } } : hasEntity || route.method === 'POST' ? REVISION_HEADERS : undefined,
        content: { 'application/json': { schema: successSchema(route.returns, b) } } };
  }
  if (hasEntity) {
    if (isRead && namesRedirectableEntity(b.path)) responses['308'] = EMPTY('The item is a redirect (or, for a revision, that revision made it one): the route for its target', LOCATION);
    if (b.path.includes('{statement_id}')) responses['308'] = EMPTY('The statement id differs only in letter case: the stored id', LOCATION);
    if (isRead) responses['304'] = EMPTY('Not modified (If-None-Match / If-Modified-Since)', { ETag: REVISION_HEADERS.ETag });
    responses['412'] = EMPTY('A precondition (If-Match, If-None-Match, If-Unmodified-Since) failed; nothing was changed');
  }
  Object.assign(responses, errorResponses(routeErrors(route, kind, b.path)));
  const mediaTypes: Record<string, unknown> = body ? { 'application/json': { schema: body } } : {};
  if (body && route.method === 'PATCH') mediaTypes['application/json-patch+json'] = { schema: body };
  return {
    operationId: `${route.method.toLowerCase()}${b.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
    summary: kind ? `${route.summary} (${kind.name})` : route.summary,
    tags: [route.tag],
    parameters: [...params, ...query, ...conditional],
    // A body without required fields (DELETE: edit metadata only) may be omitted.
    ...(body ? { requestBody: { required: ((body.required as string[] | undefined) ?? []).length > 0, content: mediaTypes } } : {}),
    responses,
  };
}

export function buildOpenApi(bound: readonly BoundRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const b of bound) (paths[b.path] ??= {})[b.route.method.toLowerCase()] = operation(b);
  paths['/v1/changes/stream'] = { get: {
    operationId: 'getChangesStream', summary: 'The change feed as Server-Sent Events (event `change`, id = cursor)',
    tags: ['changes'],
    parameters: [
      { name: 'since', in: 'query', required: false, schema: { type: 'string' }, description: 'Start after this cursor; absent: from now on' },
      header('Last-Event-ID', 'Resume after this cursor (sent by EventSource on reconnect)'),
    ],
    responses: { 200: { description: 'An endless text/event-stream; data of each event: a change as in GET /v1/changes',
      content: { 'text/event-stream': { schema: { type: 'string' } } } },
    ...errorResponses(['invalid-query-parameter', 'unexpected-error']) },
  } };
  Object.assign(paths, reconcilePaths(), entityDataPaths());
  paths['/v1/openapi.json'] = { get: {
    operationId: 'getOpenApi', summary: 'This document', tags: ['meta'], parameters: [],
    responses: { 200: { description: 'Success', content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenApi' } } } },
      ...errorResponses(['unexpected-error']) },
  } };
  return {
    openapi: '3.1.0',
    info: { title: 'Entia', version: '1', description: 'Knowledge-base entity service (Wikibase REST API compatible)' },
    servers: [{ url: '/' }],
    tags: [...new Set(bound.map((b) => b.route.tag))].map((name) => ({ name })),
    paths,
    // An account's token, for the edits that need one (ENTIA_EDIT=token); optional everywhere ({}): reads and open
    // mode need none. Swagger UI at /docs shows it as its Authorize button, and "Try it out" then sends it.
    security: [{}, { token: [] }],
    components: {
      schemas: SCHEMAS,
      securitySchemes: { token: { type: 'http', scheme: 'bearer', description: 'An account token (`entia user token NAME`), sent as `Authorization: Bearer …`' } },
    },
  };
}

/**
 * The reconciliation service (reconcile.ts, docs/api.md §10.13): described here by hand, since it speaks the W3C
 * Reconciliation API's shapes (and takes form bodies), not the route table's.
 */
function reconcilePaths(): Record<string, Record<string, unknown>> {
  const json = { 'application/json': { schema: { type: 'object' } } };
  const query = (name: string, description: string, required = false) =>
    ({ name, in: 'query', required, schema: { type: 'string' }, description });
  const lang = query('lang', 'Language of names and of the text matched (default en)');
  const op = (operationId: string, summary: string, parameters: unknown[], extra: Record<string, unknown> = {}) => ({
    operationId, summary, tags: ['reconciliation'], parameters,
    responses: { 200: { description: 'Success', content: json }, ...errorResponses(['invalid-query-parameter', 'unexpected-error']) },
    ...extra,
  });
  const batch = [lang, query('queries', 'JSON object of reconciliation queries; absent: the service manifest'),
    query('extend', 'JSON data extension request')];
  const formBody = { requestBody: { required: true, content: {
    'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { queries: { type: 'string' }, extend: { type: 'string' } } } },
    'application/json': { schema: { type: 'object' } } } } };
  return {
    '/v1/reconcile': {
      get: op('getReconcile', 'The service manifest, or the answers to `queries` / `extend`', batch),
      post: op('postReconcile', 'Answers `queries` (reconciliation) or `extend` (data extension), as OpenRefine posts them', [lang], formBody),
    },
    ...Object.fromEntries(['entity', 'type', 'property'].map((kind) => [`/v1/reconcile/suggest/${kind}`, {
      get: op(`getReconcileSuggest${kind[0].toUpperCase()}${kind.slice(1)}`, `Suggest ${kind === 'property' ? 'properties' : kind === 'type' ? 'types' : 'entities'} by prefix`,
        [query('prefix', 'What the user has typed', true), query('cursor', 'Results to skip'), lang]),
    }])),
    '/v1/reconcile/preview': { get: { ...op('getReconcilePreview', 'An HTML card of an entity', [query('id', 'Item or property id', true), lang]),
      responses: { 200: { description: 'Success', content: { 'text/html': { schema: { type: 'string' } } } },
        ...errorResponses(['invalid-query-parameter', 'item-not-found', 'property-not-found', 'unexpected-error']) } } },
    '/v1/reconcile/propose_properties': { get: op('getReconcileProposeProperties', 'Properties that entities of a type use, most used first',
      [query('type', 'Item id of the type'), query('limit', 'How many, 1..99 (default 10)'), lang]) },
  };
}

/** Special:EntityData (entity-data/, docs/api.md §10.14): the dump format, at MediaWiki's URLs. */
function entityDataPaths(): Record<string, Record<string, unknown>> {
  const revision = { name: 'revision', in: 'query', required: false, schema: { type: 'string' }, description: 'An older revision of the entity' };
  const responses = {
    200: { description: 'Success: {"entities": {id: the entity in the Wikidata dump format}}', content: { 'application/json': { schema: { type: 'object' } } } },
    303: { description: 'The id is a redirect: Location is the target\'s EntityData' },
    ...errorResponses(['invalid-query-parameter', 'item-not-found', 'property-not-found', 'revision-not-found', 'rest-no-match', 'unexpected-error']),
  };
  return {
    '/wiki/Special:EntityData/{file}': { get: { operationId: 'getEntityData', summary: 'An entity in the Wikidata dump format (file: Q42.json)',
      tags: ['entities'], parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }, revision], responses } },
    '/w/index.php': { get: { operationId: 'getIndexPhp', summary: 'title=Special:EntityData/Q42.json: the same, as wikibase-sdk asks',
      tags: ['entities'], parameters: [{ name: 'title', in: 'query', required: true, schema: { type: 'string' } }, revision], responses } },
  };
}
