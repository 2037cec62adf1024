// What the SPARQL room asks of the engine its queries run on: the embedded one (index.ts) or an external one
// (remote.ts).
import type { FastifyReply } from 'fastify';
import type { PreparedQuery } from '../../sparql/query.js';
import type { ResultFormat } from './formats.js';

/** How long `after=` waits for the engine to apply a change. */
export const AFTER_WAIT_MS = 10_000;

/** Where the room's queries run: the embedded engine, or an external one (remote.ts). */
export interface SparqlBackend {
  /**
   * Resolves, with the feed cursor the answer will include, once the engine can answer and includes the change
   * `after` names (up to a bound); fails with the table's errors (503s with Retry-After) otherwise.
   */
  ready(after: string | undefined, reply: FastifyReply): Promise<string>;
  /** Runs a query within the limits; the engine's refusals become the table's errors. */
  run(query: PreparedQuery, format: ResultFormat, reply: FastifyReply): Promise<Buffer>;
}
