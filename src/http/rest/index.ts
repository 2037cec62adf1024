// The REST room's door: every row of the route table (routes.ts) registered as a Fastify route, again under
// upstream Wikibase's base path in its spelling (dialect.ts) where ENTIA_WIKIBASE_PREFIX says so, and the OpenAPI
// document generated from the same rows.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { fail } from '../../domain/errors.js';
import { kindByName } from '../../domain/kinds.js';
import type { Store } from '../../store/store.js';
import { etag, httpDate } from '../conditional.js';
import { EmptyReply, requestContext, type Result } from '../context.js';
import { JsonStream, sendBody, sendStream } from '../compression.js';
import { jsonBuffer, type RouteConfig } from '../reply-error.js';
import type { Services } from '../services.js';
import { writeHandler } from '../write/rows.js';
import { wikibaseError, wikibaseHeaders, wikibaseResult } from './dialect.js';
import { buildOpenApi } from './openapi.js';
import { bindRoutes, type BoundRoute } from './route.js';
import { ROUTES } from './routes.js';

export function registerRest(app: FastifyInstance, store: Store, services: Services): void {
  const bound = bindRoutes(ROUTES);
  // GET requests read through the store's read view: the replicas, where ENTIA_DB_REPLICAS names some.
  const stores = { reads: store.forReads?.() ?? store, writes: store };
  for (const b of bound) registerRoute(app, b, stores, services);
  const wikibasePrefix = services.config.wikibasePrefix;
  if (wikibasePrefix !== null) for (const b of bound) registerRoute(app, b, stores, services, wikibasePrefix);
  const openApi = buildOpenApi(bound);
  app.get('/v1/openapi.json', async (_req, reply) => send(reply, { body: openApi }));
}

function registerRoute(app: FastifyInstance, b: BoundRoute, stores: { reads: Store; writes: Store }, services: Services,
  wikibasePrefix?: string): void {
  const { route, kind } = b;
  const body = typeof route.body === 'function' ? route.body(kind!) : route.body;
  const config: RouteConfig = { kind: kind?.name, creation: route.creation, errorDialect: wikibasePrefix !== undefined ? wikibaseError : undefined };
  const handler = route.write ? writeHandler(route.write) : route.handler!;
  app.route({
    method: route.method,
    url: (wikibasePrefix ?? '') + b.url,
    config,
    schema: body ? { body } : undefined,
    preValidation: async (req) => {
      // An absent body is checked like an empty object, so a missing payload is missing-field (docs/api.md §7.7).
      if (route.body && (req.body === undefined || req.body === null)) req.body = {};
      if (services.config.requireUserAgent && !req.headers['user-agent']) fail('missing-user-agent');
    },
    handler: async (req, reply) => {
      const identity = await services.guard.identify(req.headers.authorization);
      const ctx = requestContext(req, { kind: kind ?? kindByName('item'), store: route.method === 'GET' ? stores.reads : stores.writes, services, identity });
      if (route.method === 'GET') await services.guard.read(ctx);
      try {
        const result = await handler(ctx);
        // docs/api.md §2.1: success responses name the authenticated user.
        if (identity.kind === 'user') reply.header('x-authenticated-user', identity.account.name);
        return send(reply, wikibasePrefix ? wikibaseResult(result, services.config.publicUrl, wikibasePrefix) : result);
      } catch (e) {
        if (!(e instanceof EmptyReply)) throw e;
        const headers = wikibasePrefix ? wikibaseHeaders(e.headers, services.config.publicUrl, wikibasePrefix) : e.headers;
        return reply.code(e.status).headers(headers).send();
      }
    },
  });
}

async function send(reply: FastifyReply, result: Result): Promise<FastifyReply> {
  if (result.head) reply.header('etag', etag(result.head)).header('last-modified', httpDate(result.head.modified));
  if (result.headers) reply.headers(result.headers);
  reply.code(result.status ?? 200);
  if (result.body === undefined) return reply.send();
  // Exactly `application/json`, without a charset (docs/api.md §2.1), so the body is serialised here (a Buffer
  // body is JSON already).
  if (result.body instanceof JsonStream) return sendStream(reply, result.body, 'application/json');
  return sendBody(reply, Buffer.isBuffer(result.body) ? result.body : jsonBuffer(result.body), 'application/json');
}
