// `npm run bench`: builds a Wikidata-shaped store and measures Entia's main operations, each against a
// baseline measured in the same run, so that every figure is a ratio that survives a noisy machine.
// See bench/README.md for what each baseline is and how to read the output.
//
//   npm run bench -- [--items 100000] [--seed 8] [--duration 10] [--warmup 2] [--connections 10] [--rounds 3]
//                    [--only load,read,search,query,edit,feed,rdf,sparql] [--db FILE (reuse a loaded store)] [--keep] [--profile]
//                    [--stream (the load reads the generator's output as it is written; for sizes too large to keep)]
import Database from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Request } from 'autocannon';
import type { BareRoute } from './bare-server.js';
import { ensureDataset, RESULTS_DIR, type Dataset } from './dataset.js';
import { LARGE_EVERY } from './generate.js';
import { measurePair, run, type HttpFigures, type LoadOptions } from './http-load.js';
import { randomItems, typicalItem } from './targets.js';
import { consoleTable, row, writeReport, type Figure, type Report, type Row } from './report.js';
import { processCpuSeconds, startBare, startEntia, type ServerProcess } from './servers.js';
import type { StoreFigures } from './store-baseline.js';
import type { LoadFigures } from './bulk-load.js';
import { IMPORT_BATCH } from '../src/cli/import.js';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { flagReader, runOptions, type RunOptions } from './args.js';
import { feedRows } from './feed.js';
import { queryRows } from './queries.js';
import { sparqlRows } from './sparql.js';
import { rdfRows } from './rdf.js';

interface Options extends RunOptions {
  rounds: number;
  only: Set<string>;
  db: string | null;
  keep: boolean;
  profile: boolean;
  stream: boolean;
  out: string;
}

