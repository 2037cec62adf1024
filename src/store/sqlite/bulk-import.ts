// SQLite's BulkImport part (store.ts): `entia import`'s batches, its bookkeeping (which source revision each
// entity came from, the resume checkpoint) and the deferred index build. Batches are written here or, for a
// file opened with importThread, by a worker with a connection of its own (import-thread.ts), which calls
// writePrepared, writeImportExtras and buildDeferred of its own store.
import type Database from 'better-sqlite3';
import { emptyEntity, type Entity } from '../../domain/entity.js';
import { popularity } from '../index-rows.js';
import { LOCAL_ID_START_KEY, type BuildStep, type BulkImport, type EditMeta, type ImportExtras, type ImportState, type LocalIdStart, type PackedImports, type ReadResult } from '../store.js';
import type { DeferredIndex } from './deferred-index.js';
import { decodeDocument, encodeDocument } from './documents.js';
import type { ImportThread } from './import-thread.js';
import type { SqliteIndexWriter } from './index-writer.js';
import { prepareImport, preparedJson, unpackSlice, preparedSlices, type ImportRevision, type PreparedEntity, type PreparedImport } from './prepared-import.js';
import type { Queries } from './queries.js';
import { numericPart, perKind } from '../../domain/kinds.js';

export class SqliteBulkImport implements BulkImport, PackedImports {
  constructor(private readonly db: Database.Database, private readonly q: Queries, private readonly rows: SqliteIndexWriter,
    private readonly deferred: DeferredIndex, private readonly read: (id: string) => ReadResult,
    private readonly thread: ImportThread | null, readonly deferIndexes: boolean) {}

  importEntities(entities: readonly Entity[], meta: EditMeta, extras: ImportExtras = {}): Promise<void> {
    return this.importPacked([], entities, meta, extras);
  }

  /** This store writes slices packed on other threads (`entia import --threads`). */
  get packedImports(): PackedImports {
    return this;
  }

  readonly packer = 'sqlite';

  /**
   * Slices packed on other threads (packImportSlice), then `entities`, prepared here one slice at a time, as
   * one transaction: on the import thread when the store has one.
   */
  async importPacked(packed: readonly Promise<Uint8Array>[], entities: readonly Entity[], meta: EditMeta, extras: ImportExtras = {}): Promise<void> {
    const revision = importRevision(meta);
    const prepared = preparedSlices(entities, this.deferIndexes);
    if (this.thread) return this.thread.write(revision, (function* () { yield* packed; yield* prepared; })(), extras);
    const ready = await Promise.all(packed);
    this.db.transaction(() => {
      for (const slice of [...ready, ...prepared]) this.writePrepared(unpackSlice(slice), revision);
      this.writeImportExtras(extras);
    }).immediate();
  }

  async finishImport(onStep?: (step: BuildStep) => void): Promise<void> {
    if (this.thread) return this.thread.build(onStep);
    this.buildDeferred(onStep);
  }

  /** Builds the indexes an import deferred (deferred-index.ts); here, or on the import thread. */
  buildDeferred(onStep?: (step: BuildStep) => void): void {
    this.deferred.build((id, stagedRevision) => {
      const staged = JSON.parse(decodeDocument(this.q.readContent.get(stagedRevision)!.content)) as Entity;
      const now = this.read(id);
      const after = now.status === 'found' ? now.entity : emptyEntity(staged.id, staged.type);
      this.rows.writeSearchable(staged, after);
    }, onStep);
  }

  /** Entities an import wrote whose search, term and value rows are not built yet. */
  async unindexedCount(): Promise<number> {
    return this.deferred.pendingCount();
  }

  /** The import's bookkeeping, inside the batch's transaction (here, or on the import thread). */
  writeImportExtras({ sourceRevisions = [], checkpoint }: ImportExtras): void {
    const record = this.db.prepare<[number, string]>(`INSERT OR REPLACE INTO import_sources (entity_id, source_rev, local_rev)
      SELECT id, ?, head_rev FROM entities WHERE id = ? AND head_rev IS NOT NULL`);
    for (const [id, sourceRevision] of sourceRevisions) record.run(sourceRevision, id);
    if (checkpoint) this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(checkpoint.key, checkpoint.value);
  }

  async localIdStart(proposed: LocalIdStart): Promise<LocalIdStart> {
    return this.db.transaction(() => {
      this.q.insertMeta.run(LOCAL_ID_START_KEY, JSON.stringify(proposed));
      const start = JSON.parse(this.q.readMeta.get(LOCAL_ID_START_KEY)!.value) as LocalIdStart;
      for (const [kind, first] of Object.entries(start)) this.q.raiseCounter.run(first - 1, kind, first - 1);
      return start;
    }).immediate();
  }

