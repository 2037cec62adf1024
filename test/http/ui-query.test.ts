// The web interface's query page over real HTTP (issue #34): a plain form whose result page is the query's own
// address; rows with entities linked and labelled, values escaped, downloads, the API's error shown in the page,
// and a link from the front page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitForSparql } from '../helpers/sparql.js';

let s: TestServer;
let property: string;
let item: string;
before(async () => {
  s = await startServer({ config: { sparql: 'full' } });
  await waitForSparql(s);
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'motto' } } })).body.id;
  item = (await s.post('/v1/entities/items', { item: { labels: { en: 'Queried <item>' },
    statements: { [property]: [{ property: { id: property }, value: { type: 'value', content: '<b>bold</b> & more' } }] } } })).body.id;
  await (await fetch(`${s.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
});
after(async () => { await s.close(); });

const main = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';

describe('the query page', () => {
  it('is linked from the front page and opens with an example and the examples list', async () => {
    assert.match(main((await s.get('/')).text), /<a href="\/query">Query<\/a>/);
    const res = await s.get('/query');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy')!, /script-src 'self';/);
    const html = main(res.text);
    assert.match(html, /<textarea id="query-text" name="query"[^>]*>SELECT \?item \?itemLabel/);
    assert.match(html, /<a href="\/query\?query=SELECT/);
  });

  it('shows rows with entities linked and labelled, values escaped, and the downloads', async () => {
    const query = `SELECT ?item ?motto WHERE { ?item wdt:${property} ?motto }`;
    const res = await s.get(`/query?${new URLSearchParams({ query })}`);
    assert.equal(res.status, 200);
    const html = main(res.text);
    assert.match(html, /<th scope="col">item<\/th><th scope="col">motto<\/th>/);
    assert.match(html, new RegExp(`<a href="/${item}" class="entity-link">Queried &lt;item> <span class="id">\\(${item}\\)</span></a>`));
    assert.match(html, /<td>&lt;b>bold&lt;\/b> &amp; more<\/td>/);
    assert.match(html, /<p class="query-summary">1 result · Download:/);
    assert.ok(!html.includes('<b>bold</b>'));
    const csv = /<a href="([^"]+)">CSV<\/a>/.exec(html)![1].replaceAll('&amp;', '&');
    const download = await fetch(s.url + csv);
    assert.match(download.headers.get('content-type')!, /^text\/csv/);
    assert.equal((await download.text()).split(/\r?\n/)[1], `http://www.wikidata.org/entity/${item},<b>bold</b> & more`);
  });

  it('is where "What links here" sends for qualifiers too: the entities whose statements name it', async () => {
    const partOf = (await s.post('/v1/entities/properties', { property: { data_type: 'wikibase-item', labels: { en: 'part of' } } })).body.id;
    const linking = (await s.post('/v1/entities/items', { item: { labels: { en: 'a part' },
      statements: { [partOf]: [{ property: { id: partOf }, value: { type: 'value', content: item } }] } } })).body.id;
    await (await fetch(`${s.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
    const links = (await s.get(`/Special:WhatLinksHere/${item}`)).text;
    const link = /<a href="(\/query\?[^"]+)">The same question as a query, qualifiers included<\/a>/.exec(links)![1].replaceAll('&amp;', '&');
    const html = main((await s.get(link)).text);
    assert.match(html, new RegExp(`<a href="/${linking}" class="entity-link">a part <span class="id">\\(${linking}\\)</span></a>`));
    assert.match(html, new RegExp(`<a href="/${partOf}" class="entity-link">part of <span class="id">\\(${partOf}\\)</span></a>`));
  });

  it('answers an ASK with yes or no, and shows the API\'s error for a query it refuses', async () => {
    assert.match(main((await s.get(`/query?${new URLSearchParams({ query: `ASK { wd:${item} ?p ?o }` })}`)).text), /<p class="query-answer">Yes<\/p>/);
    const bad = await s.get(`/query?${new URLSearchParams({ query: 'SELEKT nothing' })}`);
    assert.equal(bad.status, 200);
    assert.match(main(bad.text), /<p class="query-error" role="alert">The query is not valid SPARQL: /);
    assert.match(main(bad.text), /<textarea[^>]*>SELEKT nothing<\/textarea>/);
  });
});
