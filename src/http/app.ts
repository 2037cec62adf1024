// build(options) → a Fastify instance serving every row of the route table over the given store.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cors from '@fastify/cors';
import FindMyWay from 'find-my-way';
import { EntiaError, fail } from '../domain/errors.js';
import { kindByName } from '../domain/kinds.js';
import type { Store } from '../store/store.js';
import { parseJsonBody } from './body.js';
import { etag, httpDate } from './conditional.js';
import { buildOpenApi } from './openapi.js';
import { bindRoutes, type BoundRoute } from './route.js';
import { EmptyReply, requestContext, type Ctx, type Method, type Result } from './context.js';
import { ROUTES } from './routes.js';
import { errorBody, jsonBuffer, sendError, toEntiaError, type RouteConfig } from './reply-error.js';
import { withDecodablePath } from './url.js';
import { negotiatedBody, sendBody } from './compression.js';
import { registerOperations } from './operations.js';
import { CHANGE_STREAM_PATH, registerChangeStream } from './change-stream.js';
import { clientErrorHandler } from './client-error.js';
import { RECONCILE_PATH, registerReconcile } from './reconcile/index.js';
import { registerEntityData } from './entity-data.js';
import { registerActionApi } from './action-api/index.js';
import { registerSparql } from './sparql/index.js';
import { wikibaseError, wikibaseHeaders, wikibaseResult } from './dialect.js';
import { corsOptions, SECURITY_HEADERS } from './headers.js';
import { writeHandler } from './write/rows.js';
import type { Services } from './services.js';
import { openApiHandler } from './handlers/meta.js';
import { registerUi } from '../ui/index.js';

export interface AppOptions {
  store: Store;
  services: Services;
}

