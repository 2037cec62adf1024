// Bulk load against its baseline: the path that fills a store (`store.importEntities` in the batches and
// with the SQLite settings `entia import` uses, src/cli/import.ts) against a loop that only reads and JSON.parses the same lines.
// Runs in its own process so that the harness's memory and the servers do not disturb it; prints one JSON
// result line.
//
//   node --import tsx bench/bulk-load.ts --data FILE.jsonl --db FILE.db|postgres://… [--schema S] [--parse-only]
//                                        [--generate SEED:ITEMS]
// --generate: the import reads bench/generate.ts's output as it is written (a data set too large to keep on
// disk beside its store: 5,000,000 items are 50 GB of JSON lines); --data is then a smaller file of the same
// generator, whose parse-only loop is the baseline (parsing costs the same per line whatever the size).
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Entity } from '../src/domain/entity.js';
import { BatchWriter, IMPORT_BATCH, IMPORT_TUNING } from '../src/cli/import.js';
import { lines as linesOf } from '../src/cli/lines.js';
import { isPostgresUrl, openStore } from '../src/cli/open-store.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { EditMeta, Store } from '../src/store/store.js';

const META: EditMeta = { user: 'import', comment: 'bench bulk load', tags: [], bot: true };

export interface LoadFigures {
  entities: number;
  seconds: number;
  perSecond: number;
  /** CPU time of this process (user + system): less sensitive to a busy machine than wall time. */
  cpuSeconds: number;
  /** Import only: bytes of JSON lines read (with their newlines): the input a store's size compares with. */
  inputBytes?: number;
  /**
   * Import only: entities/s over the first and the last tenth of the entities, batches written (the issue's
   * "the rate must not fall with size"), and the seconds of the index build that follows them (ADR 0008).
   */
  firstTenth?: number;
  lastTenth?: number;
  buildSeconds?: number;
}

/** Entities between two progress lines of a load. */
const PROGRESS_EVERY = 250_000;

