// `npm run bench:postgres` (issue #9): the PostgreSQL backend with 1, 2 and 4 worker processes
// (ENTIA_WORKERS) next to the SQLite backend with one, on the same generated items, over real HTTP:
// GET of the typical ~10 KB item, and PATCH edits each replacing one label of a random item (every edit
// checked to have written its revision). Also the servers' total peak memory (primary plus workers), and the
// CPU each request costs: Entia's processes and the PostgreSQL server's, over the measured requests only (on
// a machine shared with the load generator, CPU per request moves much less between runs than a rate).
//
//   npm run bench:postgres -- [--items 20000] [--seed 8] [--duration 6] [--warmup 1] [--connections 10]
//                             [--workers 1,2,4] [--pg postgres://postgres@127.0.0.1:5432/postgres] [--statements]
//
// --statements adds, for each PostgreSQL configuration, the server's cost of each statement a request runs
// (pg_stat_statements over the measured load; the server must preload it) and the plan of the read query.
// The items go into a fresh SQLite file and a fresh schema (bench_<pid>) of the given database, both
// removed at the end. Writes bench/results/postgres.json and .md (git-ignored).
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Request } from 'autocannon';
import type { LoadFigures } from './bulk-load.js';
import { ensureDataset, RESULTS_DIR } from './dataset.js';
import { run, type HttpFigures } from './http-load.js';
import { cpuSecondsOf, postgresPids, processTree, startEntia } from './servers.js';
import { randomItems, typicalItem } from './targets.js';
import { IMPORT_BATCH } from '../src/cli/import.js';
import { withSearchPath } from '../src/store/postgres/index.js';
import { READ_HEAD } from '../src/store/postgres/queries.js';
import { flagReader, runOptions, type RunOptions } from './args.js';
import { enableStatements, explain, resetStatements, statementLines, topStatements, type StatementFigure } from './pg-statements.js';

interface Options extends RunOptions {
  workers: number[];
  pg: string;
  statements: boolean;
}

function parseOptions(argv: string[]): Options {
  const { value, num } = flagReader(argv);
  const workers = (value('workers') ?? '1,2,4').split(',').map(Number);
  if (workers.some((w) => !Number.isInteger(w) || w < 1)) throw new Error('--workers takes positive integers, e.g. 1,2,4');
  const common = runOptions(num, { items: 20_000, duration: 6, warmup: 1 });
  return {
    ...common,
    items: Math.max(10, common.items),
    workers,
    pg: value('pg') ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    statements: argv.includes('--statements'),
  };
}

