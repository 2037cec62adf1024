// The storage contract, on the SQLite backend, plus what only SQLite has (schema migrations).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { it } from 'node:test';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeContract } from './contract.js';
import { parseText } from '../../src/search/query.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';

const dirs: string[] = [];
storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  return openSqliteStore({ path: join(dir, 'store.db') });
}, async () => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

// Databases created before the search index existed are indexed when the store opens (the search-index migration).
it('sqlite: indexes for search the entities of a database from before the search index', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  const path = join(dir, 'old.db');
  const old = new Database(path);
  old.exec(MIGRATIONS[0]);
  old.pragma('user_version = 1');
  const entity = { id: 'Q7', type: 'item', labels: { en: 'Legacy label' }, descriptions: {}, aliases: {}, statements: {}, sitelinks: {} };
  old.prepare("INSERT INTO revisions (entity_id, timestamp, user, comment, tags, bot, content) VALUES ('Q7', 0, 'u', NULL, '[]', 0, ?)")
    .run(JSON.stringify(entity));
  old.prepare("INSERT INTO entities (id, kind, head_rev) VALUES ('Q7', 'item', 1)").run();
  old.close();
  const store = openSqliteStore({ path });
  const hits = await store.search({ kind: 'item', mode: 'search', text: parseText('legacy'), entityId: null, languages: ['en'], limit: 10, offset: 0 });
  assert.deepEqual(hits.map((h) => h.id), ['Q7']);
  assert.deepEqual(store.db.prepare('SELECT count(*) AS n FROM search_backlog').get(), { n: 0 });
  await store.close();
});
