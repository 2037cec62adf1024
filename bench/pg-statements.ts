// What one measured load costs the PostgreSQL server, statement by statement (issue #20's "profile of the
// queries on the hot path"): pg_stat_statements reset before the load and read after it, so each figure is per
// request of that load. Needs `shared_preload_libraries = 'pg_stat_statements'` on the server (a restart);
// `npm run bench:postgres -- --statements` says so and stops when it is missing.
import type pg from 'pg';

export interface StatementFigure {
  /** The statement's text as PostgreSQL normalised it, whitespace collapsed. */
  query: string;
  callsPerRequest: number;
  /** Mean execution time of one call, in µs (planning excluded: Entia's hot statements are prepared). */
  meanUs: number;
  /** Execution time this statement adds to one request, in µs. */
  usPerRequest: number;
  rowsPerCall: number;
  /** Shared buffers touched per call: found in PostgreSQL's cache, and read from the OS. */
  blocksHitPerCall: number;
  blocksReadPerCall: number;
}

/** Creates the extension in the bench's database; an error that names the setting when the server lacks it. */
export async function enableStatements(admin: pg.Pool): Promise<void> {
  try {
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await admin.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
  } catch (e) {
    throw new Error(`--statements needs pg_stat_statements loaded by the server: ALTER SYSTEM SET shared_preload_libraries = ` +
      `'pg_stat_statements', then restart PostgreSQL (${(e as Error).message})`);
  }
}

export async function resetStatements(admin: pg.Pool): Promise<void> {
  await admin.query('SELECT pg_stat_statements_reset()');
}

/** The statements of this database since the last reset, costliest first, per request of a load of `requests`. */
export async function topStatements(admin: pg.Pool, requests: number, limit = 10): Promise<StatementFigure[]> {
  // The first row sums every statement of the load (the rest are the costliest of them).
  const { rows } = await admin.query<{
    query: string; calls: string; total: number; rows: string; hit: string; read: string;
  }>(`WITH s AS (
        SELECT query, calls, total_exec_time, rows, shared_blks_hit, shared_blks_read FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%')
      (SELECT 'all statements' AS query, sum(calls) AS calls, sum(total_exec_time) AS total, sum(rows) AS rows,
         sum(shared_blks_hit) AS hit, sum(shared_blks_read) AS read FROM s)
      UNION ALL
      (SELECT query, calls, total_exec_time, rows, shared_blks_hit, shared_blks_read FROM s
       ORDER BY total_exec_time DESC LIMIT $1)`, [limit]);
  return rows.filter((r) => Number(r.calls) > 0).map((r) => {
    const calls = Number(r.calls);
    return {
      query: r.query.replace(/\s+/g, ' ').trim(),
      callsPerRequest: calls / Math.max(1, requests),
      meanUs: (r.total * 1000) / calls,
      usPerRequest: (r.total * 1000) / Math.max(1, requests),
      rowsPerCall: Number(r.rows) / calls,
      blocksHitPerCall: Number(r.hit) / calls,
      blocksReadPerCall: Number(r.read) / calls,
    };
  });
}

/** `EXPLAIN (ANALYZE, BUFFERS)` of a parameterised statement run with the given values; the plan's lines. */
export async function explain(pool: pg.Pool, query: string, values: unknown[]): Promise<string[]> {
  const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query}`, values);
  return rows.map((r) => r['QUERY PLAN']);
}

export function statementLines(title: string, figures: StatementFigure[]): string[] {
  const out = [`${title}`, '| statement | calls per request | mean µs | µs per request | rows per call | buffers hit / read per call |', '|---|---|---|---|---|---|'];
  for (const f of figures) {
    const text = f.query.length > 160 ? `${f.query.slice(0, 157)}...` : f.query;
    out.push(`| \`${text.replace(/\|/g, '\\|')}\` | ${f.callsPerRequest.toFixed(2)} | ${f.meanUs.toFixed(0)} | ${f.usPerRequest.toFixed(0)} | ` +
      `${f.rowsPerCall.toFixed(1)} | ${f.blocksHitPerCall.toFixed(1)} / ${f.blocksReadPerCall.toFixed(1)} |`);
  }
  return out;
}
