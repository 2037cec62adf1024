// SQLite backend: one file, WAL mode, one connection per process. better-sqlite3 is synchronous, so a write
// transaction runs whole, with no other write of this process in between; other processes on the same file
// wait on the busy timeout. Edits are committed in groups (see applyEdit).
import Database from 'better-sqlite3';
import { firstViolation } from '../../domain/policy.js';
import { emptyEntity, entityJson, freezeJson, type Entity, type KindName } from '../../domain/entity.js';
import { EntityCache } from '../entity-cache.js';
import { decodeDocument, encodeDocument } from './documents.js';
import { changeOf, revisionContent, type ChangeRow } from '../revision-content.js';
import { searchFilter } from '../search-filter.js';
import { diffIndexRows, popularity } from '../index-rows.js';
import { SqliteStatementValues } from './statement-values.js';
import {
  EditConflict, PolicyViolation,
  type AccountStore, type CounterHit, type DocumentRead, type EditInput, type EditMeta, type Head, type PolicyChecks, type PolicyQuery, type ReadPurpose,
  type ReadResult, type RevisionRecord,
  type SearchHit, type SearchQuery, type Store, type StoreProbe, type UniquenessViolation, type ImportExtras, type ImportState, type RevisionContent, type Change, type ChangeQuery, type BuildStep, InvalidCursor,
} from '../store.js';
import { sqliteAccounts } from './accounts.js';
import { MIGRATIONS } from './migrations.js';
import { prepareQueries, type Queries } from './queries.js';
import { SqliteSearch } from './search.js';
import { ImportThread } from './import-thread.js';
import { DeferredIndex } from './deferred-index.js';
import { prepareImport, preparedSlices, type ImportRevision, type PreparedEntity, type PreparedImport } from './prepared-import.js';
import { kindByName } from '../../domain/kinds.js';

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** Parsed documents kept in memory, in MB of their JSON (default 4; 0 turns the cache off). */
  entityCacheMb?: number;
  /** SQLite's page cache in MB (default: SQLite's own, 2 MB). Bulk imports want much more (cli/import.ts). */
  pageCacheMb?: number;
  /**
   * Size in MB the write-ahead log may reach before this connection copies it into the database file (default:
   * SQLite's, 4 MB). A bulk import raises it: its batches change pages all over the indexes, and copying after
   * every batch writes most of those pages twice per batch (cli/import.ts).
   */
  checkpointMb?: number;
  /**
   * importEntities writes from a worker thread with a connection of its own, while this thread prepares the
   * next slice and the caller reads the next batch (import-thread.ts). Files only; for `entia import`.
   */
  importThread?: boolean;
  /**
   * importEntities stages the index rows of new entities and finishImport builds the indexes from them in key
   * order (deferred-index.ts, ADR 0008): for `entia import`. Sorting needs temporary files beside SQLite's
   * other temporary files (SQLITE_TMPDIR, else /var/tmp or /tmp), about the size of the indexes built.
   */
  deferIndexes?: boolean;
}

// Parsed, a document takes about six times its JSON length of heap (two-byte strings, objects), and its
// rendered bytes once more: 4 MB of JSON (about 400 typical items) costs some 30 MB of the server's memory.
const DEFAULT_CACHE_MB = 4;

/** WAL pages (4 KB each) after which a commit checkpoints. */
const WAL_CHECKPOINT_PAGES = 4000;

export function openSqliteStore(options: SqliteOptions): SqliteStore {
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // A checkpoint copies the WAL's pages into the database and syncs both, inside the COMMIT that crosses the
  // threshold. At 16 MB instead of SQLite's 4 MB a page rewritten by several edits is copied once for all of
  // them: on label edits, a quarter as many syncs and 40% fewer checkpoint writes (measured, issue #8).
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // Group commit nests each edit in a SAVEPOINT, whose undo pages go to a statement journal: kept in memory, as a
  // temporary file it doubled the writes of every edit (measured). Entia's queries sort nothing large.
  // A deferred import stages its index rows in the temporary database and sorts them: those go to files.
  db.pragma(`temp_store = ${options.deferIndexes ? 'FILE' : 'MEMORY'}`);
  if (options.pageCacheMb !== undefined) db.pragma(`cache_size = -${options.pageCacheMb * 1024}`);
  if (options.checkpointMb !== undefined) {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`wal_autocheckpoint = ${Math.ceil(options.checkpointMb * 2 ** 20 / pageSize)}`);
  }
  migrate(db);
  const thread = options.importThread && options.path !== ':memory:' ? new ImportThread({ ...options, importThread: false }) : null;
  const store = new SqliteStore(db, new EntityCache((options.entityCacheMb ?? DEFAULT_CACHE_MB) * 2 ** 20), thread,
    options.deferIndexes ?? false);
  const current = (id: string) => {
    const read = store.readEntitySync(id, false);
    return read.status === 'found' ? read.entity : null;
  };
  store.searchIndex.drainBacklog(db, current);
  store.statementValues.drainBacklog(current);
  return store;
}

