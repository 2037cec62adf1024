// The SQLite side of the statement-value index (ADR 0007): rows (property, value, kind, entity) kept in step with
// each edit inside its transaction, and lookups that read one condition's rows in entity order while checking
// the others with point probes. Statement shapes are fixed: one per number of conditions, at most MAX_CONDITIONS.
import type Database from 'better-sqlite3';
import type { Entity, KindName } from '../../domain/entity.js';
import { MAX_CONDITIONS, statementValueKeys, type StatementCondition, type ValueKey } from '../../domain/statement-values.js';
import { ENTITY_VALUE_GLOB, idNumber, KIND_CODE, KIND_OF_CODE, valueRows, type RowDiff } from '../index-rows.js';
import type { EntityNumber, IncomingLink, StatementFilter, StatementLookup, StatementValueIndex } from '../store.js';
import { rowInserter, type RowInserter } from './queries.js';

/** Postings counted per condition to choose the one that drives a lookup: the rarest within this cap. */
const DRIVER_COUNT_CAP = 2000;

export class SqliteStatementValues implements StatementValueIndex {
  private readonly insert: Database.Statement<unknown[]>;
  private readonly remove: Database.Statement<unknown[]>;
  private readonly probe: Database.Statement<[number, string, number, number]>;
  private readonly count: Database.Statement<[number, string, number], { n: number }>;
  /** Bulk imports: a hundred rows per statement, as for the other index tables. */
  readonly insertMany: RowInserter;
  private readonly pages = new Map<number, Database.Statement<unknown[], { entity: number }>>();
  private readonly incoming: Database.Statement<[string, number, number, number], { kind: number; entity: number; properties: string }>;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare('INSERT OR IGNORE INTO statement_values (property, value, kind, entity) VALUES (?, ?, ?, ?)');
    this.insertMany = rowInserter(db, 'INSERT OR IGNORE INTO statement_values (property, value, kind, entity) VALUES', 4);
    this.remove = db.prepare('DELETE FROM statement_values WHERE property = ? AND value = ? AND kind = ? AND entity = ?');
    this.probe = db.prepare('SELECT 1 FROM statement_values WHERE property = ? AND value = ? AND kind = ? AND entity = ?');
    this.count = db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM statement_values
      WHERE property = ? AND value = ? AND kind = ? LIMIT ${DRIVER_COUNT_CAP})`);
    // The GLOB repeats the partial index's condition (migration 16): SQLite uses that index only when the
    // query's WHERE holds the same term. Grouped in index order: no sort, however many rows a value has.
    this.incoming = db.prepare(`SELECT kind, entity, group_concat(property) AS properties FROM statement_values
      WHERE value = ? AND value GLOB ${ENTITY_VALUE_GLOB} AND (kind, entity) > (?, ?)
      GROUP BY kind, entity ORDER BY kind, entity LIMIT ?`);
  }

  async linksTo(target: string, after: EntityNumber | null, limit: number): Promise<IncomingLink[]> {
    const from = after ? [KIND_CODE[after.kind], after.entity] : [-1, 0];
    return this.incoming.all(target, from[0], from[1], limit).map((r) => ({
      kind: KIND_OF_CODE[r.kind], entity: r.entity, properties: r.properties.split(',').map(Number).sort((a, b) => a - b),
    }));
  }

  /** Applies one entity's row difference; runs inside the caller's transaction. */
  write(entity: Pick<Entity, 'id' | 'type'>, diff: RowDiff<ValueKey>): void {
    for (const row of valueRows(entity, diff.removed)) this.remove.run(row);
    for (const row of valueRows(entity, diff.added)) this.insert.run(row);
  }

  /** Indexes entities that existed before the index did (migration 10), `batch` at a time. */
  drainBacklog(read: (id: string) => Entity | null, batch = 1000): void {
    const take = this.db.prepare<[number], { entity_id: string }>('SELECT entity_id FROM value_backlog LIMIT ?');
    const done = this.db.prepare<[string]>('DELETE FROM value_backlog WHERE entity_id = ?');
    for (;;) {
      const ids = take.all(batch);
      if (ids.length === 0) return;
      this.db.transaction(() => {
        for (const { entity_id } of ids) {
          const entity = read(entity_id);
          if (entity) this.write(entity, { removed: [], added: statementValueKeys(entity) });
          done.run(entity_id);
        }
      }).immediate();
    }
  }

  async find({ kind, conditions, after, limit }: StatementLookup): Promise<number[]> {
    const ordered = this.driverFirst(KIND_CODE[kind], conditions);
    // Parameters in the order of the statement's placeholders: the driver, kind and cursor, the others, the limit.
    const params: unknown[] = [];
    ordered.forEach((c, i) => {
      params.push(idNumber(c.property), c.key);
      if (i === 0) params.push(KIND_CODE[kind], after ?? 0);
    });
    return this.page(ordered.length).all(...params, limit).map((r) => r.entity);
  }

  async holds(kind: KindName, entity: number, filter: StatementFilter): Promise<boolean> {
    const code = KIND_CODE[kind];
    const has = (c: StatementCondition) => this.probe.get(idNumber(c.property), c.key, code, entity) !== undefined;
    return filter.all.every(has) && !filter.none.some(has);
  }

  /** The conditions with the one of fewest rows first: its rows are read, the others probed per row. */
  private driverFirst(kind: number, conditions: StatementCondition[]): StatementCondition[] {
    if (conditions.length === 1) return conditions;
    const counted = conditions.map((c) => ({ c, n: this.count.get(idNumber(c.property), c.key, kind)!.n }));
    counted.sort((a, b) => a.n - b.n);
    return counted.map((x) => x.c);
  }

  private page(conditions: number): Database.Statement<unknown[], { entity: number }> {
    if (conditions < 1 || conditions > MAX_CONDITIONS) throw new RangeError(`1..${MAX_CONDITIONS} conditions`);
    let statement = this.pages.get(conditions);
    if (!statement) {
      const others = Array.from({ length: conditions - 1 }, (_, i) => `AND EXISTS (SELECT 1 FROM statement_values w${i}
        WHERE w${i}.property = ? AND w${i}.value = ? AND w${i}.kind = v.kind AND w${i}.entity = v.entity)`).join('\n');
      statement = this.db.prepare(`SELECT v.entity FROM statement_values v
        WHERE v.property = ? AND v.value = ? AND v.kind = ? AND v.entity > ?
        ${others}
        ORDER BY v.entity LIMIT ?`);
      this.pages.set(conditions, statement);
    }
    return statement;
  }
}
