// SQLite's ChangeFeed part (store.ts, ADR 0006): one writer per file commits revisions in id order, so the
// revision id is the feed's position.
import type Database from 'better-sqlite3';
import { kindByName } from '../../domain/kinds.js';
import { changeOf, type ChangeRow } from '../revision-content.js';
import { InvalidCursor, type Change, type ChangeFeed, type ChangeQuery } from '../store.js';

interface PageParameters { since: number; entities: string | null; kinds: string | null; users: string | null; bot: number | null; limit: number }

export class SqliteChangeFeed implements ChangeFeed {
  constructor(private readonly db: Database.Database) {}

  async changes(query: ChangeQuery): Promise<Change[]> {
    const since = query.since === null ? (query.newestFirst ? Number.MAX_SAFE_INTEGER : 0)
      : /^(0|[1-9][0-9]{0,15})$/.test(query.since) ? Number(query.since) : null;
    if (since === null) throw new InvalidCursor(String(query.since));
    const kinds = query.kinds ?? [];
    const rows = this.page(query.newestFirst ? 'DESC' : 'ASC').all({ since, entities: query.entities ? JSON.stringify(query.entities) : null,
      kinds: kinds.length ? JSON.stringify(kinds.map((k) => kindByName(k).prefix)) : null,
      users: query.users ? JSON.stringify(query.users) : null, bot: query.bot === undefined ? null : query.bot ? 1 : 0, limit: query.limit });
    return rows.map((r) => changeOf(String(r.rev_id), r.rev_id, r.entity_id, new Date(r.timestamp * 1000), r.user, r.comment, r.action, r.previous));
  }

  /** Prepared once per direction: a follower reads a page on every commit it hears of. */
  private readonly pages = new Map<'ASC' | 'DESC', Database.Statement<[PageParameters], ChangeRow>>();
  private page(order: 'ASC' | 'DESC'): Database.Statement<[PageParameters], ChangeRow> {
    let statement = this.pages.get(order);
    if (!statement) {
      const after = order === 'ASC' ? '>' : '<';
      statement = this.db.prepare<[PageParameters], ChangeRow>(`
      SELECT r.rev_id, r.entity_id, r.timestamp, r.user, r.comment, r.action,
        (SELECT max(p.rev_id) FROM revisions p WHERE p.entity_id = r.entity_id AND p.rev_id < r.rev_id) AS previous
      FROM revisions r
      WHERE r.rev_id ${after} @since
        AND (@entities IS NULL OR r.entity_id IN (SELECT value FROM json_each(@entities)))
        AND (@kinds IS NULL OR substr(r.entity_id, 1, 1) IN (SELECT value FROM json_each(@kinds)))
        AND (@users IS NULL OR r.user IN (SELECT value FROM json_each(@users)))
        AND (@bot IS NULL OR r.bot = @bot)
      ORDER BY r.rev_id ${order} LIMIT @limit`);
      this.pages.set(order, statement);
    }
    return statement;
  }

  /** One writer commits in revision order, so the newest committed change is the head. */
  changesCommitted(): Promise<string> {
    return this.changesHead();
  }

  async changesHead(): Promise<string> {
    this.head ??= this.db.prepare<[], { last: number | null }>('SELECT max(rev_id) AS last FROM revisions');
    return String(this.head.get()!.last ?? 0);
  }

  /** Prepared once: every entity page asks (ui/page-cache.ts). */
  private head: Database.Statement<[], { last: number | null }> | null = null;
}
