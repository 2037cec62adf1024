// Runs a function in one transaction on one pooled connection. A connection whose rollback failed is
// destroyed rather than returned to the pool.
import type pg from 'pg';
import { isLostStatement } from './prepared.js';
import { transactionQueries as tx } from './queries.js';

export async function inTransaction<T>(pool: pg.Pool, fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await tx.begin(client);
    const result = await fn(client);
    await tx.commit(client);
    client.release();
    return result;
  } catch (e) {
    let broken = false;
    await tx.rollback(client).catch(() => { broken = true; });
    client.release(broken);
    throw e;
  }
}

/**
 * Nothing was written and running the edit again may succeed: serialization_failure, deadlock_detected, and
 * a prepared statement a pooler lost (prepared.ts turned them off: the next run is unnamed).
 */
export function isRetryable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01' || isLostStatement(code);
}