  async importStates(ids: readonly string[]): Promise<Map<string, ImportState>> {
    const rows = this.db.prepare<[string], { id: string; head_rev: number | null; redirect_to: string | null; source_rev: number | null; local_rev: number | null }>(`
      SELECT e.id, e.head_rev, e.redirect_to, s.source_rev, s.local_rev FROM entities e
      LEFT JOIN import_sources s ON s.entity_id = e.id
      WHERE e.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify([...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, {
      head: r.redirect_to === null ? r.head_rev : null, importedAs: r.local_rev, sourceRevision: r.source_rev,
    }]));
  }

  async sitelinkOwners(links: readonly (readonly [string, string])[]): Promise<Map<string, string>> {
    const owners = new Map<string, string>();
    if (links.length === 0) return owners;
    const rows = this.db.prepare<[string], { site: string; title: string; item_id: string }>(`
      SELECT site, title, item_id FROM sitelinks
      WHERE (site, title) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`).all(JSON.stringify(links));
    for (const r of rows) owners.set(`${r.site}\u0000${r.title}`, r.item_id);
    return owners;
  }

  async importCheckpoint(key: string): Promise<string | null> {
    return this.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(key)?.value ?? null;
  }

  async clearImportCheckpoint(key: string): Promise<void> {
    this.db.prepare('DELETE FROM meta WHERE key = ?').run(key);
  }

  /** Writes one prepared slice of an import inside the caller's transaction (here, or on the import thread). */
  writePrepared(prepared: PreparedImport, revision: ImportRevision): void {
    const replaced = this.idsToReplace(prepared.entities);
    if (replaced.size === 0) this.insertNew(prepared, revision);
    else this.writeReplacing(prepared.entities, replaced, revision);
    const highest: Record<string, number> = perKind(() => 0);
    for (const { id, type } of prepared.entities) highest[type] = Math.max(highest[type], numericPart(id));
    for (const [kind, last] of Object.entries(highest)) this.q.raiseCounter.run(last, kind, last);
  }

  /** Ids that the store holds already or that the slice holds twice: these need a diff each. */
  private idsToReplace(entities: readonly PreparedEntity[]): Set<string> {
    const seen = new Set<string>();
    const replaced = new Set<string>();
    for (const { id } of entities) (seen.has(id) ? replaced : seen).add(id);
    for (const { id } of this.q.existingIds.all(JSON.stringify([...seen]))) replaced.add(id);
    return replaced;
  }

  private insertImportRevision({ id, type, json, content }: PreparedEntity, revision: ImportRevision): number {
    return this.q.insertRevision.get(id, revision.timestamp, revision.user, revision.comment, revision.tags,
      revision.bot ? 1 : 0, content ?? encodeDocument(json!, type), null)!.rev_id;
  }

  /**
   * Entities the store does not hold: nothing to read or diff, every row is new and was derived beforehand.
   * Rows go in table by table, grouped by language or site (write-order.ts), a hundred per statement.
   */
  private insertNew({ entities, rows }: PreparedImport, revision: ImportRevision): void {
    const written = entities.map((e) => {
      const revId = this.insertImportRevision(e, revision);
      this.q.insertEntity.run(e.id, e.type, revId, e.sitelinks, e.statements);
      return { id: e.id, revision: revId };
    });
    if (this.deferIndexes) {
      this.deferred.stage(written, rows);
    } else {
      this.rows.search.insertNew(rows.search);
      this.rows.values.insertMany(rows.values);
      this.q.insertTerms(rows.terms);
    }
    // One by one: a taken page must be reported with its owner (insertSitelink).
    for (const [site, title, itemId] of rows.sitelinks) this.rows.insertSitelink(site, title, itemId);
  }

  /**
   * A slice that replaces entities or holds one twice (rare in an import): in slice order, runs of new
   * entities are inserted and each other one is diffed against the version before it.
   */
  private writeReplacing(entities: readonly PreparedEntity[], replaced: Set<string>, revision: ImportRevision): void {
    let run: Entity[] = [];
    const insertRun = () => {
      if (run.length > 0) this.insertNew(prepareImport(run, this.deferIndexes), revision);
      run = [];
    };
    for (const prepared of entities) {
      const { id } = prepared;
      const entity = JSON.parse(preparedJson(prepared)) as Entity;
      if (!replaced.has(id)) {
        run.push(entity);
        continue;
      }
      insertRun();
      const previous = this.read(id);
      const revId = this.insertImportRevision(prepared, revision);
      const pop = popularity(entity);
      if (previous.status === 'missing') this.q.insertEntity.run(id, entity.type, revId, pop.sitelinks, pop.statements);
      else this.q.updateHead.run(revId, pop.sitelinks, pop.statements, id);
      this.rows.write(previous.status === 'found' ? previous.entity : null, entity);
    }
    insertRun();
  }
}

function importRevision(meta: EditMeta): ImportRevision {
  return { user: meta.user, comment: meta.comment, tags: JSON.stringify(meta.tags), bot: meta.bot, timestamp: Math.floor(Date.now() / 1000) };
}
