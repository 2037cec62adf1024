// The SPARQL room on an external engine (ENTIA_SPARQL_URL): queries, prepared as for the embedded engine (the
// Query Service's prefixes, the label service over Entia's terms), are forwarded to it with the same limits;
// `entia sparql-sync` keeps it in step and writes into it which change it includes, which answers read.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { fail } from '../../domain/errors.js';
import type { Store } from '../../store/store.js';
import { RemoteEndpoint, RemoteRefused, RemoteTimeout, RemoteTooLarge, RemoteUnavailable } from '../../sparql/remote-endpoint.js';
import { includes, readSyncState, type SyncState } from '../../sparql/remote-sync.js';
import type { Services } from '../services.js';
import { AFTER_WAIT_MS, type SparqlBackend } from './backend.js';

/** How often `after=` looks at the engine's cursor while it waits, and the lag gauge refreshes. */
const POLL_MS = 100;
const GAUGE_MS = 5_000;

export function remoteBackend(app: FastifyInstance, store: Store, services: Services): SparqlBackend {
  const { config } = services;
  // The server only queries: updates, and their credentials, are entia sparql-sync's.
  const endpoint = new RemoteEndpoint({ queryUrl: config.sparqlUrl!, updateUrl: config.sparqlUrl!, updateAuth: null });
  const host = new URL(config.sparqlUrl!).host;
  let running = 0;
  const gauges = { ready: false, lagSeconds: 0 };

  /** Where the engine stands; 503 when it cannot be asked or has not been loaded. */
  const state = async (reply: FastifyReply): Promise<SyncState & { cursor: string }> => {
    let read: SyncState;
    try {
      read = await readSyncState(endpoint);
    } catch (e) {
      reply.header('retry-after', '5');
      return fail('sparql-unavailable', { reason: `the SPARQL engine at ${host} does not answer (${(e as Error).message})` });
    }
    if (read.cursor === undefined) {
      reply.header('retry-after', '5');
      return fail('sparql-unavailable', { reason: `the SPARQL engine at ${host} is not loaded yet: entia sparql-sync loads it`
        + `${read.loading ? ` (under way, after ${read.loadedUpTo ?? 'its start'})` : ''}` });
    }
    return read as SyncState & { cursor: string };
  };

  // The lag gauge: the age of the oldest change the engine does not include.
  const refresh = async () => {
    try {
      const read = await readSyncState(endpoint);
      gauges.ready = read.cursor !== undefined;
      const next = read.cursor === undefined ? [] : await store.changes({ since: read.cursor === '0' ? null : read.cursor, limit: 1 });
      gauges.lagSeconds = next.length ? Math.max(0, (Date.now() - next[0].timestamp.getTime()) / 1000) : 0;
    } catch {
      gauges.ready = false;
    }
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => { timer = setInterval(() => void refresh(), GAUGE_MS).unref(); void refresh(); });
  app.addHook('onClose', async () => { if (timer) clearInterval(timer); });
  services.metrics.watchSparql(() => ({ ready: gauges.ready, lagSeconds: gauges.lagSeconds, queued: running }));

  return {
    async ready(after, reply) {
      let read = await state(reply);
      if (after === undefined) return read.cursor;
      const target = after === 'latest' ? await store.changesCommitted() : after;
      const deadline = Date.now() + AFTER_WAIT_MS;
      while (!includes(read, target)) {
        if (Date.now() > deadline) {
          reply.header('retry-after', '1');
          return fail('sparql-behind', { after: target, applied: read.cursor });
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
        read = await state(reply);
      }
      return read.cursor;
    },
    async run(query, format, reply) {
      if (running >= config.sparqlQueue) {
        reply.header('retry-after', '1');
        return fail('sparql-busy');
      }
      running++;
      try {
        const accept = format.contentType.split(';')[0];
        return await endpoint.query(query.text, accept, { timeoutMs: config.sparqlTimeoutSeconds * 1000, maxBytes: config.sparqlMaxResultBytes });
      } catch (e) {
        if (e instanceof RemoteTimeout) return fail('query-timeout', { limit: config.sparqlTimeoutSeconds });
        if (e instanceof RemoteTooLarge) return fail('query-result-too-large', { limit: config.sparqlMaxResultBytes });
        if (e instanceof RemoteRefused && e.status < 500) return fail('invalid-sparql-query', { reason: e.message });
        if (e instanceof RemoteRefused || e instanceof RemoteUnavailable) {
          reply.header('retry-after', '5');
          return fail('sparql-unavailable', { reason: `the SPARQL engine at ${host} failed: ${e.message}` });
        }
        throw e;
      } finally {
        running--;
      }
    },
  };
}
