// Secondary indexes of a PostgreSQL bulk import, built once in key order (ADR 0008, as sqlite/deferred-index.ts).
//
// Written row by row with each batch, an import's index rows (about 230 per generated item) land at random
// places of B-trees that outgrow shared_buffers: 100,000 items loaded at 363 entities/s over their first tenth
// and 95/s over their last. Here a batch COPYs them into unindexed UNLOGGED staging tables instead, and build()
// moves each table's rows in once, its indexes made again by one sort or fed in key order.
//
// index_backlog says which entities wait, with the revision their staged rows come from. It is an ordinary
// (logged) table written in the batch's transaction, so it survives anything; the staging tables are emptied by
// a server crash, and then build() derives again from its revision the rows of every waiting entity that
// stage_entities does not list. Each table's staged rows are emptied in the transaction that moves them, so a
// build interrupted half-way and run again moves none twice.
//
// An edit of a waiting entity leaves its index rows alone and marks it edited (queries.ts moveHead, or
// markEdited); the last step of the build applies the difference between the staged revision and the head.
import type pg from 'pg';
import type { Entity } from '../../domain/entity.js';
import { appendDeferredRows, DEFERRED_TABLES, emptyDeferredRows, type DeferredRows, type DeferredTable } from '../index-rows.js';
import { DEFAULT_PREFIX_LANGUAGE_MIN, languageKey, planCandidates, planPrefixes, prefixRowsSelect, type Language } from '../prefix-languages.js';
import type { BuildStep } from '../store.js';
import { copyRows } from './copy.js';
import { importBuildLockKey } from './lock-keys.js';
import type { Db } from './queries.js';
import { searchQueries } from './search-queries.js';
import { inTransaction } from './transaction.js';

/** Brings a waiting entity's rows from its staged revision to its head, inside the build's last transaction. */
export type Reindex = (db: Db, id: string, stagedRevision: number) => Promise<void>;

/**
 * A table's indexes are dropped before its rows go in and made again after (CREATE INDEX sorts once) when the
 * entities to add are at least this share of those already indexed; below it, the sorted insert keeps them up
 * to date in place. The share SQLite's build uses for its secondary indexes.
 */
const REBUILD_SHARE = 0.25;
/** Entities whose rows are derived again per transaction when the staging was lost. */
const RESTAGE_BATCH = 1_000;
/** Memory the build's sorts and index builds may take, per step (the server's default is a few MB). */
const BUILD_MEMORY = "SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'";

const stageOf = (target: DeferredTable) => `stage_${target.table}`;

export class PostgresDeferredIndex {
  private buildLock: string | null = null;

  /** `afterBuild`: called when a build has changed the indexes. */
  constructor(private readonly pool: pg.Pool, private readonly afterBuild: () => void = () => {}) {}

  /** The advisory lock that keeps batches from staging rows while a build moves and empties the staging (per schema). */
  private async lockKey(db: Db): Promise<string> {
    if (this.buildLock !== null) return this.buildLock;
    const schema = (await db.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0].schema;
    return (this.buildLock = importBuildLockKey(schema).toString());
  }