const log = (message: string) => console.error(`[bench:pg ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** bench/bulk-load.ts in its own process (as `npm run bench` runs it); returns its load figures. */
async function bulkLoad(data: string, db: string, schema?: string): Promise<LoadFigures> {
  const args = ['--import', 'tsx', 'bench/bulk-load.ts', '--data', data, '--db', db, ...(schema ? ['--schema', schema] : [])];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  if (code !== 0) throw new Error(`bench/bulk-load.ts exited with ${code}`);
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { load: LoadFigures }).load;
}

interface Backend {
  name: string;
  db: string;
  workers: number;
  env: NodeJS.ProcessEnv;
  revisions(): Promise<number>;
  /** With --statements: pg_stat_statements of the server, and the backend's schema for EXPLAIN. */
  statements?: { admin: pg.Pool; inSchema: pg.Pool };
}

interface StatementProfile {
  get: StatementFigure[];
  patch: StatementFigure[];
  /** EXPLAIN (ANALYZE, BUFFERS) of Entia's read (READ_HEAD) of the typical item, its document included. */
  readPlan: string[];
}

interface Figures {
  rps: number; p50: number; p99: number; ok: number; non2xx: number; errors: number;
  /** CPU per answered request, in µs: Entia's processes, and the PostgreSQL server's (0 for SQLite). */
  cpu: { entiaUs: number; postgresUs: number };
}

interface Result {
  backend: string;
  workers: number;
  get: Figures;
  edit: Figures & { revisionsWritten: number; seconds: number };
  memory: { peakRssMb: number; hwmSumMb: number; processes: number };
  statements?: StatementProfile;
}

const figures = (f: HttpFigures, cpu: Figures['cpu']): Figures =>
  ({ rps: f.rps, p50: f.p50, p99: f.p99, ok: f.ok, non2xx: f.non2xx, errors: f.errors, cpu });

/** One measured load, with the CPU Entia's process tree and the PostgreSQL server spent on it. */
async function withCpu(entiaPid: number, load: () => Promise<HttpFigures>): Promise<[HttpFigures, Figures['cpu']]> {
  const entia = processTree(entiaPid);
  const postgres = postgresPids();
  const before = [cpuSecondsOf(entia), cpuSecondsOf(postgres)];
  const f = await load();
  const perRequest = (seconds: number) => (f.ok > 0 ? (seconds * 1e6) / f.ok : 0);
  return [f, { entiaUs: perRequest(cpuSecondsOf(entia) - before[0]), postgresUs: perRequest(cpuSecondsOf(postgres) - before[1]) }];
}

async function measureBackend(b: Backend, opts: Options, typical: string): Promise<Result> {
  log(`${b.name}, ${b.workers} worker${b.workers > 1 ? 's' : ''}: starting`);
  const entia = await startEntia(b.db, undefined, { workers: b.workers, env: b.env });
  try {
    const load = { url: entia.url, duration: opts.duration, warmup: opts.warmup, connections: opts.connections };
    log(`  GET /v1/entities/items/${typical}`);
    const read = { ...load, path: `/v1/entities/items/${typical}` };
    if (opts.warmup > 0) await run(read, { duration: opts.warmup });
    if (b.statements) await resetStatements(b.statements.admin);
    const [get, getCpu] = await withCpu(entia.pid, () => run(read, { duration: opts.duration }));
    const getStatements = b.statements ? await topStatements(b.statements.admin, get.ok) : [];

    // PATCH replacing the English label of a uniformly random item: edits spread over the store, so they
    // rarely meet on one entity. Every configuration edits the same item sequence, and the PostgreSQL ones
    // share one schema, so the label names the configuration: otherwise a later run would repeat an earlier
    // run's edits as no-ops (200, no revision).
    const next = randomItems(opts.seed, opts.items, 4);
    let counter = 0;
    const request: Request = { method: 'PATCH', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({
      ...req, path: `/v1/entities/items/${next()}`,
      body: JSON.stringify({ patch: [{ op: 'add', path: '/labels/en', value: `bench ${process.pid} ${b.name} ${b.workers} ${++counter}` }] }),
    }) };
    // As bench/run.ts: the warm-up sizes the measured run, which is a fixed number of edits all answered
    // before the revisions are counted again, so written revisions and successful edits must match.
    log('  PATCH item (one label)');
    const warm = await run({ ...load, request }, { duration: Math.max(1, opts.warmup) });
    await new Promise((r) => setTimeout(r, 500));
    const before = await b.revisions();
    if (b.statements) await resetStatements(b.statements.admin);
    const [edit, editCpu] = await withCpu(entia.pid, () => run({ ...load, request }, { amount: Math.max(100, Math.round(warm.rps * opts.duration)) }));
    const patchStatements = b.statements ? await topStatements(b.statements.admin, edit.ok) : [];
    const revisionsWritten = (await b.revisions()) - before;
    // The read with no document held (0), as a process's first read of the item sends it.
    const readPlan = b.statements ? await explain(b.statements.inSchema, READ_HEAD, [typical, 0]) : [];
    for (const [name, f] of [['GET', get], ['PATCH', edit]] as const) {
      if (f.non2xx || f.errors) log(`  warning: ${name}: ${f.non2xx} non-2xx ${JSON.stringify(f.statuses)}, ${f.errors} errors`);
    }
    return { backend: b.name, workers: b.workers, get: figures(get, getCpu),
      edit: { ...figures(edit, editCpu), revisionsWritten, seconds: edit.seconds }, memory: entia.treeMemory(),
      ...(b.statements ? { statements: { get: getStatements, patch: patchStatements, readPlan } } : {}) };
  } finally {
    await entia.stop();
  }
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
// autocannon measures latency in whole milliseconds: 0 means under one.
const ms = (n: number) => (n === 0 ? '<1' : n.toFixed(n < 10 ? 1 : 0));
const lat = (f: Figures) => `${ms(f.p50)} / ${ms(f.p99)}`;

function table(results: Result[]): string[][] {
  const header = ['backend', 'workers', 'GET item req/s', 'GET p50 / p99 ms', 'GET CPU µs: Entia + PostgreSQL', 'PATCH edits/s',
    'PATCH p50 / p99 ms', 'PATCH CPU µs: Entia + PostgreSQL', 'revisions written / edits', 'peak RSS, all processes'];
  const cpu = (f: Figures) => `${int(f.cpu.entiaUs)} + ${int(f.cpu.postgresUs)}`;
  return [header, ...results.map((r) => [
    r.backend, String(r.workers), int(r.get.rps), lat(r.get), cpu(r.get), int(r.edit.rps), lat(r.edit), cpu(r.edit),
    `${int(r.edit.revisionsWritten)} / ${int(r.edit.ok)}${r.edit.revisionsWritten === r.edit.ok ? '' : ' MISMATCH'}`,
    `${int(r.memory.peakRssMb)} MB (${r.memory.processes} proc.)`,
  ])];
}

function consoleTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

const markdownTable = (rows: string[][]): string =>
  [`| ${rows[0].join(' | ')} |`, `|${rows[0].map(() => '---').join('|')}|`, ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** The --statements figures of each PostgreSQL configuration, as markdown. */
function statementProfiles(results: Result[]): string[] {
  return results.filter((r) => r.statements).map(({ workers, statements: s }) => [
    ...statementLines(`PostgreSQL server per GET item, ${workers} worker(s) (pg_stat_statements):`, s!.get), '',
    ...statementLines(`PostgreSQL server per PATCH, ${workers} worker(s) (pg_stat_statements):`, s!.patch), '',
    'The read, no document held (EXPLAIN (ANALYZE, BUFFERS)):', '```', ...s!.readPlan, '```',
  ].join('\n'));
}

async function main(argv: string[]): Promise<void> {
  const opts = parseOptions(argv);
  const started = Date.now();
  const loadAverageAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
  mkdirSync(RESULTS_DIR, { recursive: true });
  const dataset = await ensureDataset(opts.seed, opts.items);
  const typical = typicalItem(opts.seed, opts.items);
  log(`data: ${dataset.path}; typical item ${typical.id} (${(typical.bytes / 1024).toFixed(1)} KB)`);

  const sqliteFile = join(RESULTS_DIR, `pg-compare-${process.pid}.db`);
  const schema = `bench_${process.pid}`;
  const admin = new pg.Pool({ connectionString: opts.pg, max: 1 });
  const inSchema = new pg.Pool({ connectionString: withSearchPath(opts.pg, schema), max: 1 });
  const removeSqlite = () => { for (const s of ['', '-wal', '-shm']) rmSync(sqliteFile + s, { force: true }); };
  try {
    removeSqlite();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    if (opts.statements) await enableStatements(admin);
    log(`loading ${dataset.entities.toLocaleString()} entities into SQLite (${sqliteFile})`);
    const sqliteLoad = await bulkLoad(dataset.path, sqliteFile);
    log(`  ${int(sqliteLoad.perSecond)} entities/s; into PostgreSQL schema ${schema}`);
    const pgLoad = await bulkLoad(dataset.path, opts.pg, schema);
    log(`  ${int(pgLoad.perSecond)} entities/s`);

    const sqlite = new Database(sqliteFile, { readonly: true });
    const backends: Backend[] = [
      { name: 'SQLite', db: sqliteFile, workers: 1, env: {},
        revisions: async () => (sqlite.prepare('SELECT count(*) AS n FROM revisions').get() as { n: number }).n },
      ...opts.workers.map((workers): Backend => ({ name: 'PostgreSQL', db: opts.pg, workers, env: { ENTIA_PG_SCHEMA: schema },
        revisions: async () => Number((await inSchema.query<{ n: string }>('SELECT count(*) AS n FROM revisions')).rows[0].n),
        ...(opts.statements ? { statements: { admin, inSchema } } : {}) })),
    ];
    const results: Result[] = [];
    try {
      for (const b of backends) results.push(await measureBackend(b, opts, typical.id));
    } finally {
      sqlite.close();
    }
    const rows = table(results);
    const report = {
      when: new Date().toISOString(),
      machine: { nproc: os.availableParallelism(), cpuModel: os.cpus()[0]?.model, node: process.version,
        postgres: (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v,
        loadAverageAtStart, loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))) },
      options: opts, typical, load: { sqlite: sqliteLoad, postgres: pgLoad }, results,
      wallSeconds: Math.round((Date.now() - started) / 1000),
    };
    const out = join(RESULTS_DIR, 'postgres.json');
    writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
    const profiles = statementProfiles(results);
    writeFileSync(out.replace(/\.json$/, '.md'), [markdownTable(rows), ...profiles].join('\n\n') + '\n');
    console.log(consoleTable(rows));
    for (const p of profiles) console.log(`\n${p}`);
    console.log(`\nbulk load (importEntities, batches of ${IMPORT_BATCH.toLocaleString('en')}): SQLite ${int(sqliteLoad.perSecond)}/s, ` +
      `PostgreSQL ${int(pgLoad.perSecond)}/s`);
    console.log(`${out} (load average ${loadAverageAtStart} → ${report.machine.loadAverageAtEnd}, ${report.wallSeconds} s)`);
  } finally {
    await inSchema.end();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
    removeSqlite();
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
