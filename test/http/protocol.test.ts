// Cross-cutting HTTP behaviour: conditional requests, concurrent edits, restarts, framework-level errors,
// the 500 shape, and the meta routes.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => { s = await startServer({ config: { bodyLimit: 64 * 1024 } }); });
after(async () => { await s.close(); });

async function newItem(label: string) {
  const res = await s.post('/v1/entities/items', { item: { labels: { en: label } } });
  assert.equal(res.status, 201);
  return { id: res.body.id as string, etag: res.headers.get('etag')!, lastModified: res.headers.get('last-modified')! };
}

const relabel = (value: string) => ({ patch: [{ op: 'replace', path: '/labels/en', value }] });

describe('conditional requests (docs/api.md §8)', () => {
  it('answers 304 to If-None-Match and If-Modified-Since on reads', async () => {
    const item = await newItem('cond read');
    const path = `/v1/entities/items/${item.id}`;
    let res = await s.get(path, { 'if-none-match': item.etag });
    assert.equal(res.status, 304);
    assert.equal(res.text, '');
    assert.equal(res.headers.get('etag'), item.etag);
    res = await s.get(path, { 'if-none-match': '"foo", W/"999999"' });
    assert.equal(res.status, 200);
    res = await s.get(path, { 'if-modified-since': item.lastModified });
    assert.equal(res.status, 304);
    res = await s.get(path, { 'if-modified-since': new Date(Date.parse(item.lastModified) - 5000).toUTCString() });
    assert.equal(res.status, 200);
    res = await s.get(path, { 'if-modified-since': 'not a date' });
    assert.equal(res.status, 200);
  });

  it('answers 412 with an empty body and no validators to stale If-Match / If-Unmodified-Since edits', async () => {
    const item = await newItem('cond edit');
    const path = `/v1/entities/items/${item.id}`;
    let res = await s.patch(path, relabel('cond edit 2'), { 'if-match': '"1"' });
    assert.equal(res.status, 412);
    assert.equal(res.text, '');
    assert.equal(res.headers.get('etag'), null);
    assert.equal(res.headers.get('last-modified'), null);
    res = await s.patch(path, relabel('cond edit 2'), { 'if-unmodified-since': 'Thu, 01 Jan 2004 00:00:00 GMT' });
    assert.equal(res.status, 412);
    res = await s.patch(path, relabel('cond edit 2'), { 'if-none-match': '*' });
    assert.equal(res.status, 412);
    assert.equal((await s.get(path)).body.labels.en, 'cond edit');
    res = await s.patch(path, relabel('cond edit 2'), { 'if-match': item.etag });
    assert.equal(res.status, 200);
    assert.notEqual(res.headers.get('etag'), item.etag);
  });

  it('ignores preconditions for a missing entity (404 wins)', async () => {
    const res = await s.get('/v1/entities/items/Q77777777', { 'if-match': '"1"' });
    assert.equal(res.status, 404);
  });

  it('gives a later Last-Modified to a later edit', async () => {
    const item = await newItem('time');
    await new Promise((r) => setTimeout(r, 1100));
    const res = await s.patch(`/v1/entities/items/${item.id}`, relabel('time 2'));
    assert.ok(Date.parse(res.headers.get('last-modified')!) > Date.parse(item.lastModified));
  });
});

