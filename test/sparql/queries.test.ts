// SPARQL over an imported copy of Wikidata (issue #34), in the style of the Query Service's examples: classes
// with labels, counts by property, qualifiers through p:/pq:, references through prov:wasDerivedFrom, ranks and
// wikibase:BestRank, sitelinks through schema:about, coordinates, dates with precision, MINUS, OPTIONAL,
// FILTER NOT EXISTS, property paths and the label service. Every expected answer is computed by this test
// from the source JSON, never read from Entia. The Wikidata samples are imported with `entia import` when
// present; the excerpt in test/fixtures stands in for them otherwise. It runs once, on SQLite: the answers depend on
// the RDF and the engine, not on the store behind them, and the sync from each backend is test/http/sparql*.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../helpers/store.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitForSparql } from '../helpers/sparql.js';
import { skipVirtuoso, startVirtuoso } from '../helpers/virtuoso.js';
import { ENTIA } from '../helpers/entia-command.js';

const FIXTURE = new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url).pathname;
const SAMPLES = process.env.ENTIA_WIKIDATA_SAMPLES ?? join(import.meta.dirname, '../../../shared/data/wikidata');
const SAMPLE_FILES = ['Q31.json', 'Q8502.json', 'short_stream.json.bz2', 'sample_wikidata_items.json.bz2'].map((f) => join(SAMPLES, f));
const haveSamples = SAMPLE_FILES.every((f) => existsSync(f));
const FILES = haveSamples ? SAMPLE_FILES : [FIXTURE];
const WD = 'http://www.wikidata.org/entity/';

let db: TestDb;
let s: TestServer;
/** The source entities, the newest line of each id winning (as the import keeps them). */
const source = new Map<string, any>();

function entia(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((done, fail) => execFile(process.execPath, [...ENTIA, ...args], { env: { ...process.env, ...env } },
    (error, _stdout, stderr) => (error ? fail(new Error(stderr)) : done())));
}

function readSource(file: string): any[] {
  const text = (file.endsWith('.bz2') ? execFileSync('bzcat', [file], { maxBuffer: 1 << 30 }).toString('utf8') : readFileSync(file, 'utf8')).trim();
  if (file.endsWith('.json')) {
    const document = JSON.parse(text);
    return document.entities ? Object.values(document.entities) : [document];
  }
  return text.split('\n').map((l) => l.trim().replace(/,$/, '')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

before(async () => {
  db = await createTestDb('sqlite');
  for (const file of FILES) {
    await entia(['import', file], { ENTIA_DB: db.location });
    for (const e of readSource(file)) {
      const known = source.get(e.id);
      if (!known || (known.lastrevid ?? 0) <= (e.lastrevid ?? 0)) source.set(e.id, e);
    }
  }
});

/** A SELECT's rows as plain values (IRIs and literals alike), through the Query Service's path and format=json. */
async function select(query: string, extra = ''): Promise<Record<string, string>[]> {
  const res = await fetch(`${s.url}/bigdata/namespace/wdq/sparql?format=json${extra}&query=${encodeURIComponent(query)}`);
  const body = await res.json() as any;
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.results.bindings.map((row: Record<string, { value: string }>) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v.value])));
}

const sorted = (values: Iterable<string>) => [...values].sort();

// ---- What the JSON says, by the Wikibase RDF mapping's rules -------------------------------------------------

const claimsOf = (e: any, pid: string): any[] => e?.claims?.[pid] ?? [];
/** The best statements of a property: the preferred ones, else the normal ones. */
function best(claims: any[]): any[] {
  const preferred = claims.filter((c) => c.rank === 'preferred');
  return preferred.length ? preferred : claims.filter((c) => c.rank === 'normal');
}
/** Truthy item values (`wdt:`) of an entity for a property. */
const truthyItems = (e: any, pid: string): string[] => best(claimsOf(e, pid))
  .filter((c) => c.mainsnak.snaktype === 'value').map((c) => c.mainsnak.datavalue.value.id);
