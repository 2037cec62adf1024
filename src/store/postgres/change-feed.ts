// PostgreSQL's ChangeFeed part (store.ts, ADR 0006): revisions in commit order, positioned by the committing
// transaction's id and the revision id, so that a reader never skips a revision committed after it looked.
import type pg from 'pg';
import { kindByName } from '../../domain/kinds.js';
import { changeOf } from '../revision-content.js';
import { InvalidCursor, type Change, type ChangeFeed, type ChangeQuery } from '../store.js';
import { changeQueries } from './queries.js';

/** Above every transaction id: where a newest-first read of the change feed starts. */
const MAX_XID8 = '18446744073709551615';

export class PostgresChangeFeed implements ChangeFeed {
  constructor(private readonly pool: pg.Pool) {}

  async changes(query: ChangeQuery): Promise<Change[]> {
    const m = query.since === null ? null : /^([0-9]{1,20})\.([0-9]{1,16})$/.exec(query.since);
    if (!m && query.since !== null && query.since !== '0') throw new InvalidCursor(String(query.since));
    // No position: the start of the feed, or its end when reading backwards.
    const [xid, rev] = m ? [m[1], Number(m[2])] : query.since === null && query.newestFirst ? [MAX_XID8, 0] : ['0', 0];
    const kinds = query.kinds ?? [];
    const found = await changeQueries.page(this.pool, query.newestFirst === true, xid, rev, query.limit, query.entities ? [...query.entities] : null,
      kinds.length ? kinds.map((k) => kindByName(k).prefix) : null, query.users ? [...query.users] : null, query.bot ?? null);
    return found.map((r) => changeOf(`${r.xid}.${r.rev_id}`, Number(r.rev_id), r.entity_id, r.timestamp, r.user_name, r.comment, r.action, r.previous === null ? null : Number(r.previous)));
  }

  async changesHead(): Promise<string> {
    const last = await changeQueries.head(this.pool);
    return last ? `${last.xid}.${last.rev_id}` : '0';
  }

  async changesCommitted(): Promise<string> {
    const last = await changeQueries.committed(this.pool);
    return last ? `${last.xid}.${last.rev_id}` : '0';
  }
}
