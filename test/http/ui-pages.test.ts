// The web interface's pages over real HTTP, on both backends: HTML with a strict page CSP, text escaped,
// errors as pages with the API's status, redirects followed, the language chosen, and the UI switched off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, until, type TestServer } from '../helpers/server.js';
import { createItem, createProperty, valueSnak } from '../helpers/statements.js';
import { TERM_LANGUAGES } from '../../src/domain/languages.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

const page = async (path: string, headers: Record<string, string> = {}) => {
  const res = await s.get(path, headers);
  return { ...res, main: /<main[^>]*>([\s\S]*)<\/main>/.exec(res.text)?.[1] ?? '' };
};

describe('web interface pages', () => {
  it('serve HTML under a CSP that allows this server\'s scripts and styles only', async () => {
    for (const path of ['/', '/search?q=x', '/recent-changes']) {
      const res = await s.get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self';/);
      assert.match(csp, /style-src 'self';/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.doesNotMatch(res.text, /<script>|<style>| on\w+="/, `${path}: no inline script or style`);
    }
    // The API keeps its own policy, and the reference page alone may carry Swagger UI's inline styles.
    assert.equal((await s.get('/v1/property-data-types')).headers.get('content-security-policy'), "default-src 'none';frame-ancestors 'none'");
    assert.match((await s.get('/docs')).headers.get('content-security-policy')!, /style-src 'self' 'unsafe-inline';.*script-src 'self'|script-src 'self'; style-src 'self' 'unsafe-inline'/);
  });

  it('render an entity with its terms and statement values, escaping what users wrote', async () => {
    const property = await createProperty(s, 'string', { labels: { en: 'motto <b>' } });
    const id = await createItem(s, { labels: { en: '<script>alert(1)</script>', de: 'Etikett' }, descriptions: { en: 'a & b' },
      aliases: { en: ['"quoted"'] }, statements: { [property]: [valueSnak(property, '<img src=x onerror=alert(1)>')] } });
    const res = await page(`/${id}`);
    assert.equal(res.status, 200);
    assert.match(res.text, /<title>&lt;script>alert\(1\)&lt;\/script> \(Q\d+\) – Entia<\/title>/);
    assert.doesNotMatch(res.main, /<script>|<img|<b>/);
    assert.match(res.main, /&lt;img src=x onerror=alert\(1\)>/);
    assert.match(res.main, /a &amp; b/);
    assert.match(res.main, new RegExp(`<a href="/${property}" class="entity-link">motto &lt;b> <span class="id">\\(${property}\\)</span></a>`));
    // Every language is there for editing; the page's revision travels to the editor.
    assert.match(res.main, /<tr data-language="de">/);
    const revision = (await s.get(`/v1/entities/items/${id}`)).headers.get('etag')!.replaceAll('"', '');
    assert.match(res.main, new RegExp(`data-entity="${id}" data-kind="items" data-revision="${revision}"`));
  });

  it('speak the language asked with ?uselang or Accept-Language, falling back like the API', async () => {
    const id = await createItem(s, { labels: { en: 'colour', de: 'Farbe', 'de-at': 'Farbe (AT)' } });
    const title = async (path: string, headers?: Record<string, string>) => /<title>([^<]*)<\/title>/.exec((await s.get(path, headers)).text)?.[1];
    assert.equal(await title(`/${id}?uselang=de`), `Farbe (${id}) – Entia`);
    assert.equal(await title(`/${id}`, { 'accept-language': 'fr;q=0.9, de-AT' }), `Farbe (AT) (${id}) – Entia`);
    assert.equal(await title(`/${id}`, { 'accept-language': 'gsw-CH' }), `Farbe (${id}) – Entia`);
    assert.equal(await title(`/${id}?uselang=nonsense`), `colour (${id}) – Entia`);
    // No label in the chain: one in another language, marked with it, rather than the bare id.
    const lake = await createItem(s, { labels: { sv: 'Price Lake (sv)', fr: 'Lac Price' } });
    assert.equal(await title(`/${lake}?uselang=en`), `Lac Price (${lake}) – Entia`);
    const heading = /<h1>(.*?)<\/h1>/s.exec((await s.get(`/${lake}?uselang=en`)).text)?.[1] ?? '';
    assert.match(heading, /<span class="entity-label" lang="fr">Lac Price<\/span> <span class="label-language"[^>]*>\[fr\]<\/span>/);
  });

  it('keep a language chosen with ?uselang for the next pages, and name languages next to their codes', async () => {
    const id = await createItem(s, { labels: { en: 'colour', de: 'Farbe' } });
    const chosen = await s.get(`/${id}?uselang=de`);
    const cookie = chosen.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^uselang=de; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly$/);
    // The next page, with the cookie and no ?uselang, speaks German though the browser asks for French.
    const next = await s.get(`/${id}`, { cookie: 'other=1; uselang=de', 'accept-language': 'fr' });
    assert.match(next.text, /<html lang="de">/);
    assert.match(next.text, /<title>Farbe/);
    assert.equal(next.headers.get('set-cookie'), null, 'only a choice sets it');
    // A cookie naming no language is ignored; ?uselang wins over the cookie.
    assert.match((await s.get(`/${id}`, { cookie: 'uselang=<script>', 'accept-language': 'en' })).text, /<html lang="en">/);
    assert.match((await s.get(`/${id}?uselang=en`, { cookie: 'uselang=de' })).text, /<html lang="en">/);
    // The terms table names each language in the reader's language; the footer offers the choice.
    const english = await s.get(`/${id}?uselang=en`);
    assert.match(english.text, /<code>de<\/code><span class="language-name"> German<\/span>/);
    assert.match(english.text, /<form method="get" class="language-picker">/);
    assert.match(next.text, /<code>en<\/code><span class="language-name"> Englisch<\/span>/);
  });

  it('leave a large entity\'s other languages and references to be loaded when opened, and link the whole page', async () => {
    const property = await createProperty(s, 'string', { labels: { en: 'cited text' } });
    // 35 languages far from English's fallback chain, the first of them Afar.
    const languages = TERM_LANGUAGES.filter((code) => /^[a-z]{2,3}$/.test(code) && !['en', 'simple'].includes(code)).slice(0, 35);
    assert.equal(languages[0], 'aa');
    const labels = Object.fromEntries(['en', ...languages].map((code) => [code, `label ${code}`]));
    const reference = (n: number) => ({ parts: [valueSnak(property, `source ${n}`)] });
    const statement = (n: number) => ({ ...valueSnak(property, `value ${n}`), references: [reference(n), reference(n + 100)] });
    const id = await createItem(s, { labels, statements: { [property]: Array.from({ length: 51 }, (_, n) => statement(n)) } });
    const whole = await page(`/${id}?uselang=en`);
    // 35 other languages and 102 references: past the page's limits (30, 100), so each part is a link to load.
    assert.match(whole.main, new RegExp(`<details class="all-languages" data-part="/${id}/part/terms\\?uselang=en">`));
    assert.doesNotMatch(whole.main, /<tr data-language="aa">|source 0/);
    assert.equal(whole.main.match(/<details class="references" data-part="[^"]+statement=/g)?.length, 51);
    assert.match(whole.main, new RegExp(`<a href="/${id}\\?all=1">Show the page with every part</a>`));
    // The parts, as the script loads them: the other languages' table, and one statement's references.
    const terms = await s.get(`/${id}/part/terms?uselang=en`);
    assert.equal(terms.status, 200);
    assert.match(terms.headers.get('content-type')!, /^text\/html/);
    assert.match(terms.text, /^<table class="terms">/);
    assert.match(terms.text, /<tr data-language="aa"><th scope="row"><code>aa<\/code>.*label aa/);
    assert.doesNotMatch(terms.text, /<tr data-language="en">/);
    const statements = (await s.get(`/v1/entities/items/${id}/statements`)).body[property];
    const references = await s.get(`/${id}/part/references?statement=${encodeURIComponent(statements[3].id)}&uselang=en`);
    assert.match(references.text, /^<ol><li><dl class="reference"><dt><a href="\/P\d+" class="entity-link">cited text .*source 3.*source 103/);
    assert.equal((await s.get(`/${id}/part/references?uselang=en`)).status, 400);
    assert.equal((await s.get(`/${id}/part/references?statement=${encodeURIComponent(`${id}$00000000-0000-0000-0000-000000000000`)}`)).status, 404);
    // Without scripts, the link's page has every part in it.
    const all = await page(`/${id}?all=1&uselang=en`);
    assert.match(all.main, /<tr data-language="aa">/);
    assert.match(all.main, /source 50/);
    assert.doesNotMatch(all.main, /data-part=/);
  });

  it('show an edit anywhere on the next page, though pages are kept between edits', async () => {
    const country = await createItem(s, { labels: { en: 'old name' } });
    const property = await createProperty(s, 'wikibase-item', { labels: { en: 'located in' } });
    const city = await createItem(s, { labels: { en: 'city' }, statements: { [property]: [valueSnak(property, country)] } });
    const first = await page(`/${city}?uselang=en`);
    assert.match(first.main, />old name <span class="id">/);
    assert.equal((await page(`/${city}?uselang=en`)).text, first.text, 'the same page while nothing changed');
    // An edit of another entity (the value's label) shows on the city's page at once.
    const renamed = await s.put(`/v1/entities/items/${country}/labels/en`, { label: 'new name' });
    assert.equal(renamed.status, 200);
    assert.match((await page(`/${city}?uselang=en`)).main, />new name <span class="id">/);
  });

  it('answer a missing entity or revision with an HTML page carrying the API\'s status and message', async () => {
    const missing = await page('/Q999999999');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type')!, /^text\/html/);
    assert.match(missing.main, /Could not find an item with the ID: Q999999999/);
    const id = await createItem(s, { labels: { en: 'one revision' } });
    const revision = await page(`/${id}/revisions/999999`);
    assert.equal(revision.status, 404);
    assert.match(revision.main, /Could not find a revision/);
    assert.equal((await page(`/${id}/revisions/abc`)).status, 400);
    // Anything that is not an entity id is not a page: the API's JSON 404, as before.
    const other = await s.get('/Q0');
    assert.equal(other.status, 404);
    assert.equal(other.body.code, 'rest-no-match');
    assert.equal((await s.request('POST', `/${id}`)).status, 405);
  });

  it('follow a redirected item to its target, and Wikidata-style addresses and ids typed into search', async () => {
    const target = await createItem(s, { labels: { en: 'target' } });
    const source = await createItem(s, {});
    const redirect = await s.request('POST', '/w/api.php', {
      raw: new URLSearchParams({ action: 'wbcreateredirect', from: source, to: target, token: '+\\', format: 'json' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(redirect.status, 200, redirect.text);
    const res = await s.get(`/${source}`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), `/${target}?redirectedfrom=${source}`);
    assert.match((await page(`/${target}?redirectedfrom=${source}`)).main, new RegExp(`Redirected from ${source}`));
    assert.equal((await s.get(`/wiki/${target}`)).headers.get('location'), `/${target}`);
    const search = await s.get(`/search?q=${target.toLowerCase()}`);
    assert.equal(search.status, 302);
    assert.equal(search.headers.get('location'), `/${target}`);
  });

  it('search by words, fall back to suggest for the start of a word, and show the API\'s refusal', async () => {
    const id = await createItem(s, { labels: { en: 'Zanzibarian ferry' }, descriptions: { en: 'a boat' } });
    const words = await page('/search?q=zanzibarian');
    assert.match(words.main, new RegExp(`Results for “zanzibarian”.*href="/${id}"`, 's'));
    // The kind switch reads as two choices, not "ItemsProperties".
    assert.match(words.main, /Search in: <strong aria-current="page">Items<\/strong> · <a href="[^"]*kind=properties[^"]*">Properties<\/a>/);
    const start = await page('/search?q=zanzib');
    assert.match(start.main, new RegExp(`Terms starting with “zanzib”.*href="/${id}".*a boat`, 's'));
    const refused = await page(`/search?q=${'x'.repeat(301)}`);
    assert.equal(refused.status, 400);
    assert.match(refused.main, /Invalid query parameter: 'q'/);
    for (const repeated of ['/search?q=a&q=b', '/search?q=a&kind=items&kind=properties', `/${id}/history?before=2&before=3`, '/recent-changes?before=a&before=b']) {
      const twice = await page(repeated);
      assert.equal(twice.status, 400, `${repeated} names a parameter twice`);
      assert.match(twice.main, /Invalid query parameter: '(q|kind|before)'/);
    }
  });

  it('list history and recent changes newest first, with links to each revision', async () => {
    const id = await createItem(s, { labels: { en: 'changing' } });
    const edited = await s.put(`/v1/entities/items/${id}/labels/en`, { label: 'changed', comment: 'renamed it' });
    const rev = edited.headers.get('etag')!.replaceAll('"', '');
    const history = await page(`/${id}/history`);
    assert.match(history.main, new RegExp(`href="/${id}/revisions/${rev}">${rev}</a> \\(current\\).*renamed it`, 's'));
    assert.equal((history.main.match(/data-revert=/g) ?? []).length, 1, 'every revision but the current one can be reverted to');
    // On PostgreSQL another test file's transaction can hold the newest changes back for a moment (ADR 0006).
    const firstRow = async () => /<tbody><tr>([\s\S]*?)<\/tr>/.exec((await page('/recent-changes')).main)?.[1] ?? '';
    const first = await until(firstRow, (row) => row.includes(`revisions/${rev}"`));
    assert.match(first, new RegExp(`changed <span class="id">\\(${id}\\)</span>.*revisions/${rev}">edit</a>.*renamed it`, 's'));
    // Filtered: properties only shows no item; the form keeps the filters; a bad filter is the feed's 400.
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'filtered property' } } })).body.id;
    const properties = await until(() => page('/recent-changes?types=property&user=127.0.0.1&hidebots=1'), (p) => p.main.includes(`(${property})`));
    assert.match(properties.main, new RegExp(`\\(${property}\\)`));
    assert.doesNotMatch(properties.main, new RegExp(`\\(${id}\\)`));
    assert.match(properties.main, /<option value="property" selected>Properties<\/option>/);
    assert.match(properties.main, /name="hidebots" value="1" checked\/>/);
    assert.match((await page('/recent-changes?user=nobody-at-all')).main, /No change matches these filters\./);
    assert.equal((await page('/recent-changes?types=lexeme')).status, 400);
  });

  it('list items and properties, filtered by a statement, paged, and downloadable as CSV and JSON', async () => {
    const kindOf = await createProperty(s, 'wikibase-item', { labels: { en: 'listed kind' } });
    const kind = await createItem(s, { labels: { en: 'listed class' } });
    const made: string[] = [];
    for (const label of ['listed one', 'listed, "two"']) {
      made.push(await createItem(s, { labels: { en: label }, descriptions: { en: `about ${label}` },
        statements: { [kindOf]: [valueSnak(kindOf, kind)] } }));
    }
    const filtered = await page(`/items?statement=${kindOf}:${kind}`);
    assert.equal(filtered.status, 200);
    const rows = [...filtered.main.matchAll(/<tr><td><a href="\/(Q\d+)">/g)].map((m) => m[1]);
    assert.deepEqual(rows, made, 'the items with the statement, in id order');
    assert.match(filtered.main, /<td data-label="Description">about listed one<\/td>/);
    const csvLink = /<a href="([^"]+)">CSV<\/a>/.exec(filtered.main)![1].replaceAll('&amp;', '&');
    const csv = await s.get(csvLink);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    assert.match(csv.headers.get('content-disposition')!, /attachment; filename="items.csv"/);
    assert.equal(csv.text, `id,label,description\r\n${made[0]},listed one,about listed one\r\n${made[1]},"listed, ""two""","about listed, ""two"""\r\n`);
    const json = await s.get(csvLink.replace('format=csv', 'format=json'));
    assert.deepEqual(json.body, { rows: [{ id: made[0], label: 'listed one', description: 'about listed one' },
      { id: made[1], label: 'listed, "two"', description: 'about listed, "two"' }], next: null });
    // Unfiltered, a page after a cursor; properties show their data type; bad input is a 400 page.
    const paged = await page(`/items?after=${made[0]}`);
    assert.match(paged.main, new RegExp(`<a href="/${made[1]}">`));
    assert.doesNotMatch(paged.main, new RegExp(`<a href="/${made[0]}">`));
    assert.match((await page(`/properties?after=P${Number(kindOf.slice(1)) - 1}`)).main, /<code>wikibase-item<\/code>/);
    assert.equal((await page('/items?statement=nonsense')).status, 400);
    assert.equal((await page('/items?format=xml')).status, 400);
    assert.equal((await page('/items?after=x')).status, 400);
  });

  it('show what links here, with the linking properties and a query for qualifiers too', async () => {
    const partOf = await createProperty(s, 'wikibase-item', { labels: { en: 'linked part of' } });
    const whole = await createItem(s, { labels: { en: 'the whole' } });
    const part = await createItem(s, { labels: { en: 'a part' }, statements: { [partOf]: [valueSnak(partOf, whole)] } });
    const entity = await page(`/${whole}`);
    assert.match(entity.main, new RegExp(`<a href="/Special:WhatLinksHere/${whole}">What links here</a>`));
    const links = await page(`/Special:WhatLinksHere/${whole}`);
    assert.equal(links.status, 200);
    assert.match(links.main, new RegExp(`<li><a href="/${part}" class="entity-link">a part <span class="id">\\(${part}\\)</span></a> `
      + `<span class="through">through <a href="/${partOf}" class="entity-link">linked part of`));
    assert.match(links.main, /<a href="\/query\?query=SELECT/);
    assert.match((await page(`/Special:WhatLinksHere/${part}`)).main, /No statement links here\./);
    assert.equal((await page('/Special:WhatLinksHere/Q987654321')).status, 404);
  });

  it('serve their scripts and styles, and Swagger UI\'s files only, from this server', async () => {
    for (const path of ['/ui/assets/entia.js', '/ui/assets/edit.js', '/ui/assets/entia.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']) {
      assert.equal((await s.get(path)).status, 200, path);
    }
    for (const path of ['/docs/assets/index.html', '/docs/assets/package.json', '/ui/assets/../index.tsx', '/ui/assets/%2e%2e/index.tsx']) {
      assert.equal((await s.get(path)).status, 404, path);
    }
  });
});

describe('ENTIA_UI=0', () => {
  it('serves the API alone: the pages are unknown paths', async () => {
    const apiOnly = await startServer({ config: { ui: false } });
    try {
      for (const path of ['/', '/Q1', '/docs', '/ui/assets/entia.js']) {
        const res = await apiOnly.get(path);
        assert.equal(res.status, 404, path);
        assert.equal(res.body.code, 'rest-no-match', path);
      }
      assert.equal((await apiOnly.get('/v1/openapi.json')).status, 200);
    } finally {
      await apiOnly.close();
    }
  });
});
