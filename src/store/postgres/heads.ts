// Reading entity heads from PostgreSQL with their documents: the head on every read, so a read is never older
// than the database; the document only when this process does not hold that revision already. Single reads
// that arrive in one turn of the event loop share one query (ADR 0002, "Reads in one turn").
import type { DocumentRead, Head } from '../store.js';
import type { RevisionCache } from '../revision-cache.js';
import { queries as q, type Db, type EntityRow } from './queries.js';

/** A head from a revision row's id and time. */
export const toHead = (rev: number, ts: Date): Head => ({ revision: rev, modified: ts });

type HeadRow = EntityRow & { id: string };

/**
 * The heads of `ids` (distinct), with the documents of revisions not `held`. One id keeps its own query: the
 * batch form costs the server about twice as much for one id (ADR 0002).
 */
async function readRows(db: Db, ids: readonly string[], held: readonly number[]): Promise<HeadRow[]> {
  if (ids.length !== 1) return q.readHeads(db, [...ids], [...held]);
  const row = await q.readHead(db, ids[0], held[0] ?? 0);
  return row ? [row] : [];
}

/** Ids a shared read asks for at most: bounds the answer (documents of up to some MB each) and the array sent. */
const MAX_SHARED = 64;

interface Waiting { id: string; held: number; resolve(row: HeadRow | undefined): void; reject(error: unknown): void }

/**
 * The single reads of one database (the primary's pool, or the replicas) that arrive in one turn of the event
 * loop, sent together when the turn's I/O has been handled (setImmediate). Under load the round trip to the
 * server is the read's cost, in both processes; a lone read waits for nothing but the end of its turn, and is
 * still sent after the request that asked for it arrived, so it is as fresh as before.
 */
class SharedReads {
  private waiting: Waiting[] = [];

  constructor(private readonly db: Db) {}

  read(id: string, held: number): Promise<HeadRow | undefined> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.send());
      this.waiting.push({ id, held, resolve, reject });
      if (this.waiting.length >= MAX_SHARED) this.send();
    });
  }

  private send(): void {
    const reads = this.waiting;
    if (reads.length === 0) return;
    this.waiting = [];
    const ids = [...new Set(reads.map((read) => read.id))];
    const held = reads.map((read) => read.held).filter((revision) => revision > 0);
    readRows(this.db, ids, held).then((rows) => {
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const read of reads) read.resolve(byId.get(read.id));
    }, (error: unknown) => { for (const read of reads) read.reject(error); });
  }
}

export class HeadReads {
  private readonly shared = new WeakMap<Db, SharedReads>();

  constructor(private readonly documents: RevisionCache<string>) {}

  /**
   * The heads are read on every request, so a read is never older than the database; a document travels only
   * when this process does not hold that revision's already (ADR 0002, "Reads and prepared statements").
   */
  async read(db: Db, ids: string[], keep: boolean): Promise<Map<string, DocumentRead>> {
    const found = new Map<string, DocumentRead>();
    const dropped: string[] = [];
    const add = (row: HeadRow) => {
      const read = this.heldOrSent(row, keep);
      if (read === null) dropped.push(row.id);
      else if (read.status !== 'missing') found.set(row.id, read);
    };
    for (const row of await this.rows(db, ids, (id) => this.documents.revisionOf(id))) add(row);
    // Dropped from the cache by another read in the meantime: fetched after all (asking for every document).
    if (dropped.length) for (const row of await this.rows(db, dropped, () => undefined)) add(row);
    return found;
  }

  private async rows(db: Db, ids: string[], heldOf: (id: string) => number | undefined): Promise<HeadRow[]> {
    if (ids.length !== 1) return readRows(db, ids, ids.map(heldOf).filter((revision) => revision !== undefined));
    let shared = this.shared.get(db);
    if (!shared) this.shared.set(db, (shared = new SharedReads(db)));
    const row = await shared.read(ids[0], heldOf(ids[0]) ?? 0);
    return row ? [row] : [];
  }

  /** A head row as a read: its document from this process's cache, or as sent; null if neither has it. */
  private heldOrSent(row: HeadRow, keep: boolean): DocumentRead | null {
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