function migrate(db: Database.Database): void {
  // The version is read inside BEGIN IMMEDIATE: of several processes opening a fresh file together, the first
  // migrates and the others then see the new version instead of running the same migration again.
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    for (let i = version; i < MIGRATIONS.length; i++) db.exec(MIGRATIONS[i]);
    if (version < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

const toHead = (rev: number, ts: number): Head => ({ revision: rev, modified: new Date(ts * 1000) });

/** Most edits one group commit takes; the rest wait for the next group. */
const MAX_GROUP = 64;

interface QueuedEdit {
  edit: EditInput;
  resolve: (head: Head) => void;
  reject: (error: unknown) => void;
}

type Outcome = { head: Head } | { error: unknown };

export class SqliteStore implements Store {
  readonly q: Queries;
  readonly accounts: AccountStore;
  readonly searchIndex: SqliteSearch;
  readonly statementValues: SqliteStatementValues;
  private queued: QueuedEdit[] = [];
  /** One edit inside the group's transaction: better-sqlite3 runs a nested transaction as a SAVEPOINT. */
  private readonly editInSavepoint: (edit: EditInput) => Head;
  private readonly group: { immediate: (edits: QueuedEdit[]) => Outcome[] };

  private readonly deferred: DeferredIndex;

  constructor(readonly db: Database.Database, private readonly cache: EntityCache = new EntityCache(0),
    private readonly importThread: ImportThread | null = null, private readonly deferIndexes = false) {
    this.q = prepareQueries(db);
    this.deferred = new DeferredIndex(db, deferIndexes);
    this.accounts = sqliteAccounts(this.q);
    this.searchIndex = new SqliteSearch(db);
    this.statementValues = new SqliteStatementValues(db);
    this.editInSavepoint = db.transaction((edit: EditInput) => this.applyEditInTransaction(edit));
    this.group = db.transaction((edits: QueuedEdit[]) => edits.map((q) => this.applyOneOfGroup(q.edit)));
  }

  async readEntity(id: string, purpose: ReadPurpose = 'read'): Promise<ReadResult> {
    return this.readEntitySync(id, purpose === 'read');
  }

  /** `cache` false: a one-off read (an edit's, a bulk import's) that should not displace what readers use. */
  readEntitySync(id: string, cache = true): ReadResult {
    const found = this.locate(id);
    if (found.status !== 'found') return found;
    const { revision } = found.head;
    const cached = this.cache.get(id, revision);
    if (cached) return { status: 'found', entity: cached, head: found.head };
    const json = decodeDocument(this.q.readContent.get(revision)!.content);
    const parsed = JSON.parse(json) as Entity;
    const entity = cache ? this.cache.put(id, revision, parsed, json.length) : freezeJson(parsed);
    return { status: 'found', entity, head: found.head };
  }

  async readDocument(id: string): Promise<DocumentRead> {
    const found = this.locate(id);
    if (found.status !== 'found') return found;
    // A revision's content never changes, so reading it later (or never) is as good as now.
    return { ...found, json: () => decodeDocument(this.q.readContent.get(found.head.revision)!.content) };
  }

  async readDocuments(ids: readonly string[]): Promise<Map<string, DocumentRead>> {
    const found = new Map<string, DocumentRead>();
    for (const row of this.q.readHeads.all(JSON.stringify(ids))) {
      if (row.redirect_to) found.set(row.id, { status: 'redirect', target: row.redirect_to });
      else if (row.rev_id !== null) {
        const revision = row.rev_id;
        found.set(row.id, { status: 'found', head: toHead(revision, row.timestamp),
          json: () => decodeDocument(this.q.readContent.get(revision)!.content) });
      }
    }
    return found;
  }

  /** The head first: the document only when no cache holds that revision. */
  private locate(id: string): { status: 'found'; head: Head } | { status: 'redirect'; target: string } | { status: 'missing' } {
    const row = this.q.readHead.get(id);
    if (!row) return { status: 'missing' };
    if (row.redirect_to) return { status: 'redirect', target: row.redirect_to };
    if (row.rev_id === null) return { status: 'missing' };
    return { status: 'found', head: toHead(row.rev_id, row.timestamp) };
  }

  async allocateId(kind: KindName): Promise<string> {
    const { last } = this.q.allocateId.get(kind)!;
    return kindByName(kind).prefix + last;
  }

  /**
   * Group commit: edits that arrive while the event loop is busy wait for its next turn and are then written in
   * one transaction, each in its own SAVEPOINT. A failed edit (conflict, policy violation, constraint) rolls
   * back alone and the others commit; every caller hears of its edit only after the COMMIT. Each edit still
   * checks its compare-and-set and uniqueness rules inside the transaction, after the edits before it in the
   * group, exactly as if they had been committed one by one: the group saves the per-transaction cost (BEGIN,
   * COMMIT and the pages several edits share, written to the WAL once).
   */
  applyEdit(edit: EditInput): Promise<Head> {
    return new Promise((resolve, reject) => {
      this.queued.push({ edit, resolve, reject });
      if (this.queued.length === 1) setImmediate(() => this.commitQueued());
    });
  }

  private commitQueued(): void {
    const edits = this.queued.splice(0, MAX_GROUP);
    if (this.queued.length > 0) setImmediate(() => this.commitQueued());
    if (edits.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.group.immediate(edits);
    } catch (error) {
      // BEGIN or COMMIT failed, or SQLite rolled the whole transaction back: nothing of the group was written.
      for (const q of edits) q.reject(error);
      return;
    }
    edits.forEach((q, i) => {
      const outcome = outcomes[i];
      if ('head' in outcome) q.resolve(outcome.head);
      else q.reject(outcome.error);
    });
  }

  private applyOneOfGroup(edit: EditInput): Outcome {
    try {
      return { head: this.editInSavepoint(edit) };
    } catch (error) {
      // Some errors (I/O, disk full) make SQLite roll back the whole transaction: then the group fails as one.
      if (!this.db.inTransaction) throw error;
      return { error };
    }
  }

  private applyEditInTransaction(edit: EditInput): Head {
    const { entity, previous, meta } = edit;
    const current = this.q.headOf.get(entity.id);
    if (previous) {
      if (!current || current.head_rev !== previous.head.revision) throw new EditConflict(entity.id);
    } else if (current) {
      throw new EditConflict(entity.id);
    }
    const violation = firstViolation(entity, edit.checks, (query) => this.policyHolder(query));
    if (violation) throw new PolicyViolation(violation);

    const timestamp = Math.floor(Date.now() / 1000);
    // A single edit keeps its document as text: compressing it cost about 180 µs of CPU per edit (measured,
    // ADR 0005), and bulk loads, which write almost all of a large store, compress theirs (prepared-import.ts).
    const content = entityJson(entity);
    const { rev_id } = this.q.insertRevision.get(entity.id, timestamp, meta.user, meta.comment,
      JSON.stringify(meta.tags), meta.bot ? 1 : 0, content, meta.action ?? null)!;
    const pop = popularity(entity);
    if (current) this.q.updateHead.run(rev_id, pop.sitelinks, pop.statements, entity.id);
    else this.q.insertEntity.run(entity.id, entity.type, rev_id, pop.sitelinks, pop.statements);
    this.writeIndexRows(previous?.entity ?? null, entity);
    return toHead(rev_id, timestamp);
  }

  private writeIndexRows(before: Entity | null, after: Entity): void {
    const d = diffIndexRows(before, after);
    const id = after.id;
    // An entity whose import has not built its rows yet: the build applies this difference (deferred-index.ts).
    if (!this.deferred.markEdited(id)) this.writeSearchableRows(before, after, d);
    for (const s of d.sitelinks.removed) this.q.deleteSitelink.run(s.site, s.title, id);
    for (const s of d.sitelinks.added) this.insertSitelink(s.site, s.title, id);
  }

  /** The rows search and lookups read (search keys, terms, statement values); sitelinks are written apart. */
  private writeSearchableRows(before: Entity | null, after: Entity, d = diffIndexRows(before, after)): void {
    const id = after.id;
    this.searchIndex.writeRows(before, after);
    this.statementValues.write(after, d.values);
    for (const t of d.terms.removed) this.q.deleteTerm.run(id, t.type, t.lang, t.text);
    for (const t of d.terms.added) this.q.insertTerm.run(id, after.type, t.type, t.lang, t.text);
  }

  private insertSitelink(site: string, title: string, itemId: string): void {
    try {
      this.q.insertSitelink.run(site, title, itemId);
    } catch (e) {
      // The primary key is the last line of defence for "one item per page" (docs/api.md §6.4).
      if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw e;
      const owner = this.q.sitelinkOwner.get(site, title);
      throw new PolicyViolation({ violation: 'sitelink-conflict', siteId: site, conflictingId: owner?.item_id ?? '' });
    }
  }

  async importEntities(entities: readonly Entity[], meta: EditMeta, extras: ImportExtras = {}): Promise<void> {
    const revision: ImportRevision = { user: meta.user, comment: meta.comment, tags: JSON.stringify(meta.tags),
      bot: meta.bot, timestamp: Math.floor(Date.now() / 1000) };
    const slices = preparedSlices(entities);
    if (this.importThread) return this.importThread.write(revision, slices, extras);
    this.db.transaction(() => {
      for (const prepared of slices) this.writePrepared(prepared, revision);
      this.writeImportExtras(extras);
    }).immediate();
  }

  async finishImport(onStep?: (step: BuildStep) => void): Promise<void> {
    if (this.importThread) return this.importThread.build(onStep);
    this.buildDeferred(onStep);
  }

  /** Builds the indexes an import deferred (deferred-index.ts); here, or on the import thread. */
  buildDeferred(onStep?: (step: BuildStep) => void): void {
    this.deferred.build((id, stagedRevision) => {
      const staged = JSON.parse(decodeDocument(this.q.readContent.get(stagedRevision)!.content)) as Entity;
      const now = this.readEntitySync(id, false);
      const after = now.status === 'found' ? now.entity : emptyEntity(staged.id, staged.type);
      this.writeSearchableRows(staged, after);
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
    const highest: Record<string, number> = { item: 0, property: 0 };
    for (const { id, type } of prepared.entities) highest[type] = Math.max(highest[type], Number(id.slice(1)));
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

  private insertImportRevision({ id, type, json }: PreparedEntity, revision: ImportRevision): number {
    return this.q.insertRevision.get(id, revision.timestamp, revision.user, revision.comment, revision.tags,
      revision.bot ? 1 : 0, encodeDocument(json, type), null)!.rev_id;
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
      this.searchIndex.insertNew(rows.search);
      this.statementValues.insertMany(rows.values);
      this.q.insertTerms(rows.terms);
    }
    // One by one: a taken page must be reported with its owner (insertSitelink).
    for (const [site, title, itemId] of rows.sitelinks) this.insertSitelink(site, title, itemId);
  }

  /**
   * A slice that replaces entities or holds one twice (rare in an import): in slice order, runs of new
   * entities are inserted and each other one is diffed against the version before it.
   */
  private writeReplacing(entities: readonly PreparedEntity[], replaced: Set<string>, revision: ImportRevision): void {
    let run: Entity[] = [];
    const insertRun = () => {
      if (run.length > 0) this.insertNew(prepareImport(run), revision);
      run = [];
    };
    for (const prepared of entities) {
      const { id } = prepared;
      const entity = JSON.parse(prepared.json) as Entity;
      if (!replaced.has(id)) {
        run.push(entity);
        continue;
      }
      insertRun();
      const previous = this.readEntitySync(id, false);
      const revId = this.insertImportRevision(prepared, revision);
      const pop = popularity(entity);
      if (previous.status === 'missing') this.q.insertEntity.run(id, entity.type, revId, pop.sitelinks, pop.statements);
      else this.q.updateHead.run(revId, pop.sitelinks, pop.statements, id);
      this.writeIndexRows(previous.status === 'found' ? previous.entity : null, entity);
    }
    insertRun();
  }

  async redirectEntity(sourceId: string, targetId: string, meta: EditMeta): Promise<void> {
    this.db.transaction(() => {
      const target = this.readEntitySync(targetId);
      if (target.status !== 'found' || !kindByName(target.entity.type).redirects) throw new Error(`${targetId} is not an item`);
      const source = this.readEntitySync(sourceId);
      if (source.status === 'found') this.writeIndexRows(source.entity, emptyEntity(source.entity.id, source.entity.type));
      const timestamp = Math.floor(Date.now() / 1000);
      const { rev_id } = this.q.insertRevision.get(sourceId, timestamp, meta.user, meta.comment, JSON.stringify(meta.tags),
        meta.bot ? 1 : 0, JSON.stringify({ id: sourceId, redirect: targetId }), 'redirect')!;
      this.q.upsertRedirect.run(sourceId, rev_id, targetId);
    }).immediate();
  }

  /** One writer per file: the process's own edit queue orders its edits, and SQLite's lock the processes' writes. */
  inTurn<T>(_entityId: string, task: () => Promise<T>): Promise<T> {
    return task();
  }

  async findViolation(entity: Entity, checks: PolicyChecks): Promise<UniquenessViolation | null> {
    return firstViolation(entity, checks, (query) => this.policyHolder(query));
  }

  /** The data policy's lookup port (domain/policy.ts): another entity holding the value, or null. */
  private policyHolder(query: PolicyQuery): string | null {
    switch (query.rule) {
      case 'property-label': return this.q.propertyWithLabel.get(query.language, query.label, query.exceptId)?.entity_id ?? null;
      case 'item-label-description':
        return this.q.itemWithLabelAndDescription.get(query.language, query.label, query.description, query.exceptId)?.entity_id ?? null;
      case 'sitelink': return this.q.sitelinkOwner.get(query.siteId, query.title)?.item_id ?? null;
    }
  }

  async lookupEntities(ids: readonly string[]): Promise<Map<string, string | null>> {
    const found = new Map<string, string | null>();
    for (const row of this.q.lookupEntities.all(JSON.stringify([...new Set(ids)]))) found.set(row.id, row.data_type);
    return found;
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    return this.searchIndex.search(query, searchFilter(query, this.statementValues));
  }

  async revisions(entityId: string, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<RevisionRecord[]> {
    return this.q.revisionsOf.all(entityId, before, limit).map((r) => ({
      revision: r.rev_id, entityId: r.entity_id, timestamp: new Date(r.timestamp * 1000), user: r.user,
      comment: r.comment, tags: JSON.parse(r.tags) as string[], bot: r.bot === 1,
      size: Buffer.byteLength(decodeDocument(r.content)),
    }));
  }

  async changes(query: ChangeQuery): Promise<Change[]> {
    const since = query.since === null ? (query.newestFirst ? Number.MAX_SAFE_INTEGER : 0)
      : /^(0|[1-9][0-9]{0,15})$/.test(query.since) ? Number(query.since) : null;
    if (since === null) throw new InvalidCursor(String(query.since));
    const kinds = query.kinds ?? [];
    const [after, order] = query.newestFirst ? ['<', 'DESC'] : ['>', 'ASC'];
    const rows = this.db.prepare<[{ since: number; entities: string | null; kinds: string | null; limit: number }], ChangeRow>(`
      SELECT r.rev_id, r.entity_id, r.timestamp, r.user, r.comment, r.action,
        NOT EXISTS (SELECT 1 FROM revisions p WHERE p.entity_id = r.entity_id AND p.rev_id < r.rev_id) AS first
      FROM revisions r
      WHERE r.rev_id ${after} @since
        AND (@entities IS NULL OR r.entity_id IN (SELECT value FROM json_each(@entities)))
        AND (@kinds IS NULL OR substr(r.entity_id, 1, 1) IN (SELECT value FROM json_each(@kinds)))
      ORDER BY r.rev_id ${order} LIMIT @limit`).all({ since, entities: query.entities ? JSON.stringify(query.entities) : null,
      kinds: kinds.length ? JSON.stringify(kinds.map((k) => kindByName(k).prefix)) : null, limit: query.limit });
    return rows.map((r) => changeOf(String(r.rev_id), r.rev_id, r.entity_id, new Date(r.timestamp * 1000), r.user, r.comment, r.action, r.first === 1));
  }

  async entityIds(after: string | null, limit: number): Promise<string[]> {
    return this.db.prepare<[string, number], { id: string }>(`SELECT id FROM entities
      WHERE id > ? AND head_rev IS NOT NULL AND redirect_to IS NULL ORDER BY id LIMIT ?`).all(after ?? '', limit).map((r) => r.id);
  }

  async changesHead(): Promise<string> {
    return String(this.db.prepare<[], { last: number | null }>('SELECT max(rev_id) AS last FROM revisions').get()!.last ?? 0);
  }

  async readRevision(entityId: string, revision: number): Promise<RevisionContent | null> {
    const row = this.q.revisionOf.get(entityId, revision);
    return row ? revisionContent(decodeDocument(row.content), toHead(row.rev_id, row.timestamp)) : null;
  }

  async countHit(key: string, windowSeconds: number): Promise<CounterHit> {
    const now = Date.now();
    // Ended windows are dropped now and then, so the table holds about one row per recently active client.
    if (Math.random() < 0.01) this.q.dropEndedWindows.run(now);
    const row = this.q.countHit.get({ key, now, window: windowSeconds * 1000 })!;
    return { count: row.count, resetAt: new Date(row.reset_at) };
  }

  async probe(): Promise<StoreProbe> {
    this.db.prepare('SELECT 1').get();
    return { backend: 'sqlite', entityCache: { ...this.cache.stats } };
  }

  async close(): Promise<void> {
    while (this.queued.length > 0) this.commitQueued();
    // The import thread's connection first: the last one to close folds the write-ahead log into the file.
    await this.importThread?.close();
    this.db.close();
  }
}
