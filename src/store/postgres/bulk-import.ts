// PostgreSQL's BulkImport part (store.ts, ADR 0008): `entia import`'s batches in one transaction each, with
// array-bound statements and COPY; its bookkeeping (source revisions, the resume checkpoint); the deferred
// index build.
import type pg from 'pg';
import { emptyEntity, type Entity, type KindName } from '../../domain/entity.js';
import { appendDeferredRows, diffIndexRows, diffSearchRows, emptyDeferredRows, indexRows, popularity, type SitelinkRow } from '../index-rows.js';
import { DEFAULT_PREFIX_LANGUAGE_MIN } from '../prefix-languages.js';
import { LOCAL_ID_START_KEY, type BuildStep, type BulkImport, type EditMeta, type ImportExtras, type ImportState, type LocalIdStart, type PackedImports } from '../store.js';
import { unpackPostgresSlice, type PostgresSlice } from './packed-import.js';
import type { PostgresDeferredIndex } from './deferred-index.js';
import { appendTerms, emptyTermColumns, type PostgresIndexWriter } from './index-writer.js';
import { accountQueries, importQueries, queries as q, runCombined, termsAdded, type Db } from './queries.js';
import { searchQueries } from './search-queries.js';
import { searchRowParts } from './search.js';
import { appendValues, emptyValueColumns, valueParts } from './statement-values.js';
import { inTransaction } from './transaction.js';
import { KINDS, numericPart, perKind } from '../../domain/kinds.js';

export class PostgresBulkImport implements BulkImport, PackedImports {
  /** Set by `entia import` (openPostgresStore's deferIndexes): new entities' rows wait for finishImport. */
  deferIndexes = false;
  /** Folded terms a language needs for the build to make its prefix rows (openPostgresStore's prefixLanguageMin). */
  prefixLanguageMin = DEFAULT_PREFIX_LANGUAGE_MIN;

  constructor(private readonly pool: pg.Pool, private readonly rows: PostgresIndexWriter,
    private readonly deferred: PostgresDeferredIndex) {}

  async importEntities(entities: readonly Entity[], meta: EditMeta, extras: ImportExtras = {}): Promise<void> {
    if (entities.length === 0 && !extras.checkpoint) return;
    await this.importPacked([], entities, meta, extras);
  }

  /** This store writes slices packed on other threads (`entia import --threads`, packed-import.ts). */
  get packedImports(): PackedImports {
    return this;
  }

  readonly packer = 'postgres';

  /**
   * Slices packed on other threads (packPostgresSlice), then `entities`, as one transaction (importEntities is
   * this with no slices). A slice whose entities are all new goes in with the rows it brings; one that replaces
   * any is read back and imported as `entities` are (its ids are distinct: the import settles duplicates).
   */
  async importPacked(packed: readonly Promise<Uint8Array>[], entities: readonly Entity[], meta: EditMeta, extras: ImportExtras = {}): Promise<void> {
    const slices = (await Promise.all(packed)).map(unpackPostgresSlice);
    await inTransaction(this.pool, async (client) => {
      if (this.deferIndexes) await this.deferred.holdOffBuild(client);
      for (const slice of slices) {
        const fresh = this.deferIndexes && (await searchQueries.contents(client, slice.ids)).length === 0;
        if (fresh) await this.insertNew(client, slice, meta);
        else await this.importBatch(client, slice.documents.map((d) => JSON.parse(d) as Entity), meta);
      }
      for (const batch of distinctIdBatches(entities)) if (batch.length) await this.importBatch(client, batch, meta);
      await this.finishBatch(client, [...slices.flatMap((s) => s.ids.map((id, i) => [id, s.types[i]] as const)),
        ...entities.map((e) => [e.id, e.type] as const)], extras);
    });
  }

  /** A batch's end, in its transaction: the id counters past its ids, the source revisions, the checkpoint. */
  private async finishBatch(client: pg.PoolClient, written: readonly (readonly [string, KindName])[], extras: ImportExtras): Promise<void> {
    const highest = perKind(() => 0);
    for (const [id, type] of written) highest[type] = Math.max(highest[type], numericPart(id));
    for (const kind of KINDS) if (highest[kind.name] > 0) await q.raiseId(client, kind.name, highest[kind.name]);
    const sources = extras.sourceRevisions ?? [];
    if (sources.length) await importQueries.recordSources(client, sources.map(([id]) => id), sources.map(([, rev]) => rev));
    if (extras.checkpoint) await importQueries.setMeta(client, extras.checkpoint.key, extras.checkpoint.value);
  }

  /** New entities of a packed slice: importBatch's writes for entities none of which exists, with rows derived already. */
  private async insertNew(client: pg.PoolClient, slice: PostgresSlice, meta: EditMeta): Promise<void> {
    const revIds = await q.nextRevisionIds(client, slice.ids.length);
    await q.insertRevisions(client, revIds, slice.ids, slice.documents, meta);
    await q.upsertEntities(client, slice.ids, slice.types, revIds, slice.sitelinkCounts, slice.statementCounts);
    await this.deferred.stage(client, slice.ids.map((id, i) => ({ id, revision: revIds[i] })), slice.staged);
    await this.rows.insertSitelinks(client, slice.sitelinks);
  }

  async localIdStart(proposed: LocalIdStart): Promise<LocalIdStart> {
    return inTransaction(this.pool, async (client) => {
      const start = JSON.parse(await accountQueries.metaValue(client, LOCAL_ID_START_KEY, JSON.stringify(proposed))) as LocalIdStart;
      for (const [kind, first] of Object.entries(start) as [KindName, number][]) await q.raiseId(client, kind, first - 1);
      return start;
    });
  }

