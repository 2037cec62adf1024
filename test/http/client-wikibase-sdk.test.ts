// The real `wikibase-sdk` package against a started Entia, configured only with the instance URL: the URLs it
// builds (getEntities, getManyEntities, searchEntities, getEntityRevision) are fetched from Entia, and its own
// parse and simplify helpers read the answers. Also the Action API's error shape for bad input.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WBK, type EntityId } from 'wikibase-sdk';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let wbk: ReturnType<typeof WBK>;
let property: EntityId;
let item: EntityId;
let revision: number;
const get = async (url: string) => {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return res.json() as Promise<any>;
};

before(async () => {
  s = await startServer();
  wbk = WBK({ instance: s.url });
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'wikibase-item', labels: { en: 'sdk instance of' } } })).body.id;
  const created = await s.post('/v1/entities/items', { item: { labels: { en: 'sdk item', de: 'SDK-Objekt' }, descriptions: { en: 'read by wikibase-sdk' },
    aliases: { en: ['sdk alias'] }, sitelinks: { enwiki: { title: 'SDK item' } } } });
  item = created.body.id;
  revision = Number(created.headers.get('etag')!.replaceAll('"', ''));
  await s.post(`/v1/entities/items/${item}/statements`, { statement: { property: { id: property }, value: { type: 'value', content: item } } });
});
after(async () => { await s.close(); });

