// The REST API under Wikibase's own base path (/w/rest.php/wikibase/v1/…, ENTIA_WIKIBASE_PREFIX) over real HTTP on
// the test backend: the same entities, written `data_type` as Wikibase clients read it, Locations under the same
// prefix, and the contract's spelling unchanged at /v1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

const W = '/w/rest.php/wikibase';
let s: TestServer;
let property: string;
let item: string;
before(async () => {
  s = await startServer();
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'dialect property' } } })).body.id;
  item = (await s.post('/v1/entities/items', { item: { labels: { en: 'dialect item' },
    statements: { [property]: [{ property: { id: property }, value: { type: 'value', content: 'x' },
      qualifiers: [{ property: { id: property }, value: { type: 'value', content: 'q' } }] }] } } })).body.id;
});
after(async () => { await s.close(); });

describe(`the REST API under ${W}`, () => {
  it('serves the same entity with data_type in statements and qualifiers, where /v1 writes data-type', async () => {
    const contract = await s.get(`/v1/entities/items/${item}`);
    const wikibase = await s.get(`${W}/v1/entities/items/${item}`);
    assert.equal(wikibase.status, 200, wikibase.text);
    assert.equal(wikibase.headers.get('etag'), contract.headers.get('etag'));
    const statement = wikibase.body.statements[property][0];
    assert.equal(statement.property.data_type, 'string');
    assert.equal(statement.property['data-type'], undefined);
    assert.equal(statement.qualifiers[0].property.data_type, 'string');
    assert.equal(contract.body.statements[property][0].property['data-type'], 'string', '/v1 keeps the contract\'s spelling');
    const one = await s.get(`${W}/v1/statements/${encodeURIComponent(statement.id)}`);
    assert.equal(one.body.property.data_type, 'string');
  });

  it('edits through the prefix, with Locations under it', async () => {
    const created = await s.post(`${W}/v1/entities/items/${item}/statements`, { statement: { property: { id: property, data_type: 'string' },
      value: { type: 'value', content: 'added under the prefix' } } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.property.data_type, 'string');
    assert.ok(created.headers.get('location')!.startsWith(`${s.url}${W}/v1/entities/items/${item}/statements/`), created.headers.get('location')!);
    const label = await s.put(`${W}/v1/entities/items/${item}/labels/de`, { label: 'Dialekt' });
    assert.equal(label.status, 200, label.text);
    assert.equal((await s.get(`/v1/entities/items/${item}/labels/de`)).body, 'Dialekt', 'one store behind both');
  });

  it('answers a redirect and errors as /v1 does, under the prefix', async () => {
    const target = (await s.post('/v1/entities/items', { item: {} })).body.id;
    const source = (await s.post('/v1/entities/items', { item: {} })).body.id;
    await s.store.redirectEntity(source, target, { user: 'test', comment: null, tags: [], bot: false });
    const res = await fetch(`${s.url}${W}/v1/entities/items/${source}`, { redirect: 'manual' });
    assert.equal(res.status, 308);
    assert.equal(res.headers.get('location'), `${s.url}${W}/v1/entities/items/${target}`);
    const missing = await s.get(`${W}/v1/entities/items/Q999999999`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'item-not-found');
    const wrongMethod = await s.request('DELETE', `${W}/v1/entities/items/${item}`);
    assert.equal(wrongMethod.status, 405);
  });

  it('can be turned off', async () => {
    const off = await startServer({ config: { wikibasePrefix: null } });
    try {
      assert.equal((await off.get(`${W}/v1/property-data-types`)).status, 404);
      assert.equal((await off.get('/v1/property-data-types')).status, 200);
    } finally {
      await off.close();
    }
  });
});
