// Brings the schema up to date on start. Everything runs in one transaction under an advisory lock keyed on
// the target schema, so N processes starting together migrate once: the first applies the missing versions,
// the others wait, then find nothing left to do. A failed migration rolls back whole (DDL is transactional).
import type pg from 'pg';
import { migrationLockKey } from './lock-keys.js';
import { KINDS } from '../../domain/kinds.js';
import { entityValueIndex, kindSequence, MIGRATIONS } from './migrations.js';
import { migrationQueries as q } from './queries.js';
import { inTransaction } from './transaction.js';

/** Thrown, with nothing created, when the schema holds no store and the caller may not make one. */
export class NoStoreError extends Error {}

/**
 * `schema`: created when missing (ENTIA_PG_SCHEMA); null: the connection's search_path decides. `create`
 * false: a schema with no store in it is refused (NoStoreError) instead of given one. Resolves to true when
 * this call made the store.
 */
export async function migrate(pool: pg.Pool, schema: string | null, create = true): Promise<boolean> {
  return inTransaction(pool, async (db) => {
    const target = schema ?? await q.currentSchema(db);
    if (target === null) {
      throw new Error('PostgreSQL: search_path names no existing schema to create the tables in; set ENTIA_PG_SCHEMA');
    }
    await q.lock(db, migrationLockKey(target));
    if (schema !== null && !(await q.schemaExists(db, schema))) await q.createSchema(db, schema);
    await q.createTable(db);
    const applied = new Set(await q.applied(db));
    if (applied.size === 0 && !create) throw new NoStoreError(`no Entia store in schema ${target}`);
    const newest = Math.max(0, ...applied);
    if (newest > MIGRATIONS.length) {
      throw new Error(`PostgreSQL schema ${target} is at version ${newest}, newer than this Entia knows (${MIGRATIONS.length})`);
    }
    for (let version = 1; version <= MIGRATIONS.length; version++) {
      if (applied.has(version)) continue;
      await q.run(db, MIGRATIONS[version - 1]);
      await q.record(db, version);
    }
    for (const kind of KINDS) await q.run(db, kindSequence(kind));
    const rebuild = entityValueIndex(await q.indexDefinition(db, target, 'statement_values_by_entity_value'));
    if (rebuild) await q.run(db, rebuild);
    return applied.size === 0;
  });
}
