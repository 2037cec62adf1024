// PostgreSQL backend: any number of stateless processes over one database. Every edit is one READ COMMITTED
// transaction: policy locks → compare-and-set of the head (which allocates the revision id) → checks → rows.
// Why this shape and not SERIALIZABLE: docs/adr/0002-postgres-concurrency.md.
import pg from 'pg';
import { firstViolationAsync } from '../../domain/policy.js';
import { emptyEntity, type Entity, type KindName } from '../../domain/entity.js';
import { searchFilter } from '../search-filter.js';
import { appendDeferredRows, diffIndexRows, diffSearchRows, emptyDeferredRows, indexRows, popularity, type SitelinkRow, type TermRow } from '../index-rows.js';
import {
  EditConflict, PolicyViolation,
  type AccountStore, type CounterHit, type DocumentRead, type EditInput, type EditMeta, type Head, type PolicyChecks, type ReadPurpose, type ReadResult, type RevisionRecord,
  type SearchHit, type SearchQuery, type Store, type StoreProbe, type UniquenessViolation, type ImportExtras, type ImportState, type RevisionContent, type Change, type ChangeQuery, type BuildStep, InvalidCursor,
} from '../store.js';
import { postgresAccounts } from './accounts.js';
import { lockKey, policyLockKeys } from './lock-keys.js';
import { migrate } from './migrate.js';
import { ReadReplicas, RevisionFloor } from './replicas.js';
import { changeQueries, counterQueries, importQueries, isSchemaName, queries as q, searchQueries, type Db, type TermColumns } from './queries.js';
import { changeOf, revisionContent } from '../revision-content.js';
import { PostgresSearch, writeSearchRows } from './search.js';
import { appendValues, deleteValues, emptyValueColumns, insertValues, PostgresStatementValues, writeValueDiff } from './statement-values.js';
import { inTransaction, isRetryable } from './transaction.js';
import { PostgresDeferredIndex } from './deferred-index.js';
import { kindByName, parseEntityId } from '../../domain/kinds.js';

/** Connections of the turns pool: at most this many contested entities wait for their turn at once per process. */
const TURN_CONNECTIONS = 4;
/** Above every transaction id: where a newest-first read of the change feed starts. */
const MAX_XID8 = '18446744073709551615';

export interface PostgresOptions {
  /** postgres://user:password@host:port/database?sslmode=… (libpq-style URL, as `pg` reads it). */
  url: string;
  /** Most connections this process opens (ENTIA_PG_POOL). */
  poolSize?: number;
  /** Schema for Entia's tables, created when missing (ENTIA_PG_SCHEMA); default: the URL's search_path. */
  schema?: string | null;
  /** Streaming replicas that GET requests read from (ENTIA_DB_REPLICAS); the schema is the primary's. */
  replicas?: readonly string[];
  /** importEntities stages the search, term and value rows of new entities and finishImport builds them (ADR 0008). */
  deferIndexes?: boolean;
}

