// The query phase of `npm run bench` (issue "Queries people actually run"): many entities in one request against
// as many single GETs, lookups by statement value (a rare value, and pages early and deep in a very common one),
// and reconciliation batches of 10 as OpenRefine sends them. Each against a baseline from the same run.
import Database from 'better-sqlite3';
import { measure, type HttpFigures } from './http-load.js';
import { row, type Figure, type Row } from './report.js';
import { randomItems } from './targets.js';
import { processCpuSeconds, type ServerProcess } from './servers.js';

export interface QueryOptions {
  seed: number;
  items: number;
  duration: number;
  warmup: number;
  connections: number;
  /** The SQLite file the server serves: read (read-only) to pick values with a known number of matches. */
  db: string;
}

const BATCH = 500;
const fig = (f: HttpFigures, scale = 1): Figure => ({ rate: f.rps * scale, p50: f.p50, p99: f.p99 });

/** A (property, value key) matched by about `n` items, and the most common one. */
function pickValues(db: string, n: number): { rare: [number, string, number]; common: [number, string, number] } {
  const store = new Database(db, { readonly: true });
  try {
    const counted = (sql: string) => store.prepare<[], { property: number; value: string; c: number }>(sql).get();
    const rare = counted(`SELECT property, value, count(*) AS c FROM statement_values WHERE value <> '' AND kind = 0
      GROUP BY property, value HAVING c BETWEEN ${n - 2} AND ${n + 2} LIMIT 1`);
    const common = counted(`SELECT property, value, count(*) AS c FROM statement_values WHERE value = '' AND kind = 0
      GROUP BY property ORDER BY c DESC LIMIT 1`);
    if (!rare || !common) throw new Error('the store has no statement values to look up');
    return { rare: [rare.property, rare.value, rare.c], common: [common.property, common.value, common.c] };
  } finally {
    store.close();
  }
}

async function labelOf(url: string, id: string): Promise<string | null> {
  const res = await fetch(`${url}/v1/entities/items/${id}/labels/en`);
  return res.status === 200 ? (await res.json()) as string : null;
}

/**
 * The server's CPU per entity over a measurement, its warm-up included (`perRequest` entities a request): what a
 * batch costs Entia, whatever the load generator sharing the machine's cores spends reading the answers.
 */
function cpuPerEntity(cpuSeconds: number, f: HttpFigures, perRequest: number): Figure {
  const entities = (f.ok + f.warmupOk) * perRequest;
  return { rate: entities / cpuSeconds };
}

