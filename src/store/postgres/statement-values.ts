// The PostgreSQL side of the statement-value index (ADR 0007): the same rows as SQLite's, written with unnest()
// in the edit's transaction, and the same lookup: one condition's rows in entity order, the others probed.
import type { Entity, KindName } from '../../domain/entity.js';
import { MAX_CONDITIONS, statementValueKeys, type StatementCondition, type ValueKey } from '../../domain/statement-values.js';
import { ENTITY_VALUE_REGEX, idNumber, KIND_CODE, KIND_OF_CODE, valueRows, type RowDiff } from '../index-rows.js';
import type { EntityNumber, IncomingLink, StatementFilter, StatementLookup, StatementValueIndex } from '../store.js';
import { runCombined, type Db, type WritePart } from './queries.js';
import { inTransaction } from './transaction.js';
import type pg from 'pg';

/** Postings counted per condition to choose the one that drives a lookup: the rarest within this cap. */
const DRIVER_COUNT_CAP = 2000;

/** Rows of several entities as columns, for one unnest() each way. */
export interface ValueColumns { properties: number[]; values: string[]; kinds: number[]; entities: number[] }

export const emptyValueColumns = (): ValueColumns => ({ properties: [], values: [], kinds: [], entities: [] });

export function appendValues(columns: ValueColumns, entity: Pick<Entity, 'id' | 'type'>, keys: readonly ValueKey[]): void {
  for (const [property, value, kind, number] of valueRows(entity, keys)) {
    columns.properties.push(property);
    columns.values.push(value);
    columns.kinds.push(kind);
    columns.entities.push(number);
  }
}

/**
 * Statement-value rows removed and added (those already there are left as they are), as writes: none for a side
 * without rows.
 */
export function valueParts(removed: ValueColumns, added: ValueColumns): WritePart[] {
  const parts: WritePart[] = [];
  if (removed.entities.length) {
    parts.push({ sql: `DELETE FROM statement_values WHERE (property, value, kind, entity) IN
      (SELECT * FROM unnest($1::integer[], $2::text[], $3::smallint[], $4::integer[]))`,
    values: [removed.properties, removed.values, removed.kinds, removed.entities] });
  }
  if (added.entities.length) {
    parts.push({ sql: `INSERT INTO statement_values (property, value, kind, entity)
      SELECT * FROM unnest($1::integer[], $2::text[], $3::smallint[], $4::integer[]) ON CONFLICT DO NOTHING`,
    values: [added.properties, added.values, added.kinds, added.entities] });
  }
  return parts;
}

/** One entity's row difference as writes. */
export function valueDiffParts(entity: Pick<Entity, 'id' | 'type'>, diff: RowDiff<ValueKey>): WritePart[] {
  const removed = emptyValueColumns();
  appendValues(removed, entity, diff.removed);
  const added = emptyValueColumns();
  appendValues(added, entity, diff.added);
  return valueParts(removed, added);
}

export class PostgresStatementValues implements StatementValueIndex {
  private readonly pages = new Map<number, string>();

  /** `reader`: where lookups go (the pool, or the replicas for a read view); writes use `pool`. */
  constructor(private readonly pool: pg.Pool, private readonly reader: Db = pool) {}

  /** Indexes entities stored before the index existed (migration 10); concurrent openers share the work. */
  async drainBacklog(batch = 500): Promise<void> {
    for (;;) {
      const taken = await inTransaction(this.pool, async (db) => {
        const ids = (await db.query<{ entity_id: string }>(`DELETE FROM value_backlog WHERE entity_id IN (
          SELECT entity_id FROM value_backlog LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING entity_id`, [batch])).rows;
        if (ids.length === 0) return 0;
        const docs = (await db.query<{ content: string }>(`SELECT r.content FROM entities e JOIN revisions r ON r.rev_id = e.head_rev
          WHERE e.id = ANY($1::text[]) AND e.redirect_to IS NULL`, [ids.map((r) => r.entity_id)])).rows;
        const added = emptyValueColumns();
        for (const d of docs) {
          const entity = JSON.parse(d.content) as Entity;
          appendValues(added, entity, statementValueKeys(entity));
        }
        await runCombined(db, valueParts(emptyValueColumns(), added));
        return ids.length;
      });
      if (taken === 0) return;
    }
  }

