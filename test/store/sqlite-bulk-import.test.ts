// Bulk import (SQLite importEntities) writes new entities without a diff, table by table, in this thread or on
// the import thread: the store it builds must hold exactly the rows that the same entities written by edits
// leave, and answer the same.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateAll } from '../../bench/generate.js';
import type { Entity } from '../../src/domain/entity.js';
import { parseText } from '../../src/search/query.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { decodeDocument } from '../../src/store/sqlite/documents.js';
import { PolicyViolation, type EditMeta } from '../../src/store/store.js';
import { call, startServerProcess } from '../helpers/process.js';

const META: EditMeta = { user: 'u', comment: null, tags: [], bot: true };

/** Every index and search row, and each entity's head, in a canonical order. */
const TABLES: Record<string, string> = {
  entities: 'SELECT id, kind, redirect_to, sitelink_count, statement_count FROM entities ORDER BY id',
  heads: 'SELECT e.id, r.content FROM entities e JOIN revisions r ON r.rev_id = e.head_rev ORDER BY e.id',
  revisions: 'SELECT entity_id, count(*) AS n FROM revisions GROUP BY entity_id ORDER BY entity_id',
  terms: 'SELECT * FROM terms ORDER BY entity_id, type, lang, text',
  sitelinks: 'SELECT * FROM sitelinks ORDER BY site, title',
  statement_values: 'SELECT * FROM statement_values ORDER BY 1, 2, 3, 4',
  search_terms: 'SELECT * FROM search_terms ORDER BY 1, 2, 3, 4, 5, 6',
  search_prefixes: 'SELECT * FROM search_prefixes ORDER BY 1, 2, 3, 4, 5, 6',
  search_tokens: 'SELECT * FROM search_tokens ORDER BY 1, 2, 3, 4, 5, 6',
};

/** The rows of one table; a head's document as JSON text, whichever form it is stored in (compressed or text). */
const dump = (store: SqliteStore, table: string) => store.db.prepare(TABLES[table]).all()
  .map((row) => (table === 'heads' ? { ...(row as object), content: decodeDocument((row as { content: string | Buffer }).content) } : row));

/** The given tables hold the same rows in both stores. */
function assertSameRows(store: SqliteStore, reference: SqliteStore, tables: string[]): void {
  for (const table of tables) assert.deepEqual(dump(store, table), dump(reference, table), table);
}

/** A new version of an entity: one label changed, aliases and sitelinks gone, a statement group dropped. */
function changed(entity: Entity): Entity {
  const [dropped] = Object.keys(entity.statements);
  const statements = Object.fromEntries(Object.entries(entity.statements).filter(([p]) => p !== dropped));
  return { ...entity, labels: { ...entity.labels, en: `${entity.labels.en ?? entity.id} bis` }, aliases: {}, sitelinks: {}, statements };
}

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
  'in this thread, indexes built at the end': () => openSqliteStore({ path: ':memory:', deferIndexes: true }),
  'on the import thread, indexes built at the end': () => openSqliteStore({ path: storeFile(), importThread: true, deferIndexes: true }),
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

    for (const table of Object.keys(TABLES)) {
      const rows = dump(imported, table);
      assert.ok(rows.length > 0, table);
      assert.deepEqual(rows, dump(edited, table), table);
    }
    const labelled = [...first, ...second].filter((e) => e.type === 'item' && e.labels.en).slice(0, 12);
    for (const entity of labelled) {
      for (const mode of ['search', 'suggest'] as const) {
        const query = { kind: 'item' as const, mode, text: parseText(entity.labels.en.slice(0, 4)), entityId: null,
          languages: ['en', 'de'], limit: 10, offset: 0 };
        assert.deepEqual(await imported.search(query), await edited.search(query), `${mode} ${entity.labels.en}`);
      }
    }
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

describe('sqlite bulk import, indexes built at the end', () => {
  const all = [...generateAll(9, 30)];
  const items = all.filter((e) => e.type === 'item');

  it('sees nothing of a batch in search until finishImport, then all of it', async () => {
    const store = openSqliteStore({ path: storeFile(), importThread: true, deferIndexes: true });
    await store.importEntities(all, META);
    const target = items.find((e) => e.labels.en)!;
    const query = { kind: 'item' as const, mode: 'search' as const, text: parseText(target.labels.en), entityId: null,
      languages: ['en'], limit: 10, offset: 0 };
    assert.deepEqual(await store.search(query), []);
    assert.equal(await store.unindexedCount(), all.length);
    const steps: string[] = [];
    await store.finishImport(({ step }) => steps.push(step));
    assert.ok(steps.includes('building search_prefixes'), steps.join('; '));
    assert.ok((await store.search(query)).some((hit) => hit.id === target.id));
    assert.equal(await store.unindexedCount(), 0);
    await store.close();
  });

  it('an edit or a redirect of an entity whose rows are not built yet ends with the rows of its last version', async () => {
    const path = storeFile();
    const store = openSqliteStore({ path, importThread: true, deferIndexes: true });
    await store.importEntities(all, META);
    const [edited, redirected, target] = items;
    const read = await store.readEntity(edited.id);
    assert.equal(read.status, 'found');
    await store.applyEdit({ entity: changed(edited), previous: read as never, meta: META, checks: {} });
    await store.redirectEntity(redirected.id, target.id, META);
    await store.finishImport();

    const reference = openSqliteStore({ path: ':memory:' });
    for (const entity of all) await reference.applyEdit({ entity, previous: null, meta: META, checks: {} });
    const again = await reference.readEntity(edited.id);
    await reference.applyEdit({ entity: changed(edited), previous: again as never, meta: META, checks: {} });
    await reference.redirectEntity(redirected.id, target.id, META);
    assertSameRows(store, reference, ['terms', 'statement_values', 'search_terms', 'search_prefixes', 'search_tokens', 'sitelinks']);
    await store.close();
    await reference.close();
  });

  it("a store closed before its build keeps the entities pending, and the next import's build derives their rows", async () => {
    const path = storeFile();
    const first = openSqliteStore({ path, importThread: true, deferIndexes: true });
    await first.importEntities(all.slice(0, 20), META);
    await first.close();
    const second = openSqliteStore({ path, importThread: true, deferIndexes: true });
    assert.equal(await second.unindexedCount(), 20);
    await second.importEntities(all.slice(20), META);
    const steps: string[] = [];
    await second.finishImport(({ step }) => steps.push(step));
    assert.ok(steps.some((s) => s.startsWith('deriving the rows')), steps.join('; '));

    const reference = openSqliteStore({ path: ':memory:' });
    await reference.importEntities(all, META);
    assertSameRows(second, reference, Object.keys(TABLES).filter((t) => t !== 'revisions'));
    await second.close();
    await reference.close();
  });

  it('entia serve over a store an import left unbuilt says so, and serves its entities by id', async () => {
    const path = storeFile();
    const store = openSqliteStore({ path, importThread: true, deferIndexes: true });
    await store.importEntities(all, META);
    await store.close();
    const server = await startServerProcess({ ENTIA_DB: path });
    try {
      await server.waitFor(new RegExp(`${all.length} imported entities are not in search yet`));
      const target = items.find((e) => e.labels.en)!;
      assert.equal((await call(server.url, 'GET', `/v1/entities/items/${target.id}`)).status, 200);
    } finally {
      await server.stop();
    }
  });
});
