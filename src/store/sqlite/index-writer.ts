// The rows derived from an entity (search keys, terms, statement values, sitelinks), written as the difference
// between two versions of it. Edits, redirects, imports that replace an entity and the deferred build all write
// through here, so the rows cannot drift from the documents whichever path changed them.
import type { Entity } from '../../domain/entity.js';
import { diffIndexRows } from '../index-rows.js';
import { PolicyViolation } from '../store.js';
import type { DeferredIndex } from './deferred-index.js';
import type { Queries } from './queries.js';
import type { SqliteSearch } from './search.js';
import type { SqliteStatementValues } from './statement-values.js';

export class SqliteIndexWriter {
  constructor(private readonly q: Queries, readonly search: SqliteSearch, readonly values: SqliteStatementValues,
    private readonly deferred: DeferredIndex) {}

  /** Every derived row of `after`, given the rows `before` had (null: a new entity). */
  write(before: Entity | null, after: Entity): void {
    const d = diffIndexRows(before, after);
    const id = after.id;
    // An entity whose import has not built its rows yet: the build applies this difference (deferred-index.ts).
    if (!this.deferred.markEdited(id)) this.writeSearchable(before, after, d);
    for (const s of d.sitelinks.removed) this.q.deleteSitelink.run(s.site, s.title, id);
    for (const s of d.sitelinks.added) this.insertSitelink(s.site, s.title, id);
  }

  /** The rows search and lookups read (search keys, terms, statement values); sitelinks are written apart. */
  writeSearchable(before: Entity | null, after: Entity, d = diffIndexRows(before, after)): void {
    const id = after.id;
    this.search.writeRows(before, after);
    this.values.write(after, d.values);
    for (const t of d.terms.removed) this.q.deleteTerm.run(id, t.type, t.lang, t.text);
    for (const t of d.terms.added) this.q.insertTerm.run(id, after.type, t.type, t.lang, t.text);
  }

  insertSitelink(site: string, title: string, itemId: string): void {
    try {
      this.q.insertSitelink.run(site, title, itemId);
    } catch (e) {
      // The primary key is the last line of defence for "one item per page" (docs/api.md §6.4).
      if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw e;
      const owner = this.q.sitelinkOwner.get(site, title);
      throw new PolicyViolation({ violation: 'sitelink-conflict', siteId: site, conflictingId: owner?.item_id ?? '' });
    }
  }
}
