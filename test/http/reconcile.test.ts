// The reconciliation service over real HTTP on the test backend, driven the way OpenRefine drives it: the manifest,
// form-encoded `queries=` batches of 10, suggest while typing, a preview, property proposals and data extension.
// Every response is validated against schemas written from the specification's text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { extensionSchema, manifestSchema, proposeSchema, resultBatchSchema, suggestSchema } from '../helpers/reconciliation-schemas.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const valid = (schema: object, body: unknown) => {
  const validate = ajv.compile(schema);
  assert.ok(validate(body), JSON.stringify(validate.errors));
};

let s: TestServer;
const ids: Record<string, string> = {};
const P: Record<string, string> = {};

const st = (property: string, content: unknown, rank = 'normal') => ({ property: { id: property }, value: { type: 'value', content }, rank });

async function item(key: string, body: Record<string, unknown>) {
  const res = await s.post('/v1/entities/items', { item: body });
  assert.equal(res.status, 201, res.text);
  ids[key] = res.body.id;
}

/** A POST as OpenRefine sends it: application/x-www-form-urlencoded with one field holding JSON. */
async function form(field: string, value: unknown, path = '/v1/reconcile') {
  const res = await fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ [field]: JSON.stringify(value) }).toString() });
  return { status: res.status, body: await res.json() as any, headers: res.headers };
}