function parseOptions(argv: string[]): Options {
  const { value, num } = flagReader(argv);
  const common = runOptions(num, { items: 100_000, duration: 10, warmup: 2 });
  if (common.items < 10) throw new Error('--items must be at least 10');
  return {
    ...common,
    rounds: num('rounds', 3),
    only: new Set((value('only') ?? 'load,read,search,query,edit,feed,rdf,sparql').split(',')),
    db: value('db') ?? null,
    keep: argv.includes('--keep'),
    profile: argv.includes('--profile'),
    stream: argv.includes('--stream'),
    out: value('out') ?? join(RESULTS_DIR, 'latest.json'),
  };
}

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Runs a bench script in its own process and returns the JSON it prints last. */
async function child<T>(script: string, args: string[]): Promise<T> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  let nproc = cpus.length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch { /* keep os.cpus() */ }
  return {
    nproc, cpuModel: cpus[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version,
    platform: `${os.platform()} ${os.release()}`, loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

// ---- Phases --------------------------------------------------------------------------------------------

/** Items of the file whose parse-only loop is the baseline of a streamed load. */
const STREAM_BASELINE_ITEMS = 100_000;

/**
 * `streamed`: the load reads the generator's output as it is written (seed and size of the data set); `dataset`
 * is then a smaller file of the same generator, for the parse-only baseline.
 */
async function bulkLoad(dataset: Dataset, db: string, streamed: { seed: number; items: number } | null): Promise<Row> {
  if (streamed) log(`bulk load: ${streamed.items.toLocaleString()} items streamed from the generator (baseline: parsing ${dataset.path})`);
  else log(`bulk load: ${dataset.entities.toLocaleString()} entities (${(dataset.bytes / 2 ** 20).toFixed(0)} MB of JSON lines)`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const { parse, load } = await child<{ parse: LoadFigures; load: LoadFigures }>('bench/bulk-load.ts',
    ['--data', dataset.path, '--db', db, ...(streamed ? ['--generate', `${streamed.seed}:${streamed.items}`] : [])]);
  const r = row('load', `bulk load (importEntities, batches of ${IMPORT_BATCH.toLocaleString('en')}, then the index build)`, 'entities/s', { rate: load.perSecond },
    { name: 'JSON.parse of the same lines', rate: parse.perSecond },
    (e, ratio) => ({ text: '≥ 5,000/s and ≥ 80%', met: e.rate >= 5_000 && (ratio ?? 0) >= 0.8 }));
  const int = (n: number | undefined) => Math.round(n ?? 0).toLocaleString('en');
  r.note = `batches: first tenth of the entities ${int(load.firstTenth)}/s, last tenth ${int(load.lastTenth)}/s `
    + `(${Math.round(100 * (load.lastTenth ?? 0) / Math.max(1, load.firstTenth ?? 0))}%); index build ${(load.buildSeconds ?? 0).toFixed(0)} s `
    + `of ${load.seconds.toFixed(0)} s; input ${int(load.inputBytes)} bytes of JSON lines`
    + (streamed ? `, generated while read; baseline parsed from the ${dataset.items.toLocaleString('en')}-item file` : '');
  return r;
}

interface ReadCase {
  name: string;
  path: string;
  /**
   * Varies the path per request (random items). The baseline is sent the same kind of requests (its own
   * generator, same sequence) and answers each with `path`'s bytes, so that the load generator does the same
   * work on both sides.
   */
  request?: () => Request;
  /** The goal as a share of bare Fastify's rate. */
  goal?: number;
  note?: string;
}

const fig = (f: HttpFigures): Figure => ({ rate: f.rps, p50: f.p50, p99: f.p99 });

async function readPhase(entia: ServerProcess, opts: Options, typical: { id: string; bytes: number }): Promise<Row[]> {
  const item = (id: string) => `/v1/entities/items/${id}`;
  const large = `Q${Math.min(7, opts.items)}`;
  const cases: ReadCase[] = [
    { name: `GET item, typical (${typical.id})`, path: item(typical.id), goal: 0.6 },
    { name: `GET item, large (${large})`, path: item(large), goal: 0.6 },
    { name: 'GET one label', path: `${item(typical.id)}/labels/en` },
    { name: 'GET statements', path: `${item(typical.id)}/statements` },
    {
      name: 'GET item, random over the store', path: item(typical.id), goal: 0.5,
      request: () => {
        const next = randomItems(opts.seed, opts.items, 1);
        return { method: 'GET', setupRequest: (req) => ({ ...req, path: item(next()) }) };
      },
      note: 'each request reads another item (no cache can hold them all); baseline: the typical item\'s bytes for the same random paths',
    },
  ];
  // Probe each path once: its bytes and headers become the baseline's, and a missing route is reported.
  const routes: BareRoute[] = [];
  const available = new Map<string, string | null>();
  for (const c of cases) {
    const res = await fetch(entia.url + c.path);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) {
      available.set(c.path, `route answered ${res.status} (not merged yet?)`);
      continue;
    }
    available.set(c.path, null);
    // Every header Entia sent (security headers, CORS, ETag, …) but those Node writes itself, so that the
    // baseline's responses are byte for byte Entia's (bar the Date).
    const headers: Record<string, string> = {};
    res.headers.forEach((v, h) => {
      if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(h)) headers[h] = v;
    });
    const existing = routes.find((r) => r.path === c.path);
    if (existing) existing.anyId ||= c.request !== undefined;
    else routes.push({ path: c.path, headers, body: body.toString('base64'), anyId: c.request !== undefined });
  }
  const routesFile = join(RESULTS_DIR, 'bare-routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));
  const bare = await startBare(routesFile);
  const rows: Row[] = [];
  try {
    for (const c of cases) {
      const missing = available.get(c.path);
      if (missing) {
        rows.push({ ...row('read', c.name, 'req/s', null, null), note: missing });
        continue;
      }
      const bytes = Buffer.from(routes.find((r) => r.path === c.path)!.body, 'base64').length;
      log(`${c.name}: ${(bytes / 1024).toFixed(1)} KB`);
      const base: Omit<LoadOptions, 'url'> = { path: c.path, duration: opts.duration, warmup: opts.warmup, connections: opts.connections };
      const [e, b] = await measurePair({ ...base, request: c.request?.(), url: entia.url },
        { ...base, request: c.request?.(), url: bare.url }, opts.rounds);
      check(e, c.name);
      const r = row('read', `${c.name}, ${(bytes / 1024).toFixed(1)} KB`, 'req/s', fig(e),
        { name: 'bare Fastify, same bytes', ...fig(b) },
        c.goal ? (_, ratio) => ({ text: `≥ ${c.goal! * 100}% of bare`, met: (ratio ?? 0) >= c.goal! }) : undefined);
      if (c.note) r.note = c.note;
      rows.push(r);
    }
  } finally {
    await bare.stop();
  }
  return rows;
}

function check(f: HttpFigures, name: string): void {
  if (f.non2xx > 0 || f.errors > 0) log(`warning: ${name}: ${f.non2xx} non-2xx (${JSON.stringify(f.statuses)}), ${f.errors} errors`);
}

interface EditCase {
  name: string;
  request: Request;
  goal?: boolean;
}

async function editPhase(entia: ServerProcess, db: string, opts: Options, typical: { id: string; bytes: number }): Promise<Row[]> {
  const payload = join(RESULTS_DIR, 'typical-entity.json');
  const typicalJson = JSON.stringify(await (await fetch(`${entia.url}/v1/entities/items/${typical.id}`)).json());
  writeFileSync(payload, typicalJson);
  log('raw better-sqlite3 single-row write transactions');
  const store = await child<StoreFigures>('bench/store-baseline.ts',
    ['--db', `${db}.baseline`, '--payload', payload, '--seconds', String(Math.max(3, opts.duration / 2))]);
  const baseline = { name: `raw SQLite 1-row tx (${(typicalJson.length / 1024).toFixed(1)} KB row)`, rate: store.tps, p50: store.p50, p99: store.p99 };

  const json = { 'content-type': 'application/json' };
  let counter = 0;
  const unique = () => `bench ${process.pid} ${++counter}`;
  const cases: EditCase[] = [];
  {
    const next = randomItems(opts.seed, opts.items, 2);
    cases.push({ name: 'PUT label', request: { method: 'PUT', headers: json, setupRequest: (req) => ({
      ...req, path: `/v1/entities/items/${next()}/labels/en`, body: JSON.stringify({ label: unique() }) }) } });
  }
  {
    const next = randomItems(opts.seed, opts.items, 3);
    // P1 is a wikibase-item property in every generated data set; Q1 always exists.
    const stringProperty = await findStringProperty(entia.url);
    cases.push({ name: 'POST statement', goal: true, request: { method: 'POST', headers: json, setupRequest: (req) => ({
      ...req, path: `/v1/entities/items/${next()}/statements`,
      body: JSON.stringify({ statement: { property: { id: stringProperty }, value: { type: 'value', content: unique() } } }),
    }) } });
  }
  {
    const next = randomItems(opts.seed, opts.items, 4);
    cases.push({ name: 'PATCH item (one label)', request: { method: 'PATCH', headers: json, setupRequest: (req) => ({
      ...req, path: `/v1/entities/items/${next()}`,
      body: JSON.stringify({ patch: [{ op: 'add', path: '/labels/en', value: unique() }] }),
    }) } });
  }

  const conn = new Database(db, { readonly: true });
  const revisions = () => (conn.prepare('SELECT count(*) AS n FROM revisions').get() as { n: number }).n;
  const rows: Row[] = [];
  try {
    for (const c of cases) {
      log(c.name);
      const load = { url: entia.url, request: c.request, duration: opts.duration, warmup: opts.warmup, connections: opts.connections };
      // The warm-up sets the size of the measured run: a fixed number of edits, every one answered before the
      // count, so that revisions written and successful edits must match exactly.
      const warm = await run(load, { duration: Math.max(1, opts.warmup) });
      await new Promise((r) => setTimeout(r, 500)); // edits still in flight when the warm-up stopped
      if (warm.ok === 0) {
        rows.push({ ...row('edit', c.name, 'edits/s', null, null), note: `no successful edit: ${JSON.stringify(warm.statuses)} (route not merged yet?)` });
        continue;
      }
      const before = revisions();
      const cpuBefore = processCpuSeconds(entia.pid);
      const e = await run(load, { amount: Math.max(100, Math.round(warm.rps * opts.duration)) });
      const cpuAfter = processCpuSeconds(entia.pid);
      check(e, c.name);
      const written = revisions() - before;
      const r = row('edit', c.name, 'edits/s', fig(e), baseline,
        c.goal ? (f) => ({ text: '≥ 1,500/s, every revision written', met: f.rate >= 1500 && written === e.ok }) : undefined);
      const cpu = cpuBefore !== null && cpuAfter !== null && e.ok > 0
        ? `; server CPU ${Math.round((cpuAfter - cpuBefore) * 1e6 / e.ok).toLocaleString()} µs per edit` : '';
      r.note = `${written.toLocaleString()} revisions written for ${e.ok.toLocaleString()} successful edits in ${e.seconds.toFixed(1)} s${cpu}`
        + `; server VmHWM after it: ${entia.memory().hwmMb.toFixed(0)} MB`;
      rows.push(r);
    }
  } finally {
    conn.close();
  }
  return rows;
}

/** The lowest-numbered property of data type string, found through the API. */
async function findStringProperty(url: string): Promise<string> {
  for (let n = 1; n <= 200; n++) {
    const res = await fetch(`${url}/v1/entities/properties/P${n}`);
    if (res.status !== 200) continue;
    // GET omits data_type (docs/api.md D2); an empty PATCH answers with it and writes nothing (§2.3).
    const patched = await fetch(`${url}/v1/entities/properties/P${n}`, {
      method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ patch: [] }),
    });
    const body = (await patched.json()) as { data_type?: string };
    if (body.data_type === 'string') return `P${n}`;
  }
  throw new Error('no string property among P1-P200');
}