describe('wikibase-sdk against Entia', () => {
  it('getEntities: the dump format, which the sdk simplifies', async () => {
    const body = await get(wbk.getEntities({ ids: [item, property] }));
    assert.equal(body.success, 1);
    const entities = wbk.parse.entities(body) as Record<string, any>;
    const simple = entities[item];
    assert.equal(simple.labels.en, 'sdk item');
    assert.equal(simple.descriptions.en, 'read by wikibase-sdk');
    assert.deepEqual(simple.aliases.en, ['sdk alias']);
    assert.deepEqual(simple.claims[property], [item]);
    assert.equal(simple.sitelinks.enwiki, 'SDK item');
    assert.equal(entities[property].datatype, 'wikibase-item');
    const missing = await get(wbk.getEntities({ ids: ['Q999999999'] }));
    assert.deepEqual(missing.entities.Q999999999, { id: 'Q999999999', missing: '' });
  });

  it('getEntities with languages, props and the language fallback; getManyEntities', async () => {
    const narrowed = await get(wbk.getEntities({ ids: [item], languages: ['de'], props: ['labels'] }));
    assert.deepEqual(narrowed.entities[item].labels, { de: { language: 'de', value: 'SDK-Objekt' } });
    assert.equal(narrowed.entities[item].claims, undefined);
    const urls = wbk.getManyEntities({ ids: [item, property] });
    const pages = await Promise.all(urls.map(get));
    assert.deepEqual(pages.flatMap((p) => Object.keys(p.entities)).sort(), [item, property].sort());
  });

  it('getEntitiesFromSitelinks: the items linking those pages, and the pages nothing links', async () => {
    const body = await get(wbk.getEntitiesFromSitelinks({ titles: ['SDK item', 'No such page'], sites: 'enwiki' }));
    assert.equal(body.entities[item].labels.en.value, 'sdk item');
    assert.deepEqual(body.entities['-1'], { site: 'enwiki', title: 'No such page', missing: '' });
  });

  it('searchEntities: the Action API search shape, with continuation', async () => {
    const body = await get(wbk.searchEntities({ search: 'sdk it', language: 'en' }));
    assert.equal(body.success, 1);
    assert.equal(body.search[0].id, item);
    assert.equal(body.search[0].label, 'sdk item');
    assert.equal(body.search[0].match.type, 'label');
    const properties = await get(wbk.searchEntities({ search: 'sdk inst', language: 'en', type: 'property' }));
    assert.equal(properties.search[0].id, property);
    // Each result as Wikibase gives it: its page id, and a property's data type.
    assert.equal(properties.search[0].datatype, 'wikibase-item');
    assert.equal(typeof body.search[0].pageid, 'number');
    assert.notEqual(body.search[0].pageid, properties.search[0].pageid);
    assert.equal(body.search[0].datatype, undefined);
    // A concept URI, as a client copies it from a query result, finds its entity.
    const byUri = await get(wbk.searchEntities({ search: `http://www.wikidata.org/entity/${item}`, language: 'en' }));
    assert.equal(byUri.search[0].id, item);
    // Searched in English, shown in the user's language (uselang) with its fallbacks, as Wikibase shows results.
    const inGerman = await get(wbk.searchEntities({ search: 'sdk it', language: 'en', uselang: 'de' }));
    assert.deepEqual([inGerman.search[0].label, inGerman.search[0].display.label], ['SDK-Objekt', { value: 'SDK-Objekt', language: 'de' }]);
    assert.deepEqual(inGerman.search[0].display.description, { value: 'read by wikibase-sdk', language: 'en' }, 'de falls back to en');
    const ids = await Promise.all(['a', 'b', 'c'].map((x) => s.post('/v1/entities/items', { item: { labels: { en: `sdk page ${x}` } } })));
    const first = await get(wbk.searchEntities({ search: 'sdk page', language: 'en', limit: 2 }));
    assert.equal(first.search.length, 2);
    assert.equal(first['search-continue'], 2);
    const next = await get(wbk.searchEntities({ search: 'sdk page', language: 'en', limit: 2, continue: 2 }));
    assert.deepEqual([...first.search, ...next.search].map((r: any) => r.id).sort(), ids.map((r) => r.body.id).sort());
  });

  it('getEntityRevision: the entity as it was', async () => {
    const body = await get(wbk.getEntityRevision({ id: item, revision }));
    assert.equal(body.entities[item].lastrevid, revision);
    assert.equal(body.entities[item].claims[property], undefined, 'the statement came after that revision');
  });

  it('getRevisions: every revision of an entity, newest first, with its content; prop=info', async () => {
    const history = (await s.get(`/v1/entities/items/${item}/history`)).body.revisions;
    const body = await get(wbk.getRevisions({ ids: item as `Q${number}` }));
    const pages = Object.values(body.query.pages) as any[];
    assert.equal(pages.length, 1);
    assert.equal(pages[0].title, item);
    assert.equal(pages[0].ns, 0);
    const revisions = pages[0].revisions;
    assert.deepEqual(revisions.map((r: any) => r.revid), history.map((r: any) => r.id));
    assert.equal(revisions[0].parentid, history[1].id);
    assert.equal(revisions[revisions.length - 1].parentid, 0);
    assert.equal(revisions[0].user, history[0].user);
    assert.equal(JSON.parse(revisions[revisions.length - 1].slots.main['*']).labels.en.value, 'sdk item');
    const info = await get(`${s.url}/w/api.php?action=query&prop=info&titles=${item}|Property:${property}|Q999999|Nonsense:&format=json&formatversion=2`);
    const byTitle = Object.fromEntries(info.query.pages.map((p: any) => [p.title, p]));
    assert.equal(byTitle[item].lastrevid, history[0].id);
    assert.equal(byTitle[item].contentmodel, 'wikibase-item');
    assert.equal(byTitle[`Property:${property}`].contentmodel, 'wikibase-property');
    assert.notEqual(byTitle[item].pageid, byTitle[`Property:${property}`].pageid);
    assert.equal(byTitle.Q999999.missing, true);
    assert.equal(byTitle['Nonsense:'].invalid, true);
    const byPageId = await get(`${s.url}/w/api.php?action=query&prop=revisions&pageids=${byTitle[item].pageid}&format=json`);
    assert.equal((Object.values(byPageId.query.pages)[0] as any).title, item);
  });

  it('answers bad input with the Action API error object', async () => {
    for (const [query, code] of [
      ['action=nonsense', 'badvalue'], ['action=wbgetentities', 'param-missing'], ['action=wbgetentities&ids=X1', 'no-such-entity'],
      ['action=wbsearchentities&language=en', 'missingparam'], ['action=wbsearchentities&search=a&language=en&limit=999', 'badinteger'],
      ['action=wbgetentities&ids=Q1&format=xml', 'badvalue'], [`action=wbgetentities&ids=${Array.from({ length: 51 }, (_, i) => `Q${i + 1}`).join('|')}`, 'toomanyvalues'],
    ] as const) {
      const res = await fetch(`${s.url}/w/api.php?${query}`);
      assert.equal(res.status, 200, query);
      assert.equal(res.headers.get('mediawiki-api-error'), code, query);
      assert.equal(((await res.json()) as any).error.code, code, query);
    }
  });
});