const items = () => [...source.values()].filter((e) => e.type === 'item');
const humans = () => items().filter((e) => truthyItems(e, 'P31').includes('Q5'));
function label(e: any, languages: string[]): string {
  for (const l of languages) if (e.labels?.[l]) return e.labels[l].value;
  return e.id;
}

/** The engines the suite runs on: the embedded one, and Virtuoso loaded by `entia sparql-sync`. */
const ENGINES: { name: string; skip: string | false; start: () => Promise<{ server: TestServer; stop: () => Promise<void> }> }[] = [
  {
    name: 'the embedded engine', skip: false,
    async start() {
      const server = await startServer({ dbPath: db.location, config: { sparql: 'full' } });
      await waitForSparql(server);
      return { server, stop: () => server.close({ keepFiles: true }) };
    },
  },
  {
    name: 'Virtuoso', skip: skipVirtuoso,
    async start() {
      const virtuoso = await startVirtuoso();
      try {
        await entia(['sparql-sync', '--once'], { ENTIA_DB: db.location, ENTIA_SPARQL_URL: virtuoso.url, ENTIA_SPARQL: 'full' });
        const server = await startServer({ dbPath: db.location, config: { sparql: 'full', sparqlUrl: virtuoso.url } });
        return { server, stop: async () => { await server.close({ keepFiles: true }); await virtuoso.stop(); } };
      } catch (e) {
        await virtuoso.stop();
        throw e;
      }
    },
  },
];

