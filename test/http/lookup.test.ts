// Lookup by statement value over real HTTP on the test backend: each value type, several conditions, any value,
// paging, what edits, redirects and deprecation change, the index of entities stored before it existed, and bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const P: Record<string, string> = {};

const statement = (property: string, content: unknown, rank = 'normal') =>
  ({ property: { id: P[property] }, value: { type: 'value', content }, rank });

async function createItem(label: string, statements: unknown[]): Promise<string> {
  const grouped: Record<string, unknown[]> = {};
  for (const st of statements as { property: { id: string } }[]) (grouped[st.property.id] ??= []).push(st);
  const res = await s.post('/v1/entities/items', { item: { labels: { en: label }, statements: grouped } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

const ids = async (query: string) => {
  const res = await s.get(`/v1/entities/items?${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.ids as string[];
};

let human: string;
let viaf: string;
let dated: string;
before(async () => {
  s = await startServer();
  for (const [name, dataType] of [['instance', 'wikibase-item'], ['viaf', 'external-id'], ['born', 'time'],
    ['height', 'quantity'], ['title', 'monolingualtext'], ['place', 'globe-coordinate'], ['site', 'url']] as const) {
    const res = await s.post('/v1/entities/properties', { property: { data_type: dataType, labels: { en: `lookup ${name}` } } });
    assert.equal(res.status, 201, res.text);
    P[name] = res.body.id;
  }
  human = await createItem('lookup human', []);
  viaf = await createItem('lookup writer', [statement('instance', human), statement('viaf', '113230702'),
    statement('height', { amount: '+1.80', unit: '1' })]);
  dated = await createItem('lookup dated', [statement('instance', human),
    statement('born', { time: '+1952-03-11T00:00:00Z', precision: 11, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' }),
    statement('title', { text: 'Der Titel', language: 'de' }),
    statement('place', { latitude: 50.5, longitude: 4.5, precision: 0.1, globe: 'http://www.wikidata.org/entity/Q2' })]);
});
after(async () => { await s.close(); });

describe('GET /v1/entities/items?statement=…', () => {
  it('finds items by an external id, an item value and any value', async () => {
    assert.deepEqual(await ids(`statement=${P.viaf}:113230702`), [viaf]);
    assert.deepEqual(await ids(`statement=${P.instance}:${human}`), [viaf, dated]);
    assert.deepEqual(await ids(`statement=${P.instance}:${human.toLowerCase()}`), [viaf, dated], 'item ids in any case');
    assert.deepEqual(await ids(`statement=${P.born}:*`), [dated]);
    assert.deepEqual(await ids(`statement=${P.viaf}:1132307`), [], 'exact, not a prefix');
  });

  it('needs every condition to hold', async () => {
    assert.deepEqual(await ids(`statement=${P.instance}:${human}&statement=${P.viaf}:113230702`), [viaf]);
    assert.deepEqual(await ids(`statement=${P.viaf}:113230702&statement=${P.born}:*`), []);
  });

  it('compares quantities as numbers and times at their precision', async () => {
    assert.deepEqual(await ids(`statement=${P.height}:1.8`), [viaf]);
    assert.deepEqual(await ids(`statement=${P.height}:%2B1.800`), [viaf]);
    assert.deepEqual(await ids(`statement=${P.height}:abc`), [], 'no amount: no match, not an error');
    assert.deepEqual(await ids(`statement=${P.born}:1952-03-11`), [dated]);
    assert.deepEqual(await ids(`statement=${P.born}:%2B1952-03-11T00:00:00Z`), [dated]);
    assert.deepEqual(await ids(`statement=${P.born}:1952`), [], 'a day is not its year');
    // Dates below day precision as Wikidata stores them (first day of the year or month): found by the date at
    // their precision, and by their stored form.
    const calendar = 'http://www.wikidata.org/entity/Q1985727';
    P.died = (await s.post('/v1/entities/properties', { property: { data_type: 'time', labels: { en: 'lookup died' } } })).body.id;
    const year = await createItem('lookup year', [statement('died', { time: '+1953-01-01T00:00:00Z', precision: 9, calendarmodel: calendar })]);
    const month = await createItem('lookup month', [statement('died', { time: '+1953-05-01T00:00:00Z', precision: 10, calendarmodel: calendar })]);
    assert.deepEqual(await ids(`statement=${P.died}:1953`), [year]);
    assert.deepEqual(await ids(`statement=${P.died}:1953-05`), [month]);
    assert.deepEqual(await ids(`statement=${P.died}:%2B1953-01-01T00:00:00Z`), [year]);
    assert.deepEqual(await ids(`statement=${P.died}:1953-01`), [], 'a year is not its first month');
    assert.deepEqual(await ids(`statement=${P.title}:Der%20Titel`), [dated]);
    assert.deepEqual(await ids(`statement=${P.place}:50.5,4.5`), [dated]);
  });

  it('follows edits: a changed value, a deprecated statement, a redirect', async () => {
    const item = await createItem('lookup edited', [statement('viaf', 'before')]);
    assert.deepEqual(await ids(`statement=${P.viaf}:before`), [item]);
    const st = (await s.get(`/v1/entities/items/${item}/statements`)).body[P.viaf][0];
    const put = await s.put(`/v1/statements/${st.id}`, { statement: { ...statement('viaf', 'after'), id: st.id } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(await ids(`statement=${P.viaf}:before`), []);
    assert.deepEqual(await ids(`statement=${P.viaf}:after`), [item]);
    const deprecated = await s.put(`/v1/statements/${st.id}`, { statement: { ...statement('viaf', 'after', 'deprecated'), id: st.id } });
    assert.equal(deprecated.status, 200, deprecated.text);
    assert.deepEqual(await ids(`statement=${P.viaf}:after`), [], 'a deprecated statement is not found');
    const target = await createItem('lookup target', []);
    const source = await createItem('lookup source', [statement('viaf', 'redirected')]);
    await s.store.redirectEntity(source, target, { user: 'test', comment: null, tags: [], bot: false });
    assert.deepEqual(await ids(`statement=${P.viaf}:redirected`), []);
  });

  it('pages in id order with a cursor, every match once', async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push(await createItem(`lookup page ${i}`, [statement('site', 'https://paged.example/')]));
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const res = await s.get(`/v1/entities/items?statement=${P.site}:https://paged.example/&limit=3${after ? `&after=${after}` : ''}`);
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.ids.length <= 3);
      seen.push(...res.body.ids);
      after = res.body.next;
      if (after === null) break;
    }
    assert.deepEqual(seen, made);
  });

  it('finds properties by their statements too', async () => {
    const res = await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'lookup sub' },
      statements: { [P.instance]: [statement('instance', human)] } } });
    assert.equal(res.status, 201, res.text);
    const found = await s.get(`/v1/entities/properties?statement=${P.instance}:${human}`);
    assert.deepEqual(found.body, { ids: [res.body.id], next: null });
  });

  it('answers bad input with 400 invalid-query-parameter naming the parameter', async () => {
    for (const [query, parameter] of [
      ['statement=Q5:Q1', 'statement'], ['statement=P1', 'statement'], ['statement=', 'statement'],
      [Array.from({ length: 11 }, () => `statement=${P.born}:*`).join('&'), 'statement'],
      [`statement=${P.born}:*&limit=0`, 'limit'], [`statement=${P.born}:*&limit=501`, 'limit'],
      [`statement=${P.born}:*&after=P3`, 'after'], [`statement=${P.born}:*&after=x`, 'after'],
    ] as const) {
      const res = await s.get(`/v1/entities/items?${query}`);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.code, 'invalid-query-parameter', query);
      assert.equal(res.body.context.parameter, parameter, query);
    }
  });
});

