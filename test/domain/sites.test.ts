import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problemOf } from '../helpers/problems.js';
import {
  DEFAULT_SITES, badgeIds, buildSiteTable, normaliseTitle, parseSitelink, parseSitelinkMap, sitelinkUrl, type BadgePolicy,
} from '../../src/domain/sites.js';


const NO_BADGES: BadgePolicy = { allowedBadges: new Set() };
const BADGES: BadgePolicy = { allowedBadges: new Set(['Q17437796', 'Q17437798']) };
const enwiki = DEFAULT_SITES.enwiki;

test('the default table has Wikipedias, sister projects and the multilingual wikis', () => {
  const wikipedias = Object.values(DEFAULT_SITES).filter((s) => s.group === 'wikipedia');
  assert.ok(wikipedias.length > 300, `${wikipedias.length} Wikipedias`);
  assert.deepEqual(DEFAULT_SITES.enwiki, { group: 'wikipedia', language: 'en', url: 'https://en.wikipedia.org/wiki/$1' });
  assert.equal(DEFAULT_SITES.zh_min_nanwiki.url, 'https://zh-min-nan.wikipedia.org/wiki/$1');
  assert.equal(DEFAULT_SITES.be_x_oldwiki.url, 'https://be-tarask.wikipedia.org/wiki/$1');
  assert.equal(DEFAULT_SITES.simplewiki.url, 'https://simple.wikipedia.org/wiki/$1');
  for (const id of ['dewikisource', 'enwikivoyage', 'frwikiquote', 'enwikinews', 'enwikibooks', 'enwiktionary', 'enwikiversity']) {
    assert.ok(Object.hasOwn(DEFAULT_SITES, id), id);
  }
  assert.equal(DEFAULT_SITES.commonswiki.url, 'https://commons.wikimedia.org/wiki/$1');
  assert.equal(DEFAULT_SITES.metawiki.url, 'https://meta.wikimedia.org/wiki/$1');
  assert.equal(DEFAULT_SITES.specieswiki.url, 'https://species.wikimedia.org/wiki/$1');
  assert.equal(DEFAULT_SITES.wikidatawiki.url, 'https://www.wikidata.org/wiki/$1');
  assert.equal(DEFAULT_SITES.sourceswiki.url, 'https://wikisource.org/wiki/$1');
  for (const id of ['mediawikiwiki', 'wikimaniawiki', 'incubatorwiki']) assert.ok(Object.hasOwn(DEFAULT_SITES, id), id);
  for (const [id, site] of Object.entries(DEFAULT_SITES)) {
    assert.match(id, /^[a-z0-9_]+$/, id);
    assert.ok(site.url.startsWith('https://') && site.url.endsWith('/wiki/$1'), id);
  }
  assert.ok(Object.isFrozen(DEFAULT_SITES));
});

test('sitelinkUrl: spaces become _, encoded like MediaWiki', () => {
  assert.equal(sitelinkUrl(enwiki, 'Jane Doe'), 'https://en.wikipedia.org/wiki/Jane_Doe');
  assert.equal(sitelinkUrl(enwiki, "Don't Stop? (song)"), 'https://en.wikipedia.org/wiki/Don%27t_Stop%3F_(song)');
  assert.equal(sitelinkUrl(enwiki, 'AC/DC: a;b@c$d!e*f,g~h'), 'https://en.wikipedia.org/wiki/AC/DC:_a;b@c$d!e*f,g~h');
  assert.equal(sitelinkUrl(enwiki, 'Ä & é + 100%'), 'https://en.wikipedia.org/wiki/%C3%84_%26_%C3%A9_%2B_100%25');
  assert.equal(sitelinkUrl(enwiki, 'Price $1 $&'), 'https://en.wikipedia.org/wiki/Price_$1_$%26', 'no replacement patterns');
  assert.equal(sitelinkUrl(DEFAULT_SITES.dewikisource, 'Faust I'), 'https://de.wikisource.org/wiki/Faust_I');
  assert.equal(sitelinkUrl(DEFAULT_SITES.commonswiki, 'Category:Jane Doe'), 'https://commons.wikimedia.org/wiki/Category:Jane_Doe');
  assert.equal(sitelinkUrl(DEFAULT_SITES.wikidatawiki, 'Wikidata:Main Page'), 'https://www.wikidata.org/wiki/Wikidata:Main_Page');
});

