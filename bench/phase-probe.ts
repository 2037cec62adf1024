// The phases of a bulk load, for profiling (ADR 0008): batches handed to importEntities with `entia import`'s
// SQLite settings, then each step of the deferred index build, with their times.
//
//   node --import tsx bench/phase-probe.ts DATA.jsonl STORE.db [LIMIT]      (DEFER=0: indexes written per batch)
//   node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/phase-probe.ts …  (a profile per thread)
import { createReadStream, rmSync } from 'node:fs';
import { BatchWriter, IMPORT_BATCH, IMPORT_TUNING } from '../src/cli/import.js';
import { lines } from '../src/cli/lines.js';
import type { Entity } from '../src/domain/entity.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

const [data, db, limit] = process.argv.slice(2);
if (!data || !db) throw new Error('usage: phase-probe.ts DATA.jsonl STORE.db [LIMIT]');
for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
const store = openSqliteStore({ path: db, ...IMPORT_TUNING, deferIndexes: process.env.DEFER !== '0' });
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);

const started = performance.now();
const writer = new BatchWriter((batch: Entity[]) => store.importEntities(batch, { user: 'probe', comment: null, tags: [], bot: true }));
let batch: Entity[] = [];
let entities = 0;
for await (const line of lines(createReadStream(data, { highWaterMark: 1 << 20 }))) {
  batch.push(JSON.parse(line) as Entity);
  entities++;
  if (batch.length >= IMPORT_BATCH) {
    await writer.add(batch);
    batch = [];
    if (entities % 50_000 === 0) console.log(`${entities} entities handed over at ${seconds(started)} s`);
  }
  if (limit && entities >= Number(limit)) break;
}
if (batch.length) await writer.add(batch);
await writer.finish();
const loaded = performance.now();
console.log(`load: ${seconds(started)} s, ${Math.round(entities / ((loaded - started) / 1000))} entities/s`);
let stepStarted = performance.now();
let step = 'starting';
await store.finishImport((next) => {
  console.log(`  ${step}: ${seconds(stepStarted)} s`);
  step = `${next.step} (${next.rows} rows)`;
  stepStarted = performance.now();
});
console.log(`  ${step}: ${seconds(stepStarted)} s`);
console.log(`build: ${seconds(loaded)} s; whole import ${Math.round(entities / ((performance.now() - started) / 1000))} entities/s`);
await store.close();