  async importStates(ids: readonly string[]): Promise<Map<string, ImportState>> {
    const found = await importQueries.states(this.pool, [...new Set(ids)]);
    const num = (v: string | null) => (v === null ? null : Number(v));
    return new Map(found.map((r) => [r.id, {
      head: r.redirect_to === null ? num(r.head_rev) : null, importedAs: num(r.local_rev), sourceRevision: num(r.source_rev),
    }]));
  }

  async sitelinkOwners(links: readonly (readonly [string, string])[]): Promise<Map<string, string>> {
    const owners = new Map<string, string>();
    if (links.length === 0) return owners;
    for (const r of await importQueries.sitelinkOwners(this.pool, links.map(([site]) => site), links.map(([, title]) => title))) {
      owners.set(`${r.site}\u0000${r.title}`, r.item_id);
    }
    return owners;
  }

  async importCheckpoint(key: string): Promise<string | null> {
    return (await importQueries.getMeta(this.pool, key))?.value ?? null;
  }

  async clearImportCheckpoint(key: string): Promise<void> {
    await importQueries.deleteMeta(this.pool, key);
  }

  async finishImport(onStep?: (step: BuildStep) => void): Promise<void> {
    await this.deferred.build((db, id, stagedRevision) => this.reindexWaiting(db, id, stagedRevision), onStep, this.prefixLanguageMin);
  }

  /** Entities an import wrote whose search, term and value rows are not built yet. */
  async unindexedCount(): Promise<number> {
    return this.deferred.pendingCount();
  }

  /** A waiting entity edited since its import: its rows go from the staged revision's to the head's. */
  private async reindexWaiting(db: Db, id: string, stagedRevision: number): Promise<void> {
    const staged = JSON.parse((await q.revisionContent(db, stagedRevision))!.content) as Entity;
    const head = await q.readEntity(db, id);
    const after = head?.content && !head.redirect_to ? JSON.parse(head.content) as Entity : emptyEntity(staged.id, staged.type);
    await this.rows.writeSearchable(db, staged, after);
  }

  /**
   * Writes a batch of entities with distinct ids in a handful of statements. New entities' search, term and
   * value rows are staged when the store defers them; a replaced entity's rows are diffed against the document
   * it replaces, or left to the build when they are not built yet.
   */
  private async importBatch(client: pg.PoolClient, batch: Entity[], meta: EditMeta): Promise<void> {
    const ids = batch.map((e) => e.id);
    // Search rows are keyed by their content, not by entity: the replaced documents say which rows to drop.
    const previous = new Map((await searchQueries.contents(client, ids)).map((r) => [r.id, JSON.parse(r.content) as Entity]));
    const revIds = await q.nextRevisionIds(client, batch.length);
    await q.insertRevisions(client, revIds, ids, batch.map((e) => JSON.stringify(e)), meta);
    const counts = batch.map(popularity);
    await q.upsertEntities(client, ids, batch.map((e) => e.type), revIds, counts.map((c) => c.sitelinks), counts.map((c) => c.statements));
    const replacedIds = ids.filter((id) => previous.has(id));
    const waiting = replacedIds.length ? await this.deferred.markEdited(client, replacedIds) : new Set<string>();
    await q.deleteTermsOf(client, replacedIds.filter((id) => !waiting.has(id)));
    const staged = emptyDeferredRows();
    const fresh: { id: string; revision: number }[] = [];
    const immediate: Entity[] = [];
    const terms = emptyTermColumns();
    const sitelinks: { link: SitelinkRow; itemId: string }[] = [];
    const removedValues = emptyValueColumns();
    const addedValues = emptyValueColumns();
    batch.forEach((entity, i) => {
      const rows = indexRows(entity);
      for (const link of rows.sitelinks) sitelinks.push({ link, itemId: entity.id });
      const replaced = previous.get(entity.id);
      if (!replaced && this.deferIndexes) {
        appendDeferredRows(staged, entity, rows);
        fresh.push({ id: entity.id, revision: revIds[i] });
        return;
      }
      if (waiting.has(entity.id)) return;
      immediate.push(entity);
      appendTerms(terms, entity.id, entity.type, rows.terms);
      // Value rows are keyed by property first: a replaced document says which rows of this entity to drop.
      const values = replaced ? diffIndexRows(replaced, entity).values : { removed: [], added: rows.values };
      appendValues(removedValues, entity, values.removed);
      appendValues(addedValues, entity, values.added);
    });
    // One statement, as an edit's rows (queries.ts `combined`): no two of these writes touch one row.
    await runCombined(client, [...searchRowParts(immediate.map((e) => diffSearchRows(previous.get(e.id) ?? null, e))),
      ...(terms.entityIds.length ? [termsAdded(terms)] : []),
      ...valueParts(removedValues, addedValues)]);
    await this.deferred.stage(client, fresh, staged);
    await q.deleteSitelinksOf(client, replacedIds);
    await this.rows.insertSitelinks(client, sitelinks);
  }
}

/** Consecutive runs without a repeated id: one upsert may not touch the same row twice. */
function distinctIdBatches(entities: readonly Entity[]): Entity[][] {
  const batches: Entity[][] = [];
  let current: Entity[] = [];
  let seen = new Set<string>();
  for (const entity of entities) {
    if (seen.has(entity.id)) {
      batches.push(current);
      current = [];
      seen = new Set();
    }
    seen.add(entity.id);
    current.push(entity);
  }
  batches.push(current);
  return batches;
}
