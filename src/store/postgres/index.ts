// PostgreSQL backend: any number of stateless processes over one database. Every edit is one READ COMMITTED
// transaction: policy locks → compare-and-set of the head (which allocates the revision id) → checks → rows.
// Why this shape and not SERIALIZABLE: docs/adr/0002-postgres-concurrency.md.
import pg from 'pg';
import { firstViolationAsync } from '../../domain/policy.js';
import { emptyEntity, entityJson, type Entity, type KindName } from '../../domain/entity.js';
import { kindByName, parseEntityId } from '../../domain/kinds.js';
import { popularity } from '../index-rows.js';
import { DEFAULT_PREFIX_LANGUAGE_MIN } from '../prefix-languages.js';
import { revisionContent } from '../revision-content.js';
import { RevisionCache } from '../revision-cache.js';
import { StoreParts } from '../parts.js';
import {
  EditConflict, PolicyViolation, RedirectRefused, type AccountStore, type DocumentRead, type EditInput, type EditMeta, type Head, type MergeInput,
  type PolicyChecks, type ReadPurpose, type ReadResult, type RevisionContent, type RevisionRecord, type Store,
  type StoreProbe, type StoreStatistics, type UniquenessViolation,
} from '../store.js';
import { postgresAccounts } from './accounts.js';
import { PostgresBulkImport } from './bulk-import.js';
import { PostgresChangeFeed } from './change-feed.js';
import { PostgresCounters } from './counters.js';
import { PostgresDeferredIndex } from './deferred-index.js';
import { PostgresIndexWriter } from './index-writer.js';
import { lockKey, policyLockKeys } from './lock-keys.js';
import { migrate, NoStoreError } from './migrate.js';
export { NoStoreError } from './migrate.js';
export { withSearchPath, type PostgresOptions } from './options.js';
import { changeQueries, isSchemaName, queries as q, revisionInsert, runCombined, statisticsQueries, type Db } from './queries.js';
import { isBehind, ReadReplicas, RevisionFloor } from './replicas.js';
import { redact, withSearchPath, type PostgresOptions } from './options.js';
import { preparingClient } from './prepared.js';
import { PostgresSearch } from './search.js';
import { PostgresStatementValues } from './statement-values.js';
import { inTransaction, isRetryable } from './transaction.js';
import { storeStatistics } from '../statistics.js';
import type { RecentWrites } from '../recent-writes.js';
import { HeadReads, toHead } from './heads.js';

/** Connections of the turns pool: at most this many contested entities wait for their turn at once per process. */
const TURN_CONNECTIONS = 4;