describe('GET /v1/entities/items without a condition: every item, paged', () => {
  it('lists the items in the order of their numbers, every one once, properties apart', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await createItem(`list ${i}`, []));
    const start = `Q${Number(made[0].slice(1)) - 1}`;
    const first = await s.get(`/v1/entities/items?limit=3&after=${start}`);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { ids: made.slice(0, 3), next: made[2] });
    const second = await s.get(`/v1/entities/items?limit=500&after=${first.body.next}`);
    assert.deepEqual(second.body.ids.slice(0, 2), made.slice(3));
    const properties = await s.get('/v1/entities/properties?limit=500');
    assert.ok(properties.body.ids.includes(P.viaf) && properties.body.ids.every((id: string) => id.startsWith('P')));
  });
});

describe('GET …/incoming-links (what links here)', () => {
  it('names each entity whose statements have this one as value, with the properties, items first', async () => {
    const target = await createItem('links target', []);
    P.part = (await s.post('/v1/entities/properties', { property: { data_type: 'wikibase-item', labels: { en: 'lookup part of' } } })).body.id;
    P.code = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'lookup code' } } })).body.id;
    const a = await createItem('links a', [statement('instance', target), statement('part', target)]);
    const b = await createItem('links b', [statement('part', target), statement('code', target)]);
    await createItem('links c', [statement('code', target)]);
    await createItem('links d', [statement('instance', target, 'deprecated')]);
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'links property' },
      statements: { [P.instance]: [statement('instance', target)] } } })).body.id;
    const res = await s.get(`/v1/entities/items/${target}/incoming-links`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { links: [
      { id: a, properties: [P.instance, P.part].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))) },
      { id: b, properties: [P.part] },
      { id: property, properties: [P.instance] },
    ], next: null }, 'a string that reads like the id is no link; a deprecated statement is none either');
    const paged = await s.get(`/v1/entities/items/${target}/incoming-links?limit=1`);
    assert.deepEqual(paged.body, { links: [res.body.links[0]], next: a });
    const rest = await s.get(`/v1/entities/items/${target}/incoming-links?after=${a}`);
    assert.deepEqual(rest.body.links.map((l: { id: string }) => l.id), [b, property]);
  });

  it('answers a missing entity with 404 and bad paging with 400', async () => {
    const missing = await s.get('/v1/entities/items/Q987654321/incoming-links');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'item-not-found');
    for (const [query, parameter] of [['limit=0', 'limit'], ['after=x', 'after'], ['after=Q0', 'after']] as const) {
      const res = await s.get(`/v1/entities/items/${human}/incoming-links?${query}`);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.context.parameter, parameter, query);
    }
  });
});

