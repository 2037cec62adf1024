// Entia's OpenAPI 3.1 document, generated from the route table and the error table, so it always
// describes exactly what is registered.
import { ERRORS } from '../domain/errors.js';
import type { BoundRoute } from './app.js';

const PARAM_DESCRIPTIONS: Record<string, string> = {
  item_id: 'Item id, e.g. Q42',
  property_id: 'Property id, e.g. P31',
  language_code: 'Term language code, e.g. en',
  site_id: 'Site id, e.g. enwiki',
  statement_id: 'Statement id, <entity id>$<GUID>',
};

export function buildOpenApi(bound: readonly BoundRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const b of bound) {
    const { route, kind } = b;
    const params = [...b.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1], in: 'path', required: true, schema: { type: 'string' }, description: PARAM_DESCRIPTIONS[m[1]] ?? m[1],
    }));
    const query = Object.entries(route.query ?? {}).map(([name, q]) => ({
      name, in: 'query', required: q.required ?? false, schema: { type: q.type }, description: q.description,
    }));
    const body = typeof route.body === 'function' ? route.body(kind!) : route.body;
    const responses: Record<string, unknown> = {};
    for (const status of route.success) responses[String(status)] = { description: 'Success' };
    responses.default = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    (paths[b.path] ??= {})[route.method.toLowerCase()] = {
      operationId: `${route.method.toLowerCase()}${b.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
      summary: kind ? `${route.summary} (${kind.name})` : route.summary,
      tags: [route.tag],
      parameters: [...params, ...query],
      // A body without required fields (DELETE: edit metadata only) may be omitted (REFERENCE §2.1).
      ...(body ? { requestBody: { required: ((body.required as string[] | undefined) ?? []).length > 0,
        content: { 'application/json': { schema: body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Entia', version: '1', description: 'Knowledge-base entity service (Wikibase REST API compatible)' },
    servers: [{ url: '/' }],
    tags: [...new Set(bound.map((b) => b.route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object', required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERRORS) },
            message: { type: 'string' },
            context: { type: 'object' },
          },
        },
      },
    },
  };
}
