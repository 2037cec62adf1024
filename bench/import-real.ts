// `entia import` of real Wikidata entities, as an operator runs it (the CLI, in a child process), against a
// one-thread loop that only reads and JSON.parses the same lines, in the same run. The input is real samples
// (CC0, one entity per line; by default short_stream.json.bz2, 635 items of many kinds) replicated under fresh
// ids up to --items, in the dump's own format; prints entities/s, the ratio, and the store's size against the
// input's. `--files a.json.bz2,b.json.bz2` picks other sample files of the same folder. `--threads 1,2` runs
// the import with each of these `--threads` in turn, `--rounds` times (median reported), with the CPU time
// of each of its threads.
//
//   node --import tsx bench/import-real.ts [--items 20000] [--samples DIR] [--files …] [--db FILE|postgres://…]
//                                          [--threads 1,2] [--rounds 3] [--keep]
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { flagReader } from './args.js';
import { RESULTS_DIR } from './dataset.js';

const { value, num } = flagReader(process.argv.slice(2));
const items = num('items', 20_000);
const samples = value('samples') ?? process.env.ENTIA_WIKIDATA_SAMPLES ?? join(import.meta.dirname, '../../shared/data/wikidata');
const db = value('db') ?? join(RESULTS_DIR, `import-real-${items}.db`);
const files = (value('files') ?? 'short_stream.json.bz2').split(',');
const data = join(RESULTS_DIR, 'data', `real-${files.map((f) => f.replace(/\..*$/, '')).join('+')}-${items}.jsonl`);
const log = (m: string) => console.error(`[import-real ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** The sample entities, one dump line each. */
function sampleLines(): string[] {
  const out: string[] = [];
  for (const file of files) {
    const text = execFileSync('bzcat', [join(samples, file)], { maxBuffer: 1 << 30 }).toString();
    for (const raw of text.split('\n')) {
      const line = raw.trim().replace(/,$/, '');
      if (line.startsWith('{')) out.push(line);
    }
  }
  return out;
}

/** Copy n of the samples, each under a fresh id (its statement ids and sitelink titles renamed with it). */
async function writeData(): Promise<void> {
  if (existsSync(data)) return;
  const lines = sampleLines();
  const out = createWriteStream(data);
  for (let n = 0; n < items; n++) {
    const copy = JSON.parse(lines[n % lines.length]);
    const id = `Q${900_000_000 + n}`;
    copy.id = id;
    copy.title = id;
    for (const claims of Object.values<any[]>(copy.claims ?? {})) {
      for (const claim of claims) if (typeof claim.id === 'string') claim.id = claim.id.replace(/^[^$]*/, id);
    }
    for (const link of Object.values<any>(copy.sitelinks ?? {})) link.title = `${link.title} (${n})`;
    if (!out.write(`${JSON.stringify(copy)}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

async function parseOnly(): Promise<number> {
  const started = performance.now();
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(data, { highWaterMark: 1 << 20 }), crlfDelay: Infinity })) {
    if (JSON.parse(line).id) n++;
  }
  return n / ((performance.now() - started) / 1000);
}

function storeBytes(): number {
  if (db.startsWith('postgres')) return NaN;
  return ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(db + suffix) ? statSync(db + suffix).size : 0), 0);
}

/** CPU seconds of each thread of a process (Linux /proc), by thread id; empty where /proc is not there. */
function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    }
  } catch { /* the process or a thread has ended: keep the last reading of it */ }
  return out;
}
const CLOCK_TICKS = 100;

interface ImportRun {
  threads: number;
  perSecond: number;
  seconds: number;
  summary: string;
  /**
   * CPU seconds by thread over the whole import (build included): the main thread, then the busiest others
   * (the reading threads and SQLite's writer), then the rest added up (V8's GC helpers, libuv).
   */
  cpu: { main: number; busiest: number[]; others: number };
}

/** `entia import` in a child process with `--threads N`, its threads' CPU read every 200 ms. */
/** PostgreSQL: each run into a schema of its own, dropped after it (SQLite: a fresh file). */
let schemas = 0;
async function withFreshStore<T>(run: (env: Record<string, string>) => Promise<T>): Promise<T> {
  if (!db.startsWith('postgres')) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
    return run({ ENTIA_DB: db });
  }
  const schema = `import_real_${process.pid}_${++schemas}`;
  try {
    return await run({ ENTIA_DB: db, ENTIA_PG_SCHEMA: schema });
  } finally {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

async function importRun(threads: number): Promise<ImportRun> {
  return withFreshStore((env) => importInto(threads, env));
}

async function importInto(threads: number, env: Record<string, string>): Promise<ImportRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../src/cli/main.ts'), 'import', data,
    '--threads', String(threads)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += c; });
  child.stderr.on('data', (c) => { stderr += c; });
  const cpu = new Map<number, number>();
  const sample = setInterval(() => { for (const [tid, s] of threadCpu(child.pid!)) cpu.set(tid, s); }, 200);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sample);
  if (code !== 0) throw new Error(`entia import failed: ${stderr}`);
  const seconds = (performance.now() - started) / 1000;
  const rest = [...cpu].filter(([tid]) => tid !== child.pid).map(([, s]) => s).sort((x, y) => y - x);
  const busiest = rest.slice(0, threads > 1 ? threads + 1 : 1);
  const round = (n: number) => Math.round(n * 100) / 100;
  return { threads, perSecond: Math.round(items / seconds), seconds: round(seconds), summary: stdout.trim(),
    cpu: { main: round(cpu.get(child.pid!) ?? 0), busiest: busiest.map(round), others: round(rest.slice(busiest.length).reduce((a, b) => a + b, 0)) } };
}

await writeData();
const inputBytes = statSync(data).size;
log(`${items} real entities, ${(inputBytes / 1e6).toFixed(0)} MB of dump lines: ${data}`);
const parse = await parseOnly();
// --threads 1,2: each count in turn, --rounds times, so that a slow minute of the machine falls on both.
const counts = (value('threads') ?? '1').split(',').map(Number);
const runs: ImportRun[] = [];
for (let round = 0; round < num('rounds', 1); round++) {
  for (const threads of counts) {
    const run = await importRun(threads);
    log(`--threads ${threads}: ${run.perSecond} entities/s (${(100 * run.perSecond / parse).toFixed(0)}% of the parse-only loop); `
      + `CPU s: main ${run.cpu.main}, busiest ${run.cpu.busiest.join(' ')}, others ${run.cpu.others}`);
    runs.push(run);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const byThreads = Object.fromEntries(counts.map((t) => [t, median(runs.filter((r) => r.threads === t).map((r) => r.perSecond))]));
const rate = byThreads[counts[0]];
const result = {
  items, inputBytes, parseOnlyPerSecond: Math.round(parse), importPerSecond: rate, byThreads, runs,
  ratio: Number((rate / parse).toFixed(3)), storeBytes: storeBytes(), storeToInput: Number((storeBytes() / inputBytes).toFixed(3)),
  summary: runs.at(-1)!.summary,
};
log(`entia import: ${counts.map((t) => `--threads ${t}: ${byThreads[t]}/s (${(100 * byThreads[t] / parse).toFixed(0)}%)`).join(', ')} `
  + `of the parse-only loop's ${result.parseOnlyPerSecond}/s (median of ${num('rounds', 1)}); store ${(result.storeBytes / 1e6).toFixed(0)} MB = ${result.storeToInput}× the input`);
if (!process.argv.includes('--keep') && !db.startsWith('postgres')) for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
console.log(JSON.stringify(result));
