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
import { emptyEntity, type Entity } from '../../src/domain/entity.js';
import type { Head } from '../../src/store/store.js';

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

// Databases from before the statement-value index (migration 10) have their entities indexed when the store opens.
it('sqlite: indexes by statement value the entities of a database from before that index', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  const path = join(dir, 'old-values.db');
  const old = new Database(path);
  for (const migration of MIGRATIONS.slice(0, 9)) old.exec(migration);
  old.pragma('user_version = 9');
  const statement = { id: 'Q8$1', rank: 'normal', property: { id: 'P31', 'data-type': 'wikibase-item' },
    value: { type: 'value', content: 'Q5' }, qualifiers: [], references: [] };
  const entity = { id: 'Q8', type: 'item', labels: {}, descriptions: {}, aliases: {}, statements: { P31: [statement] }, sitelinks: {} };
  old.prepare("INSERT INTO revisions (entity_id, timestamp, user, comment, tags, bot, content) VALUES ('Q8', 0, 'u', NULL, '[]', 0, ?)")
    .run(JSON.stringify(entity));
  old.prepare("INSERT INTO entities (id, kind, head_rev) VALUES ('Q8', 'item', 1)").run();
  old.close();
  const store = openSqliteStore({ path });
  assert.deepEqual(await store.statementValues.find({ kind: 'item', conditions: [{ property: 'P31', key: 'Q5' }], after: null, limit: 10 }), [8]);
  assert.deepEqual(store.db.prepare('SELECT count(*) AS n FROM value_backlog').get(), { n: 0 });
  await store.close();
});

// Items are kept compressed, properties as JSON text, and documents stored as text before compression still read.
// Databases from before times were keyed at their precision too (migration 15): indexed again when the store opens.
it('sqlite: finds a year-precision date by its year in a database from before migration 15', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  const path = join(dir, 'old-times.db');
  const first = openSqliteStore({ path });
  const content = { time: '+1953-01-01T00:00:00Z', precision: 9, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' };
  const statement = { id: 'Q9$1', rank: 'normal' as const, property: { id: 'P569', 'data-type': 'time' },
    value: { type: 'value' as const, content }, qualifiers: [], references: [] };
  const id = await first.allocateId('item');
  await first.applyEdit({ entity: { id, type: 'item', labels: {}, descriptions: {}, aliases: {}, statements: { P569: [statement] }, sitelinks: {} },
    previous: null, meta: { user: 'u', comment: null, tags: [], bot: false }, checks: {} });
  // As a store written before: only the stored form's key, and the schema at migration 14.
  first.db.prepare("DELETE FROM statement_values WHERE value = '+1953-00-00T00:00:00Z'").run();
  first.db.pragma('user_version = 14'); // migration 15 runs again, and the ones after it (each may run twice)
  await first.close();
  const year = { kind: 'item' as const, conditions: [{ property: 'P569', key: '+1953-00-00T00:00:00Z' }], after: null, limit: 10 };
  const store = openSqliteStore({ path });
  assert.deepEqual(await store.statementValues.find(year), [Number(id.slice(1))]);
  await store.close();
});

it('sqlite: bulk-loaded item documents are compressed, property and single-edit documents text; all read alike', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  const path = join(dir, 'docs.db');
  const store = openSqliteStore({ path });
  const meta = { user: 'u', comment: null, tags: [], bot: false };
  const labels = Object.fromEntries(['en', 'de', 'fr', 'nl', 'it'].map((l) => [l, `a label in ${l} that repeats itself`]));
  const item = { id: 'Q77', type: 'item' as const, labels, descriptions: {}, aliases: {}, statements: {}, sitelinks: {} };
  const property = { id: 'P77', type: 'property' as const, data_type: 'string', labels: {}, descriptions: {}, aliases: {}, statements: {} };
  await store.importEntities([item, property], meta);
  const edited = { id: await store.allocateId('item'), type: 'item' as const, labels, descriptions: {}, aliases: {}, statements: {}, sitelinks: {} };
  await store.applyEdit({ entity: edited, previous: null, meta, checks: {} });
  const stored = (id: string) => store.db.prepare('SELECT r.content FROM revisions r JOIN entities e ON e.head_rev = r.rev_id WHERE e.id = ?')
    .get(id) as { content: unknown };
  const itemContent = stored(item.id).content;
  assert.ok(Buffer.isBuffer(itemContent), 'an item is a BLOB');
  assert.ok((itemContent as Buffer).length < JSON.stringify(item).length / 2);
  assert.equal(typeof stored(property.id).content, 'string');
  assert.equal(typeof stored(edited.id).content, 'string');
  assert.equal((await store.lookupEntities([property.id])).get(property.id), 'string', 'SQL still reads a property\'s data type');
  // A document written as text (before compression) reads as before.
  store.db.prepare('UPDATE revisions SET content = ? WHERE rev_id = (SELECT head_rev FROM entities WHERE id = ?)')
    .run(JSON.stringify({ ...item, labels: { en: 'old text form' } }), item.id);
  await store.close();
  const reopened = openSqliteStore({ path });
  const read = await reopened.readEntity(item.id);
  assert.equal(read.status === 'found' && read.entity.labels.en, 'old text form');
  const doc = await reopened.readDocument(item.id);
  assert.match(doc.status === 'found' ? doc.json() : '', /old text form/);
  await reopened.close();
});

