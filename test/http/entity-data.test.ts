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

  it('serves the entity as RDF: N-Triples and Turtle, full by default, best-rank values only with flavor=simple', async () => {
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'rdf code' } } })).body.id;
    const statements = await Promise.all(['kept', 'preferred', 'deprecated'].map(async (value) =>
      (await s.post(`/v1/entities/items/${id}/statements`, { statement: { property: { id: property }, value: { type: 'value', content: value },
        rank: value === 'kept' ? 'normal' : value } })).body));
    const etag = (await s.get(`/v1/entities/items/${id}`)).headers.get('etag')!.replaceAll('"', '');
    const wd = 'http://www.wikidata.org/';
    for (const [ext, type] of [['nt', 'application/n-triples'], ['ttl', 'text/turtle']]) {
      const res = await fetch(`${s.url}/wiki/Special:EntityData/${id}.${ext}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, new RegExp(`^${type}`));
      const lines = (await res.text()).trim().split('\n');
      assert.ok(lines.includes(`<${wd}entity/${id}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://wikiba.se/ontology#Item> .`));
      assert.ok(lines.includes(`<${wd}entity/${id}> <http://www.w3.org/2000/01/rdf-schema#label> "entity data, edited"@en .`));
      assert.ok(lines.includes(`<${s.url}/wiki/Special:EntityData/${id}> <http://schema.org/version> "${etag}"^^<http://www.w3.org/2001/XMLSchema#integer> .`));
      // Only the preferred statement is best: one truthy value; every statement has its node and rank.
      assert.deepEqual(lines.filter((l) => l.includes(`/prop/direct/${property}>`)), [`<${wd}entity/${id}> <${wd}prop/direct/${property}> "preferred" .`]);
      for (const st of statements) {
        const node = `<${wd}entity/statement/${st.id.replace('$', '-')}>`;
        assert.ok(lines.includes(`${node} <${wd}prop/statement/${property}> "${st.value.content}" .`), st.id);
        assert.ok(lines.some((l) => l.startsWith(`${node} <http://wikiba.se/ontology#rank>`)), st.id);
      }
      assert.ok(lines.includes(`<https://en.wikipedia.org/wiki/Entity_data> <http://schema.org/about> <${wd}entity/${id}> .`));
    }
    const simple = (await (await fetch(`${s.url}/wiki/Special:EntityData/${id}.nt?flavor=simple`)).text()).trim().split('\n');
    assert.ok(simple.some((l) => l.includes('/prop/direct/')));
    assert.ok(!simple.some((l) => l.includes('/entity/statement/')), 'no statement nodes in the simple flavour');
    assert.equal((await s.get(`/wiki/Special:EntityData/${id}.nt?flavor=nonsense`)).body.code, 'invalid-query-parameter');
    const old = await fetch(`${s.url}/w/index.php?title=Special:EntityData/${id}.nt&revision=${firstRevision}`);
    assert.match(await old.text(), /"entity data"@en/);
  });

  it('serves the same triples as RDF/XML and JSON-LD', async () => {
    const nt = (await (await fetch(`${s.url}/wiki/Special:EntityData/${id}.nt`)).text()).trim().split('\n');
    const xml = await fetch(`${s.url}/wiki/Special:EntityData/${id}.rdf`);
    assert.match(xml.headers.get('content-type')!, /^application\/rdf\+xml/);
    const xmlText = await xml.text();
    assert.match(xmlText, /^<\?xml version="1.0"/);
    assert.match(xmlText, /entity data, edited/);
    const jsonld = await fetch(`${s.url}/wiki/Special:EntityData/${id}.jsonld`);
    assert.match(jsonld.headers.get('content-type')!, /^application\/ld\+json/);
    const nodes = JSON.parse(await jsonld.text()) as { '@id': string; [predicate: string]: unknown }[];
    // Expanded JSON-LD: one object per subject, one key per predicate; as many (subject, predicate, object) as lines.
    const count = nodes.reduce((n, node) => n + Object.entries(node).filter(([k]) => k !== '@id')
      .reduce((m, [k, v]) => m + (k === '@type' ? (v as unknown[]).length : (v as unknown[]).length), 0), 0);
    assert.equal(count, new Set(nt).size);
    const labels = nodes.filter((n) => n['@id'] === `http://www.wikidata.org/entity/${id}`)
      .flatMap((n) => (n['http://www.w3.org/2000/01/rdf-schema#label'] ?? []) as unknown[]);
    assert.deepEqual(labels, [{ '@value': 'entity data, edited', '@language': 'en' }]);
  });

  it('answers the concept URI /entity/{id} with 303 to the document the Accept header asks for', async () => {
    const cases: [string | undefined, string][] = [[undefined, `.json`], ['application/json', '.json'], ['text/turtle', '.ttl'],
      ['application/n-triples', '.nt'], ['application/rdf+xml', '.rdf'], ['application/ld+json', '.jsonld'],
      ['text/turtle;q=0.5, application/json;q=0.9', '.json']];
    for (const [accept, ext] of cases) {
      const res = await fetch(`${s.url}/entity/${id}`, { redirect: 'manual', headers: accept ? { accept } : {} });
      assert.equal(res.status, 303, String(accept));
      assert.equal(res.headers.get('location'), `${s.url}/wiki/Special:EntityData/${id}${ext}`, String(accept));
    }
    const browser = await fetch(`${s.url}/entity/${id}`, { redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml' } });
    assert.equal(browser.headers.get('location'), `${s.url}/${id}`);
    assert.equal((await s.get('/entity/nonsense')).status, 404);
  });

  it('answers Special:EntityData/{id} without a format as Wikibase does: 303 to the format the Accept header asks', async () => {
    for (const [accept, ext] of [[undefined, '.json'], ['text/turtle', '.ttl'], ['application/ld+json', '.jsonld']] as const) {
      for (const path of [`/wiki/Special:EntityData/${id.toLowerCase()}`, `/w/index.php?title=Special:EntityData/${id}`]) {
        const res = await fetch(`${s.url}${path}`, { redirect: 'manual', headers: accept ? { accept } : {} });
        assert.equal(res.status, 303, `${path} ${accept}`);
        assert.equal(res.headers.get('location'), `${s.url}/wiki/Special:EntityData/${id}${ext}`, `${path} ${accept}`);
      }
    }
    // The revision and flavour asked for go along; a browser goes to the page.
    const old = await fetch(`${s.url}/wiki/Special:EntityData/${id}?revision=${firstRevision}&flavor=simple&junk=1`, { redirect: 'manual', headers: { accept: 'application/n-triples' } });
    assert.equal(old.headers.get('location'), `${s.url}/wiki/Special:EntityData/${id}.nt?revision=${firstRevision}&flavor=simple`);
    const browser = await fetch(`${s.url}/wiki/Special:EntityData/${id}`, { redirect: 'manual', headers: { accept: 'text/html' } });
    assert.equal(browser.headers.get('location'), `${s.url}/${id}`);
    assert.equal((await s.get('/wiki/Special:EntityData/X1')).status, 404);
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
      ['/wiki/Special:EntityData/Q1.owl', 404, 'rest-no-match'],
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