export async function openPostgresStore(options: PostgresOptions): Promise<PostgresStore> {
  const schema = options.schema || null;
  if (schema !== null && !isSchemaName(schema)) {
    throw new Error(`ENTIA_PG_SCHEMA must be a lower-case SQL identifier ([a-z_][a-z0-9_]*), got '${schema}'`);
  }
  const pool = new pg.Pool({
    connectionString: schema ? withSearchPath(options.url, schema) : options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection closed by the server (restart, failover) is dropped and replaced on the next use;
  // without a listener the error would crash the process.
  pool.on('error', () => {});
  try {
    await migrate(pool, schema);
  } catch (e) {
    await pool.end();
    throw new Error(`cannot open the PostgreSQL store at ${redact(options.url)}: ${(e as Error).message}`, { cause: e });
  }
  // Turns (inTurn) hold a connection while they wait: a pool of their own, so that waiting turns can never take
  // every connection the edits they wait for need.
  const turns = new pg.Pool({ connectionString: schema ? withSearchPath(options.url, schema) : options.url,
    max: TURN_CONNECTIONS, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
  turns.on('error', () => {});
  const withSchema = (url: string) => (schema ? withSearchPath(url, schema) : url);
  const replicas = options.replicas?.length ? ReadReplicas.open(options.replicas, pool, options.poolSize ?? 10, withSchema) : null;
  const store = new PostgresStore(pool, turns, replicas);
  store.deferIndexes = options.deferIndexes ?? false;
  await store.searchIndex.drainBacklog();
  await store.statementValues.drainBacklog();
  return store;
}

/** The URL with `-c search_path=<schema>` added to its startup options. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  const options = [u.searchParams.get('options'), `-c search_path=${schema}`].filter(Boolean).join(' ');
  u.searchParams.set('options', options);
  return u.toString();
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

const toHead = (rev: number, ts: Date): Head => ({ revision: rev, modified: ts });

export class PostgresStore implements Store {
  readonly accounts: AccountStore;
  readonly searchIndex: PostgresSearch;
  readonly statementValues: PostgresStatementValues;
  readonly deferred: PostgresDeferredIndex;
  /** Set by `entia import` (openPostgresStore's deferIndexes): new entities' rows wait for finishImport. */
  deferIndexes = false;

  /** Where reads go: the primary, or (the view forReads() returns) the replicas. */
  private readonly reader: Db;
  private readView: PostgresStore | null = null;

  /**
   * `replicas` and `floor` are shared by the store and its read view: the store raises the floor of what it
   * writes, the view reads from the replicas and falls back to the primary below the floor.
   */
  constructor(readonly pool: pg.Pool, private readonly turns: pg.Pool | null = null,
    private readonly replicas: ReadReplicas | null = null, private readonly floor = new RevisionFloor(), readsFromReplicas = false) {
    this.reader = readsFromReplicas && replicas ? replicas : pool;
    this.accounts = postgresAccounts(pool);
    this.searchIndex = new PostgresSearch(pool, this.reader);
    this.statementValues = new PostgresStatementValues(pool, this.reader);
    this.deferred = new PostgresDeferredIndex(pool);
  }

  forReads(): PostgresStore {
    if (!this.replicas) return this;
    return (this.readView ??= new PostgresStore(this.pool, this.turns, this.replicas, this.floor, true));
  }

  async readEntity(id: string, _purpose?: ReadPurpose, atLeast = 0): Promise<ReadResult> {
    const read = await this.readDocument(id, atLeast);
    return read.status === 'found' ? { status: 'found', entity: JSON.parse(read.json()) as Entity, head: read.head } : read;
  }

  async readDocument(id: string, atLeast = 0): Promise<DocumentRead> {
    let read = documentRead(await q.readEntity(this.reader, id));
    if (this.reader === this.pool) return read;
    const floor = Math.max(atLeast, this.floor.get(id));
    if (isBehind(read, floor)) read = documentRead(await q.readEntity(this.pool, id));
    if (read.status === 'found') this.floor.raise(id, read.head.revision);
    return read;
  }

  async readDocuments(ids: readonly string[]): Promise<Map<string, DocumentRead>> {
    const unique = [...new Set(ids)];
    const found = documentReads(await q.readEntities(this.reader, unique));
    if (this.reader === this.pool) return found;
    const behind = unique.filter((id) => isBehind(found.get(id) ?? { status: 'missing' }, this.floor.get(id)));
    if (behind.length) for (const [id, read] of documentReads(await q.readEntities(this.pool, behind))) found.set(id, read);
    for (const [id, read] of found) if (read.status === 'found') this.floor.raise(id, read.head.revision);
    return found;
  }

  async allocateId(kind: KindName): Promise<string> {
    return kindByName(kind).prefix + await q.nextId(this.pool, kind);
  }

  async applyEdit(edit: EditInput): Promise<Head> {
    const head = await this.commitEdit(edit);
    if (this.replicas) this.floor.raise(edit.entity.id, head.revision);
    return head;
  }

  private commitEdit(edit: EditInput): Promise<Head> {
    const { entity, previous, meta, checks } = edit;
    return this.editTransaction(entity.id, async (db) => {
      // Locks first, then the entity row (taken by the compare-and-set): one order for every edit.
      await q.lockKeys(db, policyLockKeys(entity, checks));
      const counts = popularity(entity);
      const moved = previous
        ? await q.moveHead(db, entity.id, previous.head.revision, counts)
        : await q.insertEntity(db, entity.id, entity.type, counts);
      if (moved === null) throw new EditConflict(entity.id);
      const violation = await this.findViolationIn(db, entity, checks);
      if (violation) throw new PolicyViolation(violation);
      const modified = await q.insertRevision(db, moved.revision, entity.id, meta, JSON.stringify(entity));
      await this.writeIndexRows(db, previous?.entity ?? null, entity, moved.waiting);
      return toHead(moved.revision, modified);
    });
  }

  private async editTransaction<T>(entityId: string, fn: (db: Db) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.pool, fn);
    } catch (e) {
      if (isRetryable(e)) throw new EditConflict(entityId);
      throw e;
    }
  }

  /**
   * `waiting`: the entity was imported and its search, term and value rows are not built yet; the build
   * applies this difference (deferred-index.ts), so only the sitelinks are written here.
   */
  private async writeIndexRows(db: Db, before: Entity | null, after: Entity, waiting: boolean): Promise<void> {
    const d = diffIndexRows(before, after);
    const id = after.id;
    if (!waiting) await this.writeSearchableRows(db, before, after, d);
    if (d.sitelinks.removed.length) {
      await q.deleteSitelinks(db, id, d.sitelinks.removed.map((s) => s.site), d.sitelinks.removed.map((s) => s.title));
    }
    await this.insertSitelinks(db, d.sitelinks.added.map((link) => ({ link, itemId: id })));
  }

  /** The rows search and lookups read (search keys, terms, statement values); sitelinks are written apart. */
  private async writeSearchableRows(db: Db, before: Entity | null, after: Entity, d = diffIndexRows(before, after)): Promise<void> {
    const id = after.id;
    await this.searchIndex.writeRows(db, before, after);
    await writeValueDiff(db, after, d.values);
    if (d.terms.removed.length) await q.deleteTerms(db, id, termColumns(id, after.type, d.terms.removed));
    if (d.terms.added.length) await q.insertTerms(db, termColumns(id, after.type, d.terms.added));
  }

  /** Inserts sitelinks; a page another item already links is a PolicyViolation naming that item. */
  private async insertSitelinks(db: Db, rows: { link: SitelinkRow; itemId: string }[]): Promise<void> {
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

  async importEntities(entities: readonly Entity[], meta: EditMeta, extras: ImportExtras = {}): Promise<void> {
    if (entities.length === 0 && !extras.checkpoint) return;
    await inTransaction(this.pool, async (client) => {
      if (this.deferIndexes) await this.deferred.holdOffBuild(client);
      for (const batch of distinctIdBatches(entities)) if (batch.length) await this.importBatch(client, batch, meta);
      const highest: Record<KindName, number> = { item: 0, property: 0 };
      for (const e of entities) highest[e.type] = Math.max(highest[e.type], Number(e.id.slice(1)));
      for (const kind of ['item', 'property'] as const) if (highest[kind] > 0) await q.raiseId(client, kind, highest[kind]);
      const sources = extras.sourceRevisions ?? [];
      if (sources.length) await importQueries.recordSources(client, sources.map(([id]) => id), sources.map(([, rev]) => rev));
      if (extras.checkpoint) await importQueries.setMeta(client, extras.checkpoint.key, extras.checkpoint.value);
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
    await this.deferred.build((db, id, stagedRevision) => this.reindexWaiting(db, id, stagedRevision), onStep);
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
    await this.writeSearchableRows(db, staged, after);
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
    const terms: TermColumns = { entityIds: [], kinds: [], types: [], langs: [], texts: [] };
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
    await writeSearchRows(client, immediate.map((e) => diffSearchRows(previous.get(e.id) ?? null, e)));
    if (terms.entityIds.length) await q.insertTerms(client, terms);
    await deleteValues(client, removedValues);
    await insertValues(client, addedValues);
    await this.deferred.stage(client, fresh, staged);
    await q.deleteSitelinksOf(client, replacedIds);
    await this.insertSitelinks(client, sitelinks);
  }

  async redirectEntity(sourceId: string, targetId: string, meta: EditMeta): Promise<void> {
    await this.editTransaction(sourceId, async (db) => {
      const target = await q.readEntity(db, targetId);
      if (!target || target.redirect_to || target.content === null || !parseEntityId(targetId)?.kind.redirects) {
        throw new Error(`${targetId} is not an item`);
      }
      const source = await q.readEntity(db, sourceId);
      const revision = await q.upsertRedirect(db, sourceId, targetId);
      if (source?.content && !source.redirect_to) {
        const entity = JSON.parse(source.content) as Entity;
        const waiting = (await this.deferred.markEdited(db, [sourceId])).size > 0;
        await this.writeIndexRows(db, entity, emptyEntity(entity.id, entity.type), waiting);
      }
      await q.insertRevision(db, revision, sourceId, { ...meta, action: 'redirect' }, JSON.stringify({ id: sourceId, redirect: targetId }));
      return revision;
    }).then((revision) => {
      if (this.replicas) this.floor.raise(sourceId, revision);
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
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey('turn', entityId).toString()]);
      return await task();
    } finally {
      await client.query('COMMIT').catch(() => undefined);
      client.release();
    }
  }

  async findViolation(entity: Entity, checks: PolicyChecks): Promise<UniquenessViolation | null> {
    return this.findViolationIn(this.pool, entity, checks);
  }

  search(query: SearchQuery): Promise<SearchHit[]> {
    return this.searchIndex.search(query, searchFilter(query, this.statementValues));
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

  async revisions(entityId: string, limit: number, before = Number.MAX_SAFE_INTEGER): Promise<RevisionRecord[]> {
    return (await q.revisionsOf(this.reader, entityId, limit, before)).map((r) => ({
      revision: Number(r.rev_id), entityId: r.entity_id, timestamp: r.timestamp, user: r.user_name,
      comment: r.comment, tags: r.tags, bot: r.bot, size: Number(r.size),
    }));
  }

  async changes(query: ChangeQuery): Promise<Change[]> {
    const m = query.since === null ? null : /^([0-9]{1,20})\.([0-9]{1,16})$/.exec(query.since);
    if (!m && query.since !== null && query.since !== '0') throw new InvalidCursor(String(query.since));
    // No position: the start of the feed, or its end when reading backwards.
    const [xid, rev] = m ? [m[1], Number(m[2])] : query.since === null && query.newestFirst ? [MAX_XID8, 0] : ['0', 0];
    const kinds = query.kinds ?? [];
    const found = await changeQueries.page(this.pool, query.newestFirst === true, xid, rev, query.limit, query.entities ? [...query.entities] : null,
      kinds.length ? kinds.map((k) => kindByName(k).prefix) : null);
    return found.map((r) => changeOf(`${r.xid}.${r.rev_id}`, Number(r.rev_id), r.entity_id, r.timestamp, r.user_name, r.comment, r.action, r.first));
  }

  async entityIds(after: string | null, limit: number): Promise<string[]> {
    return (await changeQueries.entityIds(this.pool, after ?? '', limit)).map((r) => r.id);
  }

  async changesHead(): Promise<string> {
    const last = await changeQueries.head(this.pool);
    return last ? `${last.xid}.${last.rev_id}` : '0';
  }

  async readRevision(entityId: string, revision: number): Promise<RevisionContent | null> {
    // A revision the replica has not replayed yet is looked for on the primary.
    const row = await q.revisionOf(this.reader, entityId, revision) ?? (this.reader === this.pool ? undefined : await q.revisionOf(this.pool, entityId, revision));
    return row ? revisionContent(row.content, { revision: Number(row.rev_id), modified: row.timestamp }) : null;
  }

  async countHit(key: string, windowSeconds: number): Promise<CounterHit> {
    // Ended windows are dropped now and then, so the table holds about one row per recently active client.
    if (Math.random() < 0.01) await counterQueries.dropEndedWindows(this.pool);
    const row = await counterQueries.countHit(this.pool, key, windowSeconds);
    return { count: row.count, resetAt: row.reset_at };
  }

  async probe(): Promise<StoreProbe> {
    await this.pool.query('SELECT 1');
    return { backend: 'postgres', pool: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount },
      replicas: this.replicas ? await this.replicas.status() : undefined };
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.turns?.end();
    await this.replicas?.end();
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

type EntityRow = { id?: string; redirect_to: string | null; content: string | null; rev_id: string | number | null; timestamp: Date | null };

function documentRead(row: EntityRow | undefined): DocumentRead {
  if (!row) return { status: 'missing' };
  if (row.redirect_to) return { status: 'redirect', target: row.redirect_to };
  const { content, rev_id, timestamp } = row;
  if (content === null || rev_id === null || timestamp === null) return { status: 'missing' };
  return { status: 'found', head: toHead(Number(rev_id), timestamp), json: () => content };
}

function documentReads(rows: (EntityRow & { id: string })[]): Map<string, DocumentRead> {
  const found = new Map<string, DocumentRead>();
  for (const row of rows) {
    const read = documentRead(row);
    if (read.status !== 'missing') found.set(row.id, read);
  }
  return found;
}

/** A replica's answer older than a revision already written or seen: missing, or found at a lower revision. */
function isBehind(read: DocumentRead, floor: number): boolean {
  if (floor === 0) return false;
  return read.status === 'missing' || (read.status === 'found' && read.head.revision < floor);
}

function termColumns(entityId: string, kind: KindName, rows: TermRow[]): TermColumns {
  const columns: TermColumns = { entityIds: [], kinds: [], types: [], langs: [], texts: [] };
  appendTerms(columns, entityId, kind, rows);
  return columns;
}

function appendTerms(columns: TermColumns, entityId: string, kind: KindName, rows: TermRow[]): void {
  for (const t of rows) {
    columns.entityIds.push(entityId);
    columns.kinds.push(kind);
    columns.types.push(t.type);
    columns.langs.push(t.lang);
    columns.texts.push(t.text);
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
