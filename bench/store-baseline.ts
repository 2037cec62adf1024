// The store's ceiling for edits: raw better-sqlite3 single-row write transactions (BEGIN IMMEDIATE, one
// INSERT of a revision row carrying an entity's JSON, COMMIT), with Entia's durability settings (WAL,
// synchronous=NORMAL) and schema, on a fresh file beside the benchmark's store. Runs in its own process.
//
//   node --import tsx bench/store-baseline.ts --db FILE --payload FILE.json --seconds 5
import Database from 'better-sqlite3';
import { readFileSync, rmSync } from 'node:fs';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';

export interface StoreFigures {
  /** Committed transactions per second. */
  tps: number;
  /** Latency of one transaction, in milliseconds. */
  p50: number;
  p99: number;
  transactions: number;
  seconds: number;
}

export function rawWrites(db: string, payload: string, seconds: number): StoreFigures {
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const conn = new Database(db);
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  for (const migration of MIGRATIONS) conn.exec(migration);
  const insert = conn.prepare(`INSERT INTO revisions (entity_id, timestamp, user, comment, tags, bot, content)
    VALUES (?, ?, 'bench', NULL, '[]', 0, ?)`);
  const write = conn.transaction((id: string) => insert.run(id, Math.floor(Date.now() / 1000), payload));
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  let now = started;
  for (let i = 0; now < end; i++) {
    write.immediate(`Q${(i % 100_000) + 1}`);
    const after = performance.now();
    latencies.push(after - now);
    now = after;
  }
  const elapsed = (now - started) / 1000;
  conn.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { tps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), transactions: latencies.length, seconds: elapsed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const arg = (name: string) => argv[argv.indexOf(name) + 1];
  console.log(JSON.stringify(rawWrites(arg('--db'), readFileSync(arg('--payload'), 'utf8'), Number(arg('--seconds') ?? 5))));
}
