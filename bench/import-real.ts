// `entia import` of real Wikidata entities, as an operator runs it (the CLI, in a child process), against a
// one-thread loop that only reads and JSON.parses the same lines, in the same run. The input is real samples
// (CC0, one entity per line; by default short_stream.json.bz2, 635 items of many kinds) replicated under fresh
// ids up to --items, in the dump's own format; prints entities/s, the ratio, and the store's size against the
// input's. `--files a.json.bz2,b.json.bz2` picks other sample files of the same folder.
//
//   node --import tsx bench/import-real.ts [--items 20000] [--samples DIR] [--files …] [--db FILE|postgres://…] [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
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

await writeData();
const inputBytes = statSync(data).size;
log(`${items} real entities, ${(inputBytes / 1e6).toFixed(0)} MB of dump lines: ${data}`);
const parse = await parseOnly();
if (!db.startsWith('postgres')) for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
const started = performance.now();
const run = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../src/cli/main.ts'), 'import', data],
  { env: { ...process.env, ENTIA_DB: db }, encoding: 'utf8', maxBuffer: 1 << 26 });
if (run.status !== 0) throw new Error(`entia import failed: ${run.stderr}`);
const seconds = (performance.now() - started) / 1000;
const rate = items / seconds;
const result = {
  items, inputBytes, parseOnlyPerSecond: Math.round(parse), importPerSecond: Math.round(rate),
  ratio: Number((rate / parse).toFixed(3)), storeBytes: storeBytes(), storeToInput: Number((storeBytes() / inputBytes).toFixed(3)),
  summary: run.stdout.trim(),
};
log(`entia import: ${result.importPerSecond} entities/s (${(100 * result.ratio).toFixed(0)}% of the parse-only loop, ${result.parseOnlyPerSecond}/s); `
  + `store ${(result.storeBytes / 1e6).toFixed(0)} MB = ${result.storeToInput}× the input`);
if (!process.argv.includes('--keep') && !db.startsWith('postgres')) for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
console.log(JSON.stringify(result));