  /** Entities whose index rows are staged or waiting to be derived again. */
  async pendingCount(): Promise<number> {
    return Number((await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM index_backlog')).rows[0].n);
  }

  /**
   * Within a batch's or a redirect's transaction: the entities among `ids` whose rows are not built yet are
   * marked edited and returned; their rows are the build's to write. (An edit marks its entity in moveHead.)
   */
  async markEdited(db: Db, ids: readonly string[]): Promise<Set<string>> {
    const { rows } = await db.query<{ entity_id: string }>(
      'UPDATE index_backlog SET edited = true WHERE entity_id = ANY($1::text[]) RETURNING entity_id', [ids]);
    return new Set(rows.map((r) => r.entity_id));
  }

  /**
   * First in a batch's transaction that stages rows: waits while a build runs, and keeps one from starting
   * until the batch commits. First, so that the batch holds no row lock the build could wait for.
   */
  async holdOffBuild(client: pg.PoolClient): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock_shared($1::bigint)', [await this.lockKey(client)]);
  }

  /** Within a batch's transaction (after holdOffBuild): records new entities as waiting and copies their rows into the staging. */
  async stage(client: pg.PoolClient, entities: readonly { id: string; revision: number }[], rows: DeferredRows): Promise<void> {
    if (entities.length === 0) return;
    await client.query(`INSERT INTO index_backlog (entity_id, rev_id)
      SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT (entity_id) DO NOTHING`,
    [entities.map((e) => e.id), entities.map((e) => e.revision)]);
    await copyStaged(client, entities.map((e) => e.id), rows);
  }

  /**
   * Builds the indexes of every waiting entity: the rows a crash lost are derived again, each table's staged
   * rows go in sorted (one transaction each), then the edits made meanwhile are applied and the backlog and
   * staging emptied together. Calls `onStep` before each step.
   */
  async build(reindex: Reindex, onStep: (step: BuildStep) => void = () => {}, prefixLanguageMin = DEFAULT_PREFIX_LANGUAGE_MIN): Promise<void> {
    if (await this.pendingCount() === 0) return;
    // Another import's batches wait for the end of this build (and this build for their transactions): the
    // staging it empties at its end holds exactly the rows it moved.
    const guard = await this.pool.connect();
    const key = await this.lockKey(guard);
    try {
      await guard.query('SELECT pg_advisory_lock($1::bigint)', [key]);
      await this.buildLocked(reindex, onStep, prefixLanguageMin);
    } finally {
      await guard.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
      guard.release();
    }
  }

  private async buildLocked(reindex: Reindex, onStep: (step: BuildStep) => void, prefixLanguageMin: number): Promise<void> {
    // Rows derived again may be in a table already (filled before a crash emptied the staging): those tables
    // keep their keys, whose ON CONFLICT skips such rows.
    const restaged = await this.restageLost(onStep);
    const pending = await this.pendingCount();
    const entities = Number((await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM entities')).rows[0].n);
    const rebuild = !restaged && pending >= REBUILD_SHARE * Math.max(entities - pending, 0);
    for (const target of DEFERRED_TABLES) {
      const rows = Number((await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${stageOf(target)}`)).rows[0].n);
      onStep({ step: `building ${target.table}`, rows });
      // The staged rows go with the fill that moves them: a build interrupted later does not move them twice.
      await inTransaction(this.pool, async (db) => {
        await fill(db, target, rows, rebuild);
        // Prefix rows come from the folded terms, in the same transaction: the staged ones go with this fill.
        if (target.table === 'search_terms') {
          onStep({ step: 'building search_prefixes from the folded terms', rows });
          await fillPrefixes(db, prefixLanguageMin);
        }
        await db.query(`TRUNCATE ${stageOf(target)}`);
      });
    }
    await inTransaction(this.pool, async (db) => {
      // Edits wait here until the backlog is gone, then write their own rows: none falls between the two.
      await db.query('LOCK TABLE index_backlog IN EXCLUSIVE MODE');
      const { rows: edited } = await db.query<{ entity_id: string; rev_id: string }>(
        'SELECT entity_id, rev_id FROM index_backlog WHERE edited');
      onStep({ step: 'applying the edits made meanwhile', rows: edited.length });
      for (const e of edited) await reindex(db, e.entity_id, Number(e.rev_id));
      await db.query(`TRUNCATE index_backlog, stage_entities, ${DEFERRED_TABLES.map(stageOf).join(', ')}`);
    });
    this.afterBuild();
    // Marks the new rows visible to all in the visibility map, so that searches read them by index-only scans
    // (every column a search reads is in the key), and gives the planner the tables' new statistics.
    onStep({ step: 'vacuuming the new rows', rows: 0 });
    for (const table of [...DEFERRED_TABLES.map((t) => t.table), 'search_prefixes']) await this.pool.query(`VACUUM (ANALYZE) ${table}`);
  }

  /** Stages again, from the revisions the backlog names, the rows of waiting entities the staging does not hold. */
  private async restageLost(onStep: (step: BuildStep) => void): Promise<boolean> {
    const { rows: lost } = await this.pool.query<{ entity_id: string; rev_id: string }>(`
      SELECT b.entity_id, b.rev_id FROM index_backlog b
      WHERE NOT EXISTS (SELECT 1 FROM stage_entities s WHERE s.entity_id = b.entity_id)`);
    if (lost.length === 0) return false;
    onStep({ step: 'deriving the rows of entities an earlier run left unindexed', rows: lost.length });
    for (let i = 0; i < lost.length; i += RESTAGE_BATCH) {
      const slice = lost.slice(i, i + RESTAGE_BATCH);
      await inTransaction(this.pool, async (client) => {
        const { rows: docs } = await client.query<{ content: string }>(
          'SELECT content FROM revisions WHERE rev_id = ANY($1::bigint[])', [slice.map((e) => e.rev_id)]);
        const rows = emptyDeferredRows();
        for (const doc of docs) appendDeferredRows(rows, JSON.parse(doc.content) as Entity);
        await copyStaged(client, slice.map((e) => e.entity_id), rows);
      });
    }
    return true;
  }
}

/** COPYs entities' rows into the staging, and the entities into the list of those staged. */
async function copyStaged(client: pg.PoolClient, ids: readonly string[], rows: DeferredRows): Promise<void> {
  await copyRows(client, 'stage_entities', ['entity_id'], ids.map((id) => [id]));
  for (const target of DEFERRED_TABLES) await copyRows(client, stageOf(target), target.columns, target.rows(rows));
}

/**
 * Moves a table's staged rows into it. Kept indexes: sorted by the key, so that each index page is written
 * once. When `rebuild`, every index of the table, its primary key too, is dropped first and made again after
 * (CREATE INDEX sorts once), and the rows go in as they are: 1.7M search prefix rows took 1.4 s so, 3.2 s
 * sorted and 8.7 s sorted and made DISTINCT, then 1.5 s to make the key. Staged rows then never repeat a
 * stored one (they are the rows of entities not indexed yet, and no rows were derived again), nor one another
 * (index-rows.ts derives each row of an entity once).
 */
async function fill(db: Db, target: DeferredTable, rows: number, rebuild: boolean): Promise<void> {
  await db.query(BUILD_MEMORY);
  const columns = target.columns.join(', ');
  const staged = `SELECT ${columns} FROM ${stageOf(target)}`;
  if (!rebuild) {
    if (rows > 0) await db.query(`INSERT INTO ${target.table} (${columns}) ${staged} ORDER BY ${target.key.join(', ')} ON CONFLICT DO NOTHING`);
    return;
  }
  const { rows: primary } = await db.query<{ name: string; definition: string }>(`
    SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
    WHERE conrelid = $1::regclass AND contype = 'p'`, [target.table]);
  const { rows: secondary } = await db.query<{ name: string; definition: string }>(`
    SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
    WHERE i.schemaname = current_schema() AND i.tablename = $1 AND i.indexname <> ALL($2::text[])`,
  [target.table, primary.map((p) => p.name)]);
  for (const index of secondary) await db.query(`DROP INDEX ${index.name}`);
  for (const key of primary) await db.query(`ALTER TABLE ${target.table} DROP CONSTRAINT ${key.name}`);
  if (rows > 0) await db.query(`INSERT INTO ${target.table} (${columns}) ${staged}`);
  for (const key of primary) await db.query(`ALTER TABLE ${target.table} ADD CONSTRAINT ${key.name} ${key.definition}`);
  for (const index of secondary) await db.query(index.definition);
}

/**
 * Prefix rows of the languages that need them, made from folded terms and inserted sorted
 * (prefix-languages.ts): from the staged terms for a language that has all its rows, from all of its terms
 * for a recorded one that has grown large enough; small languages this build brings are recorded. Within
 * the search_terms step's transaction, after its rows went in. The table keeps its key (two terms of an
 * entity may share a prefix, and edits write prefix rows of recorded languages): duplicates are skipped.
 */
async function fillPrefixes(db: Db, prefixLanguageMin: number): Promise<void> {
  const skipped = await searchQueries.prefixSkipped(db);
  const staged = (await db.query<Language>('SELECT DISTINCT kind, lang FROM stage_search_terms')).rows;
  const large = new Set<string>();
  for (const l of planCandidates(skipped, staged)) {
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM (SELECT 1 FROM search_terms WHERE kind = $1 AND lang = $2 LIMIT $3) s', [l.kind, l.lang, prefixLanguageMin]);
    if (Number(rows[0].n) >= prefixLanguageMin) large.add(languageKey(l));
  }
  const plans = planPrefixes(skipped, staged, (l) => large.has(languageKey(l)));
  const columns = (list: Language[]) => [list.map((l) => l.kind), list.map((l) => l.lang)];
  if (plans.fromStaged.length + plans.backfill.length > 0) {
    await db.query(BUILD_MEMORY);
    await db.query(`INSERT INTO search_prefixes (kind, lang, prefix, type, rank, entity)
      SELECT * FROM (${prefixRowsSelect('stage_search_terms', '(t.kind, t.lang) IN (SELECT * FROM unnest($1::smallint[], $2::text[]))')}
        UNION ALL ${prefixRowsSelect('search_terms', '(t.kind, t.lang) IN (SELECT * FROM unnest($3::smallint[], $4::text[]))')}) s
      ORDER BY kind, lang, prefix, type, rank, entity ON CONFLICT DO NOTHING`,
    [...columns(plans.fromStaged), ...columns(plans.backfill)]);
  }
  await db.query('DELETE FROM search_prefix_skipped WHERE (kind, lang) IN (SELECT * FROM unnest($1::smallint[], $2::text[]))',
    columns(plans.backfill));
  await db.query('INSERT INTO search_prefix_skipped (kind, lang) SELECT * FROM unnest($1::smallint[], $2::text[]) ON CONFLICT DO NOTHING',
    columns(plans.skip));
}
