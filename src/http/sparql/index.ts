// The SPARQL room (docs/api.md §11): `/sparql`, and the Query Service's `/bigdata/namespace/wdq/sparql`, by
// the SPARQL 1.1 Protocol (GET ?query=, POST as a form or as application/sparql-query), read only. Queries run
// on the embedded engine (sparql/engine.ts) that the mirror (sparql/mirror.ts) fills from the store and keeps
// in step with the change feed; every answer says which change it includes (X-Entia-Sparql-Cursor) and
// `after=` waits, up to a bound, for a change the client knows of.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EntiaError, fail } from '../../domain/errors.js';
import { conceptVocabulary } from '../vocabulary.js';
import { SparqlEngine, writerChars, EngineRestarted, EngineError, QueryTimeout, QueryTrapped } from '../../sparql/engine.js';
import { SparqlMirror } from '../../sparql/mirror.js';
import { QueryRefused, type PreparedQuery } from '../../sparql/query.js';
import { QueryPreparer } from '../../sparql/preparer.js';
import type { RdfVocabulary } from '../../domain/rdf-vocabulary.js';
import type { Store } from '../../store/store.js';
import { sparqlSnapshotPath } from '../../config.js';
import { compactHeapGrowth } from '../../heap.js';
import { sendBody } from '../compression.js';
import { sendError, toEntiaError } from '../reply-error.js';
import { chargeRead, type Services } from '../services.js';
import { resultFormat } from './formats.js';
import { remoteBackend } from './remote.js';
import { AFTER_WAIT_MS, type SparqlBackend } from './backend.js';

const SPARQL_PATHS = ['/sparql', '/bigdata/namespace/wdq/sparql'];
/** The header saying which change of the feed a result includes. */
export const CURSOR_HEADER = 'x-entia-sparql-cursor';
/** Largest query accepted in a POST body. */
const QUERY_BODY_LIMIT = 1 << 20;
const LANGUAGE = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/;
/** A cursor of either backend's change feed (SQLite `rev`, PostgreSQL `xid.rev`). */
const CURSOR = /^[0-9]{1,20}(\.[0-9]{1,16})?$/;

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

/**
 * The query and what it asks, checked: 400s for what is malformed, before the engine is involved. The query is
 * read on the preparer's thread, within the query's time limit.
 */
async function parseRequest(req: FastifyRequest, vocabulary: RdfVocabulary, preparer: QueryPreparer, timeoutMs: number) {
  const params = requestParams(req);
  // An update by the Protocol's form (`update=`, §2.2.1) is refused as one, not as a query missing its text.
  if (params.query === undefined && params.update !== undefined) fail('sparql-update-refused');
  const queryText = text(params, 'query') ?? fail('missing-field', { path: '', field: 'query' });
  const uselang = text(params, 'uselang')?.toLowerCase() ?? 'en';
  if (!LANGUAGE.test(uselang)) fail('invalid-query-parameter', { parameter: 'uselang' });
  const after = text(params, 'after');
  if (after !== undefined && after !== 'latest' && !CURSOR.test(after)) fail('invalid-query-parameter', { parameter: 'after' });
  let prepared: PreparedQuery;
  try {
    prepared = await preparer.prepare(queryText, vocabulary, uselang, timeoutMs);
  } catch (e) {
    if (e instanceof QueryRefused) return e.update ? fail('sparql-update-refused') : fail('invalid-sparql-query', { reason: e.message });
    if (e instanceof QueryTimeout) return fail('query-timeout', { limit: timeoutMs / 1000 });
    throw e;
  }
  return { prepared, after, format: resultFormat(prepared.form, params.format, req.headers.accept) };
}

/** A query the embedded engine could not answer, as the error table's answer; anything else is thrown on. */
function queryFailure(e: unknown, timeoutSeconds: number, reply: FastifyReply): never {
  if (e instanceof QueryTimeout) return fail('query-timeout', { limit: timeoutSeconds });
  if (e instanceof QueryTrapped) return fail('query-exhausted-engine');
  if (e instanceof EngineRestarted) {
    reply.header('retry-after', '5');
    return fail('sparql-unavailable', { reason: e.message });
  }
  if (e instanceof EngineError) return fail('invalid-sparql-query', { reason: e.message.split('\n')[0].slice(0, 500) });
  throw e;
}