before(async () => {
  // Ids of this store's own; P31 and P279 are the configured type properties.
  s = await startServer();
  for (const [key, dataType] of [['instance', 'wikibase-item'], ['subclass', 'wikibase-item'], ['viaf', 'external-id'],
    ['born', 'time'], ['country', 'wikibase-item'], ['height', 'quantity']] as const) {
    const res = await s.post('/v1/entities/properties', { property: { data_type: dataType, labels: { en: `reconcile ${key}` } } });
    P[key] = res.body.id;
  }
  await s.close({ keepFiles: true });
  s = await startServer({ config: { instanceOf: P.instance, subclassOf: P.subclass }, dbPath: s.dbPath });
  await item('human', { labels: { en: 'human being' } });
  await item('writer', { labels: { en: 'writer class' } });
  await item('belgium', { labels: { en: 'Belgium' }, aliases: { en: ['Kingdom of Belgium'] } });
  await item('adams', { labels: { en: 'Douglas Adams' }, descriptions: { en: 'English author' }, aliases: { en: ['Douglas Noel Adams'] } });
  await item('adams2', { labels: { en: 'Douglas Adams' }, descriptions: { en: 'a namesake' } });
  await item('simenon', { labels: { en: 'Georges Simenon' }, descriptions: { en: 'Belgian writer' } });
  await item('building', { labels: { en: 'Douglas Adams House' } });
  // Statements need the ids made above.
  const fix = async (key: string, statements: Record<string, unknown[]>) => {
    const res = await s.patch(`/v1/entities/items/${ids[key]}`, { patch: Object.entries(statements).map(([p, list]) =>
      ({ op: 'add', path: `/statements/${p}`, value: list })) });
    assert.equal(res.status, 200, res.text);
  };
  await fix('writer', { [P.subclass]: [st(P.subclass, ids.human)] });
  await fix('adams', { [P.instance]: [st(P.instance, ids.human)], [P.viaf]: [st(P.viaf, '113230702')],
    [P.born]: [st(P.born, { time: '+1952-03-11T00:00:00Z', precision: 11, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' })],
    [P.height]: [st(P.height, { amount: '+1.96', unit: '1' })] });
  await fix('adams2', { [P.instance]: [st(P.instance, ids.human)] });
  await fix('simenon', { [P.instance]: [st(P.instance, ids.writer)], [P.country]: [st(P.country, ids.belgium)] });
});
after(async () => { await s.close(); });

describe('reconciliation service (W3C Reconciliation API 0.2)', () => {
  it('serves its manifest at GET /v1/reconcile, with every service OpenRefine uses', async () => {
    const res = await s.get('/v1/reconcile');
    assert.equal(res.status, 200, res.text);
    valid(manifestSchema, res.body);
    assert.equal(res.body.identifierSpace, 'http://www.wikidata.org/entity/');
    assert.equal(res.body.view.url, `${s.url}/v1/entities/items/{{id}}`);
    assert.equal(res.body.suggest.entity.service_path, '/suggest/entity');
    const withLang = await s.get('/v1/reconcile?lang=de');
    assert.equal(withLang.body.suggest.entity.service_path, '/suggest/entity?lang=de');
  });

  it('reconciles a form-encoded batch of 10 queries: names, types through subclasses, properties, scores, match', async () => {
    const queries: Record<string, unknown> = {
      q0: { query: 'Douglas Adams', type: ids.human, limit: 3, type_strict: 'should',
        properties: [{ pid: P.viaf, v: '113230702' }] },
      q1: { query: 'douglas adams', limit: 5 },
      q2: { query: 'Georges Simenon', type: ids.human },
      q3: { query: 'Simenon', properties: [{ pid: P.country, v: 'Belgium' }] },
      q4: { query: 'Simenon', properties: [{ pid: P.country, v: { id: ids.belgium } }] },
      q5: { query: 'Douglas Adams', properties: [{ pid: P.born, v: '1952-03-11' }, { pid: P.height, v: 1.96 }] },
      q6: { query: 'Kingdom of Belgium' },
      q7: { query: 'no such thing anywhere' },
      q8: { query: ids.adams },
      q9: { query: 'Douglas Adams House', type: ids.human },
    };
    const res = await form('queries', queries);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    valid(resultBatchSchema, res.body);
    assert.deepEqual(Object.keys(res.body).sort(), Object.keys(queries).sort());
    const q0 = res.body.q0.result;
    assert.equal(q0[0].id, ids.adams, 'the namesake without the VIAF id comes second');
    assert.equal(q0[0].score, 100);
    assert.equal(q0[0].match, true);
    assert.deepEqual(q0[0].type, [{ id: ids.human, name: 'human being' }]);
    assert.equal(q0[0].description, 'English author');
    assert.equal(q0[1].id, ids.adams2);
    assert.equal(q0[1].score, 50, 'name 100, the property 0');
    assert.ok(!q0.some((c: any) => c.id === ids.building), 'the house is not a human');
    // Two items with the same name and nothing else: both candidates, neither a match.
    const q1 = res.body.q1.result;
    assert.deepEqual(q1.slice(0, 2).map((c: any) => c.id), [ids.adams, ids.adams2]);
    assert.ok(q1.every((c: any) => c.match === false));
    assert.deepEqual(res.body.q2.result.map((c: any) => c.id), [ids.simenon], 'a writer is a human through the subclass');
    assert.equal(res.body.q3.result[0].id, ids.simenon, 'an item value given by its name');
    assert.ok(res.body.q3.result[0].score > res.body.q3.result[0].score / 2);
    assert.equal(res.body.q4.result[0].score, res.body.q3.result[0].score, 'the same value given by its id');
    assert.equal(res.body.q5.result[0].id, ids.adams);
    assert.equal(res.body.q5.result[0].score, 100, 'a date and a quantity compared by value');
    assert.equal(res.body.q6.result[0].id, ids.belgium, 'an alias is a name');
    assert.equal(res.body.q6.result[0].name, 'Belgium');
    assert.deepEqual(res.body.q7.result, []);
    assert.equal(res.body.q8.result[0].id, ids.adams, 'an id is found as itself');
    assert.ok(!res.body.q9.result.some((c: any) => c.id === ids.building), 'the house is not a human');
    assert.ok(res.body.q9.result.every((c: any) => c.score < 95 && !c.match), 'the namesakes are near, not matches');
  });

  it('answers the same batch as JSON, GET or POST, and the same way every time', async () => {
    const batch = { q0: { query: 'Douglas Adams', limit: 2 } };
    const posted = await s.post('/v1/reconcile', { queries: batch });
    assert.equal(posted.status, 200, posted.text);
    const got = await s.get(`/v1/reconcile?queries=${encodeURIComponent(JSON.stringify(batch))}`);
    assert.deepEqual(got.body, posted.body);
    assert.deepEqual((await form('queries', batch)).body, posted.body);
  });

  it('suggests entities, types and properties by prefix, with a cursor', async () => {
    for (const [path, expected] of [['entity', ids.adams], ['type', ids.human], ['property', P.viaf]]) {
      const prefix = path === 'entity' ? 'Douglas A' : path === 'type' ? 'human' : 'reconcile vi';
      const res = await s.get(`/v1/reconcile/suggest/${path}?prefix=${encodeURIComponent(prefix)}`);
      assert.equal(res.status, 200, res.text);
      valid(suggestSchema, res.body);
      assert.ok(res.body.result.some((r: any) => r.id === expected), `${path}: ${res.text}`);
    }
    const jsonp = await fetch(`${s.url}/v1/reconcile/suggest/entity?prefix=Douglas&callback=jQuery123_456`);
    assert.match(jsonp.headers.get('content-type')!, /^text\/javascript/);
    assert.match(await jsonp.text(), /^\/\*\*\/jQuery123_456\(\{"result":\[/);
    const evil = await s.get('/v1/reconcile/suggest/entity?prefix=Douglas&callback=alert(1)');
    assert.equal(evil.status, 400);
    assert.equal(evil.body.context.parameter, 'callback');
    const first = await s.get('/v1/reconcile/suggest/entity?prefix=Douglas');
    const next = await s.get('/v1/reconcile/suggest/entity?prefix=Douglas&cursor=1');
    assert.deepEqual(next.body.result, first.body.result.slice(1));
  });

  it('previews an entity as a small HTML card that OpenRefine may frame', async () => {
    const res = await fetch(`${s.url}/v1/reconcile/preview?id=${ids.adams}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.equal(res.headers.get('x-frame-options'), null);
    assert.match(res.headers.get('content-security-policy')!, /default-src 'none'/);
    const html = await res.text();
    assert.match(html, /Douglas Adams/);
    assert.match(html, /English author/);
    const escaped = await s.post('/v1/entities/items', { item: { labels: { en: '<script>alert(1)</script>' } } });
    const card = await (await fetch(`${s.url}/v1/reconcile/preview?id=${escaped.body.id}`)).text();
    assert.ok(!card.includes('<script>'), 'labels are escaped');
    const missing = await s.get('/v1/reconcile/preview?id=Q999999999');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'item-not-found');
  });

  it('proposes the properties entities of a type use, most used first', async () => {
    const res = await s.get(`/v1/reconcile/propose_properties?type=${ids.human}&limit=2`);
    assert.equal(res.status, 200, res.text);
    valid(proposeSchema, res.body);
    assert.equal(res.body.type, ids.human);
    assert.deepEqual(res.body.properties[0], { id: P.instance, name: 'reconcile instance' });
    assert.equal(res.body.properties.length, 2);
  });

  it('extends rows with property values: items with names, strings, numbers and dates as the format says', async () => {
    const res = await form('extend', { ids: [ids.adams, ids.simenon, 'Q999999999'],
      properties: [{ id: P.instance }, { id: P.viaf }, { id: P.born }, { id: P.height }, { id: P.country, settings: { limit: 1 } }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    valid(extensionSchema, res.body);
    assert.deepEqual(res.body.meta.map((m: any) => m.id), [P.instance, P.viaf, P.born, P.height, P.country]);
    const adams = res.body.rows[ids.adams];
    assert.deepEqual(adams[P.instance], [{ id: ids.human, name: 'human being' }]);
    assert.deepEqual(adams[P.viaf], [{ str: '113230702' }]);
    assert.deepEqual(adams[P.born], [{ date: '1952-03-11T00:00:00Z' }]);
    assert.deepEqual(adams[P.height], [{ float: 1.96 }]);
    assert.deepEqual(res.body.rows[ids.simenon][P.country], [{ id: ids.belgium, name: 'Belgium' }]);
    assert.deepEqual(res.body.rows.Q999999999[P.viaf], [], 'an unknown id has empty cells');
  });

  it('answers bad input with 400 and a clear code, never a 500', async () => {
    for (const [path, parameter] of [
      ['/v1/reconcile?queries=not-json', 'queries'],
      [`/v1/reconcile?queries=${encodeURIComponent('{"q0":{"query":""}}')}`, 'queries'],
      [`/v1/reconcile?queries=${encodeURIComponent('{"q0":{"query":"x","type":"P31"}}')}`, 'queries'],
      [`/v1/reconcile?queries=${encodeURIComponent('{"q0":{"query":"x","limit":0}}')}`, 'queries'],
      [`/v1/reconcile?queries=${encodeURIComponent('{"q0":{"query":"x","properties":[{"pid":"Q1","v":"x"}]}}')}`, 'queries'],
      [`/v1/reconcile?queries=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`q${i}`, { query: 'x' }]))))}`, 'queries'],
      [`/v1/reconcile?extend=${encodeURIComponent('{"ids":["Q1"],"properties":[]}')}`, 'extend'],
      ['/v1/reconcile?lang=xx-nonsense', 'lang'],
      ['/v1/reconcile/suggest/entity', 'prefix'],
      ['/v1/reconcile/suggest/entity?prefix=a&cursor=-1', 'cursor'],
      ['/v1/reconcile/preview?id=nonsense', 'id'],
      ['/v1/reconcile/propose_properties?type=P5', 'type'],
    ] as const) {
      const res = await s.get(path);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.body.code, 'invalid-query-parameter', path);
      assert.equal(res.body.context.parameter, parameter, path);
    }
    const empty = await form('other', {});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.code, 'missing-field');
  });
});
