// Reading entity heads from PostgreSQL with their documents: the head on every read, so a read is never older
// than the database; the document only when this process does not hold that revision already.
import type { DocumentRead, Head } from '../store.js';
import type { RevisionCache } from '../revision-cache.js';
import { queries as q, type Db, type EntityRow } from './queries.js';

/** A head from a revision row's id and time. */
export const toHead = (rev: number, ts: Date): Head => ({ revision: rev, modified: ts });

export class HeadReads {
  constructor(private readonly documents: RevisionCache<string>) {}

  /**
   * The heads are read on every request, so a read is never older than the database; a document travels only
   * when this process does not hold that revision's already (ADR 0002, "Reads and prepared statements").
   */
  async read(db: Db, ids: string[], keep: boolean): Promise<Map<string, DocumentRead>> {
    const found = new Map<string, DocumentRead>();
    const dropped: string[] = [];
    const add = (row: EntityRow & { id: string }) => {
      const read = this.heldOrSent(row, keep);
      if (read === null) dropped.push(row.id);
      else if (read.status !== 'missing') found.set(row.id, read);
    };
    for (const row of await this.rows(db, ids, (id) => this.documents.revisionOf(id))) add(row);
    // Dropped from the cache by another read in the meantime: fetched after all (asking for every document).
    if (dropped.length) for (const row of await this.rows(db, dropped, () => undefined)) add(row);
    return found;
  }

  private async rows(db: Db, ids: string[], heldOf: (id: string) => number | undefined): Promise<(EntityRow & { id: string })[]> {
    if (ids.length !== 1) return q.readHeads(db, ids, ids.map(heldOf).filter((revision) => revision !== undefined));
    const row = await q.readHead(db, ids[0], heldOf(ids[0]) ?? 0);
    return row ? [row] : [];
  }

  /** A head row as a read: its document from this process's cache, or as sent; null if neither has it. */
  private heldOrSent(row: EntityRow & { id: string }, keep: boolean): DocumentRead | null {
    if (row.redirect_to) return { status: 'redirect', target: row.redirect_to };
    if (row.rev_id === null || row.timestamp === null) return { status: 'missing' };
    const revision = Number(row.rev_id);
    const head = toHead(revision, row.timestamp);
    const held = this.documents.get(row.id, revision);
    if (held !== undefined) return { status: 'found', head, json: () => held };
    const sent = row.content;
    if (sent === null) return null;
    if (keep) this.documents.put(row.id, revision, sent, sent.length);
    return { status: 'found', head, json: () => sent };
  }
}
