// SQLite backend: one file, WAL mode, one connection per process. better-sqlite3 is synchronous, so a write
// transaction runs whole, with no other write of this process in between; other processes on the same file
// wait on the busy timeout. Edits are committed in groups (see applyEdit).
import Database from 'better-sqlite3';
import { firstViolation } from '../../domain/policy.js';
import { emptyEntity, entityJson, freezeJson, type Entity, type KindName } from '../../domain/entity.js';
import { kindByName } from '../../domain/kinds.js';
import { EntityCache } from '../entity-cache.js';
import { popularity } from '../index-rows.js';
import { revisionContent } from '../revision-content.js';
import { StoreParts } from '../parts.js';
import {
  EditConflict, PolicyViolation, RedirectRefused, type AccountStore, type DocumentRead, type EditInput, type EditMeta, type Head, type MergeInput,
  type PolicyChecks, type PolicyQuery, type ReadPurpose, type ReadResult, type RevisionContent, type RevisionRecord,
  type Store, type StoreProbe, type StoreStatistics, type UniquenessViolation,
} from '../store.js';
import { sqliteAccounts } from './accounts.js';
import { SqliteBulkImport } from './bulk-import.js';
import { SqliteChangeFeed } from './change-feed.js';
import { SqliteCounters } from './counters.js';
import { DeferredIndex } from './deferred-index.js';
import { decodeDocument } from './documents.js';
import { ImportThread } from './import-thread.js';
import { SqliteIndexWriter } from './index-writer.js';
import { addKindRows, entityValueIndex, MIGRATIONS } from './migrations.js';
import { DEFAULT_PREFIX_LANGUAGE_MIN } from '../prefix-languages.js';
import { prepareQueries, type Queries } from './queries.js';
import { SqliteSearch } from './search.js';
import { SqliteStatementValues } from './statement-values.js';
import type { SqliteOptions } from './options.js';
import { storeStatistics } from '../statistics.js';


// Parsed, a document takes about six times its JSON length of heap (two-byte strings, objects), and its
// rendered bytes once more: 4 MB of JSON (about 400 typical items) costs some 30 MB of the server's memory.
const DEFAULT_CACHE_MB = 4;

/** WAL pages (4 KB each) after which a commit checkpoints. */
const WAL_CHECKPOINT_PAGES = 4000;

export type { SqliteOptions };

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
    options.deferIndexes ?? false, options.prefixLanguageMin ?? DEFAULT_PREFIX_LANGUAGE_MIN);
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
    addKindRows(db);
    entityValueIndex(db);
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

/**
 * The SQLite store: the EntityStore part (reads, the edit transaction with group commit, redirects, the data
 * policy's lookups) is written here; the other parts are objects of their own files, which StoreParts
 * (parts.ts) forwards to: bulk-import.ts, change-feed.ts, counters.ts, search.ts with statement-values.ts, accounts.ts.
 */
export class SqliteStore extends StoreParts implements Store {
  readonly q: Queries;
  readonly accounts: AccountStore;
  readonly searchIndex: SqliteSearch;
  readonly statementValues: SqliteStatementValues;
  readonly imports: SqliteBulkImport;
  private readonly rows: SqliteIndexWriter;
  protected readonly feed: SqliteChangeFeed;
  protected readonly counters: SqliteCounters;
  private queued: QueuedEdit[] = [];
  /** One edit inside the group's transaction: better-sqlite3 runs a nested transaction as a SAVEPOINT. */
  private readonly editInSavepoint: (edit: EditInput) => Head;
  private readonly group: { immediate: (edits: QueuedEdit[]) => Outcome[] };

  constructor(readonly db: Database.Database, private readonly cache: EntityCache = new EntityCache(0),
    private readonly importThread: ImportThread | null = null, deferIndexes = false,
    prefixLanguageMin = DEFAULT_PREFIX_LANGUAGE_MIN) {
    super();
    this.q = prepareQueries(db);
    const deferred = new DeferredIndex(db, deferIndexes, prefixLanguageMin);
    this.accounts = sqliteAccounts(this.q);
    this.searchIndex = new SqliteSearch(db);
    this.statementValues = new SqliteStatementValues(db);
    this.rows = new SqliteIndexWriter(this.q, this.searchIndex, this.statementValues, deferred);
    this.imports = new SqliteBulkImport(db, this.q, this.rows, deferred, (id) => this.readEntitySync(id, false), importThread, deferIndexes);
    this.feed = new SqliteChangeFeed(db);
    this.counters = new SqliteCounters(this.q);
    this.editInSavepoint = db.transaction((edit: EditInput) => this.applyEditInTransaction(edit));
    this.group = db.transaction((edits: QueuedEdit[]) => edits.map((q) => this.applyOneOfGroup(q.edit)));
  }