export function buildApp({ store, services }: AppOptions): FastifyInstance {
  const { config } = services;
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  const app = Fastify({
    logger: config.log ? { level: 'info' } : false,
    bodyLimit: config.bodyLimit,
    // A client that never finishes its request is answered 408 and cut off, so it cannot hold a connection
    // (and with it a file descriptor) forever; Node checks for such requests this often.
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 60_000),
      connectionsCheckingInterval: Math.min(requestTimeout, 5_000),
      // A request without Host is refused by the onRequest hook below, in the error table's JSON shape.
      requireHostHeader: false,
    },
    // Strict shapes: "true" is not a boolean and unknown fields are ignored, not removed (docs/api.md §2.6).
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
    exposeHeadRoutes: true,
    // Parameters are bounded by the header size limit, not by the router: an over-long id is that
    // resource's 400 (invalid-item-id, …), not a path that matches nothing.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 16_384 },
    rewriteUrl: (req) => withDecodablePath(req.url ?? '/'),
    // X-Forwarded-For is believed only when configured (ENTIA_TRUST_PROXY): it decides whose budget an
    // anonymous edit spends and which address its revision records.
    trustProxy: config.trustProxy,
    // Malformed HTTP, oversized headers, timeouts: the table's JSON shape, not the framework's (client-error.ts).
    clientErrorHandler,
    // A path that cannot be percent-decoded, or with a parameter over maxParamLength, matches no route.
    // Fastify answers these before any hook, so the security headers that matter are set here.
    frameworkErrors: (error, req, reply) => {
      reply.headers(SECURITY_HEADERS);
      sendError(reply, new EntiaError('rest-no-match', undefined, { path: req.url.split('?')[0] }));
    },
  });
  app.server.maxConnections = config.maxConnections;
  // Node answers an unknown Expect with a bare 417; this one has the JSON body and headers of every error.
  app.server.on('checkExpectation', (req, res) => {
    const error = new EntiaError('expectation-failed', undefined, { expect: String(req.headers.expect).slice(0, 100) });
    const body = jsonBuffer(errorBody(error));
    res.writeHead(error.status, { ...SECURITY_HEADERS, 'content-type': 'application/json', 'content-language': 'en',
      'content-length': body.length, connection: 'close' });
    res.end(body);
  });
  // Security headers (headers.ts): the same ones @fastify/helmet would set, without its per-request rebuild.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    // HTTP/1.1 requires Host (RFC 9112 §3.2). Entia never reads it (Locations come from ENTIA_PUBLIC_URL).
    if (req.headers.host === undefined && req.raw.httpVersion === '1.1') {
      done(new EntiaError('malformed-request', undefined));
      return;
    }
    done();
  });
  app.register(cors, { delegator: corsOptions(config.corsOrigins) });
  // Pages rendered to text (the web interface, reconciliation's previews) are compressed like JSON bodies; JSON
  // routes compress in send(), where a cached buffer keeps its compressed forms.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.hasHeader('content-encoding') || !String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const body = await negotiatedBody(reply, typeof payload === 'string' ? Buffer.from(payload) : payload);
    if (reply.hasHeader('content-encoding')) reply.removeHeader('content-length');
    return body;
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, parseJsonBody);

  const bound = bindRoutes(ROUTES);
  const openApi = buildOpenApi(bound);
  const methodsByPath = FindMyWay();
  for (const b of bound) {
    methodsByPath.on(b.route.method, b.url, () => {});
    if (b.route.method === 'GET') methodsByPath.on('HEAD', b.url, () => {});
  }
  methodsByPath.on('GET', '/v1/openapi.json', () => {});

  for (const path of registerOperations(app, store, services)) methodsByPath.on(['GET', 'HEAD'], path, () => {});
  registerChangeStream(app, store, config.streamBufferBytes, (n) => services.metrics.followers.set(n),
    (changes) => services.rdfChanges(store, changes));
  // GET requests read through the store's read view: the replicas, where ENTIA_DB_REPLICAS names some.
  const reads = store.forReads?.() ?? store;
  for (const path of registerReconcile(app, reads, services)) methodsByPath.on(['GET', 'HEAD'], path, () => {});
  methodsByPath.on('POST', RECONCILE_PATH, () => {});
  for (const path of registerEntityData(app, reads, services)) methodsByPath.on(['GET', 'HEAD'], path, () => {});
  for (const path of registerActionApi(app, store, services)) methodsByPath.on(['GET', 'HEAD', 'POST'], path, () => {});
  methodsByPath.on('GET', CHANGE_STREAM_PATH, () => {});
  for (const path of registerSparql(app, store, services)) methodsByPath.on(['GET', 'HEAD', 'POST'], path, () => {});
  // The web interface reads through the routes registered here, in process (ui/api.ts). Its pages are kept until
  // the store commits again, unless reads go to replicas, which may lag the primary whose commits are counted.
  const storeVersion = reads === store ? () => store.changesCommitted() : undefined;
  if (config.ui) for (const path of registerUi(app, { storeVersion })) methodsByPath.on(['GET', 'HEAD'], path, () => {});
  for (const b of bound) registerRoute(app, b, store, services);
  // The same routes again under Wikibase's base path, in its spelling (dialect.ts).
  const wikibasePrefix = config.wikibasePrefix;
  if (wikibasePrefix !== null) {
    for (const b of bound) {
      registerRoute(app, b, store, services, wikibasePrefix);
      methodsByPath.on(b.route.method, wikibasePrefix + b.url, () => {});
      if (b.route.method === 'GET') methodsByPath.on('HEAD', wikibasePrefix + b.url, () => {});
    }
  }
  app.get('/v1/openapi.json', async (req, reply) =>
    send(reply, await openApiHandler(() => openApi)({} as Ctx)));

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = (['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)
      .filter((m) => methodsByPath.find(m, path) !== null);
    if (allowed.length === 0) return sendError(reply, new EntiaError('rest-no-match', undefined, { path }));
    reply.header('allow', allowed.join(', '));
    if (req.method === 'OPTIONS') return reply.code(204).send();
    return sendError(reply, new EntiaError('rest-wrong-method', undefined, { method: req.method, path }));
  });
  app.setErrorHandler((error, req, reply) => {
    const dialect = (req.routeOptions?.config as RouteConfig | undefined)?.wikibase ? wikibaseError : undefined;
    return sendError(reply, toEntiaError(error, req), dialect);
  });
  return app;
}

function registerRoute(app: FastifyInstance, b: BoundRoute, store: Store, services: Services, wikibasePrefix?: string): void {
  const { route, kind } = b;
  const reads = store.forReads?.() ?? store;
  const body = typeof route.body === 'function' ? route.body(kind!) : route.body;
  const config: RouteConfig = { kind: kind?.name, creation: route.creation, wikibase: wikibasePrefix !== undefined };
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
      const ctx = requestContext(req, { kind: kind ?? kindByName('item'), store: route.method === 'GET' ? reads : store, services, identity });
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
  return sendBody(reply, Buffer.isBuffer(result.body) ? result.body : jsonBuffer(result.body), 'application/json');
}

export type { Method };