// ---- Main ------------------------------------------------------------------------------------------------

async function main(argv: string[]): Promise<void> {
  const opts = parseOptions(argv);
  const started = Date.now();
  const report: Report = { when: new Date().toISOString(), machine: machine(), options: { ...opts, only: [...opts.only] },
    dataset: {}, rows: [], memory: {} };
  log(`machine: ${JSON.stringify(report.machine)}`);

  const typical = typicalItem(opts.seed, opts.items);
  const db = opts.db ?? join(RESULTS_DIR, `store-seed${opts.seed}-items${opts.items}.db`);
  // Only the load reads the data file: the other phases know the store's ids from the seed and size, so a
  // kept store (--db) is measured again without writing its input (50 GB at 5,000,000 items) to disk.
  // A streamed load is never written to a file either: the file is the baseline's smaller one of the same generator.
  const dataset = !opts.db && opts.only.has('load')
    ? await ensureDataset(opts.seed, opts.stream ? Math.min(opts.items, STREAM_BASELINE_ITEMS) : opts.items)
    : null;
  report.dataset = { seed: opts.seed, items: opts.items, ...dataset, path: undefined, typical, largeEvery: LARGE_EVERY,
    ...(opts.stream && dataset ? { streamed: true, items: opts.items, baselineItems: dataset.items } : {}) };
  // Without a load in this run, the phases measure the store that is there: none would be a new, empty store,
  // measured without a word (a `sparql` phase alone then failed on its first edit, with a message about a cursor).
  if (!dataset && !existsSync(db)) {
    console.error(`bench: no store to measure at ${db}: add \`load\` to --only, or pass --db FILE of a store a run kept (--keep)`);
    process.exit(2);
  }
  if (dataset) {
    log(`data: ${dataset.path} (${dataset.generateSeconds ? `generated in ${dataset.generateSeconds.toFixed(0)} s` : 'reused'})`);
    report.rows.push(await bulkLoad(dataset, db, opts.stream ? opts : null));
  }

  const entia = await startEntia(db, opts.profile ? join(RESULTS_DIR, 'profiles') : undefined);
  try {
    report.memory.afterStartMb = entia.memory().rssMb;
    if (opts.only.has('read')) report.rows.push(...await readPhase(entia, opts, typical));
    report.memory.afterReadsMb = entia.memory();
    if (opts.only.has('search')) report.rows.push(...await searchPhase(opts));
    report.memory.afterSearchMb = entia.memory();
    if (opts.only.has('query')) {
      report.rows.push(...await queryRows(entia, { seed: opts.seed, items: opts.items, duration: opts.duration,
        warmup: opts.warmup, connections: opts.connections, db }, log));
    }
    if (opts.only.has('edit')) report.rows.push(...await editPhase(entia, db, opts, typical));
    if (opts.only.has('feed')) {
      log('history, change feed, and edits with 200 stream followers (bench/feed.ts)');
      report.rows.push(...await feedRows(entia, { items: opts.items, followers: 200, duration: opts.duration,
        warmup: opts.warmup, connections: opts.connections, item: typical.id }));
    }
    if (opts.only.has('rdf')) {
      report.rows.push(...await rdfRows(entia, { db, items: opts.items, duration: opts.duration, warmup: opts.warmup,
        connections: opts.connections, rounds: opts.rounds, typical: typical.id }, log));
    }
    report.memory.finalMb = entia.memory();
  } finally {
    await entia.stop();
  }
  // SPARQL starts servers of its own (with the engine, without it, from its snapshot): after the shared one.
  if (opts.only.has('sparql')) {
    try {
      report.rows.push(...await sparqlRows({ db, items: opts.items, duration: opts.duration, warmup: opts.warmup, connections: opts.connections }, log));
    } catch (e) {
      report.rows.push({ ...row('sparql', 'embedded SPARQL engine', '', null, null), note: (e as Error).message.slice(0, 300) });
    }
  }
  const peak = (report.memory.finalMb as { hwmMb: number }).hwmMb;
  report.rows.push({
    ...row('memory', `server peak RSS (VmHWM), ${opts.items.toLocaleString()}-item store`, 'MB', { rate: peak }, null,
      (f) => ({ text: '< 300 MB (1,000,000 items)', met: f.rate < 300 })),
  });
  report.machine.loadAverageAtEnd = os.loadavg().map((l) => Number(l.toFixed(2)));
  report.machine.wallSeconds = Math.round((Date.now() - started) / 1000);
  writeReport(opts.out, report);
  if (!opts.keep && !opts.db) for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  console.log(consoleTable(report.rows));
  console.log(`\n${opts.out} (load average ${report.machine.loadAverageAtStart} → ${report.machine.loadAverageAtEnd}, ` +
    `${report.machine.wallSeconds} s)`);
}

