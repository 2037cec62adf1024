// PostgreSQL's Counters part (store.ts): fixed windows in one table, shared by every process on the database.
import type pg from 'pg';
import type { CounterHit, Counters } from '../store.js';
import { counterQueries } from './queries.js';

export class PostgresCounters implements Counters {
  constructor(private readonly pool: pg.Pool) {}

  async countHit(key: string, windowSeconds: number): Promise<CounterHit> {
    // Ended windows are dropped now and then, so the table holds about one row per recently active client.
    if (Math.random() < 0.01) await counterQueries.dropEndedWindows(this.pool);
    const row = await counterQueries.countHit(this.pool, key, windowSeconds);
    return { count: row.count, resetAt: row.reset_at };
  }
}