test('normaliseTitle trims, folds _ and space runs, upper-cases the first letter', () => {
  assert.equal(normaliseTitle('  jane_doe  ', '/sitelink/title'), 'Jane doe');
  assert.equal(normaliseTitle('Jane   __ Doe', '/t'), 'Jane Doe');
  assert.equal(normaliseTitle('éclair', '/t'), 'Éclair');
  assert.equal(normaliseTitle('ßtraße', '/t'), 'ßtraße', 'no length-changing case mapping');
  assert.equal(normaliseTitle('Foo: bar!', '/t'), 'Foo: bar!');
  assert.equal(normaliseTitle('potato', '/t', DEFAULT_SITES.enwiktionary), 'potato', 'Wiktionary titles are case-sensitive');
});

test('normaliseTitle: non-strings, empty and illegal titles are invalid with the trimmed value', () => {
  for (const value of [null, 5, ['a'], {}]) {
    assert.deepEqual(problemOf(() => normaliseTitle(value, '/sitelink/title')), { type: 'invalid', path: '/sitelink/title', value });
  }
  assert.deepEqual(problemOf(() => normaliseTitle('  ', '/t')), { type: 'invalid', path: '/t', value: '' });
  assert.deepEqual(problemOf(() => normaliseTitle(' ___ ', '/t')), { type: 'invalid', path: '/t', value: '___' });
  for (const bad of ['a#b', 'a<b', 'a>b', 'a[b', 'a]b', 'a|b', 'a{b', 'a}b', 'a\x01b', 'a\x7Fb', 'a\nb', 'a%20b', 'a&amp;b', 'a&#39;b', 'a&#x27;b']) {
    assert.deepEqual(problemOf(() => normaliseTitle(` ${bad} `, '/enwiki/title')), { type: 'invalid', path: '/enwiki/title', value: bad }, bad);
  }
  assert.equal(normaliseTitle('100% & more', '/t'), '100% & more', 'a lone % or & is fine');
});

test('parseSitelink: shape, title and default badges', () => {
  assert.deepEqual(parseSitelink({ title: ' jane_doe ' }, '/sitelink', enwiki, NO_BADGES), { title: 'Jane doe', badges: [] });
  for (const value of ['Jane', null, ['x']]) {
    assert.deepEqual(problemOf(() => parseSitelink(value, '/sitelink', enwiki, NO_BADGES)), { type: 'invalid', path: '/sitelink', value });
  }
  assert.deepEqual(problemOf(() => parseSitelink({ badges: [] }, '/sitelink', enwiki, NO_BADGES)),
    { type: 'missing', path: '/sitelink', field: 'title' });
  assert.deepEqual(problemOf(() => parseSitelink({ title: '' }, '/sitelink', enwiki, NO_BADGES)),
    { type: 'invalid', path: '/sitelink/title', value: '' });
});

test('parseSitelink: badges must be allowed item ids; deduplicated', () => {
  assert.deepEqual(parseSitelink({ title: 'A', badges: ['Q17437796', 'q17437798', 'Q17437796'] }, '', enwiki, BADGES),
    { title: 'A', badges: ['Q17437796', 'Q17437798'] });
  assert.deepEqual(problemOf(() => parseSitelink({ title: 'A', badges: 'Q17437796' }, '/sitelink', enwiki, BADGES)),
    { type: 'invalid', path: '/sitelink/badges', value: 'Q17437796' });
  for (const bad of ['P5', 'not an id', 7, 'Q1']) {
    assert.deepEqual(problemOf(() => parseSitelink({ title: 'A', badges: ['Q17437796', bad] }, '/sitelink', enwiki, BADGES)),
      { type: 'invalid', path: '/sitelink/badges/1', value: bad }, String(bad));
  }
  assert.deepEqual(problemOf(() => parseSitelink({ title: 'A', badges: ['Q17437796'] }, '', enwiki, NO_BADGES)),
    { type: 'invalid', path: '/badges/0', value: 'Q17437796' }, 'the default list is empty');
});