export async function openPostgresStore(options: PostgresOptions): Promise<PostgresStore> {
  const schema = options.schema || null;
  if (schema !== null && !isSchemaName(schema)) {
    throw new Error(`ENTIA_PG_SCHEMA must be a lower-case SQL identifier ([a-z_][a-z0-9_]*), got '${schema}'`);
  }
  const Client = preparingClient(options.preparedStatements ?? true);
  const pool = new pg.Pool({
    Client,
    connectionString: schema ? withSearchPath(options.url, schema) : options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection closed by the server (restart, failover) is dropped and replaced on the next use;
  // without a listener the error would crash the process.
  pool.on('error', () => {});
  try {
    if (await migrate(pool, schema, options.create ?? true)) options.onCreated?.();
  } catch (e) {
    await pool.end();
    if (e instanceof NoStoreError) throw e;
    throw new Error(`cannot open the PostgreSQL store at ${redact(options.url)}: ${(e as Error).message}`, { cause: e });
  }
  // Turns (inTurn) hold a connection while they wait: a pool of their own, so that waiting turns can never take
  // every connection the edits they wait for need.
  const turns = new pg.Pool({ Client, connectionString: schema ? withSearchPath(options.url, schema) : options.url,
    max: TURN_CONNECTIONS, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
  turns.on('error', () => {});
  const withSchema = (url: string) => (schema ? withSearchPath(url, schema) : url);
  const replicas = options.replicas?.length ? ReadReplicas.open(options.replicas, pool, options.poolSize ?? 10, withSchema, Client) : null;
  const store = new PostgresStore(pool, turns, replicas);
  store.imports.deferIndexes = options.deferIndexes ?? false;
  store.imports.prefixLanguageMin = options.prefixLanguageMin ?? DEFAULT_PREFIX_LANGUAGE_MIN;
  await store.searchIndex.drainBacklog();
  await store.statementValues.drainBacklog();
  return store;
}


/** Documents kept per process, in characters of JSON: about 400 typical items (as SQLite's entity cache). */
const DEFAULT_DOCUMENT_CACHE_BYTES = 4 * 2 ** 20;

/** How long GET /metrics reuses PostgreSQL's entity counts. */
const STATISTICS_SECONDS = 30;

/**
 * The PostgreSQL store: the EntityStore part (reads from the primary or the replicas, the edit transaction,
 * turns, redirects, the data policy's lookups) is written here; the other parts are objects of their own
 * files, which StoreParts (parts.ts) forwards to: bulk-import.ts, change-feed.ts, counters.ts, search.ts with
 * statement-values.ts, accounts.ts.
 */
export class PostgresStore extends StoreParts implements Store {
  readonly accounts: AccountStore;
  readonly searchIndex: PostgresSearch;
  readonly statementValues: PostgresStatementValues;
  readonly imports: PostgresBulkImport;
  private readonly deferred: PostgresDeferredIndex;
  private readonly rows: PostgresIndexWriter;
  protected readonly feed: PostgresChangeFeed;
  protected readonly counters: PostgresCounters;

  /** Heads with their documents, through this process's document cache (heads.ts). */
  private readonly heads: HeadReads;
  /** Where reads go: the primary, or (the view forReads() returns) the replicas. */
  private readonly reader: Db;
  private readView: PostgresStore | null = null;

  /**
   * `replicas`, `floor`, `documents` and `recent` are shared by the store and its read view: the store raises the floor of
   * what it writes, the view reads from the replicas and falls back to the primary below the floor. A
   * revision's document never changes, so one cache serves both whichever server it came from.
   */
  constructor(readonly pool: pg.Pool, private readonly turns: pg.Pool | null = null,
    private readonly replicas: ReadReplicas | null = null, private readonly floor = new RevisionFloor(),
    private readonly documents = new RevisionCache<string>(DEFAULT_DOCUMENT_CACHE_BYTES), readsFromReplicas = false,
    recent?: RecentWrites) {
    super();
    if (recent) this.recent = recent; // the read view reads what its store just wrote, and hears of its commits
    this.reader = readsFromReplicas && replicas ? replicas : pool;
    this.heads = new HeadReads(documents);
    this.accounts = postgresAccounts(pool);
    this.searchIndex = new PostgresSearch(pool, this.reader);
    this.statementValues = new PostgresStatementValues(pool, this.reader);
    // A build may record languages left out of the prefix index: this process's searches read the record again.
    this.deferred = new PostgresDeferredIndex(pool, () => {
      this.searchIndex.forgetPrefixSkipped();
      this.readView?.searchIndex.forgetPrefixSkipped();
    });
    this.rows = new PostgresIndexWriter();
    this.imports = new PostgresBulkImport(pool, this.rows, this.deferred);
    this.feed = new PostgresChangeFeed(pool);
    this.counters = new PostgresCounters(pool);
  }

  forReads(): PostgresStore {
    if (!this.replicas) return this;
    return (this.readView ??= new PostgresStore(this.pool, this.turns, this.replicas, this.floor, this.documents, true, this.recent));
  }

  // EntityStore

  async readEntity(id: string, _purpose?: ReadPurpose, atLeast = 0): Promise<ReadResult> {
    const read = await this.readDocument(id, atLeast);
    if (read.status !== 'found') return read;
    // The revision this process just wrote: the next edit of the entity starts from it, sharing what it keeps.
    const written = this.recent.get(id, read.head.revision);
    return { status: 'found', entity: written?.kind === 'entity' ? written.entity : JSON.parse(read.json()) as Entity, head: read.head };
  }

  async readDocument(id: string, atLeast = 0): Promise<DocumentRead> {
    const found = await this.readFresh([id], (i) => Math.max(atLeast, this.floor.get(i)), true);
    return found.get(id) ?? { status: 'missing' };
  }

  /** A batch's documents are not kept: one batch would push out what single reads use again and again. */
  async readDocuments(ids: readonly string[]): Promise<Map<string, DocumentRead>> {
    return this.readFresh([...new Set(ids)], (id) => this.floor.get(id), false);
  }

  /**
   * From the reader; from the primary, those a replica answered below their floor (what this process wrote or
   * served, or the client named). Raises the floors to what is returned.
   */
  private async readFresh(ids: string[], floorOf: (id: string) => number, keep: boolean): Promise<Map<string, DocumentRead>> {
    const found = await this.heads.read(this.reader, ids, keep);
    if (this.reader === this.pool) return found;
    const behind = ids.filter((id) => isBehind(found.get(id) ?? { status: 'missing' }, floorOf(id)));
    if (behind.length) {
      for (const id of behind) found.delete(id);
      for (const [id, read] of await this.heads.read(this.pool, behind, keep)) found.set(id, read);
    }
    for (const [id, read] of found) if (read.status === 'found') this.floor.raise(id, read.head.revision);
    return found;
  }

  async allocateId(kind: KindName): Promise<string> {
    return kindByName(kind).prefix + await q.nextId(this.pool, kind);
  }

  async applyEdit(edit: EditInput): Promise<Head> {
    const head = await this.commitEdit(edit);
    if (this.replicas) this.floor.raise(edit.entity.id, head.revision);
    this.recent.remember(edit.entity, head, edit.previous);
    // The text this edit wrote takes the place of the revision before it in the document cache (the edit read
    // that one): the next read of the entity's head then leaves the document in the database, and takes the
    // parsed entity from the recent writes.
    const json = entityJson(edit.entity);
    this.documents.put(edit.entity.id, head.revision, json, json.length);
    return head;
  }

  private commitEdit(edit: EditInput): Promise<Head> {
    return this.editTransaction(edit.entity.id, async (db) => {
      // Locks first, then the entity row (taken by the compare-and-set): one order for every edit. An edit out
      // of turn shares the entity's turn lock, first of all: while another process's edit holds the turn, this
      // one waits, so the edit in turn cannot lose the compare-and-set (1 in ~8,000 edits crowding one item
      // over 3 processes lost 10 races in a row and answered 500).
      if (this.turns && !this.inTurnHere.has(edit.entity.id)) await q.lockShared(db, lockKey('turn', edit.entity.id));
      await q.lockKeys(db, policyLockKeys(edit.entity, edit.checks));
      return this.editIn(db, edit);
    });
  }

  /** One edit inside a transaction whose locks are taken: compare-and-set, policy, revision, index rows. */
  private async editIn(db: Db, { entity, previous, meta, checks }: EditInput): Promise<Head> {
    const counts = popularity(entity);
    const moved = previous
      ? await q.moveHead(db, entity.id, previous.head.revision, counts)
      : await q.insertEntity(db, entity.id, entity.type, counts);
    if (moved === null) throw new EditConflict(entity.id);
    const violation = await this.findViolationIn(db, entity, checks);
    if (violation) throw new PolicyViolation(violation);
    // The text the edit's size check made already (entityJson keeps it for a frozen entity). The revision and
    // the index rows go in one statement.
    const revision = revisionInsert(moved.revision, entity.id, meta, entityJson(entity));
    const [{ timestamp }] = await this.rows.write<{ timestamp: Date }>(db, previous?.entity ?? null, entity, moved.waiting, revision);
    return toHead(moved.revision, timestamp);
  }

  async applyMerge({ source, target }: MergeInput): Promise<{ source: Head; target: Head }> {
    const heads = await this.editTransaction(target.entity.id, async (db) => {
      // The redirect locks of both items (as redirectEntity takes them: a redirect to the source cannot slip in),
      // then the policy locks of what the target gains.
      await q.lockKeys(db, [source.entity.id, target.entity.id].sort().map((id) => lockKey('redirect', id)));
      await q.lockKeys(db, policyLockKeys(target.entity, target.checks));
      let sourceHead: Head;
      if (source.redirect) {
        const moved = await q.moveHeadToRedirect(db, source.entity.id, source.previous!.head.revision, target.entity.id);
        if (moved === null) throw new EditConflict(source.entity.id);
        const from = source.previous!.entity;
        const content = JSON.stringify({ id: from.id, redirect: target.entity.id });
        const revision = revisionInsert(moved.revision, from.id, { ...source.meta, action: 'redirect' }, content);
        const [{ timestamp }] = await this.rows.write<{ timestamp: Date }>(db, from, emptyEntity(from.id, from.type), moved.waiting, revision);
        sourceHead = toHead(moved.revision, timestamp);
      } else {
        sourceHead = await this.editIn(db, source);
      }
      return { source: sourceHead, target: await this.editIn(db, target) };
    });
    if (this.replicas) {
      this.floor.raise(source.entity.id, heads.source.revision);
      this.floor.raise(target.entity.id, heads.target.revision);
    }
    if (!source.redirect) this.recent.remember(source.entity, heads.source, source.previous);
    this.recent.remember(target.entity, heads.target, target.previous);
    return heads;
  }

  private async editTransaction<T>(entityId: string, fn: (db: Db) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.pool, fn);
    } catch (e) {
      if (isRetryable(e)) throw new EditConflict(entityId);
      throw e;
    }
  }

  async redirectEntity(sourceId: string, targetId: string, meta: EditMeta): Promise<void> {
    await this.editTransaction(sourceId, async (db) => {
      // Every redirect locks both of its items, in one order: two redirects sharing an item run one after the
      // other, and the second sees what the first wrote (Q3→Q4 and Q4→Q3 at once made a cycle).
      await q.lockKeys(db, [sourceId, targetId].sort().map((id) => lockKey('redirect', id)));
      if (!parseEntityId(targetId)?.kind.redirects) throw new RedirectRefused(targetId, 'target-not-item');
      const target = await q.readEntity(db, targetId);
      if (!target || target.content === null && !target.redirect_to) throw new RedirectRefused(targetId, 'target-missing');
      if (target.redirect_to) throw new RedirectRefused(targetId, 'target-is-redirect');
      const source = await q.readEntity(db, sourceId);
      const revision = await q.upsertRedirect(db, sourceId, targetId);
      const written = revisionInsert(revision, sourceId, { ...meta, action: 'redirect' }, JSON.stringify({ id: sourceId, redirect: targetId }));
      if (source?.content && !source.redirect_to) {
        const entity = JSON.parse(source.content) as Entity;
        const waiting = (await this.deferred.markEdited(db, [sourceId])).size > 0;
        await this.rows.write(db, entity, emptyEntity(entity.id, entity.type), waiting, written);
      } else {
        await runCombined(db, [], written);
      }
      return revision;
    }).then((revision) => {
      if (this.replicas) this.floor.raise(sourceId, revision);
      this.recent.committed();
    });
  }

  /**
   * A transaction on a connection of the turns pool holds an advisory lock on the entity while `task` runs on the
   * main pool: transaction-scoped, so it also works behind a pooler in transaction mode.
   */
  async inTurn<T>(entityId: string, task: () => Promise<T>): Promise<T> {
    if (!this.turns) return task();
    // No connection for a turn in time: the edit retries as it would without turns.
    const client = await this.turns.connect().catch(() => null);
    if (!client) return task();
    // Nor when the lock fails (a statement a pooler lost, prepared.ts): the turn's transaction is rolled back.
    const held = await client.query('BEGIN')
      .then(() => client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey('turn', entityId).toString()]))
      .then(() => true, () => false);
    // This process's edits of one entity run one at a time (EditQueue), so the set says which edit holds it.
    if (held) this.inTurnHere.add(entityId);
    try {
      return await task();
    } finally {
      this.inTurnHere.delete(entityId);
      await client.query(held ? 'COMMIT' : 'ROLLBACK').catch(() => undefined);
      client.release();
    }
  }

  async findViolation(entity: Entity, checks: PolicyChecks): Promise<UniquenessViolation | null> {
    return this.findViolationIn(this.pool, entity, checks);
  }

  private findViolationIn(db: Db, entity: Entity, checks: PolicyChecks): Promise<UniquenessViolation | null> {
    return firstViolationAsync(entity, checks, (query) => q.policyHolder(db, query));
  }

  async lookupEntities(ids: readonly string[]): Promise<Map<string, string | null>> {
    const found = new Map<string, string | null>();
    if (ids.length === 0) return found;
    for (const row of await q.lookup(this.reader, [...new Set(ids)])) {
      found.set(row.id, row.content === null ? null : (JSON.parse(row.content) as Entity).data_type ?? null);
    }
    return found;
  }

  /** On the primary: a replica behind the change would name an older revision. */
  async revisionBefore(entityId: string, revision: number): Promise<number | null> {
    const row = await q.revisionBefore(this.pool, entityId, revision);
    return row?.rev_id === null || row === undefined ? null : Number(row.rev_id);
  }

  async revisions(entityId: string, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<RevisionRecord[]> {
    return (await q.revisionsOf(this.reader, entityId, limit, before)).map((r) => ({
      revision: Number(r.rev_id), entityId: r.entity_id, timestamp: r.timestamp, user: r.user_name,
      comment: r.comment, tags: r.tags, bot: r.bot, size: Number(r.size),
    }));
  }

  async entityIds(after: string | null, limit: number): Promise<string[]> {
    return (await changeQueries.entityIds(this.pool, after ?? '', limit)).map((r) => r.id);
  }

  async entityNumbers(kind: KindName, after: number | null, limit: number): Promise<number[]> {
    return (await changeQueries.entityNumbers(this.reader, kind, after ?? 0, limit)).map((r) => Number(r.n));
  }

  async redirects(after: string | null, limit: number): Promise<{ id: string; target: string }[]> {
    return changeQueries.redirects(this.pool, after ?? '', limit);
  }

  async readRevision(entityId: string, revision: number): Promise<RevisionContent | null> {
    const written = this.recent.get(entityId, revision);
    if (written) return written;
    // A revision the replica has not replayed yet is looked for on the primary.
    const row = await q.revisionOf(this.reader, entityId, revision) ?? (this.reader === this.pool ? undefined : await q.revisionOf(this.pool, entityId, revision));
    return row ? revisionContent(row.content, { revision: Number(row.rev_id), modified: row.timestamp }) : null;
  }

  // StoreLifecycle

  async probe(): Promise<StoreProbe> {
    await this.pool.query('SELECT 1');
    return { backend: 'postgres', entityCache: { ...this.documents.stats }, pool: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount },
      replicas: this.replicas ? await this.replicas.status() : undefined };
  }

  /** Entities whose turn lock this process holds now (inTurn): their edits must not wait for it again. */
  private readonly inTurnHere = new Set<string>();

  /** The last counts and when they were taken: counting every entity is a scan, done at most every 30 s. */
  private counted: { at: number; stats: Promise<StoreStatistics> } | null = null;

  statistics(): Promise<StoreStatistics> {
    if (!this.counted || Date.now() - this.counted.at > STATISTICS_SECONDS * 1000) {
      this.counted = { at: Date.now(), stats: this.countAll() };
      this.counted.stats.catch(() => { this.counted = null; });
    }
    return this.counted.stats;
  }

  private async countAll(): Promise<StoreStatistics> {
    return storeStatistics(await statisticsQueries.entityCounts(this.pool), await this.unindexedCount(),
      await statisticsQueries.unfinishedImports(this.pool));
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.turns?.end();
    await this.replicas?.end();
  }
}