/** The embedded engine (sparql/engine.ts) and its mirror, started when the server is ready and stopped with it. */
function embeddedBackend(app: FastifyInstance, store: Store, services: Services, vocabulary: RdfVocabulary): SparqlBackend | null {
  const { config } = services;
  if (config.sparql === 'off') return null;
  const setup = { vocabulary, sites: services.sites, flavor: config.sparql };
  const engine = new SparqlEngine(setup, { writerChars: writerChars(config.sparqlMemoryBytes) });
  const mirror = new SparqlMirror(store, engine, setup, {
    snapshotPath: sparqlSnapshotPath(config),
    memoryLimit: config.sparqlMemoryBytes,
    log: (message) => console.error(`entia: ${message}`),
  });
  services.metrics.watchSparql(() => ({ ready: mirror.state.status === 'ready', triples: mirror.triples, lagSeconds: mirror.lagSeconds,
    queued: engine.queued }));
  // Built in the background: the server answers everything else meanwhile, and /sparql says how far it is.
  app.addHook('onReady', async () => {
    // Refused for the store's size, the engine's threads are gone: the process's heap may grow less.
    void mirror.start().then(() => { if (engine.isClosed) compactHeapGrowth(); });
  });
  // A running query cannot be interrupted (WebAssembly), and the server's close waits for its connection: so a
  // stop ends the engine's threads at once when a query is in it (its client gets 503), which also skips the
  // closing snapshot (the next start loads the last one and follows the feed from there). Otherwise the mirror
  // stops first and saves what changed.
  app.addHook('preClose', async () => { if (engine.queued > 0) await engine.close(); });
  app.addHook('onClose', async () => { await mirror.stop(); await engine.close(); });
  return {
    async ready(after, reply) {
      const state = mirror.state;
      if (state.status === 'refused') return fail('sparql-unavailable', { reason: state.reason });
      if (after === undefined) {
        if (state.status !== 'building') return mirror.cursor;
        reply.header('retry-after', '5');
        return fail('sparql-unavailable', { reason: `the engine is being filled from the store (${state.done} of ${state.total} entities)` });
      }
      // A client that names a change waits for it, a build included, up to the bound.
      const target = after === 'latest' ? await mirror.committed() : after;
      await mirror.waitFor(target, AFTER_WAIT_MS).catch(() => {
        reply.header('retry-after', '1');
        fail('sparql-behind', { after: target, applied: mirror.cursor });
      });
      return mirror.cursor;
    },
    async run(query, format, reply) {
      if (engine.queued >= config.sparqlQueue) {
        reply.header('retry-after', '1');
        return fail('sparql-busy');
      }
      let result: string | boolean;
      try {
        result = await engine.query(query.text, format.engine, config.sparqlTimeoutSeconds * 1000);
      } catch (e) {
        queryFailure(e, config.sparqlTimeoutSeconds, reply);
      }
      const body = Buffer.from(String(result), 'utf8');
      if (body.length > config.sparqlMaxResultBytes) return fail('query-result-too-large', { limit: config.sparqlMaxResultBytes });
      return body;
    },
  };
}

export function registerSparql(app: FastifyInstance, store: Store, services: Services): void {
  const vocabulary = conceptVocabulary(services.config);
  const backend = services.config.sparql === 'off' ? null
    : services.config.sparqlUrl ? remoteBackend(app, store, services) : embeddedBackend(app, store, services, vocabulary);
  // No embedded engine, so no thread of the process holds its large heap: the heap may grow less (an embedded
  // engine refused for the store's size does the same once its threads are gone).
  if (backend === null || services.config.sparqlUrl) compactHeapGrowth();
  const preparer = new QueryPreparer();
  app.addHook('onClose', async () => preparer.close());
  const answer = async (req: FastifyRequest, reply: FastifyReply) => {
    await chargeRead(services.guard, req);
    const { prepared, after, format } = await parseRequest(req, vocabulary, preparer, services.config.sparqlTimeoutSeconds * 1000);
    if (!backend) return fail('sparql-unavailable', { reason: 'ENTIA_SPARQL is off on this server' });
    const cursor = await backend.ready(after, reply);
    const body = await backend.run(prepared, format, reply);
    reply.header(CURSOR_HEADER, cursor).header('cache-control', 'no-store').header('vary', 'Accept');
    return sendBody(reply, body, format.contentType);
  };

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
    scope.addContentTypeParser(['application/sparql-query', 'application/sparql-update'], { parseAs: 'string' },
      (_req, body, done) => done(null, body));
    // An empty body of any type is no body: WikibaseIntegrator POSTs `multipart/form-data` with the query in the URL.
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) =>
      (body.length === 0 ? done(null, undefined)
        : done(new EntiaError('rest-unsupported-content-type', undefined, { type: String(req.headers['content-type']).slice(0, 100) }))));
    scope.setErrorHandler((error, req, reply) => sendError(reply, toEntiaError(error, req)));
    for (const path of SPARQL_PATHS) {
      scope.get(path, answer);
      scope.post(path, { bodyLimit: QUERY_BODY_LIMIT }, answer);
    }
  });
}
