// What GET /metrics reports, in Prometheus' text format (prom-client): requests by route and status, their
// latency, edits written, cache hit counts, the database pool, and the process itself (CPU, memory, event
// loop delay). One registry per app, so several apps in one process (tests) do not share counters.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RevisionCache } from '../store/revision-cache.js';
import type { StoreProbe, StoreLifecycle, StoreStatistics } from '../store/store.js';

/** Latency buckets in seconds: a cached read takes well under a millisecond, a large import batch seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'entia_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const, registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'entia_http_request_duration_seconds', help: 'Time from request to response, by method and route pattern',
    labelNames: ['method', 'route'] as const, buckets: LATENCY_BUCKETS, registers: [this.registry],
  });
  readonly edits = new Counter({
    name: 'entia_edits_total', help: 'Edits written, each as one new revision, by entity kind and whether it created the entity',
    labelNames: ['kind', 'creation'] as const, registers: [this.registry],
  });
  readonly unchanged = new Counter({
    name: 'entia_edits_unchanged_total', help: 'Edits that changed nothing, so wrote no revision', registers: [this.registry],
  });
  readonly followers = new Gauge({
    name: 'entia_change_stream_followers', help: 'Clients following GET /v1/changes/stream on this process', registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'entia_' });
  }

  /** The SPARQL engine's gauges, read when scraped (http/sparql). */
  /** `triples`: absent for an external engine, whose size Entia does not know (the gauge is then not set). */
  watchSparql(read: () => { ready: boolean; triples?: number; lagSeconds: number; queued: number }): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, value: (s: ReturnType<typeof read>) => number | undefined) =>
      new Gauge({ name, help, registers, collect() { const v = value(read()); if (v !== undefined) this.set(v); } });
    gauge('entia_sparql_ready', 'Whether the SPARQL engine answers queries (0 while it is filled from the store)', (s) => (s.ready ? 1 : 0));
    gauge('entia_sparql_triples', 'Triples in the SPARQL engine', (s) => s.triples);
    gauge('entia_sparql_lag_seconds', 'Age of the oldest change the SPARQL engine has not applied yet (0: in step)', (s) => s.lagSeconds);
    gauge('entia_sparql_queries_waiting', 'SPARQL queries running or waiting their turn', (s) => s.queued);
  }

  /** Gauges read when scraped: the store's pool and caches, and the rendered-document cache of this process. */
  watch(store: StoreLifecycle, documents: RevisionCache<Buffer>): void {
    const registers = [this.registry];
    const cacheGauge = (name: string, help: string, count: 'hits' | 'misses') => new Gauge({
      name, help, labelNames: ['cache'] as const, registers,
      async collect() {
        this.set({ cache: 'rendered_documents' }, documents.stats[count]);
        const probe = await store.probe().catch(() => null);
        if (probe?.entityCache) this.set({ cache: 'entities' }, probe.entityCache[count]);
      },
    });
    cacheGauge('entia_cache_hits', 'Lookups answered from memory since start, by cache', 'hits');
    cacheGauge('entia_cache_misses', 'Lookups not found in memory since start, by cache', 'misses');
    const replicaGauge = (name: string, help: string, value: (r: NonNullable<StoreProbe['replicas']>[number]) => number | null) => new Gauge({
      name, help, labelNames: ['replica'] as const, registers,
      async collect() {
        this.reset();
        for (const r of (await store.probe().catch(() => null))?.replicas ?? []) {
          const v = value(r);
          if (v !== null) this.set({ replica: r.replica }, v);
        }
      },
    });
    replicaGauge('entia_db_replica_up', 'Whether each read replica (ENTIA_DB_REPLICAS) answered the last scrape', (r) => (r.up ? 1 : 0));
    replicaGauge('entia_db_replica_lag_seconds', 'How far each read replica\'s replay is behind what it received', (r) => r.lagSeconds);
    // The store's contents: SQLite reads counters kept by triggers, PostgreSQL counts at most every 30 s. Four
    // gauges read them: one read serves a whole scrape (the gauges are collected together, within a second).
    let read: { at: number; stats: Promise<StoreStatistics | null> } | null = null;
    const statistics = () => {
      if (!read || Date.now() - read.at > 1000) read = { at: Date.now(), stats: store.statistics().catch(() => null) };
      return read.stats;
    };
    const kindGauge = (name: string, help: string, pick: (s: StoreStatistics) => Record<string, number>) => new Gauge({
      name, help, labelNames: ['kind'] as const, registers,
      async collect() {
        const stats = await statistics();
        if (stats) for (const [kind, n] of Object.entries(pick(stats))) this.set({ kind }, n);
      },
    });
    kindGauge('entia_entities', 'Entities the store holds, by kind (redirects not included)', (s) => s.entities);
    kindGauge('entia_redirects', 'Redirects the store holds, by kind', (s) => s.redirects);
    const importGauge = (name: string, help: string, pick: (s: StoreStatistics) => number) => new Gauge({
      name, help, registers,
      async collect() {
        const stats = await statistics();
        if (stats) this.set(pick(stats));
      },
    });
    importGauge('entia_import_unindexed_entities', 'Imported entities not yet in search: an import has not built its indexes (run entia import again)',
      (s) => s.unindexed);
    importGauge('entia_imports_unfinished', 'Imports started and not finished (stopped, or running now)', (s) => s.importsUnfinished);
    new Gauge({
      name: 'entia_db_pool_connections', help: 'PostgreSQL connections of this process, by state (total, idle, waiting clients)',
      labelNames: ['state'] as const, registers,
      async collect() {
        const pool = (await store.probe().catch(() => null))?.pool;
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }
}
