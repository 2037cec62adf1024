// The rows derived from an entity (search keys, terms, statement values, sitelinks), written as the difference
// between two versions of it inside the caller's transaction. Edits, redirects, imports that replace an entity
// and the deferred build all write through here.
import type { Entity, KindName } from '../../domain/entity.js';
import type pg from 'pg';
import { diffIndexRows, diffSearchRows, type SitelinkRow, type TermRow } from '../index-rows.js';
import { EditConflict, PolicyViolation } from '../store.js';
import { queries as q, runCombined, termsAdded, termsRemoved, type Db, type TermColumns, type WritePart } from './queries.js';
import { searchRowParts } from './search.js';
import { valueDiffParts } from './statement-values.js';

type IndexRowDiff = ReturnType<typeof diffIndexRows>;

export class PostgresIndexWriter {
  /**
   * `waiting`: the entity was imported and its search, term and value rows are not built yet; the build
   * applies this difference (deferred-index.ts), so only the sitelinks are written here. `revision`: written in
   * the same statement as the rows (an edit's), its rows returned.
   */
  async write<R extends pg.QueryResultRow>(db: Db, before: Entity | null, after: Entity, waiting: boolean, revision?: WritePart): Promise<R[]> {
    const d = diffIndexRows(before, after);
    const id = after.id;
    const written = await runCombined<R>(db, waiting ? [] : searchableParts(before, after, d), revision);
    if (d.sitelinks.removed.length) {
      await q.deleteSitelinks(db, id, d.sitelinks.removed.map((s) => s.site), d.sitelinks.removed.map((s) => s.title));
    }
    await this.insertSitelinks(db, d.sitelinks.added.map((link) => ({ link, itemId: id })));
    return written;
  }

  /** The rows search and lookups read (search keys, terms, statement values); sitelinks are written apart. */
  async writeSearchable(db: Db, before: Entity | null, after: Entity): Promise<void> {
    await runCombined(db, searchableParts(before, after, diffIndexRows(before, after)));
  }

  /** Inserts sitelinks; a page another item already links is a PolicyViolation naming that item. */
  async insertSitelinks(db: Db, rows: { link: SitelinkRow; itemId: string }[]): Promise<void> {
    if (rows.length === 0) return;
    // One order for every transaction, so two edits claiming overlapping pages wait rather than deadlock.
    const sorted = [...rows].sort((a, b) => compare(a.link.site, b.link.site) || compare(a.link.title, b.link.title));
    const inserted = await q.insertSitelinks(db, sorted.map((r) => r.link.site), sorted.map((r) => r.link.title),
      sorted.map((r) => r.itemId));
    const done = new Set(inserted.map((r) => `${r.site}\u0000${r.title}`));
    for (const { link, itemId } of sorted) {
      if (done.has(`${link.site}\u0000${link.title}`)) continue;
      const owner = await q.sitelinkOwner(db, link.site, link.title);
      // The row that won vanished again before we looked: nothing to report, run the edit again.
      if (owner === null) throw new EditConflict(itemId);
      if (owner !== itemId) throw new PolicyViolation({ violation: 'sitelink-conflict', siteId: link.site, conflictingId: owner });
    }
  }
}

/** The writes of the rows search and lookups read: one statement for all of them (queries.ts `combined`). */
function searchableParts(before: Entity | null, after: Entity, d: IndexRowDiff): WritePart[] {
  const id = after.id;
  const parts = [...searchRowParts([diffSearchRows(before, after)]), ...valueDiffParts(after, d.values)];
  if (d.terms.removed.length) parts.push(termsRemoved(id, termColumns(id, after.type, d.terms.removed)));
  if (d.terms.added.length) parts.push(termsAdded(termColumns(id, after.type, d.terms.added)));
  return parts;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const emptyTermColumns = (): TermColumns => ({ entityIds: [], kinds: [], types: [], langs: [], texts: [] });

function termColumns(entityId: string, kind: KindName, rows: TermRow[]): TermColumns {
  const columns = emptyTermColumns();
  appendTerms(columns, entityId, kind, rows);
  return columns;
}

export function appendTerms(columns: TermColumns, entityId: string, kind: KindName, rows: TermRow[]): void {
  for (const t of rows) {
    columns.entityIds.push(entityId);
    columns.kinds.push(kind);
    columns.types.push(t.type);
    columns.langs.push(t.lang);
    columns.texts.push(t.text);
  }
}
