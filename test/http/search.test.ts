// Search and suggest over real HTTP (spec §4.7, docs/api.md §10.7, D3, D4, D12): matching, folding, language
// fallback, ranking, paging, id lookup, scripts, freshness after edits, and every 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

async function createItem(item: unknown): Promise<string> {
  const res = await s.post('/v1/entities/items', { item });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

async function createProperty(property: unknown): Promise<string> {
  const res = await s.post('/v1/entities/properties', { property });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

async function results(path: string): Promise<any[]> {
  const res = await s.get(path);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'application/json');
  return res.body.results;
}

const ids = (list: any[]) => list.map((r) => r.id);
const q = (text: string) => encodeURIComponent(text);

describe('matching', () => {
  let zurich: string;
  let airport: string;
  before(async () => {
    zurich = await createItem({ labels: { de: 'Zürich', en: 'Zurich' }, descriptions: { de: 'Stadt in der Schweiz' } });
    airport = await createItem({ labels: { en: 'Zurich Airport' }, aliases: { en: ['ZRH', 'Kloten Airport'] } });
  });

  it('finds a label, with display label, description and match (docs/api.md §4.6)', async () => {
    const list = await results('/v0/search/items?q=zurich&lang=en');
    assert.deepEqual(ids(list), [zurich, airport]);
    assert.deepEqual(list[0], {
      id: zurich, 'display-label': { language: 'en', value: 'Zurich' }, description: null,
      match: { type: 'label', language: 'en', text: 'Zurich' },
    });
  });

  it('finds an alias and reports it as the match', async () => {
    const list = await results('/v0/search/items?q=kloten&lang=en');
    assert.deepEqual(list, [{
      id: airport, 'display-label': { language: 'en', value: 'Zurich Airport' }, description: null,
      match: { type: 'alias', language: 'en', text: 'Kloten Airport' },
    }]);
  });

  it('folds case and accents: Zurich finds Zürich, ZÜRICH finds Zurich', async () => {
    const list = await results('/v0/search/items?q=ZURICH&lang=de');
    assert.deepEqual(list[0].match, { type: 'label', language: 'de', text: 'Zürich' });
    assert.deepEqual(ids(await results(`/v0/suggest/items?q=${q('ZÜR')}&lang=en`)), [zurich, airport]);
  });

  it('falls back through the language chain: de-ch finds and shows the German label', async () => {
    const [first] = await results('/v0/search/items?q=zurich&lang=de-ch');
    assert.equal(first.id, zurich);
    assert.deepEqual(first.match, { type: 'label', language: 'de', text: 'Zürich' });
    assert.deepEqual(first['display-label'], { language: 'de', value: 'Zürich' });
    assert.deepEqual(first.description, { language: 'de', value: 'Stadt in der Schweiz' });
  });

  it('search wants whole words, suggest wants a prefix of the term', async () => {
    assert.deepEqual(await results('/v0/search/items?q=zur&lang=en'), []);
    assert.deepEqual(ids(await results('/v0/suggest/items?q=zur&lang=en')), [zurich, airport]);
    assert.deepEqual(ids(await results('/v0/search/items?q=airport&lang=en')), [airport]);
    assert.deepEqual(await results('/v0/suggest/items?q=airport&lang=en'), []);
  });

  it('shows the matched term when the entity has no label in the chain', async () => {
    const id = await createItem({ aliases: { en: ['Spudnik Tuber'] }, descriptions: { en: 'a vegetable' } });
    assert.deepEqual(await results('/v0/search/items?q=spudnik&lang=fr'), [{
      id, 'display-label': { language: 'en', value: 'Spudnik Tuber' }, description: { language: 'en', value: 'a vegetable' },
      match: { type: 'alias', language: 'en', text: 'Spudnik Tuber' },
    }]);
  });

  it('finds mul terms for any language, after the language itself', async () => {
    const id = await createItem({ labels: { mul: 'Quarkonium Xylo' } });
    const [hit] = await results('/v0/suggest/items?q=quarkonium&lang=de');
    assert.deepEqual(hit, { id, 'display-label': { language: 'mul', value: 'Quarkonium Xylo' }, description: null,
      match: { type: 'label', language: 'mul', text: 'Quarkonium Xylo' } });
  });

  it('does not search other languages than the chain', async () => {
    await createItem({ labels: { fr: 'Pomme de terre Vollkornbrot' } });
    assert.deepEqual(await results('/v0/search/items?q=vollkornbrot&lang=de'), []);
  });

  it('needs every word of a multi-word query', async () => {
    const city = await createItem({ labels: { en: 'New Yorkshire City' } });
    const reversed = await createItem({ labels: { en: 'Yorkshire, New' } });
    await createItem({ labels: { en: 'New Jersey Yorkish' } });
    assert.deepEqual(ids(await results(`/v0/search/items?q=${q('new yorkshire')}&lang=en`)), [city, reversed]);
  });

  it('needs every word also past the few checked in the index, up to 32 words', async () => {
    const words = Array.from({ length: 32 }, (_, i) => `word${i}x`);
    const all = await createItem({ labels: { en: words.join(' ') } });
    await createItem({ labels: { en: words.slice(0, 31).join(' ') } }); // lacks the last word
    await createItem({ labels: { en: words.slice(1).join(' ') } }); // lacks the first
    const reversed = [...words].reverse().join(' ');
    assert.deepEqual(ids(await results(`/v0/search/items?q=${q(reversed)}&lang=en`)), [all]);
  });
});

describe('ranking', () => {
  it('orders exact, prefix, word matches; then language; then label before alias', async () => {
    const word = await createItem({ labels: { en: 'Old Blorp' } });
    const prefix = await createItem({ labels: { en: 'Blorp Town' } });
    const aliasExact = await createItem({ labels: { en: 'Something' }, aliases: { en: ['Blorp'] } });
    const exact = await createItem({ labels: { en: 'Blorp' } });
    const german = await createItem({ labels: { de: 'Blorp Stadt' } });
    assert.deepEqual(ids(await results('/v0/search/items?q=blorp&lang=en')), [exact, aliasExact, prefix, word]);
    assert.deepEqual(ids(await results('/v0/search/items?q=blorp&lang=de')), [exact, aliasExact, german, prefix, word]);
  });

  it('orders equal matches by sitelinks, then statements, then ascending id', async () => {
    const plain = await createItem({ labels: { en: 'Glimmerfish one' } });
    const plain2 = await createItem({ labels: { en: 'Glimmerfish two' } });
    const linked = await createItem({ labels: { en: 'Glimmerfish three' }, sitelinks: { enwiki: { title: 'Glimmerfish three' } } });
    assert.deepEqual(ids(await results('/v0/suggest/items?q=glimmer&lang=en')), [linked, plain, plain2]);
  });

  it('reports each entity once, with its best match', async () => {
    const id = await createItem({ labels: { en: 'Wobbleton Park' }, aliases: { en: ['Wobbleton', 'Wobbleton Hill'] } });
    const list = await results('/v0/search/items?q=wobbleton&lang=en');
    assert.deepEqual(ids(list), [id]);
    assert.deepEqual(list[0].match, { type: 'alias', language: 'en', text: 'Wobbleton' });
  });
});

describe('paging', () => {
  let all: string[];
  before(async () => {
    for (let i = 0; i < 5; i++) await createItem({ labels: { en: `Pagewidget ${i}` } });
    all = ids(await results('/v0/suggest/items?q=pagewidget&lang=en'));
    assert.equal(all.length, 5);
  });

  it('limit=2&offset=1 returns entries 2-3 of the unpaged list', async () => {
    assert.deepEqual(ids(await results('/v0/suggest/items?q=pagewidget&lang=en&limit=2&offset=1')), all.slice(1, 3));
  });

  it('pages never overlap and together cover the list', async () => {
    const pages: string[] = [];
    for (let offset = 0; offset < 6; offset += 2) pages.push(...ids(await results(`/v0/suggest/items?q=pagewidget&lang=en&limit=2&offset=${offset}`)));
    assert.deepEqual(pages, all);
  });

  it('defaults to 10, allows 0 and 500', async () => {
    for (let i = 0; i < 11; i++) await createItem({ labels: { en: `Tenwidget ${i}` } });
    assert.equal((await results('/v0/search/items?q=tenwidget&lang=en')).length, 10);
    assert.equal((await results('/v0/search/items?q=tenwidget&lang=en&limit=500')).length, 11);
    assert.deepEqual(await results('/v0/search/items?q=tenwidget&lang=en&limit=0'), []);
    assert.deepEqual(await results('/v0/search/items?q=tenwidget&lang=en&offset=99'), []);
  });
});

describe('entity ids', () => {
  it('finds the entity an id names first, case-insensitively, without a match language', async () => {
    const id = await createItem({ labels: { en: 'Idlookup' } });
    const other = await createItem({ labels: { en: id } });
    const list = await results(`/v0/search/items?q=${id.toLowerCase()}&lang=en`);
    assert.deepEqual(list[0], { id, 'display-label': { language: 'en', value: 'Idlookup' }, description: null,
      match: { type: 'entityId', text: id } });
    assert.deepEqual(ids(list), [id, other]);
  });

  it('gives a null display label to an id match without a label, and ignores ids of the other kind', async () => {
    const id = await createItem({});
    assert.deepEqual(await results(`/v0/suggest/items?q=${id}&lang=en`),
      [{ id, 'display-label': null, description: null, match: { type: 'entityId', text: id } }]);
    assert.deepEqual(await results('/v0/search/items?q=Q999999999&lang=en'), []);
    assert.deepEqual(await results('/v0/search/properties?q=Q1&lang=en'), []);
  });
});

describe('scripts', () => {
  it('finds Cyrillic, Greek and Arabic words, case- and mark-insensitively', async () => {
    const moscow = await createItem({ labels: { ru: 'Москва-река' } });
    const athens = await createItem({ labels: { el: 'Αθήνα Πόλη' } });
    const cairo = await createItem({ labels: { ar: 'القاهرة الكبرى' } });
    assert.deepEqual(ids(await results(`/v0/search/items?q=${q('РЕКА')}&lang=ru`)), [moscow]);
    assert.deepEqual(ids(await results(`/v0/search/items?q=${q('αθηνα')}&lang=el`)), [athens]);
    assert.deepEqual(ids(await results(`/v0/suggest/items?q=${q('Αθή')}&lang=el`)), [athens]);
    assert.deepEqual(ids(await results(`/v0/search/items?q=${q('الكبرى')}&lang=ar`)), [cairo]);
  });

  it('finds a CJK label by any substring', async () => {
    const id = await createItem({ labels: { ja: '東京都庁舎', zh: '东京都厅' } });
    for (const sub of ['京都', '都庁', '庁', '東京都庁舎']) {
      assert.deepEqual(ids(await results(`/v0/search/items?q=${q(sub)}&lang=ja`)), [id], sub);
    }
    assert.deepEqual(await results(`/v0/search/items?q=${q('庁東')}&lang=ja`), []);
    assert.deepEqual(ids(await results(`/v0/suggest/items?q=${q('东京')}&lang=zh`)), [id]);
  });
});

describe('freshness', () => {
  it('finds an edit as soon as it is answered, and no longer finds a removed label', async () => {
    const id = await createItem({ labels: { en: 'Frobnicator' } });
    assert.deepEqual(ids(await results('/v0/search/items?q=frobnicator&lang=en')), [id]);
    let res = await s.patch(`/v1/entities/items/${id}`, { patch: [{ op: 'replace', path: '/labels/en', value: 'Defrobulator' }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await results('/v0/search/items?q=frobnicator&lang=en'), []);
    assert.deepEqual(ids(await results('/v0/suggest/items?q=defrob&lang=en')), [id]);
    res = await s.patch(`/v1/entities/items/${id}`, { patch: [
      { op: 'remove', path: '/labels/en' }, { op: 'add', path: '/aliases/en', value: ['Frobnicator'] }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await results('/v0/suggest/items?q=defrob&lang=en'), []);
    assert.deepEqual((await results('/v0/search/items?q=frobnicator&lang=en'))[0].match,
      { type: 'alias', language: 'en', text: 'Frobnicator' });
  });

  it('re-ranks an entity whose popularity changes', async () => {
    const a = await createItem({ labels: { en: 'Rerankium a' } });
    const b = await createItem({ labels: { en: 'Rerankium b' } });
    assert.deepEqual(ids(await results('/v0/suggest/items?q=rerankium&lang=en')), [a, b]);
    const res = await s.patch(`/v1/entities/items/${b}`, { patch: [{ op: 'add', path: '/sitelinks/dewiki', value: { title: 'Rerankium' } }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(ids(await results('/v0/suggest/items?q=rerankium&lang=en')), [b, a]);
  });
});

describe('properties', () => {
  it('searches properties by label and alias, and their ids', async () => {
    const p = await createProperty({ data_type: 'string', labels: { en: 'Zorbling number' }, aliases: { de: ['Zorblingnummer'] } });
    await createItem({ labels: { en: 'Zorbling number' } });
    assert.deepEqual(ids(await results('/v0/search/properties?q=zorbling&lang=en')), [p]);
    assert.deepEqual((await results('/v0/suggest/properties?q=zorblingn&lang=de-at'))[0].match,
      { type: 'alias', language: 'de', text: 'Zorblingnummer' });
    assert.deepEqual(ids(await results(`/v0/search/properties?q=${p.toLowerCase()}&lang=en`)), [p]);
  });
});

describe('routes', () => {
  it('serves the same answers under /v1 and accepts `language` for `lang`', async () => {
    await createItem({ labels: { en: 'Aliasroute' } });
    const v0 = await results('/v0/search/items?q=aliasroute&lang=en');
    assert.equal(v0.length, 1);
    for (const path of ['/v1/search/items?q=aliasroute&lang=en', '/v0/search/items?q=aliasroute&language=en',
      '/v1/search/items?q=aliasroute&language=en']) {
      assert.deepEqual(await results(path), v0, path);
    }
    assert.deepEqual(await results('/v1/suggest/items?q=aliasr&lang=en'), v0);
    assert.deepEqual(await results('/v1/search/properties?q=aliasroute&lang=en'), []);
    assert.deepEqual(await results('/v1/suggest/properties?q=aliasroute&lang=en'), []);
  });

  it('sends no ETag or Last-Modified', async () => {
    const res = await s.get('/v0/search/items?q=anything&lang=en');
    assert.equal(res.headers.get('etag'), null);
    assert.equal(res.headers.get('last-modified'), null);
  });
});

describe('400 invalid-query-parameter', () => {
  const cases: [string, string][] = [
    ['/v0/search/items?lang=en', 'q'],
    ['/v0/search/items?q=&lang=en', 'q'],
    ['/v0/suggest/items?q=%20%20&lang=en', 'q'],
    ['/v0/search/items?q=a&q=b&lang=en', 'q'],
    ['/v0/search/items?q=x', 'lang'],
    ['/v0/search/items?q=x&lang=xyz', 'lang'],
    ['/v0/search/items?q=x&lang=en-GB', 'lang'],
    ['/v0/search/items?q=x&lang=mul', 'lang'],
    ['/v0/search/items?q=x&language=mul', 'language'],
    ['/v1/suggest/properties?q=x&language=', 'language'],
    ['/v0/search/items?q=x&lang=en&limit=abc', 'limit'],
    ['/v0/search/items?q=x&lang=en&limit=-1', 'limit'],
    ['/v0/search/items?q=x&lang=en&limit=501', 'limit'],
    ['/v0/search/items?q=x&lang=en&limit=1.5', 'limit'],
    ['/v0/search/items?q=x&lang=en&limit=', 'limit'],
    ['/v0/search/items?q=x&lang=en&offset=-1', 'offset'],
    ['/v0/search/items?q=x&lang=en&offset=x', 'offset'],
    ['/v0/suggest/properties?q=x&lang=en&offset=2e3', 'offset'],
    ['/v0/search/items?lang=mul&limit=-1', 'q'],
    ['/v0/search/items?q=x&lang=mul&limit=-1', 'lang'],
    ['/v0/search/items?q=x&lang=en&limit=-1&offset=-1', 'limit'],
    [`/v0/search/items?lang=en&q=${Array.from({ length: 33 }, (_, i) => `w${i}`).join('%20')}`, 'q'],
    [`/v0/search/items?lang=en&q=${'x'.repeat(301)}`, 'q'],
    ['/v0/suggest/items?lang=en&q=a%01b', 'q'],
  ];
  for (const [path, parameter] of cases) {
    it(`${path} → ${parameter}`, async () => {
      const res = await s.get(path);
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('content-language'), 'en');
      assert.deepEqual(res.body, {
        code: 'invalid-query-parameter', message: `Invalid query parameter: '${parameter}'`, context: { parameter },
      });
    });
  }
});
