// buildApp(options) → a Fastify instance: the HTTP kernel's hooks and error answers, then each room through its door
// (REST, operations, the change stream, reconciliation, EntityData, the Action API, SPARQL, the web interface).
import Fastify, { type FastifyHttpOptions, type FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { EntiaError } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import { parseJsonBody } from './body.js';
import type { Method } from './context.js';
import { errorBody, jsonBuffer, sendError, toEntiaError, type RouteConfig } from './reply-error.js';
import { withDecodablePath } from './url.js';
import { negotiatedBody } from './compression.js';
import { clientErrorHandler } from './client-error.js';
import { corsHook, SECURITY_HEADERS } from './headers.js';
import type { Services } from './services.js';
import { registerRest } from './rest/index.js';
import { registerOperations } from './operations/index.js';
import { registerChangeStream } from './change-stream/index.js';
import { registerReconcile } from './reconcile/index.js';
import { registerEntityData } from './entity-data/index.js';
import { registerActionApi } from './action-api/index.js';
import { registerSparql } from './sparql/index.js';
import { registerUi } from '../ui/index.js';

export interface AppOptions {
  store: Store;
  services: Services;
}

export function buildApp({ store, services }: AppOptions): FastifyInstance {
  const app = Fastify(serverOptions(services.config));
  kernelHooks(app, services.config);
  // Every route any room registers is also entered here, so that a path with routes for other methods answers 405
  // with their names in Allow: Fastify's own table is the only list of routes.
  const methodsByPath = FindMyWay();
  app.addHook('onRoute', (route) => { methodsByPath.on(route.method as HTTPMethod | HTTPMethod[], route.url, () => {}); });
  mountRooms(app, store, services);
  kernelAnswers(app, methodsByPath);
  return app;
}

/** Fastify's options: limits, timeouts, strict schemas, the router's bounds, framework errors in the table's shape. */
function serverOptions(config: Services['config']): FastifyHttpOptions<Server> {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  return {
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
  };
}

/** What every request goes through, whatever room answers it: Expect, security headers, Host, CORS, compression of pages, bodies. */
function kernelHooks(app: FastifyInstance, config: Services['config']): void {
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
  // CORS (headers.ts): the headers @fastify/cors would send, written out (ADR 0021); a preflight ends here.
  app.addHook('onRequest', corsHook(config.corsOrigins));
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
}

/** Each room through its door. */
function mountRooms(app: FastifyInstance, store: Store, services: Services): void {
  const { config } = services;
  // GET requests read through the store's read view: the replicas, where ENTIA_DB_REPLICAS names some.
  const reads = store.forReads?.() ?? store;
  registerOperations(app, store, services);
  registerChangeStream(app, store, config.streamBufferBytes, (n) => services.metrics.followers.set(n),
    (changes, maxBytes) => services.rdfChanges(store, changes, maxBytes));
  registerReconcile(app, reads, services);
  registerEntityData(app, reads, services);
  registerActionApi(app, store, services);
  registerSparql(app, store, services);
  // The web interface reads through the routes registered here, in process (ui/api.ts). Its pages are kept until
  // the store commits again, unless reads go to replicas, which may lag the primary whose commits are counted.
  const storeVersion = reads === store ? () => store.changesCommitted() : undefined;
  if (config.ui) registerUi(app, { storeVersion });
  registerRest(app, store, services);
}

/** A path no route matches (404, or 405 with Allow where other methods have routes), and every error. */
function kernelAnswers(app: FastifyInstance, methodsByPath: ReturnType<typeof FindMyWay>): void {
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = (['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)
      .filter((m) => methodsByPath.find(m, path) !== null);
    // A route of this very method that found nothing (a static file that is not there) is a 404 too.
    if (allowed.length === 0 || allowed.includes(req.method as typeof allowed[number])) {
      return sendError(reply, new EntiaError('rest-no-match', undefined, { path }));
    }
    reply.header('allow', allowed.join(', '));
    if (req.method === 'OPTIONS') return reply.code(204).send();
    return sendError(reply, new EntiaError('rest-wrong-method', undefined, { method: req.method, path }));
  });
  app.setErrorHandler((error, req, reply) => {
    return sendError(reply, toEntiaError(error, req), (req.routeOptions?.config as RouteConfig | undefined)?.errorDialect);
  });
}

export type { Method };