// The changes a process committed are read from memory (change-feed.ts): whatever it remembers, every page must
// be what the query reads, also when another process's commits fall between its own, and with filters.
it('sqlite: the change feed reads the same from memory as from the file, with another writer in between', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  const path = join(dir, 'feed.db');
  const [one, other] = [openSqliteStore({ path }), openSqliteStore({ path })];
  const meta = { user: 'u', comment: 'c', tags: [], bot: false };
  const heads = new Map<string, { entity: Entity; head: Head }>();
  const edit = async (store: typeof one, id: string, label: string, action?: 'revert') => {
    const previous = heads.get(id) ?? null;
    const entity: Entity = { id, type: 'item', labels: { en: label }, descriptions: {}, aliases: {}, statements: {}, sitelinks: {} };
    heads.set(id, { entity, head: await store.applyEdit({ entity, previous, meta: { ...meta, action }, checks: {} }) });
  };
  for (let i = 0; i < 6; i++) await edit(one, `Q${i % 2 + 1}`, `one ${i}`, i === 5 ? 'revert' : undefined);
  await edit(other, 'Q3', 'other');
  for (let i = 0; i < 3; i++) await edit(one, 'Q1', `one again ${i}`);
  const fresh = openSqliteStore({ path }); // remembers nothing: every page is the query's
  const head = Number(await fresh.changesHead());
  for (let since = 0; since < head; since++) {
    for (const limit of [1, 2, 5, 100]) {
      const query = { since: String(since), limit };
      assert.deepEqual(await one.changes(query), await fresh.changes(query), `since ${since}, limit ${limit}`);
      assert.deepEqual(await one.changes({ ...query, entities: ['Q1'] }), await fresh.changes({ ...query, entities: ['Q1'] }));
    }
  }
  const all = await one.changes({ since: '0', limit: 100 });
  assert.deepEqual(all.map((c) => `${c.entity} ${c.type} ${c.previous}`),
    ['Q1 create null', 'Q2 create null', 'Q1 edit 1', 'Q2 edit 2', 'Q1 edit 3', 'Q2 revert 4', 'Q3 create null', 'Q1 edit 5', 'Q1 edit 8', 'Q1 edit 9']);
  await Promise.all([one.close(), other.close(), fresh.close()]);
});

// The incoming-links index holds the values that look like an id of a known kind: a version that knows another
// kind finds the index made with the old condition and builds it again when it opens the store.
it('sqlite: builds the incoming-links index again at open when its condition is not the kinds\'', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  const path = join(dir, 'links.db');
  const definition = (store: ReturnType<typeof openSqliteStore>) =>
    store.db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'statement_values_by_entity_value'").get()?.sql;
  const first = openSqliteStore({ path });
  const meta = { user: 'u', comment: null, tags: [], bot: false };
  const item = (id: string, statements: Entity['statements']) => ({ ...emptyEntity(id, 'item'), statements });
  await first.applyEdit({ entity: item('Q1', {}), previous: null, meta, checks: {} });
  await first.applyEdit({ entity: item('Q2', { P31: [{ id: 'Q2$00000000-0000-4000-8000-000000000001', rank: 'normal',
    property: { id: 'P31', 'data-type': 'wikibase-item' }, value: { type: 'value', content: 'Q1' }, qualifiers: [], references: [] }] }),
  previous: null, meta, checks: {} });
  assert.match(definition(first) ?? '', /GLOB '\[QP\]\[1-9\]\*'$/, 'migration 16\'s condition is the two kinds\'');
  first.db.exec(`DROP INDEX statement_values_by_entity_value;
    CREATE INDEX statement_values_by_entity_value ON statement_values (value, kind, entity, property) WHERE value GLOB '[P][1-9]*'`);
  await first.close();
  const reopened = openSqliteStore({ path });
  assert.match(definition(reopened) ?? '', /GLOB '\[QP\]\[1-9\]\*'$/);
  assert.deepEqual(await reopened.statementValues.linksTo('Q1', null, 10), [{ kind: 'item', entity: 2, properties: [31] }]);
  await reopened.close();
});

// A kind added to the descriptor after a store was made has no rows of its own there: the next open adds them.
it('sqlite: makes a kind\'s id counter and entity counts at open when the file lacks them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  const path = join(dir, 'kinds.db');
  const first = openSqliteStore({ path });
  first.db.prepare("DELETE FROM id_counters WHERE kind = 'property'").run();
  first.db.prepare("DELETE FROM entity_counts WHERE kind = 'property'").run();
  await assert.rejects(first.allocateId('property'));
  await first.close();
  const reopened = openSqliteStore({ path });
  assert.equal(await reopened.allocateId('property'), 'P1');
  const meta = { user: 'u', comment: null, tags: [], bot: false };
  await reopened.applyEdit({ entity: { id: 'P1', type: 'property', data_type: 'string', labels: {}, descriptions: {}, aliases: {}, statements: {} },
    previous: null, meta, checks: {} });
  assert.equal((await reopened.statistics()).entities.property, 1);
  await reopened.close();
});