test('parseSitelink: an allowed badge must also exist when the policy says how to tell', () => {
  const existing = new Set(['Q17437796']);
  const policy: BadgePolicy = { ...BADGES, exists: (id) => existing.has(id) };
  assert.deepEqual(parseSitelink({ title: 'A', badges: ['Q17437796'] }, '', enwiki, policy), { title: 'A', badges: ['Q17437796'] });
  assert.deepEqual(problemOf(() => parseSitelink({ title: 'A', badges: ['Q17437796', 'Q17437798'] }, '/sitelink', enwiki, policy)),
    { type: 'invalid', path: '/sitelink/badges/1', value: 'Q17437798' });
});

test('badgeIds: the item ids named as badges, for the existence lookup', () => {
  assert.deepEqual(badgeIds([{ title: 'A', badges: ['q5', 'Q5', 'P1', 7, 'x'] }, { badges: ['Q6'] }, 'x', null, { badges: 'Q7' }]), ['Q5', 'Q6']);
  assert.deepEqual(badgeIds([]), []);
});

test('parseSitelink: url is ignored, except a changed url in patch mode', () => {
  const currentUrl = 'https://en.wikipedia.org/wiki/A';
  assert.deepEqual(parseSitelink({ title: 'A', url: 'https://evil.example' }, '/sitelink', enwiki, NO_BADGES), { title: 'A', badges: [] });
  assert.deepEqual(parseSitelink({ title: 'A', url: currentUrl }, '/enwiki', enwiki, NO_BADGES, { currentUrl }), { title: 'A', badges: [] });
  assert.deepEqual(parseSitelink({ title: 'B' }, '/enwiki', enwiki, NO_BADGES, { currentUrl }), { title: 'B', badges: [] });
  assert.deepEqual(problemOf(() => parseSitelink({ title: 'A', url: 'https://x' }, '/enwiki', enwiki, NO_BADGES, { currentUrl })),
    { type: 'read-only', path: '/enwiki/url' });
});

test('parseSitelinkMap: shape, site keys and per-site paths', () => {
  assert.deepEqual(parseSitelinkMap([], '/item/sitelinks', DEFAULT_SITES, NO_BADGES), {});
  assert.deepEqual(parseSitelinkMap({ enwiki: { title: 'jane Doe' }, dewiki: { title: 'Jane Doe', badges: [] } }, '/item/sitelinks', DEFAULT_SITES, NO_BADGES),
    { enwiki: { title: 'Jane Doe', badges: [] }, dewiki: { title: 'Jane Doe', badges: [] } });
  for (const value of [['x'], 'enwiki', null]) {
    assert.deepEqual(problemOf(() => parseSitelinkMap(value, '/sitelinks', DEFAULT_SITES, NO_BADGES)), { type: 'invalid', path: '/sitelinks', value });
  }
  for (const key of ['nosuchwiki', 'constructor', '__proto__']) {
    const input = JSON.parse(`{"${key}": {"title": "A"}}`);
    assert.deepEqual(problemOf(() => parseSitelinkMap(input, '/sitelinks', DEFAULT_SITES, NO_BADGES)), { type: 'invalid-key', path: '/sitelinks', key });
  }
  assert.deepEqual(problemOf(() => parseSitelinkMap({ enwiki: {} }, '', DEFAULT_SITES, NO_BADGES)), { type: 'missing', path: '/enwiki', field: 'title' });
  assert.deepEqual(problemOf(() => parseSitelinkMap({ enwiki: { title: 'a|b' } }, '', DEFAULT_SITES, NO_BADGES)),
    { type: 'invalid', path: '/enwiki/title', value: 'a|b' });
});

test('parseSitelinkMap: patch mode compares url with the current sitelink', () => {
  const current = { enwiki: { title: 'Jane Doe', badges: [] } };
  const patched = { enwiki: { title: 'Jane Doe', badges: [], url: 'https://en.wikipedia.org/wiki/Jane_Doe' }, dewiki: { title: 'X', url: 'anything' } };
  assert.deepEqual(parseSitelinkMap(patched, '', DEFAULT_SITES, NO_BADGES, current),
    { enwiki: { title: 'Jane Doe', badges: [] }, dewiki: { title: 'X', badges: [] } });
  assert.deepEqual(problemOf(() => parseSitelinkMap({ enwiki: { title: 'Jane Doe', url: 'https://en.wikipedia.org/wiki/Other' } }, '/sitelinks', DEFAULT_SITES, NO_BADGES, current)),
    { type: 'read-only', path: '/sitelinks/enwiki/url' });
});