export async function queryRows(entia: ServerProcess, opts: QueryOptions,
  log: (message: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  // Each row notes the server's peak RSS so far (VmHWM only rises): the row that raises it is the phase's peak.
  const push = (r: Row) => rows.push({ ...r, note: [r.note, `server VmHWM after it: ${entia.memory().hwmMb.toFixed(0)} MB`].filter(Boolean).join('; ') });
  const load = { url: entia.url, duration: opts.duration, warmup: opts.warmup, connections: opts.connections };
  /** A measurement and the server's CPU seconds over it. */
  const timed = async (options: Parameters<typeof measure>[0]): Promise<[HttpFigures, number]> => {
    const before = processCpuSeconds(entia.pid) ?? 0;
    const f = await measure(options);
    return [f, (processCpuSeconds(entia.pid) ?? 0) - before];
  };

  // Many entities at once, two ways. The same 500 random items in one request against single GETs going round
  // the same 500 (what a page of results costs either way); then 500 items picked afresh over the whole store for
  // each request against single GETs of random items (nothing cached: every document is read and decompressed).
  log(`batch reads: ${BATCH} items a request against single GETs of the same items`);
  const pick = randomItems(opts.seed, opts.items, 7);
  const page = Array.from({ length: BATCH }, pick);
  let turn = 0;
  const [pageBatch, pageBatchCpu] = await timed({ ...load, path: `/v1/entities?ids=${page.join(',')}` });
  const [pageSingles, pageSinglesCpu] = await timed({ ...load, request: { method: 'GET', setupRequest: (req) => ({ ...req,
    path: `/v1/entities/items/${page[turn++ % BATCH]}` }) } });
  push(row('read', `GET /v1/entities, the same ${BATCH} random items a request`, 'entities/s', fig(pageBatch, BATCH),
    { name: `single GETs of those ${BATCH}`, ...fig(pageSingles) }, (_, ratio) => ({ text: '≥ 5× single GETs', met: (ratio ?? 0) >= 5 })));
  // The same by the server's CPU: the load generator shares the two cores and spends as much reading 5 MB
  // answers as the server making them (issue #38 asks for a client on its own core, or this).
  push(row('read', `server CPU: the same ${BATCH} random items a request`, 'entities/CPU-s', cpuPerEntity(pageBatchCpu, pageBatch, BATCH),
    { name: `single GETs of those ${BATCH}`, ...cpuPerEntity(pageSinglesCpu, pageSingles, 1) }, (_, ratio) => ({ text: '≥ 5× single GETs', met: (ratio ?? 0) >= 5 })));
  const singleIds = randomItems(opts.seed, opts.items, 8);
  const [batch, batchCpu] = await timed({ ...load, request: { method: 'GET', setupRequest: (req) => ({ ...req,
    path: `/v1/entities?ids=${Array.from({ length: BATCH }, pick).join(',')}` }) } });
  const [single, singleCpu] = await timed({ ...load, request: { method: 'GET', setupRequest: (req) => ({ ...req,
    path: `/v1/entities/items/${singleIds()}` }) } });
  push(row('read', `GET /v1/entities, ${BATCH} items a request, random over the store`, 'entities/s', fig(batch, BATCH),
    { name: 'single GETs of random items', ...fig(single) }));
  push(row('read', `server CPU: ${BATCH} items a request, random over the store`, 'entities/CPU-s', cpuPerEntity(batchCpu, batch, BATCH),
    { name: 'single GETs of random items', ...cpuPerEntity(singleCpu, single, 1) }));

  // Lookup by statement value.
  const { rare, common } = pickValues(opts.db, 10);
  const lookup = (p: number, v: string, extra = '') => `/v1/entities/items?statement=P${p}:${encodeURIComponent(v || '*')}${extra}`;
  log(`lookups: P${rare[0]}:${rare[1]} (${rare[2]} items), pages of P${common[0]}:* (${common[2]} items)`);
  const rareFigures = await measure({ ...load, path: lookup(rare[0], rare[1]) });
  push(row('read', `lookup by value, ${rare[2]} matches`, 'req/s', fig(rareFigures), null,
    (f) => ({ text: 'p99 < 10 ms', met: (f.p99 ?? Infinity) < 10 })));
  const early = await measure({ ...load, path: lookup(common[0], common[1], '&limit=50') });
  const deepAfter = `Q${Math.max(1, Math.floor(opts.items * 0.95))}`;
  const deep = await measure({ ...load, path: lookup(common[0], common[1], `&limit=50&after=${deepAfter}`) });
  push(row('read', `lookup, a page of 50 at 95% of ${common[2].toLocaleString('en')} matches`, 'req/s', fig(deep),
    { name: 'the first page', ...fig(early) }, (_, ratio) => ({ text: 'no slower than the first page (≥ 90%)', met: (ratio ?? 0) >= 0.9 })));

  // Reconciliation: batches of 10 queries, the labels of random items, as OpenRefine posts them.
  const names: string[] = [];
  const nameIds = randomItems(opts.seed, opts.items, 9);
  while (names.length < 200) {
    const label = await labelOf(entia.url, nameIds());
    if (label) names.push(label);
  }
  let next = 0;
  // One batch at a time, as OpenRefine sends them: the latency a user waits for.
  const reconcile = await measure({ ...load, connections: 1, request: { method: 'POST', setupRequest: (req) => {
    const queries = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`q${i}`, { query: names[next++ % names.length], limit: 3 }]));
    return { ...req, path: '/v1/reconcile', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ queries: JSON.stringify(queries) }).toString() };
  } } });
  push(row('read', 'reconcile, batches of 10 queries (labels of random items), 1 client', 'batches/s', fig(reconcile), null,
    (f) => ({ text: 'p99 < 50 ms', met: (f.p99 ?? Infinity) < 50 })));
  for (const [name, f] of [['page batch', pageBatch], ['page singles', pageSingles], ['batch', batch], ['single', single], ['lookup', rareFigures], ['reconcile', reconcile]] as const) {
    if (f.non2xx > 0 || f.errors > 0) log(`warning: ${name}: ${f.non2xx} non-2xx (${JSON.stringify(f.statuses)}), ${f.errors} errors`);
  }
  return rows;
}