describe('concurrency and durability', () => {
  it('lets exactly one of two concurrent edits with the same If-Match succeed', async () => {
    const item = await newItem('race');
    const results = await Promise.all(['race A', 'race B', 'race C'].map((label) =>
      s.patch(`/v1/entities/items/${item.id}`, relabel(label), { 'if-match': item.etag })));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 412, 412]);
    const winner = results.find((r) => r.status === 200)!;
    assert.equal((await s.get(`/v1/entities/items/${item.id}`)).body.labels.en, winner.body.labels.en);
  });

  it('loses no update among concurrent edits without If-Match', async () => {
    const item = await newItem('many');
    const langs = ['de', 'fr', 'es', 'it', 'nl', 'pl'];
    const results = await Promise.all(langs.map((lang) =>
      s.patch(`/v1/entities/items/${item.id}`, { patch: [{ op: 'add', path: `/labels/${lang}`, value: `many ${lang}` }] })));
    assert.ok(results.every((r) => r.status === 200));
    const labels = (await s.get(`/v1/entities/items/${item.id}`)).body.labels;
    for (const lang of langs) assert.equal(labels[lang], `many ${lang}`);
  });

  it('answers every one of a burst of edits to one entity, through its own route and the statement routes', async () => {
    const item = await newItem('burst');
    const property = await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'burst text' } } });
    assert.equal(property.status, 201, property.text);
    const STRING_PROPERTY = property.body.id as string;
    const labels = Array.from({ length: 150 }, (_, i) => `burst ${i}`);
    const puts = labels.map((label) => s.put(`/v1/entities/items/${item.id}/labels/en`, { label }));
    const statements = Array.from({ length: 50 }, () => s.post(`/v1/entities/items/${item.id}/statements`,
      { statement: { property: { id: STRING_PROPERTY }, value: { type: 'value', content: 'burst' } } }));
    const results = await Promise.all([...puts, ...statements]);
    assert.deepEqual(results.map((r) => r.status).filter((status) => status >= 300), []);
    const final = (await s.get(`/v1/entities/items/${item.id}`)).body;
    assert.ok(labels.includes(final.labels.en));
    assert.equal(final.statements[STRING_PROPERTY].length, 50);
    const ids = final.statements[STRING_PROPERTY].map((st: { id: string }) => st.id);
    const removals = await Promise.all(ids.map((id: string) => s.delete(`/v1/statements/${id}`)));
    assert.deepEqual(removals.map((r) => r.status).filter((status) => status !== 200), []);
    assert.equal((await s.get(`/v1/entities/items/${item.id}`)).body.statements[STRING_PROPERTY], undefined);
  });

  it('never hands out an id twice, across a restart on the same file', async () => {
    const first = await startServer();
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add((await first.post('/v1/entities/items', { item: {} })).body.id);
    // A rejected creation must not make the next id reuse anything either.
    assert.equal((await first.post('/v1/entities/items', { item: { labels: { en: '' } } })).status, 400);
    const dbPath = first.dbPath;
    await first.close({ keepFiles: true });
    const second = await startServer({ dbPath });
    try {
      for (let i = 0; i < 3; i++) {
        const id = (await second.post('/v1/entities/items', { item: {} })).body.id;
        assert.ok(!ids.has(id), `${id} handed out twice`);
        ids.add(id);
      }
      assert.equal(ids.size, 6);
      assert.equal((await second.get('/v1/entities/items/Q1')).status, 200);
    } finally {
      await second.close();
    }
  });
});

