// Bulk import (SQLite importEntities) writes new entities without a diff, table by table, in this thread or on
// the import thread: the store it builds must hold exactly the rows that the same entities written by edits
// leave, and answer the same.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateAll } from '../../bench/generate.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { decodeDocument } from '../../src/store/sqlite/documents.js';
import { PolicyViolation, type EditMeta } from '../../src/store/store.js';
import { assertSameSearches, changed, deferredImportContract, INDEX_TABLES } from './deferred-import-contract.js';

const META: EditMeta = { user: 'u', comment: null, tags: [], bot: true };

/** The rows of one table; a head's document as JSON text, whichever form it is stored in (compressed or text). */
const dump = (store: SqliteStore, table: string) => store.db.prepare(INDEX_TABLES[table]).all()
  .map((row) => (table === 'heads' ? { ...(row as object), content: decodeDocument((row as { content: string | Buffer }).content) } : row));

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** How the import is written: in this thread (any store), or on the import thread (a file). */
function storeFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'entia-import-'));
  dirs.push(dir);
  return join(dir, 'store.db');
}

/** How the import is written: in this thread or on the import thread, with its indexes built at once or at the end. */
const WAYS: Record<string, () => SqliteStore> = {
  'in this thread': () => openSqliteStore({ path: ':memory:' }),
  'on the import thread': () => openSqliteStore({ path: storeFile(), importThread: true }),
  // Prefix rows in every language (none is too small), so that the rows compare with those edits write.
  'in this thread, indexes built at the end': () => openSqliteStore({ path: ':memory:', deferIndexes: true, prefixLanguageMin: 0 }),
  'on the import thread, indexes built at the end': () => openSqliteStore({ path: storeFile(), importThread: true, deferIndexes: true, prefixLanguageMin: 0 }),
};

for (const [way, openImportStore] of Object.entries(WAYS)) describe(`sqlite bulk import, ${way}`, () => {
  // Generated entities: many languages and scripts (unspaced ones too), aliases, statements and sitelinks.
  const all = [...generateAll(8, 40)];
  const first = all.slice(0, 120);
  // The second batch mixes new entities with replaced ones and writes one new id twice.
  const twice = all[130];
  const second = [changed(first[110]), ...all.slice(120, 130), changed(first[5]), twice, changed(twice), ...all.slice(131)];

  it('holds exactly the rows that edits of the same entities write, and answers the same', async () => {
    const imported = openImportStore();
    await imported.importEntities(first, META);
    await imported.importEntities(second, META);
    await imported.finishImport();
    assert.equal(await imported.unindexedCount(), 0);

    const edited = openSqliteStore({ path: ':memory:' });
    for (const entity of [...first, ...second]) {
      const read = await edited.readEntity(entity.id);
      await edited.applyEdit({ entity, previous: read.status === 'found' ? read : null, meta: META, checks: {} });
    }

    for (const table of Object.keys(INDEX_TABLES)) {
      const rows = dump(imported, table);
      assert.ok(rows.length > 0 || table === 'search_prefix_skipped', table);
      assert.deepEqual(rows, dump(edited, table), table);
    }
    await assertSameSearches(imported, edited, [...first, ...second]);
    const ids = all.map((e) => e.id);
    assert.deepEqual([...(await imported.lookupEntities(ids))].sort(), [...(await edited.lookupEntities(ids))].sort());
    await imported.close();
    await edited.close();
  });

  it('refuses a batch whose new entities share a sitelink, writing nothing of it, and goes on with the next', async () => {
    const store = openImportStore();
    const [a, b, c] = all.filter((e) => Object.keys(e.sitelinks ?? {}).length > 0);
    const site = Object.keys(a.sitelinks!)[0];
    const clash = { ...b, sitelinks: { ...b.sitelinks, [site]: a.sitelinks![site] } };
    await assert.rejects(store.importEntities([a, clash], META), (e: unknown) =>
      e instanceof PolicyViolation && e.detail.violation === 'sitelink-conflict' && e.detail.conflictingId === a.id);
    assert.equal((await store.readEntity(a.id)).status, 'missing');
    assert.deepEqual(dump(store, 'search_prefixes'), []);
    await store.importEntities([a, c], META);
    await store.finishImport();
    assert.equal((await store.readEntity(c.id)).status, 'found');
    assert.deepEqual(await store.findViolation(clash, { sitelinkSites: [site] }),
      { violation: 'sitelink-conflict', siteId: site, conflictingId: a.id });
    await store.close();
  });
});

deferredImportContract({
  name: 'sqlite',
  newLocation: async () => storeFile(),
  openImport: async (path, prefixLanguageMin) => openSqliteStore({ path, importThread: true, deferIndexes: true, prefixLanguageMin }),
  openReference: async () => openSqliteStore({ path: ':memory:' }),
  stagingOutlivesStore: false,
  rows: async (store, table) => dump(store as SqliteStore, table),
  cleanup: async () => {},
});