const progress = (message: string) => console.error(`[bulk load ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** The lines as `entia import` reads them (src/cli/lines.ts). */
function lines(path: string): AsyncIterable<string> {
  return linesOf(createReadStream(path, { highWaterMark: 1 << 20 }));
}

/** The baseline: read and parse every line, keep nothing. */
export async function parseOnly(path: string): Promise<LoadFigures> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let entities = 0;
  let sink = 0;
  for await (const line of lines(path)) {
    const entity = JSON.parse(line) as Entity;
    sink += entity.id.length;
    entities++;
  }
  if (sink < 0) throw new Error('unreachable');
  return figures(entities, started, cpu);
}

/**
 * The lines of `bench/generate.ts --seed S --items N`, read from its output while it writes them: nothing is
 * stored or kept. The generator runs in a process of its own, beside the import's two threads.
 */
async function* generatedLines(seed: number, items: number): AsyncGenerator<string> {
  const script = fileURLToPath(new URL('./generate.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--seed', String(seed), '--items', String(items)],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  yield* linesOf(child.stdout);
  const code = await exited;
  if (code !== 0) throw new Error(`bench/generate.ts exited with ${code}`);
}

/**
 * Read, parse and import in batches into a fresh store (a SQLite file, or `schema` of a PostgreSQL database),
 * from a file's lines or from the generator's (`{ seed, items }`).
 */
export async function importAll(input: string | { seed: number; items: number }, db: string, schema: string | null = null): Promise<LoadFigures> {
  // The settings `entia import` opens its store with (src/cli/import.ts); PostgreSQL: a small pool.
  const store: Store = isPostgresUrl(db)
    ? await openStore({ db, pgPoolSize: 2, pgSchema: schema }, { deferIndexes: true }, 'create')
    : openSqliteStore({ path: db, ...IMPORT_TUNING });
  const started = performance.now();
  const cpu = process.cpuUsage();
  let entities = 0;
  let batch: Entity[] = [];
  // As `entia import` does: the next batch is read while the last one is written.
  const writer = new BatchWriter((b) => store.importEntities(b, META));
  /** [entities handed over, ms since the start], one per batch. */
  const marks: [number, number][] = [[0, 0]];
  let inputBytes = 0;
  // A long load (5,000,000 items run for over an hour) says where it is, on stderr: the result stays on stdout.
  const expected = typeof input === 'string' ? null : input.items;
  let nextReport = PROGRESS_EVERY;
  for await (const line of typeof input === 'string' ? lines(input) : generatedLines(input.seed, input.items)) {
    inputBytes += Buffer.byteLength(line) + 1;
    batch.push(JSON.parse(line) as Entity);
    if (batch.length >= IMPORT_BATCH) {
      await writer.add(batch);
      entities += batch.length;
      marks.push([entities, performance.now() - started]);
      batch = [];
      if (entities >= nextReport) {
        progress(`${entities.toLocaleString('en')}${expected ? ` of ${expected.toLocaleString('en')}` : ''} entities handed over, ${Math.round(entities / ((performance.now() - started) / 1000))}/s`);
        nextReport += PROGRESS_EVERY;
      }
    }
  }
  if (batch.length) await writer.add(batch);
  entities += batch.length;
  await writer.finish();
  const loaded = performance.now();
  marks.push([entities, loaded - started]);
  // The indexes `entia import` builds at its end (SQLite: ADR 0008), inside the timed load.
  progress(`${entities.toLocaleString('en')} entities written in ${Math.round((loaded - started) / 1000)} s; building the indexes`);
  await store.finishImport(({ step, rows }) => progress(`${step} (${rows.toLocaleString('en')} rows)`));
  const result = { ...figures(entities, started, cpu), ...tenths(marks), buildSeconds: (performance.now() - loaded) / 1000, inputBytes };
  await store.close();
  return result;
}

/**
 * The rate over the first and the last tenth of the entities, from the batch marks: from the start to the first
 * mark at or past a tenth, and from the last mark at or before nine tenths to the end, so that each window holds
 * at least a tenth (a load of a few batches gets its whole rate for both).
 */
function tenths(marks: [number, number][]): { firstTenth: number; lastTenth: number } {
  const total = marks[marks.length - 1][0];
  const end = marks[marks.length - 1];
  const rate = ([n0, t0]: [number, number], [n1, t1]: [number, number]) => (n1 - n0) / Math.max(1e-3, (t1 - t0) / 1000);
  const firstPast = marks.find(([n]) => n >= 0.1 * total) ?? end;
  // marks[0] is [0, 0], so some mark is always at or before nine tenths.
  const lastBefore = marks.filter(([n]) => n <= 0.9 * total).at(-1)!;
  return { firstTenth: rate(marks[0], firstPast), lastTenth: rate(lastBefore, end) };
}

function figures(entities: number, started: number, cpu: NodeJS.CpuUsage): LoadFigures {
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { entities, seconds, perSecond: entities / seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const data = arg('--data');
  const db = arg('--db');
  if (!data || (!db && !argv.includes('--parse-only'))) {
    throw new Error('usage: bulk-load.ts --data FILE --db FILE [--parse-only] [--schema S] [--generate SEED:ITEMS]');
  }
  const generate = arg('--generate')?.split(':').map(Number);
  if (generate && (generate.length !== 2 || !generate.every(Number.isSafeInteger))) throw new Error('--generate takes SEED:ITEMS');
  // Read once first, so that both loops find the file in the OS page cache.
  for await (const chunk of createReadStream(data, { highWaterMark: 1 << 22 })) void chunk;
  const parse = await parseOnly(data);
  const input = generate ? { seed: generate[0], items: generate[1] } : data;
  const load = db ? await importAll(input, db, arg('--schema') ?? null) : null;
  console.log(JSON.stringify({ parse, load }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