interface SearchFigures { p50: number; p99: number; qps: number }
interface SearchModeFigures { http: SearchFigures; clients4Qps: number; inProcess: SearchFigures }
interface SearchSummary {
  items: number; built: boolean; buildSeconds: number; queries: number; empty: number;
  baseline: SearchFigures; suggest: SearchModeFigures; search: SearchModeFigures;
}

/**
 * Search and suggest: issue #6's own benchmark (bench/search.ts), run as a child with --json. It builds its
 * own store of the same size (its generator shapes terms for search), reused between runs, and measures
 * queries one client at a time against a GET of an item by id on the same server.
 */
async function searchPhase(opts: Options): Promise<Row[]> {
  const db = join(RESULTS_DIR, `search-m${MIGRATIONS.length}-items${opts.items}.db`);
  log(`search and suggest: bench/search.ts --items ${opts.items}`);
  const s = await child<SearchSummary>('bench/search.ts',
    ['--items', String(opts.items), '--queries', '1000', '--db', db, '--json']);
  const baseline = { name: 'GET item by id, same server', rate: s.baseline.qps, p50: s.baseline.p50, p99: s.baseline.p99 };
  return (['suggest', 'search'] as const).map((mode) => {
    const m = s[mode];
    const r = row('search', `${mode}, 1 client (${s.queries / 2} queries)`, 'queries/s',
      { rate: m.http.qps, p50: m.http.p50, p99: m.http.p99 }, baseline);
    r.note = `4 clients: ${Math.round(m.clients4Qps)} queries/s; in process (store.search): p50 ${m.inProcess.p50.toFixed(2)} ms, ` +
      `p99 ${m.inProcess.p99.toFixed(2)} ms; ${s.empty} of ${s.queries} queries found nothing`;
    return r;
  });
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