describe('framework-level errors', () => {
  it('answers unknown paths with 404 rest-no-match and wrong methods with 405 and Allow', async () => {
    let res = await s.get('/v1/nothing-here');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'rest-no-match');
    assert.equal(res.body.errorKey, 'rest-no-match');
    assert.equal(res.headers.get('content-type'), 'application/json');
    res = await s.request('PUT', '/v1/entities/items/Q1', { body: {} });
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'rest-wrong-method');
    assert.match(res.headers.get('allow')!, /GET/);
    assert.match(res.headers.get('allow')!, /PATCH/);
  });

  it('answers a wrong method with 405 and the methods its path has, on the paths of every room', async () => {
    // Allow comes from the routes each room registered (app.ts's onRoute), not from a list kept beside them.
    const cases: [method: string, path: string, allow: string][] = [
      ['DELETE', '/v1/reconcile', 'GET, HEAD, POST'],
      ['POST', '/v1/reconcile/suggest/entity', 'GET, HEAD'],
      ['PUT', '/sparql', 'GET, HEAD, POST'],
      ['DELETE', '/w/api.php', 'GET, HEAD, POST'],
      ['POST', '/health', 'GET, HEAD'],
      ['PUT', '/v1/changes/stream', 'GET, HEAD'],
      ['POST', '/v1/openapi.json', 'GET, HEAD'],
      ['PATCH', '/wiki/Special:EntityData/Q1.json', 'GET, HEAD'],
      ['POST', '/Q1', 'GET, HEAD'],
      ['POST', '/ui/assets/entia.js', 'GET, HEAD'],
      ['DELETE', '/v1/entities/items', 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await s.request(method, path, { raw: '', headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 405, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.code, 'rest-wrong-method', `${method} ${path}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
    }
    // A route of the method asked for that finds nothing is a 404, not a 405 (a static file that is not there).
    assert.equal((await s.get('/ui/assets/no-such-file.js')).status, 404);
  });

  it('answers 415 for other media types and 413 for oversized bodies', async () => {
    let res = await s.request('POST', '/v1/entities/items', { raw: 'item=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 415);
    assert.equal(res.body.errorKey, 'rest-unsupported-content-type');
    res = await s.request('POST', '/v1/entities/items', { raw: '{"item":{}}', headers: { 'content-type': 'application/json-patch+json' } });
    assert.equal(res.status, 415);
    res = await s.post('/v1/entities/items', { item: { labels: { en: 'x'.repeat(70 * 1024) } } });
    assert.equal(res.status, 413);
    assert.equal(res.body.code, 'request-body-too-large');
    assert.equal(res.headers.get('content-language'), 'en');
  });

  it('refuses a body without Content-Type (a cross-site form post) and accepts a charset parameter', async () => {
    const noType = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${s.url}/v1/entities/items`, { method: 'POST', headers: { origin: 'https://evil.example' } }, (res) => {
        let text = '';
        res.on('data', (c) => { text += c; });
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.end('{"item":{"labels":{"en":"cross-site"}}}'); // node:http sends no Content-Type unless told to
    });
    assert.equal(noType.status, 415, noType.text);
    assert.equal(JSON.parse(noType.text).code, 'rest-unsupported-content-type');
    assert.equal((await s.get('/v0/search/items?q=cross-site&lang=en')).body.results.length, 0);
    const res = await s.request('POST', '/v1/entities/items', { raw: '{"item":{}}', headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    assert.equal(res.status, 201);
  });

  it('matches the route before the media type: 404 and 405 whatever the body', async () => {
    const text = { headers: { 'content-type': 'text/plain' }, raw: 'hello' };
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'action=wbeditentity' };
    let res = await s.request('POST', '/w/unknown.php', form);
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.code, 'rest-no-match');
    // The Action API takes the form POST of an edit and answers in its own error shape (docs/api.md §10.15):
    // here, without a token, an error a client cannot mistake for success.
    res = await s.request('POST', '/w/api.php', form);
    assert.equal(res.status, 200, res.text);
    assert.equal(JSON.parse(res.text).error.code, 'missingparam');
    res = await s.request('POST', '/wiki/Special:EntityData/Q1.json', form);
    assert.equal(res.status, 405, res.text);
    assert.equal(res.body.code, 'rest-wrong-method');
    res = await s.request('PUT', '/v1/entities/items/Q1/aliases/en', text);
    assert.equal(res.status, 405, res.text);
    assert.equal(res.body.code, 'rest-wrong-method');
    res = await s.request('PUT', '/v1/entities/items/Q1/aliases/en', { raw: '{"aliases":["a"]}', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 405);
  });

  it('answers malformed JSON on a non-creation route with invalid-value at ""', async () => {
    const item = await newItem('malformed');
    const res = await s.request('PATCH', `/v1/entities/items/${item.id}`, { raw: '{"patch": [', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { code: 'invalid-value', message: "Invalid value at ''", context: { path: '' } });
  });

  it('answers an internal failure with exactly "Unexpected Error" and no internals', async () => {
    const broken = await startServer({ guard: { async authorize() { throw new Error('/secret/path.ts: SELECT boom'); }, async consume() {} } });
    try {
      const res = await broken.post('/v1/entities/items', { item: {} });
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { code: 'unexpected-error', message: 'Unexpected Error' });
      assert.doesNotMatch(res.text, /secret|SELECT|at /);
    } finally {
      await broken.close();
    }
  });
});

describe('meta routes', () => {
  it('lists the property data types with their value types', async () => {
    const res = await s.get('/v1/property-data-types');
    assert.equal(res.status, 200);
    for (const [dataType, valueType] of Object.entries({
      string: 'string', 'external-id': 'string', url: 'string', commonsMedia: 'string', 'geo-shape': 'string',
      'tabular-data': 'string', 'wikibase-item': 'wikibase-entityid', 'wikibase-property': 'wikibase-entityid',
      time: 'time', quantity: 'quantity', 'globe-coordinate': 'globecoordinate', monolingualtext: 'monolingualtext',
    })) assert.equal(res.body[dataType], valueType, dataType);
    assert.equal(res.headers.get('etag'), null);
  });

  it('serves an OpenAPI 3.1 document covering the registered routes', async () => {
    const res = await s.get('/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    for (const key of ['info', 'servers', 'tags', 'paths', 'components']) assert.ok(key in res.body, key);
    assert.ok(res.body.paths['/v1/entities/items/{item_id}'].get);
    assert.ok(res.body.paths['/v1/entities/properties/{property_id}'].patch);
    assert.ok(res.body.paths['/v1/entities/items'].post.requestBody);
  });

  it('answers HEAD like GET without a body', async () => {
    const item = await newItem('head');
    const res = await s.request('HEAD', `/v1/entities/items/${item.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.equal(res.headers.get('etag'), item.etag);
  });
});