  async find({ kind, conditions, after, limit }: StatementLookup): Promise<number[]> {
    const code = KIND_CODE[kind];
    const ordered = await this.driverFirst(code, conditions);
    const params: unknown[] = [code, after ?? 0, limit];
    for (const c of ordered) params.push(idNumber(c.property), c.key);
    const result = await this.reader.query<{ entity: number }>(this.page(ordered.length), params);
    return result.rows.map((r) => Number(r.entity));
  }

  async holds(kind: KindName, entity: number, filter: StatementFilter): Promise<boolean> {
    const code = KIND_CODE[kind];
    const conditions = [...filter.all, ...filter.none];
    if (conditions.length === 0) return true;
    const found = await this.reader.query<{ i: number }>(`SELECT u.i FROM unnest($1::integer[], $2::text[]) WITH ORDINALITY AS u(p, v, i)
      WHERE EXISTS (SELECT 1 FROM statement_values s WHERE s.property = u.p AND s.value = u.v AND s.kind = $3 AND s.entity = $4)`,
    [conditions.map((c) => idNumber(c.property)), conditions.map((c) => c.key), code, entity]);
    const present = new Set(found.rows.map((r) => Number(r.i) - 1));
    return filter.all.every((_, i) => present.has(i)) && !filter.none.some((_, i) => present.has(filter.all.length + i));
  }

  async linksTo(target: string, after: EntityNumber | null, limit: number): Promise<IncomingLink[]> {
    const from = after ? [KIND_CODE[after.kind], after.entity] : [-1, 0];
    // The regular expression repeats the partial index's condition (migration 16), which lets the planner use it.
    const result = await this.reader.query<{ kind: number; entity: number; properties: number[] }>(`
      SELECT kind, entity, array_agg(property ORDER BY property) AS properties FROM statement_values
      WHERE value = $1 AND value ~ ${ENTITY_VALUE_REGEX} AND (kind, entity) > ($2::smallint, $3::integer)
      GROUP BY kind, entity ORDER BY kind, entity LIMIT $4`, [target, from[0], from[1], limit]);
    return result.rows.map((r) => ({ kind: KIND_OF_CODE[Number(r.kind)], entity: Number(r.entity), properties: r.properties.map(Number) }));
  }

  /** The conditions with the one of fewest rows first (each counted up to the cap), in one round trip. */
  private async driverFirst(kind: number, conditions: StatementCondition[]): Promise<StatementCondition[]> {
    if (conditions.length === 1) return conditions;
    const counted = await this.reader.query<{ i: string; n: string }>(`SELECT u.i, (SELECT count(*) FROM (SELECT 1 FROM statement_values s
        WHERE s.property = u.p AND s.value = u.v AND s.kind = $3 LIMIT ${DRIVER_COUNT_CAP}) x) AS n
      FROM unnest($1::integer[], $2::text[]) WITH ORDINALITY AS u(p, v, i)`,
    [conditions.map((c) => idNumber(c.property)), conditions.map((c) => c.key), kind]);
    const n = new Map(counted.rows.map((r) => [Number(r.i) - 1, Number(r.n)]));
    return conditions.map((c, i) => ({ c, n: n.get(i) ?? 0 })).sort((a, b) => a.n - b.n).map((x) => x.c);
  }

  /** One statement text per number of conditions: $1 kind, $2 after, $3 limit, then (property, value) pairs. */
  private page(conditions: number): string {
    if (conditions < 1 || conditions > MAX_CONDITIONS) throw new RangeError(`1..${MAX_CONDITIONS} conditions`);
    let text = this.pages.get(conditions);
    if (!text) {
      const others = Array.from({ length: conditions - 1 }, (_, i) => `AND EXISTS (SELECT 1 FROM statement_values w${i}
        WHERE w${i}.property = $${6 + 2 * i} AND w${i}.value = $${7 + 2 * i} AND w${i}.kind = v.kind AND w${i}.entity = v.entity)`);
      text = `SELECT v.entity FROM statement_values v
        WHERE v.property = $4 AND v.value = $5 AND v.kind = $1 AND v.entity > $2
        ${others.join('\n')}
        ORDER BY v.entity LIMIT $3`;
      this.pages.set(conditions, text);
    }
    return text;
  }
}
