// Items and properties as whole resources over real HTTP: creation, reads, JSON Patch, data policy,
// edit metadata on revisions, and the guarantee that a rejected edit changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

async function createItem(item: unknown = {}) {
  const res = await s.post('/v1/entities/items', { item });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function createProperty(property: unknown) {
  const res = await s.post('/v1/entities/properties', { property });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

describe('POST /v1/entities/items', () => {
  it('creates an item with absolute Location, ETag and Last-Modified, and normalises its terms', async () => {
    const res = await s.post('/v1/entities/items', {
      item: { labels: { en: '  Ka\u0308se  ' }, descriptions: { en: 'cheese' }, aliases: { en: ['spud', 'tater', 'spud'] } },
      comment: 'first',
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.match(res.body.id, /^Q\d+$/);
    assert.equal(new URL(res.headers.get('location')!).pathname, `/v1/entities/items/${res.body.id}`);
    assert.match(res.headers.get('etag')!, /^"\d+"$/);
    assert.ok(res.headers.get('last-modified')!.endsWith(' GMT'));
    assert.equal(res.body.labels.en, 'Käse');
    assert.deepEqual(res.body.aliases, { en: ['spud', 'tater'] });
    assert.deepEqual(res.body.statements, {});
    assert.deepEqual(res.body.sitelinks, {});
    assert.equal(res.body.type, 'item');
  });

  it('creates an empty item', async () => {
    const item = await createItem({});
    assert.deepEqual(item.labels, {});
    assert.deepEqual(item.aliases, {});
  });

  for (const [name, body] of [
    ['missing item', {}],
    ['item not an object', { item: 'x' }],
    ['labels not an object', { item: { labels: ['x'] } }],
    ['unknown language', { item: { labels: { xyz: 'x' } } }],
    ['empty label', { item: { labels: { en: '   ' } } }],
    ['description in mul', { item: { descriptions: { mul: 'x' } } }],
    ['too long label', { item: { labels: { en: 'x'.repeat(251) } } }],
    ['unknown statement property', { item: { statements: { P999999: [{ property: { id: 'P999999' }, value: { type: 'novalue' } }] } } }],
    ['unknown site', { item: { sitelinks: { nosuchwiki: { title: 'X' } } } }],
    ['bot not a boolean', { item: {}, bot: 'yes' }],
    ['tag not allowed', { item: {}, tags: ['x'] }],
    ['comment too long', { item: {}, comment: 'x'.repeat(501) }],
  ] as const) {
    it(`answers 400 invalid-item-data without context: ${name}`, async () => {
      const res = await s.post('/v1/entities/items', body);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { code: 'invalid-item-data', message: 'The provided item data is invalid' });
      assert.equal(res.headers.get('content-language'), 'en');
    });
  }

  it('answers invalid-item-data for malformed JSON', async () => {
    const res = await s.request('POST', '/v1/entities/items', { raw: '{"item":', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid-item-data');
  });

  it('refuses label = description and duplicate label+description (422)', async () => {
    let res = await s.post('/v1/entities/items', { item: { labels: { en: 'same' }, descriptions: { en: 'same' } } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.context, { violation: 'label-description-same-value', violation_context: { language: 'en' } });
    const first = await createItem({ labels: { de: 'Berlin' }, descriptions: { de: 'Stadt' } });
    res = await s.post('/v1/entities/items', { item: { labels: { de: 'Berlin' }, descriptions: { de: 'Stadt' } } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.context, {
      violation: 'item-label-description-duplicate', violation_context: { language: 'de', conflicting_item_id: first.id },
    });
    // Same label, other description: fine (case-sensitive, exact).
    await createItem({ labels: { de: 'Berlin' }, descriptions: { de: 'stadt' } });
  });
});

describe('POST /v1/entities/properties', () => {
  it('creates a property; data_type is in the creation response but not in GET', async () => {
    const p = await createProperty({ data_type: 'string', labels: { en: 'isbn code' } });
    assert.equal(p.data_type, 'string');
    assert.equal(p.type, 'property');
    assert.equal(p.sitelinks, undefined);
    const res = await s.get(`/v1/entities/properties/${p.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.data_type, undefined);
    assert.deepEqual(res.body.labels, { en: 'isbn code' });
  });

  for (const [name, property] of [
    ['missing data_type', { labels: { en: 'a' } }],
    ['unknown data_type', { data_type: 'nope' }],
    ['data_type not a string', { data_type: 1 }],
    ['label that is a property id', { data_type: 'string', labels: { en: 'P12' } }],
  ] as const) {
    it(`answers 400 invalid-property-data: ${name}`, async () => {
      const res = await s.post('/v1/entities/properties', { property });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { code: 'invalid-property-data', message: 'The provided property data is invalid' });
    });
  }

  it('refuses a duplicate property label (422 property-label-duplicate)', async () => {
    const p = await createProperty({ data_type: 'string', labels: { fr: 'unique label' } });
    const res = await s.post('/v1/entities/properties', { property: { data_type: 'url', labels: { fr: 'unique label' } } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.context, {
      violation: 'property-label-duplicate', violation_context: { language: 'fr', conflicting_property_id: p.id },
    });
  });
});

describe('GET /v1/entities/{kind}/{id}', () => {
  it('answers 400 for malformed ids and 404 for missing ones, per kind', async () => {
    for (const [path, status, code, message] of [
      ['/v1/entities/items/X1', 400, 'invalid-item-id', 'Not a valid item ID: X1'],
      ['/v1/entities/items/P1', 400, 'invalid-item-id', 'Not a valid item ID: P1'],
      ['/v1/entities/items/Q0', 400, 'invalid-item-id', 'Not a valid item ID: Q0'],
      ['/v1/entities/items/Q99999999', 404, 'item-not-found', 'Could not find an item with the ID: Q99999999'],
      ['/v1/entities/properties/Q1', 400, 'invalid-property-id', 'Not a valid property ID: Q1'],
      ['/v1/entities/properties/P99999999', 404, 'property-not-found', 'Could not find a property with the ID: P99999999'],
    ] as const) {
      const res = await s.get(path);
      assert.equal(res.status, status, path);
      assert.deepEqual(res.body, { code, message });
      assert.equal(res.headers.get('content-language'), 'en');
    }
  });

  it('accepts a lower-case id and answers with the upper-case one', async () => {
    const item = await createItem({ labels: { en: 'lower case' } });
    const res = await s.get(`/v1/entities/items/${item.id.toLowerCase()}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, item.id);
  });

  it('supports _fields and rejects unknown fields', async () => {
    const item = await createItem({ labels: { en: 'fields' } });
    const res = await s.get(`/v1/entities/items/${item.id}?_fields=labels,type`);
    assert.deepEqual(res.body, { id: item.id, labels: { en: 'fields' }, type: 'item' });
    const bad = await s.get(`/v1/entities/items/${item.id}?_fields=labels,nope`);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.context, { parameter: '_fields' });
  });
});

describe('PATCH /v1/entities/{kind}/{id}', () => {
  it('applies a JSON Patch (both media types) and returns the item', async () => {
    const item = await createItem({ labels: { en: 'patch me' } });
    for (const type of ['application/json', 'application/json-patch+json']) {
      const res = await s.request('PATCH', `/v1/entities/items/${item.id}`, {
        body: { patch: [{ op: 'add', path: '/labels/de', value: `Patch ${type}` }], comment: 'via patch' },
        headers: { 'content-type': type },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.labels.de, `Patch ${type}`);
    }
    const revisions = await s.store.revisions(item.id, 10);
    assert.equal(revisions.length, 3);
    assert.equal(revisions[0].comment, 'via patch');
  });

  it('keeps data_type in the property PATCH response and refuses changing it', async () => {
    const p = await createProperty({ data_type: 'url', labels: { en: 'home page x' } });
    let res = await s.patch(`/v1/entities/properties/${p.id}`, { patch: [{ op: 'replace', path: '/labels/en', value: 'home page y' }] });
    assert.equal(res.status, 200);
    assert.equal(res.body.data_type, 'url');
    res = await s.patch(`/v1/entities/properties/${p.id}`, { patch: [{ op: 'replace', path: '/data_type', value: 'string' }] });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.context, { path: '/data_type' });
    res = await s.patch(`/v1/entities/properties/${p.id}`, { patch: [{ op: 'remove', path: '/data_type' }] });
    assert.equal(res.body.code, 'patch-result-missing-field');
    assert.deepEqual(res.body.context, { path: '', field: 'data_type' });
  });

  it('answers the patch error codes and changes nothing', async () => {
    const item = await createItem({ labels: { en: 'untouched' } });
    const before = await s.get(`/v1/entities/items/${item.id}`);
    const cases: [unknown, number, string, unknown][] = [
      [{}, 400, 'missing-field', { path: '', field: 'patch' }],
      [{ patch: {} }, 400, 'invalid-value', { path: '/patch' }],
      [{ patch: [{ path: '/labels/en' }] }, 400, 'missing-field', { path: '/patch/0', field: 'op' }],
      [{ patch: [{ op: 'remove', path: '/labels/fr' }] }, 409, 'patch-target-not-found', { path: '/patch/0/path' }],
      [{ patch: [{ op: 'test', path: '/labels/en', value: 'x' }] }, 409, 'patch-test-failed', { path: '/patch/0', actual_value: 'untouched' }],
      [{ patch: [{ op: 'replace', path: '/id', value: 'Q1' }] }, 422, 'patch-result-modified-read-only-value', { path: '/id' }],
      [{ patch: [{ op: 'replace', path: '/labels/en', value: '' }] }, 422, 'patch-result-invalid-value', { path: '/labels/en', value: '' }],
      [{ patch: [{ op: 'add', path: '/labels/xyz', value: 'a' }] }, 422, 'patch-result-invalid-key', { path: '/labels', key: 'xyz' }],
      [{ patch: [{ op: 'replace', path: '/labels/en', value: 'x'.repeat(251) }] }, 422, 'patch-result-value-too-long', { path: '/labels/en', limit: 250 }],
      [{ patch: [{ op: 'add', path: '/descriptions/en', value: 'untouched' }] }, 422, 'data-policy-violation',
        { violation: 'label-description-same-value', violation_context: { language: 'en' } }],
    ];
    for (const [body, status, code, context] of cases) {
      const res = await s.patch(`/v1/entities/items/${item.id}`, body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(res.body.code, code);
      assert.deepEqual(res.body.context, context);
    }
    const after = await s.get(`/v1/entities/items/${item.id}`);
    assert.deepEqual(after.body, before.body);
    assert.equal(after.headers.get('etag'), before.headers.get('etag'));
    assert.equal((await s.store.revisions(item.id, 10)).length, 1);
  });

  it('treats an empty or no-op patch as a no-op without a new revision', async () => {
    const item = await createItem({ labels: { en: 'no-op' } });
    const before = await s.get(`/v1/entities/items/${item.id}`);
    for (const patch of [[], [{ op: 'replace', path: '/labels/en', value: 'no-op' }]]) {
      const res = await s.patch(`/v1/entities/items/${item.id}`, { patch });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('etag'), before.headers.get('etag'));
      assert.equal(res.headers.get('last-modified'), before.headers.get('last-modified'));
    }
  });

  it('answers 404 for a missing entity and 400 for a malformed id', async () => {
    const ops = { patch: [] };
    assert.equal((await s.patch('/v1/entities/items/Q88888888', ops)).body.code, 'item-not-found');
    assert.equal((await s.patch('/v1/entities/properties/X', ops)).body.code, 'invalid-property-id');
  });
});

describe('edit metadata', () => {
  it('stores comment, tags, bot and the user on the revision', async () => {
    await s.close();
    s = await startServer({ config: { allowedTags: ['mobile'] } });
    const res = await s.post('/v1/entities/items', { item: {}, comment: 'hello', tags: ['mobile'], bot: true });
    assert.equal(res.status, 201);
    const [rev] = await s.store.revisions(res.body.id, 1);
    assert.equal(rev.comment, 'hello');
    assert.deepEqual(rev.tags, ['mobile']);
    assert.equal(rev.bot, false); // an anonymous client has no bot right: accepted, recorded as a normal edit
    assert.equal(rev.user, '127.0.0.1');
    assert.equal(String(rev.revision), res.headers.get('etag')!.replaceAll('"', ''));
  });

  it('rejects bad metadata on non-creation routes with invalid-value / value-too-long', async () => {
    const item = await createItem({});
    const path = `/v1/entities/items/${item.id}`;
    let res = await s.patch(path, { patch: [], tags: 'x' });
    assert.deepEqual([res.status, res.body.code, res.body.context], [400, 'invalid-value', { path: '/tags' }]);
    res = await s.patch(path, { patch: [], tags: ['mobile', 'nope'] });
    assert.deepEqual(res.body.context, { path: '/tags/1' });
    res = await s.patch(path, { patch: [], bot: 'true' });
    assert.deepEqual(res.body.context, { path: '/bot' });
    res = await s.patch(path, { patch: [], comment: 'é'.repeat(251) });
    assert.deepEqual([res.body.code, res.body.context], ['value-too-long', { path: '/comment', limit: 500 }]);
  });
});
