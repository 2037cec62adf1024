// SQLite's ChangeFeed part (store.ts, ADR 0006): one writer per file commits revisions in id order, so the
// revision id is the feed's position. The changes this process committed last are also kept in memory, in
// order: a follower in step (the change stream, the SPARQL mirror) reads the few changes after its cursor on
// every commit, and the query cost about 70–95 µs each time (a tenth of an edit's CPU), most of it for a row
// or two.
import type Database from 'better-sqlite3';
import { kindByName } from '../../domain/kinds.js';
import { changeOf, type ChangeRow } from '../revision-content.js';
import { InvalidCursor, type Change, type ChangeFeed, type ChangeQuery, type EditMeta, type Head } from '../store.js';

/** Changes kept in memory: enough for followers some seconds behind at the full edit rate. */
const KEPT_CHANGES = 4096;

interface PageParameters { since: number; entities: string | null; kinds: string | null; users: string | null; bot: number | null; limit: number }

export class SqliteChangeFeed implements ChangeFeed {
  constructor(private readonly db: Database.Database) {}

  /** The changes this process committed last, in revision order (not always consecutive: other writers, redirects). */
  private readonly kept: Change[] = [];

  /** Keeps an edit's change once it has committed, as a query would read it back. */
  keep(entity: string, head: Head, previous: number | null, meta: EditMeta): void {
    this.kept.push(Object.freeze(changeOf(String(head.revision), head.revision, entity, head.modified, meta.user, meta.comment, meta.action ?? null, previous)));
    if (this.kept.length > KEPT_CHANGES) this.kept.splice(0, KEPT_CHANGES / 2);
  }

  /**
   * The changes right after `since` from memory, or null when memory cannot say: only a run of consecutive
   * revision ids starting at `since + 1` is certain to be the feed (no other process can have committed in
   * between), and only for a page with no filter. An empty answer is never given: another process may have
   * committed after the last change this one knows (a page that ends at this process's last commit is a
   * prefix of the feed, and the next page's query finds the rest).
   */
  private fromMemory(since: number, query: ChangeQuery): Change[] | null {
    if (query.newestFirst || query.entities || query.kinds || query.users || query.bot !== undefined) return null;
    const kept = this.kept;
    let i = kept.length - 1;
    while (i >= 0 && kept[i].revision > since + 1) i--;
    if (i < 0) return null;
    const page: Change[] = [];
    for (let next = since + 1; i < kept.length && page.length < query.limit && kept[i].revision === next; i++, next++) page.push(kept[i]);
    // Nothing (memory does not hold since + 1), or a gap before the page is full: another process committed
    // there, and the query has it.
    return page.length < query.limit && i < kept.length ? null : page;
  }

  async changes(query: ChangeQuery): Promise<Change[]> {
    const since = query.since === null ? (query.newestFirst ? Number.MAX_SAFE_INTEGER : 0)
      : /^(0|[1-9][0-9]{0,15})$/.test(query.since) ? Number(query.since) : null;
    if (since === null) throw new InvalidCursor(String(query.since));
    const remembered = query.since === null ? null : this.fromMemory(since, query);
    if (remembered) return remembered;
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
