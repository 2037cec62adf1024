// `entia import`: real Wikidata dump lines become entities that the API serves and edits like any other.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { createTestDb } from '../helpers/store.js';
import { ENTIA } from '../helpers/entia-command.js';

const FIXTURE = new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url).pathname;
let s: TestServer;

before(async () => {
  const db = (await createTestDb()).location; // a file, or a PostgreSQL schema (ENTIA_TEST_STORE)
  const out = execFileSync(process.execPath, [...ENTIA, 'import', FIXTURE],
    { env: { ...process.env, ENTIA_DB: db }, encoding: 'utf8' });
  assert.match(out, /imported 3 entities \(\+\d+ placeholder properties\)/);
  s = await startServer({ dbPath: db });
});
after(async () => { await s.close(); });

describe('entia import', () => {
  it('serves imported items in the REST shape', async () => {
    const res = await s.get('/v1/entities/items/Q2682663');
    assert.equal(res.status, 200);
    assert.equal(res.body.labels.en, 'Jacques Herry');
    assert.equal(res.body.sitelinks.nlwiki.url, 'https://nl.wikipedia.org/wiki/Jacques_Herry');
    const [statement] = Object.values<any[]>(res.body.statements).flat().filter((st) => st.property['data-type'] === 'time');
    assert.match(statement.id, /^Q2682663\$/i);
    assert.deepEqual(Object.keys(statement.value.content).sort(), ['calendarmodel', 'precision', 'time']);
  });

  it('creates placeholder properties with the data type the snaks declare', async () => {
    const item = (await s.get('/v1/entities/items/Q62666140')).body;
    const pid = Object.keys(item.statements).find((p) => item.statements[p][0].property['data-type'] === 'monolingualtext')!;
    const res = await s.patch(`/v1/entities/properties/${pid}`, { patch: [] });
    assert.equal(res.status, 200);
    assert.equal(res.body.data_type, 'monolingualtext');
  });

  it('keeps imported entities editable', async () => {
    const res = await s.patch('/v1/entities/items/Q48347943', { patch: [{ op: 'add', path: '/labels/de', value: 'Frédéric S.-T.-F.' }] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.labels.de, 'Frédéric S.-T.-F.');
    const revisions = await s.store.revisions('Q48347943', 5);
    assert.equal(revisions.length, 2);
    assert.equal(revisions[1].user, 'import');
    assert.equal(revisions[1].bot, true);
  });

  it('turns an empty item into a redirect to an imported one with `entia redirect` (308 on reads afterwards)', async () => {
    const empty = (await s.post('/v1/entities/items', { item: {} })).body.id;
    const out = execFileSync(process.execPath, [...ENTIA, 'redirect', empty, 'Q2682663'],
      { env: { ...process.env, ENTIA_DB: s.dbPath }, encoding: 'utf8' });
    assert.match(out, new RegExp(`${empty} now redirects to Q2682663`));
    const res = await s.get(`/v1/entities/items/${empty}`);
    assert.equal(res.status, 308);
    assert.equal(new URL(res.headers.get('location')!).pathname, '/v1/entities/items/Q2682663');
  });

  it('continues id allocation above imported ids', async () => {
    const res = await s.post('/v1/entities/items', { item: {} });
    assert.ok(Number(res.body.id.slice(1)) > 62666140);
  });

  it('accepts a PUT of the stored value as a no-op even when that value breaks today\'s rules', async () => {
    const long = 'x'.repeat(300); // imported data may hold what the API would refuse (docs/api.md §6.1)
    await s.store.importEntities([{ id: 'Q900000001', type: 'item', labels: { en: long }, descriptions: {}, aliases: {}, statements: {}, sitelinks: {} }],
      { user: 'import', comment: null, tags: [], bot: true });
    const res = await s.put('/v1/entities/items/Q900000001/labels/en', { label: ` ${long} ` });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body, long);
    assert.equal((await s.store.revisions('Q900000001', 5)).length, 1);
    assert.equal((await s.put('/v1/entities/items/Q900000001/labels/en', { label: 'y'.repeat(300) })).body.code, 'value-too-long');
  });
});

describe('a partial copy stays editable', () => {
  /** A statement of Q2682663 whose item value is not in this store (the excerpt holds three items). */
  async function statementWithMissingValue(): Promise<{ id: string; value: string; statement: any }> {
    const item = (await s.get('/v1/entities/items/Q2682663')).body;
    const statement = Object.values<any[]>(item.statements).flat()
      .find((st) => st.property['data-type'] === 'wikibase-item' && st.value.type === 'value')!;
    assert.equal((await s.get(`/v1/entities/items/${statement.value.content}`)).status, 404, 'the value is not in the store');
    return { id: statement.id, value: statement.value.content, statement };
  }

  it('changes the rank of a statement whose item value the store does not hold (PATCH, PUT, entity PATCH)', async () => {
    const { id, statement } = await statementWithMissingValue();
    const patched = await s.patch(`/v1/statements/${encodeURIComponent(id)}`, { patch: [{ op: 'replace', path: '/rank', value: 'preferred' }] });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.rank, 'preferred');
    const { id: _id, ...body } = statement;
    const put = await s.put(`/v1/statements/${encodeURIComponent(id)}`, { statement: { ...body, rank: 'deprecated' } });
    assert.equal(put.status, 200, put.text);
    const item = (await s.get('/v1/entities/items/Q2682663')).body;
    const [group, index] = Object.entries<any[]>(item.statements).flatMap(([p, list]) => list.map((st, i) => [p, i, st.id] as const))
      .filter(([, , sid]) => sid === id).map(([p, i]) => [p, i])[0] as [string, number];
    const whole = await s.patch('/v1/entities/items/Q2682663', { patch: [{ op: 'replace', path: `/statements/${group}/${index}/rank`, value: 'normal' }] });
    assert.equal(whole.status, 200, whole.text);
  });

  it('still refuses a value the edit introduces that does not exist', async () => {
    const { id, statement } = await statementWithMissingValue();
    const { id: _id, ...body } = statement;
    const res = await s.put(`/v1/statements/${encodeURIComponent(id)}`,
      { statement: { ...body, value: { type: 'value', content: 'Q999999999' } } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'referenced-resource-not-found');
    const patched = await s.patch(`/v1/statements/${encodeURIComponent(id)}`,
      { patch: [{ op: 'replace', path: '/value/content', value: 'Q999999998' }] });
    assert.equal(patched.status, 422);
    assert.equal(patched.body.code, 'patch-result-referenced-resource-not-found');
  });
});
