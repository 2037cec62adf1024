// Many entities in one request, over real HTTP on the test backend: mixed kinds, missing ids, redirects, the
// same bytes as single GETs, fields and languages with fallback, and bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let item: string;
let other: string;
let property: string;
before(async () => {
  s = await startServer();
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'batch property' } } })).body.id;
  item = (await s.post('/v1/entities/items', { item: { labels: { en: 'batch one', de: 'Stapel eins' }, descriptions: { en: 'first' },
    aliases: { en: ['b1'] }, sitelinks: { enwiki: { title: 'Batch one' } } } })).body.id;
  other = (await s.post('/v1/entities/items', { item: { labels: { en: 'batch two' } } })).body.id;
});
after(async () => { await s.close(); });

describe('GET and POST /v1/entities', () => {
  it('returns items and properties as single GETs do, lists missing ids', async () => {
    const res = await s.get(`/v1/entities?ids=${item},${property},Q999999999,${other.toLowerCase()}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body.entities).sort(), [item, other, property].sort());
    assert.deepEqual(res.body.missing, ['Q999999999']);
    assert.deepEqual(res.body.redirects, {});
    for (const id of [item, property]) {
      const single = await s.get(`/v1/entities/${id.startsWith('P') ? 'properties' : 'items'}/${id}`);
      assert.deepEqual(res.body.entities[id], single.body, id);
    }
    const posted = await s.post('/v1/entities', { ids: [item, property, 'Q999999999', other] });
    assert.equal(posted.status, 200, posted.text);
    assert.deepEqual(posted.body, res.body);
  });

  it('follows redirects and reports them', async () => {
    const source = (await s.post('/v1/entities/items', { item: {} })).body.id;
    await s.store.redirectEntity(source, other, { user: 'test', comment: null, tags: [], bot: false });
    const res = await s.get(`/v1/entities?ids=${source}`);
    assert.deepEqual(res.body.redirects, { [source]: other });
    assert.deepEqual(Object.keys(res.body.entities), [other]);
  });

  it('narrows to fields and languages, with the fallback chain when asked', async () => {
    const res = await s.get(`/v1/entities?ids=${item},${property}&_fields=labels,data_type&languages=de,de-ch`);
    assert.deepEqual(res.body.entities[item], { id: item, labels: { de: 'Stapel eins' } });
    assert.deepEqual(res.body.entities[property], { id: property, labels: {}, data_type: 'string' });
    const withFallback = await s.get(`/v1/entities?ids=${item}&_fields=labels,descriptions&languages=de-ch,fr&fallback=1`);
    // de-ch falls back to de; fr (and de-ch for the description) reach English at the end of every chain.
    assert.deepEqual(withFallback.body.entities[item], { id: item, labels: { 'de-ch': 'Stapel eins', fr: 'batch one' },
      descriptions: { 'de-ch': 'first', fr: 'first' } });
  });

  it('sends the answer as it makes it, or whole and compressed when asked: the same JSON either way', async () => {
    const aliases = Array.from({ length: 30 }, (_, i) => `an alias long enough to make the answer worth compressing ${i}`);
    const large = (await s.post('/v1/entities/items', { item: { aliases: { en: aliases } } })).body.id;
    const ids = `${item},${property},${large},Q999999999`;
    const expected = (await s.get(`/v1/entities?ids=${ids}`)).body;
    const plain = await fetch(`${s.url}/v1/entities?ids=${ids}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers.get('transfer-encoding'), 'chunked');
    assert.equal(plain.headers.get('content-type'), 'application/json');
    assert.equal(plain.headers.get('vary'), 'Accept-Encoding');
    assert.deepEqual(await plain.json(), expected);
    const gzipped = await fetch(`${s.url}/v1/entities?ids=${ids}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzipped.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(await gzipped.json(), expected);
    const head = await fetch(`${s.url}/v1/entities?ids=${ids}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    // Upstream's dialect renames each statement's `data-type` in the pieces as they go.
    await s.post(`/v1/entities/items/${other}/statements`, { statement: { property: { id: property }, value: { type: 'value', content: 'streamed' } } });
    const upstream = await fetch(`${s.url}/w/rest.php/wikibase/v1/entities?ids=${other}`, { headers: { 'accept-encoding': 'identity' } });
    const text = await upstream.text();
    assert.doesNotMatch(text, /"data-type":/);
    assert.equal(JSON.parse(text).entities[other].statements[property][0].property.data_type, 'string');
  });

  it('refuses bad input with the parameter or path named', async () => {
    const cases: [string, string][] = [
      ['/v1/entities', 'ids'], ['/v1/entities?ids=', 'ids'], ['/v1/entities?ids=X1', 'ids'],
      [`/v1/entities?ids=${Array.from({ length: 501 }, (_, i) => `Q${i + 1}`).join(',')}`, 'ids'],
      [`/v1/entities?ids=${item}&_fields=nonsense`, '_fields'], [`/v1/entities?ids=${item}&languages=xx-nope`, 'languages'],
    ];
    for (const [path, parameter] of cases) {
      const res = await s.get(path);
      assert.equal(res.status, 400, path);
      assert.deepEqual(res.body.context, { parameter }, path);
    }
    assert.deepEqual((await s.post('/v1/entities', {})).body.context, { path: '', field: 'ids' });
    assert.deepEqual((await s.post('/v1/entities', { ids: 'Q1' })).body.context, { path: '/ids' });
    assert.deepEqual((await s.post('/v1/entities', { ids: ['Q1'], languages: [7] })).body.context, { path: '/languages' });
  });
});
