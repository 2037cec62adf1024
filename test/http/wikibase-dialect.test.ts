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
    // D2: a property read under the prefix says its data type; at /v1 the contract leaves it out.
    const prop = await s.get(`${W}/v1/entities/properties/${property}`);
    assert.deepEqual(Object.keys(prop.body).slice(0, 3), ['id', 'type', 'data_type']);
    assert.equal(prop.body.data_type, 'string');
    assert.equal((await s.get(`/v1/entities/properties/${property}`)).body.data_type, undefined);
  });

  it('edits through the prefix, with Locations under it', async () => {
    const created = await s.post(`${W}/v1/entities/items/${item}/statements`, { statement: { property: { id: property, data_type: 'string' },
      value: { type: 'value', content: 'added under the prefix' } } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.property.data_type, 'string');
    assert.ok(created.headers.get('location')!.startsWith(`${s.url}${W}/v1/entities/items/${item}/statements/`), created.headers.get('location')!);
    // D11: upstream answers 201 to a PUT that creates the label or sitelink, 200 to one that replaces it.
    const label = await s.put(`${W}/v1/entities/items/${item}/labels/de`, { label: 'Dialekt' });
    assert.equal(label.status, 201, label.text);
    assert.equal((await s.put(`${W}/v1/entities/items/${item}/labels/de`, { label: 'Mundart' })).status, 200);
    assert.equal((await s.put(`/v1/entities/items/${item}/labels/fr`, { label: 'dialecte' })).status, 200, '/v1 keeps 200 (D11)');
    assert.equal((await s.get(`/v1/entities/items/${item}/labels/de`)).body, 'Mundart', 'one store behind both');
    const sitelink = await s.put(`${W}/v1/entities/items/${item}/sitelinks/enwiki`, { sitelink: { title: 'Dialect page' } });
    assert.equal(sitelink.status, 201, sitelink.text);
    assert.equal((await s.put(`${W}/v1/entities/items/${item}/sitelinks/enwiki`, { sitelink: { title: 'Dialect page 2' } })).status, 200);
  });

  it('answers a redirect as /v1 does, and errors with upstream\'s codes (D5, D6, D7, D10)', async () => {
    const target = (await s.post('/v1/entities/items', { item: {} })).body.id;
    const source = (await s.post('/v1/entities/items', { item: {} })).body.id;
    await s.store.redirectEntity(source, target, { user: 'test', comment: null, tags: [], bot: false });
    const res = await fetch(`${s.url}${W}/v1/entities/items/${source}`, { redirect: 'manual' });
    assert.equal(res.status, 308);
    assert.equal(res.headers.get('location'), `${s.url}${W}/v1/entities/items/${target}`);
    const missing = await s.get(`${W}/v1/entities/items/Q999999999`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { code: 'resource-not-found', message: 'The requested resource does not exist', context: { resource_type: 'item' } });
    assert.equal((await s.get('/v1/entities/items/Q999999999')).body.code, 'item-not-found', '/v1 keeps the contract\'s code');
    const noLabel = await s.get(`${W}/v1/entities/items/${item}/labels/sv`);
    assert.deepEqual([noLabel.status, noLabel.body.context], [404, { resource_type: 'label' }]);
    const badId = await s.get(`${W}/v1/entities/items/X1`);
    assert.deepEqual([badId.status, badId.body.code, badId.body.context], [400, 'invalid-path-parameter', { parameter: 'item_id' }]);
    const badLanguage = await s.get(`${W}/v1/entities/items/${item}/labels/not-a-language`);
    assert.deepEqual(badLanguage.body.context, { parameter: 'language_code' });
    const statementId = (await s.get(`/v1/entities/items/${item}/statements`)).body[property][0].id;
    const mismatch = await s.get(`${W}/v1/entities/items/${target}/statements/${encodeURIComponent(statementId)}`);
    assert.deepEqual([mismatch.status, mismatch.body.code, mismatch.body.context],
      [400, 'item-statement-id-mismatch', { item_id: target, statement_id: statementId }]);
    assert.equal((await s.get(`/v1/entities/items/${target}/statements/${encodeURIComponent(statementId)}`)).body.code, 'statement-not-found', 'D6 at /v1');
    // D7: upstream says what is wrong with a new item; the contract says invalid-item-data.
    const bad = { item: { labels: { en: 42 } } };
    const detailed = await s.post(`${W}/v1/entities/items`, bad);
    assert.deepEqual([detailed.status, detailed.body.code, detailed.body.context], [400, 'invalid-value', { path: '/item/labels/en' }]);
    assert.equal((await s.post('/v1/entities/items', bad)).body.code, 'invalid-item-data');
    const noType = await s.post(`${W}/v1/entities/properties`, { property: { labels: { en: 'typeless' } } });
    assert.deepEqual([noType.body.code, noType.body.context], ['missing-field', { path: '/property', field: 'data_type' }]);
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
