// Secondary indexes of a bulk import, built once in key order instead of row by row (ADR 0008).
//
// A row inserted into a B-tree lands on the leaf its key belongs on; the index rows of an import (about 230
// per generated item: terms, search keys, statement values) go to random places of indexes that soon outgrow
// every cache, so each insert reads and rewrites a page the insert before did not touch: 1M generated items
// loaded at 249 entities/s, falling as the store grew. Here an import appends its rows to unindexed staging
// tables in the connection's temporary database instead, and finishImport inserts each table's rows sorted
// by its key, so each page of the index is written once, in order.
//
// Durability comes from `index_backlog` in the store itself: each entity whose rows are staged gets a row
// there (with the revision whose rows were staged) in its batch's transaction. The staging lives only as long
// as the connection; a run that is killed leaves the backlog, and the next run derives those entities' rows
// again from their documents. Every build insert is INSERT OR IGNORE of rows derived from a fixed revision,
// so repeating a build after a crash half-way writes the same rows.
import type Database from 'better-sqlite3';
import type { Entity } from '../../domain/entity.js';
import { appendDeferredRows, DEFERRED_TABLES, emptyDeferredRows, type DeferredRows, type DeferredTable } from '../index-rows.js';
import { planPrefixes, prefixRowsSelect, type Language } from '../prefix-languages.js';
import { decodeDocument } from './documents.js';
import { rowInserter, type RowInserter } from './queries.js';
import type { BuildStep } from '../store.js';

type StagedRows = DeferredRows;
/**
 * A target's staged rows live in a temporary database of their own (`ATTACH ''`), one file per target: the
 * build detaches it, which deletes the file, as soon as the target's index is built, so the disk the staged
 * rows took goes back before the next table's sort takes its own (at 1,000,000 items the whole import peaked
 * at 17.3 GB of disk for a 10.2 GB store while every target's rows stayed until the end).
 */
const stageOf = (target: DeferredTable) => `stage_${target.table}`;
const stagedRowsOf = (target: DeferredTable) => `${stageOf(target)}.rows`;

/**
 * A secondary index of a target is dropped before its rows go in and made again after (CREATE INDEX sorts
 * once) when the rows to add are at least this share of the rows already there; below it, the sorted insert
 * keeps it up to date in place.
 */
const REBUILD_SECONDARY_SHARE = 0.25;


export class DeferredIndex {
  private readonly insert = new Map<DeferredTable, RowInserter>();
  private readonly addPending: Database.Statement<[string, number]>;
  private readonly markEditedStatement: Database.Statement<[string]>;
  private stagedEntity!: Database.Statement<[string]>;

  /**
   * `staging`: this connection stages rows (an import's); its tables are made now, outside any transaction, so a
   * rolled-back batch cannot take them with it. `prefixLanguageMin`: see prefix-languages.ts.
   */
  constructor(private readonly db: Database.Database, private readonly staging: boolean, private readonly prefixLanguageMin: number) {
    if (staging) this.open();
    // SQLite's sorter may sort its runs on helper threads: the import's other thread is idle during a build.
    // At 1,000,000 items: search_prefixes 123 → 81 s, search_terms 56 → 42 s (ADR 0008).
    if (staging) db.pragma('threads = 2');
    this.addPending = db.prepare('INSERT OR REPLACE INTO index_backlog (entity_id, rev_id, edited) VALUES (?, ?, 0)');
    this.markEditedStatement = db.prepare('UPDATE index_backlog SET edited = 1 WHERE entity_id = ?');
  }