describe('haswbstatement: in search (CirrusSearch keywords)', () => {
  const search = async (q: string, version = 'v1') => {
    const res = await s.get(`/${version}/search/items?lang=en&q=${encodeURIComponent(q)}`);
    assert.equal(res.status, 200, res.text);
    return res.body.results as { id: string; match: { type: string } }[];
  };

  it('narrows a text search to the items with the statement, or without it', async () => {
    assert.deepEqual((await search('lookup')).length > 2, true);
    assert.deepEqual((await search(`lookup haswbstatement:${P.instance}=${human}`)).map((r) => r.id).sort(), [viaf, dated].sort());
    assert.deepEqual((await search(`haswbstatement:${P.viaf}=113230702 lookup`, 'v0')).map((r) => r.id), [viaf]);
    assert.deepEqual((await search(`lookup haswbstatement:${P.instance}=${human} -haswbstatement:${P.born}`)).map((r) => r.id), [viaf]);
    assert.deepEqual(await search(`lookup haswbstatement:${P.viaf}=nothing-has-this`), []);
  });

  it('lists the items with the statement when q has no other words, labelled in the language asked', async () => {
    const results = await search(`haswbstatement:${P.instance}=${human}`);
    assert.deepEqual(results.map((r) => r.id), [viaf, dated]);
    assert.deepEqual(results[0], { id: viaf, 'display-label': { language: 'en', value: 'lookup writer' }, description: null,
      match: { type: 'statement', text: `${P.instance}=${human}` } });
    assert.deepEqual((await search(`haswbstatement:${P.born}`)).map((r) => r.id), [dated], 'a lone property: any value');
  });

  it('refuses a malformed keyword or one that only excludes', async () => {
    for (const q of ['lookup haswbstatement:Q5=Q5', 'haswbstatement:', `-haswbstatement:${P.born}`]) {
      const res = await s.get(`/v1/search/items?lang=en&q=${encodeURIComponent(q)}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.code, 'invalid-query-parameter');
      assert.equal(res.body.context.parameter, 'q');
    }
  });
});
