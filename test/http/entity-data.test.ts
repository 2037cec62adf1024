// Special:EntityData over real HTTP on the test backend: the dump format at the two URLs MediaWiki tools build,
// old revisions, redirects, and bad input as JSON errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let id: string;
let firstRevision: number;
before(async () => {
  s = await startServer();
  const created = await s.post('/v1/entities/items', { item: { labels: { en: 'entity data' }, sitelinks: { enwiki: { title: 'Entity data' } } } });
  id = created.body.id;
  firstRevision = Number(created.headers.get('etag')!.replaceAll('"', ''));
  await s.put(`/v1/entities/items/${id}/labels/en`, { label: 'entity data, edited' });
});
after(async () => { await s.close(); });

describe('Special:EntityData', () => {
  it('serves the current entity in the dump format at /wiki/Special:EntityData/{id}.json', async () => {
    const res = await s.get(`/wiki/Special:EntityData/${id}.json`);
    assert.equal(res.status, 200, res.text);
    const entity = res.body.entities[id];
    assert.equal(entity.id, id);
    assert.equal(entity.type, 'item');
    assert.deepEqual(entity.labels.en, { language: 'en', value: 'entity data, edited' });
    assert.equal(entity.sitelinks.enwiki.title, 'Entity data');
    assert.equal(entity.lastrevid, Number((await s.get(`/v1/entities/items/${id}`)).headers.get('etag')!.replaceAll('"', '')));
    const lower = await s.get(`/wiki/Special:EntityData/${id.toLowerCase()}.json`);
    assert.deepEqual(lower.body, res.body);
  });

  it('serves an old revision at the URL wikibase-sdk builds', async () => {
    const res = await s.get(`/w/index.php?title=Special:EntityData/${id}.json&revision=${firstRevision}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.entities[id].labels.en, { language: 'en', value: 'entity data' });
    assert.equal(res.body.entities[id].lastrevid, firstRevision);
  });

  it('sends a redirected item to its target', async () => {
    const target = (await s.post('/v1/entities/items', { item: {} })).body.id;
    const source = (await s.post('/v1/entities/items', { item: {} })).body.id;
    await s.store.redirectEntity(source, target, { user: 'test', comment: null, tags: [], bot: false });
    const res = await fetch(`${s.url}/wiki/Special:EntityData/${source}.json`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${s.url}/wiki/Special:EntityData/${target}.json`);
  });

  it('answers bad input with JSON errors', async () => {
    for (const [path, status, code] of [
      ['/wiki/Special:EntityData/Q999999999.json', 404, 'item-not-found'],
      ['/wiki/Special:EntityData/P999999999.json', 404, 'property-not-found'],
      ['/wiki/Special:EntityData/X1.json', 404, 'rest-no-match'],
      ['/wiki/Special:EntityData/Q1.ttl', 404, 'rest-no-match'],
      [`/wiki/Special:EntityData/${id}.json?revision=abc`, 400, 'invalid-query-parameter'],
      [`/wiki/Special:EntityData/${id}.json?revision=999999999`, 404, 'revision-not-found'],
      ['/w/index.php?title=Main_Page', 404, 'rest-no-match'],
      ['/w/index.php', 400, 'invalid-query-parameter'],
    ] as const) {
      const res = await s.get(path);
      assert.equal(res.status, status, `${path}: ${res.text}`);
      assert.equal(res.body.code, code, path);
    }
  });
});
