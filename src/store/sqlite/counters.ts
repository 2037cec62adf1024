// SQLite's Counters part (store.ts): fixed windows in one table, shared by the processes on the file.
import type { CounterHit, Counters } from '../store.js';
import type { Queries } from './queries.js';

export class SqliteCounters implements Counters {
  constructor(private readonly q: Queries) {}

  async countHit(key: string, windowSeconds: number): Promise<CounterHit> {
    const now = Date.now();
    // Ended windows are dropped now and then, so the table holds about one row per recently active client.
    if (Math.random() < 0.01) this.q.dropEndedWindows.run(now);
    const row = this.q.countHit.get({ key, now, window: windowSeconds * 1000 })!;
    return { count: row.count, resetAt: new Date(row.reset_at) };
  }
}