  /** Entities whose index rows are staged or waiting to be derived again (an import stopped before its build). */
  pendingCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM index_backlog').get() as { n: number }).n;
  }

  /**
   * An edit of an entity whose rows are not built yet: its rows are left to the build, which applies the
   * difference between the staged revision and the head afterwards. Returns false when the entity is not pending.
   */
  markEdited(id: string): boolean {
    return this.markEditedStatement.run(id).changes > 0;
  }

  /** Stages the rows of new entities, each given with the revision its rows come from. */
  stage(entities: readonly { id: string; revision: number }[], rows: StagedRows): void {
    for (const e of entities) {
      this.addPending.run(e.id, e.revision);
      this.stagedEntity.run(e.id);
    }
    this.stageRows(rows);
  }

  /**
   * Builds the indexes of every pending entity: first the rows of entities a stopped run left pending, then
   * each table's staged rows in key order (one transaction each), then the edits made meanwhile and the end of
   * the backlog. Calls `onStep` before each step.
   */
  build(reindex: (id: string, stagedRevision: number) => void, onStep: (step: BuildStep) => void = () => {}): void {
    if (this.pendingCount() === 0) return;
    try {
      this.buildStaged(reindex, onStep);
    } finally {
      // Staging for this connection's next batches, whatever became of this build (attaching is not allowed
      // inside their transactions).
      if (this.staging) this.open();
    }
  }

  private buildStaged(reindex: (id: string, stagedRevision: number) => void, onStep: (step: BuildStep) => void): void {
    this.open();
    const redo = this.db.prepare<[], { entity_id: string; rev_id: number }>(
      'SELECT entity_id, rev_id FROM index_backlog WHERE entity_id NOT IN (SELECT entity_id FROM temp.stage_entities)').all();
    if (redo.length > 0) {
      onStep({ step: 'deriving the rows of entities an earlier run left unindexed', rows: redo.length });
      this.restage(redo);
    }
    const pending = this.pendingCount();
    const indexed = (this.db.prepare('SELECT count(*) AS n FROM entities').get() as { n: number }).n - pending;
    const rebuildSecondary = pending >= REBUILD_SECONDARY_SHARE * Math.max(indexed, 0);
    for (const target of DEFERRED_TABLES) {
      const rows = (this.db.prepare(`SELECT count(*) AS n FROM ${stagedRowsOf(target)}`).get() as { n: number }).n;
      onStep({ step: `building ${target.table}`, rows });
      this.db.transaction(() => this.fill(target, rows, rebuildSecondary)).immediate();
      if (target.table === 'search_terms') {
        // Which languages are large enough is decided on the terms they hold with this build's.
        onStep({ step: 'building search_prefixes from the folded terms', rows });
        this.db.transaction(() => this.fillPrefixes()).immediate();
      }
      // Rows in the store now; a build stopped later finds nothing of them staged and moves none twice.
      this.release(target);
    }
    const edited = this.db.prepare<[], { entity_id: string; rev_id: number }>(
      'SELECT entity_id, rev_id FROM index_backlog WHERE edited = 1').all();
    onStep({ step: 'applying the edits made meanwhile', rows: edited.length });
    // One transaction: an entity leaves the backlog together with the difference its edits made.
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM index_backlog').run();
      for (const e of edited) reindex(e.entity_id, e.rev_id);
    }).immediate();
    this.db.exec('DELETE FROM temp.stage_entities');
  }

  /** Inserts a target's staged rows sorted by its key, its secondary indexes dropped and made again after or kept. */
  private fill(target: DeferredTable, rows: number, rebuildSecondary: boolean): void {
    const secondary = rebuildSecondary ? this.db.prepare<[string], { name: string; sql: string }>(
      "SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(target.table) : [];
    for (const index of secondary) this.db.exec(`DROP INDEX main.${index.name}`);
    if (rows > 0) {
      const columns = target.columns.join(', ');
      this.db.exec(`INSERT OR IGNORE INTO main.${target.table} (${columns})
        SELECT ${columns} FROM ${stagedRowsOf(target)} ORDER BY ${target.key.join(', ')}`);
    }
    for (const index of secondary) this.db.exec(index.sql);
  }

  /**
   * Prefix rows of the languages that need them, made in SQL from folded terms and inserted sorted
   * (prefix-languages.ts): from this build's staged terms for a language that has all its rows, from all of
   * its terms for a recorded one that has grown large enough; small languages this build brings are recorded.
   */
  private fillPrefixes(): void {
    const db = this.db;
    const skipped = db.prepare<[], Language>('SELECT kind, lang FROM main.search_prefix_skipped').all();
    const staged = db.prepare<[], Language>('SELECT DISTINCT kind, lang FROM stage_search_terms.rows').all();
    const count = db.prepare<[number, string, number], { n: number }>(
      'SELECT count(*) AS n FROM (SELECT 1 FROM main.search_terms WHERE kind = ? AND lang = ? LIMIT ?)');
    const min = this.prefixLanguageMin;
    const plans = planPrefixes(skipped, staged, (l) => count.get(l.kind, l.lang, min)!.n >= min);
    const languages = (list: Language[]) => JSON.stringify(list.map((l) => [l.kind, l.lang]));
    const among = '(t.kind, t.lang) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))';
    db.prepare(`INSERT OR IGNORE INTO main.search_prefixes (kind, lang, prefix, type, rank, entity)
      SELECT * FROM (${prefixRowsSelect('stage_search_terms.rows', among)} UNION ALL ${prefixRowsSelect('main.search_terms', among)})
      ORDER BY kind, lang, prefix, type, rank, entity`).run(languages(plans.fromStaged), languages(plans.backfill));
    db.prepare(`DELETE FROM main.search_prefix_skipped
      WHERE (kind, lang) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`).run(languages(plans.backfill));
    db.prepare(`INSERT OR IGNORE INTO main.search_prefix_skipped (kind, lang)
      SELECT value ->> 0, value ->> 1 FROM json_each(?)`).run(languages(plans.skip));
  }

  /** Stages again the rows of pending entities from the revisions the backlog names. */
  private restage(pending: readonly { entity_id: string; rev_id: number }[]): void {
    const read = this.db.prepare<[number], { content: string | Buffer }>('SELECT content FROM revisions WHERE rev_id = ?');
    let rows = emptyDeferredRows();
    for (const { entity_id, rev_id } of pending) {
      appendDeferredRows(rows, JSON.parse(decodeDocument(read.get(rev_id)!.content)) as Entity);
      this.stagedEntity.run(entity_id);
      if (rows.search.terms.length > 20_000) {
        this.stageRows(rows);
        rows = emptyDeferredRows();
      }
    }
    this.stageRows(rows);
  }

  private stageRows(rows: StagedRows): void {
    for (const target of DEFERRED_TABLES) this.insert.get(target)!(target.rows(rows));
  }

  /** Creates this connection's staging tables, shaped like their targets, where they are missing. */
  private open(): void {
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS stage_entities (entity_id TEXT NOT NULL)');
    this.stagedEntity = this.db.prepare('INSERT INTO temp.stage_entities (entity_id) VALUES (?)');
    for (const target of DEFERRED_TABLES) {
      if (this.insert.has(target)) continue;
      const columns = target.columns.join(', ');
      this.db.exec(`ATTACH DATABASE '' AS ${stageOf(target)}`);
      this.db.exec(`CREATE TABLE ${stagedRowsOf(target)} AS SELECT ${columns} FROM main.${target.table} WHERE 0`);
      this.insert.set(target, rowInserter(this.db, `INSERT INTO ${stagedRowsOf(target)} (${columns}) VALUES`, target.columns.length));
    }
  }

  /** Drops a target's staged rows with their file. */
  private release(target: DeferredTable): void {
    this.insert.delete(target);
    this.db.exec(`DETACH DATABASE ${stageOf(target)}`);
  }
}