for (const engine of ENGINES) describe(`SPARQL over ${haveSamples ? 'the Wikidata samples' : 'the excerpt (the samples are absent)'}, on ${engine.name}`, { skip: engine.skip }, () => {
  let stop: () => Promise<void>;
  before(async () => { ({ server: s, stop } = await engine.start()); });
  after(async () => { await stop?.(); });

  it('finds the instances of a class, labelled by the label service in the languages asked for', async () => {
    const expected = humans();
    assert.ok(expected.length > 0, 'the data has humans');
    const rows = await select(`SELECT ?item ?itemLabel ?itemDescription WHERE {
      ?item wdt:P31 wd:Q5 .
      SERVICE wikibase:label { bd:serviceParam wikibase:language "fr,en". }
    }`);
    assert.deepEqual(sorted(rows.map((r) => `${r.item} ${r.itemLabel}`)), sorted(expected.map((e) => `${WD}${e.id} ${label(e, ['fr', 'en'])}`)));
    const described = rows.filter((r) => r.itemDescription !== undefined).map((r) => r.item);
    assert.deepEqual(sorted(described), sorted(expected.filter((e) => e.descriptions?.fr || e.descriptions?.en).map((e) => WD + e.id)));
    // [AUTO_LANGUAGE] is the request's uselang; the explicit form names its outputs.
    const german = await select(`SELECT ?item ?name WHERE { ?item wdt:P31 wd:Q5 .
      SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE]". ?item rdfs:label ?name . } }`, '&uselang=de');
    assert.deepEqual(sorted(german.map((r) => `${r.item} ${r.name}`)), sorted(expected.map((e) => `${WD}${e.id} ${label(e, ['de'])}`)));
  });

  it('orders by a label the service fills, and joins aliases', async () => {
    const q31 = source.get('Q31');
    const rows = await select(`SELECT ?item ?itemLabel ?itemAltLabel WHERE { ?item wdt:P31 wd:Q5 .
      SERVICE wikibase:label { bd:serviceParam wikibase:language "en". } } ORDER BY ?itemLabel`);
    // Labels in order, and the ids standing in for missing labels in order; SPARQL leaves the order between the
    // two kinds of literal (with a language, without) to the engine.
    for (const fallback of [false, true]) {
      const labels = rows.filter((r) => (r.itemLabel === r.item.slice(WD.length)) === fallback).map((r) => r.itemLabel);
      assert.deepEqual(labels, [...labels].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    for (const r of rows) {
      const e = source.get(r.item.slice(WD.length));
      const aliases: string[] = (e.aliases?.en ?? []).map((a: any) => a.value);
      // Joined by ", " in no set order (an alias may hold ", " itself).
      if (aliases.length === 0) assert.equal(r.itemAltLabel, undefined, e.id);
      else assert.ok(r.itemAltLabel.length === aliases.join(', ').length && aliases.every((a) => r.itemAltLabel.includes(a)), e.id);
    }
    if (!q31) return;
    const [belgium] = await select('SELECT ?l WHERE { BIND(wd:Q31 AS ?x) SERVICE wikibase:label { bd:serviceParam wikibase:language "nl". ?x rdfs:label ?l } }');
    assert.equal(belgium.l, q31.labels.nl.value);
  });

  it('counts statements by property through p:, deprecated ones included', async () => {
    const e = source.get('Q31') ?? items()[0];
    const rows = await select(`SELECT ?p (COUNT(?st) AS ?n) WHERE { wd:${e.id} ?p ?st . ?st a wikibase:Statement } GROUP BY ?p`);
    const expected = Object.entries(e.claims).map(([pid, claims]) => `http://www.wikidata.org/prop/${pid} ${(claims as any[]).length}`);
    assert.deepEqual(sorted(rows.map((r) => `${r.p} ${r.n}`)), sorted(expected));
  });

  it('reads qualifiers through p: and pq:, and references through prov:wasDerivedFrom', async () => {
    const e = source.get('Q31') ?? items()[0];
    const withQualifier = Object.values(e.claims).flat().find((c: any) =>
      Object.values(c.qualifiers ?? {}).flat().some((q: any) => q.datatype === 'wikibase-item' && q.snaktype === 'value')) as any;
    assert.ok(withQualifier, 'the entity has an item-valued qualifier');
    const pid = withQualifier.mainsnak.property;
    const qid = (Object.values(withQualifier.qualifiers).flat() as any[]).find((q) => q.datatype === 'wikibase-item').property;
    const rows = await select(`SELECT ?st ?v WHERE { wd:${e.id} p:${pid} ?st . ?st pq:${qid} ?v }`);
    const expected = claimsOf(e, pid).flatMap((c) => (c.qualifiers?.[qid] ?? []).filter((q: any) => q.snaktype === 'value')
      .map((q: any) => `${WD}statement/${c.id.replace('$', '-')} ${WD}${q.datavalue.value.id}`));
    assert.deepEqual(sorted(rows.map((r) => `${r.st} ${r.v}`)), sorted(expected));

    const references = await select(`SELECT ?st ?ref WHERE { wd:${e.id} ?p ?st . ?st a wikibase:Statement ; prov:wasDerivedFrom ?ref }`);
    const expectedReferences = new Set(Object.values(e.claims).flat().flatMap((c: any) =>
      (c.references ?? []).map((r: any) => `${WD}statement/${c.id.replace('$', '-')} http://www.wikidata.org/reference/${r.hash}`)));
    assert.deepEqual(sorted(references.map((r) => `${r.st} ${r.ref}`)), sorted(expectedReferences));
  });

  it('knows ranks and wikibase:BestRank across the whole copy', async () => {
    const all = [...source.values()].flatMap((e) => Object.values(e.claims ?? {}) as any[][]);
    const [deprecated] = await select('SELECT (COUNT(?st) AS ?n) WHERE { ?st wikibase:rank wikibase:DeprecatedRank }');
    assert.equal(Number(deprecated.n), all.flat().filter((c) => c.rank === 'deprecated').length);
    const [preferred] = await select('SELECT (COUNT(?st) AS ?n) WHERE { ?st wikibase:rank wikibase:PreferredRank }');
    assert.equal(Number(preferred.n), all.flat().filter((c) => c.rank === 'preferred').length);
    const [bestRank] = await select('SELECT (COUNT(?st) AS ?n) WHERE { ?st a wikibase:BestRank }');
    assert.equal(Number(bestRank.n), all.map(best).flat().length);
  });

  it('finds sitelinks through schema:about', async () => {
    const e = source.get('Q31') ?? items().find((i) => i.sitelinks?.enwiki);
    const rows = await select(`SELECT ?article ?name WHERE { ?article schema:about wd:${e.id} ; schema:isPartOf <https://en.wikipedia.org/> ; schema:name ?name }`);
    const title = e.sitelinks.enwiki.title;
    assert.deepEqual(rows, [{ article: `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replaceAll(' ', '_'))}`, name: title }]);
  });

  it('gives coordinates as WKT and dates with their precision', async () => {
    const e = source.get('Q31');
    if (!e) return;
    const [point] = await select('SELECT ?c WHERE { wd:Q31 wdt:P625 ?c }');
    const coordinate = best(claimsOf(e, 'P625'))[0].mainsnak.datavalue.value;
    // Virtuoso writes a point as its own geometry type, `POINT(5 51)`; the Query Service and Oxigraph `Point(5 51)`.
    const [lon, lat] = /^Point\(([-0-9.eE]+) ([-0-9.eE]+)\)$/i.exec(point.c)!.slice(1).map(Number);
    assert.ok(Math.abs(lon - coordinate.longitude) < 1e-9 && Math.abs(lat - coordinate.latitude) < 1e-9, point.c);
    const dates = await select('SELECT ?t ?precision WHERE { wd:Q31 p:P571 ?st . ?st psv:P571 ?v . ?v wikibase:timeValue ?t ; wikibase:timePrecision ?precision }');
    const expected = claimsOf(e, 'P571').filter((c) => c.mainsnak.snaktype === 'value').map((c) => c.mainsnak.datavalue.value);
    assert.ok(expected.length > 0);
    assert.deepEqual(sorted(dates.map((d) => `${d.t} ${d.precision}`)),
      sorted(expected.map((v: any) => `${v.time.replace(/^\+/, '').replace(/-00/g, '-01')} ${v.precision}`)));
  });

  it('answers MINUS, FILTER NOT EXISTS and OPTIONAL alike, as the JSON says', async () => {
    const expected = sorted(humans().filter((e) => truthyItems(e, 'P21').length === 0).map((e) => WD + e.id));
    const minus = await select('SELECT ?h WHERE { ?h wdt:P31 wd:Q5 MINUS { ?h wdt:P21 ?g } }');
    const notExists = await select('SELECT ?h WHERE { ?h wdt:P31 wd:Q5 FILTER NOT EXISTS { ?h wdt:P21 ?g } }');
    const optional = await select('SELECT ?h WHERE { ?h wdt:P31 wd:Q5 OPTIONAL { ?h wdt:P21 ?g } FILTER(!BOUND(?g)) }');
    assert.deepEqual(sorted(minus.map((r) => r.h)), expected);
    assert.deepEqual(sorted(notExists.map((r) => r.h)), expected);
    assert.deepEqual(sorted(optional.map((r) => r.h)), expected);
  });

  it('follows property paths: instance of a subclass of, transitively', async () => {
    const e = source.get('Q31') ?? items()[0];
    const classes = new Set<string>();
    const queue = truthyItems(e, 'P31');
    while (queue.length) {
      const c = queue.pop()!;
      if (classes.has(c)) continue;
      classes.add(c);
      queue.push(...truthyItems(source.get(c), 'P279'));
    }
    const rows = await select(`SELECT DISTINCT ?class WHERE { wd:${e.id} wdt:P31/wdt:P279* ?class }`);
    assert.deepEqual(sorted(rows.map((r) => r.class)), sorted([...classes].map((c) => WD + c)));
  });
});
