// Bulk import on PostgreSQL with its indexes built at the end (ADR 0008): the shared contract, and what only
// PostgreSQL has: staging tables that outlive a connection but not a server crash, and edits from other
// processes while an import waits for its build.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateAll } from '../../bench/generate.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import type { EditMeta, Store } from '../../src/store/store.js';
import { createTestDb, postgresSkipReason, postgresUrl, type TestDb } from '../helpers/store.js';
import { changed, deferredImportContract, INDEX_TABLES } from './deferred-import-contract.js';

const META: EditMeta = { user: 'u', comment: null, tags: [], bot: true };

if (!postgresUrl) {
  it('bulk import contract: postgres', { skip: postgresSkipReason! }, () => {});
} else {
  const made: TestDb[] = [];
  const newLocation = async () => {
    const db = await createTestDb('postgres');
    made.push(db);
    return db.location;
  };
  /** Prefix rows in every language unless told (none is too small), so that the rows compare with those edits write. */
  const openImport = (location: string, prefixLanguageMin = 0) =>
    openPostgresStore({ url: location, poolSize: 4, deferIndexes: true, prefixLanguageMin });
  const rows = async (store: Store, table: string) => (await (store as PostgresStore).pool.query(INDEX_TABLES[table])).rows;

  deferredImportContract({
    name: 'postgres',
    newLocation,
    openImport,
    openReference: async () => openPostgresStore({ url: await newLocation(), poolSize: 4 }),
    stagingOutlivesStore: true,
    rows,
    cleanup: async () => { await Promise.all(made.map((db) => db.drop())); },
  });

  describe('postgres: bulk import, staging and other processes', () => {
    const all = [...generateAll(9, 30)];
    const items = all.filter((e) => e.type === 'item');

    it('derives again the rows of waiting entities when a server crash emptied the unlogged staging', async () => {
      const location = await newLocation();
      const store = await openImport(location);
      await store.importEntities(all, META);
      // What crash recovery does to UNLOGGED tables; index_backlog is logged and keeps the entities.
      await store.pool.query('TRUNCATE stage_entities, stage_search_terms, stage_search_tokens, stage_terms, stage_statement_values');
      const steps: string[] = [];
      await store.finishImport(({ step, rows: n }) => steps.push(`${step} (${n})`));
      assert.ok(steps.includes(`deriving the rows of entities an earlier run left unindexed (${all.length})`), steps.join('; '));

      const reference = await openImport(await newLocation());
      await reference.importEntities(all, META);
      await reference.finishImport();
      for (const table of ['terms', 'statement_values', 'search_terms', 'search_prefixes', 'search_tokens', 'sitelinks']) {
        assert.deepEqual(await rows(store, table), await rows(reference, table), table);
      }
      await store.close();
      await reference.close();
    });

    it('an import that stages rows while another one builds loses none of them', async () => {
      const location = await newLocation();
      const [first, second] = await Promise.all([openImport(location), openImport(location)]);
      await first.importEntities(all.slice(0, 20), META);
      await Promise.all([first.finishImport(), second.importEntities(all.slice(20), META)]);
      await second.finishImport();
      assert.equal(await second.unindexedCount(), 0);

      const reference = await openImport(await newLocation());
      await reference.importEntities(all, META);
      await reference.finishImport();
      for (const table of ['terms', 'statement_values', 'search_terms', 'search_prefixes', 'search_tokens']) {
        assert.deepEqual(await rows(first, table), await rows(reference, table), table);
      }
      await Promise.all([first.close(), second.close(), reference.close()]);
    });

    it('an edit made by another process before the build is applied by the build, and one made after writes its own rows', async () => {
      const location = await newLocation();
      const importer = await openImport(location);
      const server = await openPostgresStore({ url: location, poolSize: 4 });
      await importer.importEntities(all, META);
      const [early, late] = items;
      const read = await server.readEntity(early.id);
      await server.applyEdit({ entity: changed(early), previous: read as never, meta: META, checks: {} });
      await importer.finishImport();
      const readLate = await server.readEntity(late.id);
      await server.applyEdit({ entity: changed(late), previous: readLate as never, meta: META, checks: {} });

      const reference = await openPostgresStore({ url: await newLocation(), poolSize: 4 });
      for (const entity of all) await reference.applyEdit({ entity, previous: null, meta: META, checks: {} });
      for (const entity of [early, late]) {
        const now = await reference.readEntity(entity.id);
        await reference.applyEdit({ entity: changed(entity), previous: now as never, meta: META, checks: {} });
      }
      for (const table of ['terms', 'statement_values', 'search_terms', 'search_prefixes', 'search_tokens']) {
        assert.deepEqual(await rows(importer, table), await rows(reference, table), table);
      }
      assert.equal(await server.unindexedCount(), 0);
      await Promise.all([importer.close(), server.close(), reference.close()]);
    });
  });
}