  // EntityStore

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
    // The revision this process just wrote: the next edit of the entity starts from it, sharing what it keeps.
    const written = this.recent.get(id, revision);
    if (written?.kind === 'entity') return { status: 'found', entity: written.entity, head: found.head };
    const json = decodeDocument(this.q.readContent.get(revision)!.content);
    const parsed = JSON.parse(json) as Entity;
    const entity = cache ? this.cache.put(id, revision, parsed, json.length) : freezeJson(parsed);
    return { status: 'found', entity, head: found.head };
  }

  async readDocument(id: string): Promise<DocumentRead> {
    const found = this.locate(id);
    if (found.status !== 'found') return found;
    // A revision's content never changes, so reading it later (or never) is as good as now.
    // The new member first: see ADR 0021 (spreading an object, then adding a member it lacks, is slow in V8 11).
    return { json: () => decodeDocument(this.q.readContent.get(found.head.revision)!.content), ...found };
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
      if ('head' in outcome) {
        this.feed.keep(q.edit.entity.id, outcome.head, q.edit.previous?.head.revision ?? null, q.edit.meta);
        this.recent.remember(q.edit.entity, outcome.head, q.edit.previous);
        q.resolve(outcome.head);
      } else {
        q.reject(outcome.error);
      }
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
    this.rows.write(previous?.entity ?? null, entity);
    return toHead(rev_id, timestamp);
  }

  async redirectEntity(sourceId: string, targetId: string, meta: EditMeta): Promise<void> {
    this.db.transaction(() => {
      // Inside the write lock (BEGIN IMMEDIATE): no other process's redirect can slip in between check and write.
      const target = this.readEntitySync(targetId);
      if (target.status === 'missing') throw new RedirectRefused(targetId, 'target-missing');
      if (target.status === 'redirect') throw new RedirectRefused(targetId, 'target-is-redirect');
      if (!kindByName(target.entity.type).redirects) throw new RedirectRefused(targetId, 'target-not-item');
      const source = this.readEntitySync(sourceId);
      this.writeRedirect(sourceId, source.status === 'found' ? source.entity : null, targetId, meta);
    }).immediate();
    this.recent.committed();
  }

  async applyMerge({ source, target }: MergeInput): Promise<{ source: Head; target: Head }> {
    const heads = this.db.transaction(() => {
      let sourceHead: Head;
      if (source.redirect) {
        const current = this.q.headOf.get(source.entity.id);
        if (current?.head_rev !== source.previous!.head.revision) throw new EditConflict(source.entity.id);
        sourceHead = this.writeRedirect(source.entity.id, source.previous!.entity, target.entity.id, source.meta);
      } else {
        sourceHead = this.applyEditInTransaction(source);
      }
      return { source: sourceHead, target: this.applyEditInTransaction(target) };
    }).immediate();
    if (!source.redirect) this.recent.remember(source.entity, heads.source, source.previous);
    this.recent.remember(target.entity, heads.target, target.previous);
    return heads;
  }

  /** The redirect's revision and head; the source's index rows (its sitelinks, terms, values) dropped. */
  private writeRedirect(sourceId: string, source: Entity | null, targetId: string, meta: EditMeta): Head {
    if (source) this.rows.write(source, emptyEntity(source.id, source.type));
    const timestamp = Math.floor(Date.now() / 1000);
    const { rev_id } = this.q.insertRevision.get(sourceId, timestamp, meta.user, meta.comment, JSON.stringify(meta.tags),
      meta.bot ? 1 : 0, JSON.stringify({ id: sourceId, redirect: targetId }), 'redirect')!;
    this.q.upsertRedirect.run(sourceId, rev_id, targetId);
    return toHead(rev_id, timestamp);
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

  async revisionBefore(entityId: string, revision: number): Promise<number | null> {
    return this.q.revisionBefore.get(entityId, revision)?.rev_id ?? null;
  }

  async revisions(entityId: string, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<RevisionRecord[]> {
    return this.q.revisionsOf.all(entityId, before, limit).map((r) => ({
      revision: r.rev_id, entityId: r.entity_id, timestamp: new Date(r.timestamp * 1000), user: r.user,
      comment: r.comment, tags: JSON.parse(r.tags) as string[], bot: r.bot === 1,
      size: Buffer.byteLength(decodeDocument(r.content)),
    }));
  }

  async entityIds(after: string | null, limit: number): Promise<string[]> {
    return this.db.prepare<[string, number], { id: string }>(`SELECT id FROM entities
      WHERE id > ? AND head_rev IS NOT NULL AND redirect_to IS NULL ORDER BY id LIMIT ?`).all(after ?? '', limit).map((r) => r.id);
  }

  /** Prepared on the first list read: every page of a browse list runs it. */
  private numbersPage: Database.Statement<[string, number, number], { n: number }> | null = null;

  async entityNumbers(kind: KindName, after: number | null, limit: number): Promise<number[]> {
    // The expression and the redirect condition are those of the partial index entities_by_number (migration 16).
    this.numbersPage ??= this.db.prepare(`SELECT CAST(substr(id, 2) AS INTEGER) AS n FROM entities
      WHERE kind = ? AND redirect_to IS NULL AND CAST(substr(id, 2) AS INTEGER) > ? AND head_rev IS NOT NULL
      ORDER BY CAST(substr(id, 2) AS INTEGER) LIMIT ?`);
    return this.numbersPage.all(kind, after ?? 0, limit).map((r) => r.n);
  }

  async redirects(after: string | null, limit: number): Promise<{ id: string; target: string }[]> {
    return this.db.prepare<[string, number], { id: string; target: string }>(`SELECT id, redirect_to AS target FROM entities
      WHERE id > ? AND redirect_to IS NOT NULL ORDER BY id LIMIT ?`).all(after ?? '', limit);
  }

  async readRevision(entityId: string, revision: number): Promise<RevisionContent | null> {
    const written = this.recent.get(entityId, revision);
    if (written) return written;
    const row = this.q.revisionOf.get(entityId, revision);
    return row ? revisionContent(decodeDocument(row.content), toHead(row.rev_id, row.timestamp)) : null;
  }

  // StoreLifecycle

  async probe(): Promise<StoreProbe> {
    this.db.prepare('SELECT 1').get();
    return { backend: 'sqlite', entityCache: { ...this.cache.stats } };
  }

  async statistics(): Promise<StoreStatistics> {
    return storeStatistics(this.q.entityCounts.all(), await this.unindexedCount(), this.q.unfinishedImports.get()!.n);
  }

  async close(): Promise<void> {
    while (this.queued.length > 0) this.commitQueued();
    // The import thread's connection first: the last one to close folds the write-ahead log into the file.
    await this.importThread?.close();
    this.db.close();
  }
}
