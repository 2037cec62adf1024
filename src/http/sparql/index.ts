// The SPARQL room (docs/api.md §11): `/sparql`, and the Query Service's `/bigdata/namespace/wdq/sparql`, by
// the SPARQL 1.1 Protocol (GET ?query=, POST as a form or as application/sparql-query), read only. Queries run
// on the embedded engine (sparql/engine.ts) that the mirror (sparql/mirror.ts) fills from the store and keeps
// in step with the change feed; every answer says which change it includes (X-Entia-Sparql-Cursor) and
// `after=` waits, up to a bound, for a change the client knows of.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EntiaError, fail } from '../../domain/errors.js';
import { conceptVocabulary } from '../entity-data.js';
import { SparqlEngine, EngineRestarted, EngineError, QueryTimeout } from '../../sparql/engine.js';
import { SparqlMirror } from '../../sparql/mirror.js';
import { prepareQuery, QueryRefused } from '../../sparql/query.js';
import type { Store } from '../../store/store.js';
import { sparqlSnapshotPath } from '../../config.js';
import { sendBody } from '../compression.js';
import { sendError } from '../reply-error.js';
import { chargeRead, type Services } from '../services.js';
import { resultFormat } from './formats.js';

export const SPARQL_PATHS = ['/sparql', '/bigdata/namespace/wdq/sparql'];
/** The header saying which change of the feed a result includes. */
export const CURSOR_HEADER = 'x-entia-sparql-cursor';
/** Largest query accepted in a POST body. */
const QUERY_BODY_LIMIT = 1 << 20;
/** How long `after=` waits for the engine to apply a change. */
const AFTER_WAIT_MS = 10_000;
const LANGUAGE = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/;

type Params = Record<string, unknown>;

/** The query and its options from the URL, a form body or a query body (Protocol §2.1.1–2.1.3). */
function requestParams(req: FastifyRequest): Params {
  const query = req.query as Params;
  if (req.method !== 'POST') return query;
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/sparql-query') return { ...query, query: req.body };
  if (type === 'application/sparql-update') fail('sparql-update-refused');
  return { ...query, ...(req.body as Params | undefined) };
}

function text(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return fail('invalid-query-parameter', { parameter: name });
  return value;
}

export function registerSparql(app: FastifyInstance, store: Store, services: Services): string[] {
  const { config } = services;
  const vocabulary = conceptVocabulary(config);
  const engine = config.sparql === 'off' ? null : new SparqlEngine({ vocabulary, sites: services.sites, flavor: config.sparql });
  const mirror = engine && config.sparql !== 'off' ? new SparqlMirror(store, engine, {
    flavor: config.sparql,
    snapshotPath: sparqlSnapshotPath(config),
    memoryLimit: config.sparqlMemoryBytes,
    log: (message) => console.error(`entia: ${message}`),
  }, { vocabulary, sites: services.sites }) : null;
  if (mirror) {
    services.metrics.watchSparql(() => ({ ready: mirror.state.status === 'ready', triples: mirror.triples, lagSeconds: mirror.lagSeconds,
      queued: engine!.queued }));
    // Built in the background: the server answers everything else meanwhile, and /sparql says how far it is.
    app.addHook('onReady', async () => { void mirror.start(); });
    app.addHook('onClose', async () => { await mirror.stop(); await engine!.close(); });
  }

  const answer = async (req: FastifyRequest, reply: FastifyReply) => {
    await chargeRead(services.guard, req);
    const params = requestParams(req);
    const queryText = text(params, 'query');
    if (queryText === undefined) return fail('missing-field', { path: '', field: 'query' });
    const uselang = text(params, 'uselang')?.toLowerCase() ?? 'en';
    if (!LANGUAGE.test(uselang)) fail('invalid-query-parameter', { parameter: 'uselang' });
    const after = text(params, 'after');
    if (after !== undefined && after !== 'latest' && !/^[0-9]{1,20}(\.[0-9]{1,16})?$/.test(after)) fail('invalid-query-parameter', { parameter: 'after' });
    let prepared;
    try {
      prepared = prepareQuery(queryText, vocabulary, uselang);
    } catch (e) {
      if (e instanceof QueryRefused) return e.update ? fail('sparql-update-refused') : fail('invalid-sparql-query', { reason: e.message });
      throw e;
    }
    const format = resultFormat(prepared.form, params.format, req.headers.accept);
    if (!mirror) return fail('sparql-unavailable', { reason: 'ENTIA_SPARQL is off on this server' });
    const state = mirror.state;
    if (state.status === 'refused') return fail('sparql-unavailable', { reason: state.reason });
    if (state.status === 'building' && after === undefined) {
      reply.header('retry-after', '5');
      return fail('sparql-unavailable', { reason: `the engine is being filled from the store (${state.done} of ${state.total} entities)` });
    }
    // A client that names a change waits for it, a build included, up to the bound.
    if (after !== undefined) {
      const target = after === 'latest' ? await mirror.committed() : after;
      await mirror.waitFor(target, AFTER_WAIT_MS).catch(() => {
        reply.header('retry-after', '1');
        fail('sparql-behind', { after: target, applied: mirror.cursor });
      });
    }
    if (engine!.queued >= config.sparqlQueue) {
      reply.header('retry-after', '1');
      return fail('sparql-busy');
    }
    const cursor = mirror.cursor;
    let result: string | boolean;
    try {
      result = await engine!.query(prepared.text, format.engine, config.sparqlTimeoutSeconds * 1000);
    } catch (e) {
      if (e instanceof QueryTimeout) return fail('query-timeout', { limit: config.sparqlTimeoutSeconds });
      if (e instanceof EngineRestarted) {
        reply.header('retry-after', '5');
        return fail('sparql-unavailable', { reason: 'the engine restarted while the query waited (another query ran over its time limit)' });
      }
      if (e instanceof EngineError) return fail('invalid-sparql-query', { reason: e.message.split('\n')[0].slice(0, 500) });
      throw e;
    }
    const body = Buffer.from(String(result), 'utf8');
    if (body.length > config.sparqlMaxResultBytes) return fail('query-result-too-large', { limit: config.sparqlMaxResultBytes });
    reply.header(CURSOR_HEADER, cursor).header('cache-control', 'no-store').header('vary', 'Accept');
    return sendBody(reply, body, format.contentType);
  };

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: QUERY_BODY_LIMIT },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
    scope.addContentTypeParser(['application/sparql-query', 'application/sparql-update'], { parseAs: 'string', bodyLimit: QUERY_BODY_LIMIT },
      (_req, body, done) => done(null, body));
    // An empty body of any type is no body: WikibaseIntegrator POSTs `multipart/form-data` with the query in the URL.
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: QUERY_BODY_LIMIT }, (req, body, done) =>
      (body.length === 0 ? done(null, undefined)
        : done(new EntiaError('rest-unsupported-content-type', undefined, { type: String(req.headers['content-type']).slice(0, 100) }))));
    scope.setErrorHandler((error, _req, reply) => sendError(reply, error instanceof EntiaError ? error
      : (error as { statusCode?: number }).statusCode === 413 ? new EntiaError('request-body-too-large', { limit: QUERY_BODY_LIMIT })
        : new EntiaError('unexpected-error', undefined)));
    for (const path of SPARQL_PATHS) {
      scope.get(path, answer);
      scope.post(path, answer);
    }
  });
  return SPARQL_PATHS;
}