test('parseSitelinkMap: patch mode keeps an unchanged stored sitelink without validating it again', () => {
  const current = { oldwiki: { title: 'Gone', badges: [] }, enwiki: { title: 'Kept', badges: ['Q17437796'] } };
  const url = 'https://en.wikipedia.org/wiki/Kept';
  // The site left the table and the badge left the allow-list since they were stored.
  assert.deepEqual(parseSitelinkMap({ oldwiki: { title: 'Gone', badges: [], url: '' }, enwiki: { title: 'Kept', badges: ['Q17437796'], url } },
    '', DEFAULT_SITES, NO_BADGES, current), current);
  assert.deepEqual(problemOf(() => parseSitelinkMap({ oldwiki: { title: 'Changed' } }, '', DEFAULT_SITES, NO_BADGES, current)),
    { type: 'invalid-key', path: '', key: 'oldwiki' });
  assert.deepEqual(problemOf(() => parseSitelinkMap({ enwiki: { title: 'Kept', badges: ['Q17437796'], url: 'https://x' } }, '', DEFAULT_SITES, BADGES, current)),
    { type: 'read-only', path: '/enwiki/url' });
  assert.deepEqual(problemOf(() => parseSitelinkMap({ enwiki: { title: 'Kept2', badges: ['Q17437796'] } }, '', DEFAULT_SITES, NO_BADGES, current)),
    { type: 'invalid', path: '/enwiki/badges/0', value: 'Q17437796' });
  assert.deepEqual(problemOf(() => parseSitelinkMap({ oldwiki: { title: 'Gone' } }, '', DEFAULT_SITES, NO_BADGES)),
    { type: 'invalid-key', path: '', key: 'oldwiki' }, 'outside patch mode nothing is kept');
});

test('buildSiteTable merges an override: adds, replaces and removes sites', () => {
  assert.equal(buildSiteTable(), DEFAULT_SITES);
  const table = buildSiteTable({
    sites: {
      examplewiki: { group: 'example', language: 'en', url: 'https://wiki.example.org/page/$1' },
      enwiki: null,
      dewiki: { group: 'wikipedia', language: 'de', url: 'https://de.example.org/wiki/$1' },
    },
  });
  assert.equal(Object.hasOwn(table, 'enwiki'), false);
  assert.equal(sitelinkUrl(table.examplewiki, 'Jane Doe'), 'https://wiki.example.org/page/Jane_Doe');
  assert.equal(table.dewiki.url, 'https://de.example.org/wiki/$1');
  assert.ok(Object.hasOwn(table, 'frwiki'));
  assert.ok(Object.hasOwn(DEFAULT_SITES, 'enwiki'), 'defaults untouched');
  assert.deepEqual(problemOf(() => parseSitelinkMap({ enwiki: { title: 'A' } }, '', table, NO_BADGES)), { type: 'invalid-key', path: '', key: 'enwiki' });
});

test('buildSiteTable rejects a malformed override with a clear message', () => {
  const bad: Array<[unknown, RegExp]> = [
    ['sites', /expected \{"sites"/],
    [{ enwiki: null }, /expected \{"sites"/],
    [{ sites: [] }, /expected \{"sites"/],
    [{ sites: { x: 'https://x/$1' } }, /sites\.x must be an object or null/],
    [{ sites: { x: { group: 'g', language: 'en' } } }, /sites\.x\.url must be a non-empty string/],
    [{ sites: { x: { group: 'g', language: 'en', url: 'https://x/wiki/' } } }, /sites\.x\.url must contain "\$1"/],
    [{ sites: { x: { language: 'en', url: 'https://x/$1' } } }, /sites\.x\.group/],
    [JSON.parse('{"sites": {"__proto__": null}}'), /site id "__proto__"/],
  ];
  for (const [override, message] of bad) assert.throws(() => buildSiteTable(override), message);
});
