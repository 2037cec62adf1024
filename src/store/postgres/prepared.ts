// Named prepared statements for every parameterised query. PostgreSQL parses and plans an unnamed statement
// again on every execution: about 100 µs of server CPU for Entia's entity read, most of what the read costs,
// and about as much for each of the twenty-odd statements of an edit (measured, ADR 0002 "Reads and
// prepared statements"). A connection made by `preparingClient()` gives each distinct query text a name, so that it is
// parsed and planned once per connection and only bound and executed afterwards.
//
// A pooler in transaction mode (PgBouncer before 1.21, or without max_prepared_statements) hands the
// statements of one client connection to several server connections: a statement prepared on one is missing
// on another. ENTIA_PG_PREPARED=off turns naming off; without it, the first such error turns it off for the
// process, and the query is run again unnamed when it was not inside a transaction (inside one, the
// transaction has failed: the edit is re-run, see transaction.ts isRetryable).
import { hash } from 'node:crypto';
import pg from 'pg';

/** Distinct statements named per process at most: each takes server memory on every connection. */
const MAX_NAMED = 400;
/** Statement texts longer than this are generated (a bulk statement, a build step) and run rarely. */
const MAX_NAMED_LENGTH = 4000;

/** SQLSTATEs of a statement that is missing, or already there, on the server connection used. */
const POOLER_CODES = new Set(['26000', '42P05']);

/** The error of a named statement a pooler lost: nothing was done, and the statement can be run again unnamed. */
export function isLostStatement(code: unknown): boolean {
  return typeof code === 'string' && POOLER_CODES.has(code);
}

/** What the connections of one store share: whether naming is on, and the names given so far. */
interface PreparedStatements {
  enabled: boolean;
  names: Map<string, string>;
}

/** The first lost statement turns naming off for the process, and says so once. */
function turnOff(state: PreparedStatements, error: Error): void {
  if (!state.enabled) return;
  state.enabled = false;
  process.emitWarning(`PostgreSQL: prepared statements turned off for this process (${error.message}): a pooler in `
    + 'transaction mode does not keep them; set ENTIA_PG_PREPARED=off', { code: 'ENTIA_PG_PREPARED' });
}

function nameOf(state: PreparedStatements, text: string): string | null {
  const known = state.names.get(text);
  if (known) return known;
  if (text.length > MAX_NAMED_LENGTH || state.names.size >= MAX_NAMED) return null;
  const name = `entia_${hash('sha1', text).slice(0, 16)}`;
  state.names.set(text, name);
  return name;
}

const TRANSACTION_START = /^\s*(BEGIN|START TRANSACTION)\b/i;
const TRANSACTION_END = /^\s*(COMMIT|ROLLBACK|END|ABORT)\b/i;

/**
 * A pg.Client class for the pools of one store: parameterised string queries run as named statements, from the
 * start if `enabled`, until a pooler loses one.
 */
export function preparingClient(enabled: boolean): typeof pg.Client {
  const state: PreparedStatements = { enabled, names: new Map() };
  class PreparingClient extends pg.Client {
    private transactionOpen = false;

    // pg's query() has many overloads (config objects, streams); a text with a values array is named, with or
    // without the callback pg.Pool passes, and every other call goes through unchanged.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(...args: any[]): any {
      const [text, values, callback] = args;
      if (typeof text === 'string') {
        if (TRANSACTION_START.test(text)) this.transactionOpen = true;
        else if (TRANSACTION_END.test(text)) this.transactionOpen = false;
      }
      const name = state.enabled && typeof text === 'string' && Array.isArray(values) ? nameOf(state, text) : null;
      if (!name) return (super.query as (...a: unknown[]) => unknown)(...args);
      const named = { name, text, values };
      // Every named query in flight when naming is turned off can fail the same way: each is run again.
      const unnamedAgain = (error: Error & { code?: string }): boolean => {
        if (!isLostStatement(error.code)) return false;
        turnOff(state, error);
        return !this.transactionOpen;
      };
      if (typeof callback === 'function') {
        return super.query(named, (error: Error | null, result: pg.QueryResult) => {
          if (error && unnamedAgain(error)) super.query(text, values, callback);
          else callback(error, result);
        });
      }
      return super.query(named).catch((error: Error) => {
        if (unnamedAgain(error)) return super.query(text, values);
        throw error;
      });
    }
  }
  return PreparingClient;
}
