// /sparql over real HTTP on the test backend (issue #34): the SPARQL 1.1 Protocol (GET, POST form, POST query
// body; JSON, XML, CSV and TSV results; Turtle, N-Triples and JSON-LD graphs), refusals as JSON errors, and the
// mirror in step with the store: after every kind of edit the engine holds exactly the union of every entity's
// RDF (as Special:EntityData writes it), with no stale triple and no orphaned value or reference node.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { call, startServerProcess } from '../helpers/process.js';
import { createTestDb } from '../helpers/store.js';
import { assertMirrorInStep, waitForSparql } from '../helpers/sparql.js';

let s: TestServer;
let property: string;
let itemProperty: string;
before(async () => {
  s = await startServer({ config: { sparql: 'full' } });
  await waitForSparql(s);
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'quantity', labels: { en: 'height' } } })).body.id;
  itemProperty = (await s.post('/v1/entities/properties', { property: { data_type: 'wikibase-item', labels: { en: 'instance of' } } })).body.id;
});
after(async () => { await s.close(); });

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function sparql(query: string, init: { accept?: string; extra?: string } = {}) {
  const res = await fetch(`${s.url}/sparql?after=latest&query=${encodeURIComponent(query)}${init.extra ?? ''}`, { headers: init.accept ? { accept: init.accept } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', cursor: res.headers.get('x-entia-sparql-cursor'), text: await res.text() };
}

describe('the SPARQL protocol', () => {
  it('answers GET, a POSTed form and a POSTed query, in the result format asked for', async () => {
    const query = 'SELECT ?label WHERE { ?p rdfs:label ?label } ORDER BY ?label';
    const get = await sparql(query);
    assert.equal(get.status, 200);
    assert.match(get.type, /^application\/sparql-results\+json/);
    assert.deepEqual(JSON.parse(get.text).results.bindings.map((b: any) => b.label.value), ['height', 'instance of']);
    assert.match(get.cursor!, /^[0-9.]+$/);
    const posted = await fetch(`${s.url}/sparql`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ query }) });
    assert.deepEqual(JSON.parse(await posted.text()), JSON.parse(get.text));
    const body = await fetch(`${s.url}/bigdata/namespace/wdq/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: query });
    assert.deepEqual(JSON.parse(await body.text()), JSON.parse(get.text));

    const csv = await sparql(query, { accept: 'text/csv' });
    assert.match(csv.type, /^text\/csv/);
    assert.equal(csv.text.replace(/\r/g, ''), 'label\nheight\ninstance of\n');
    const tsv = await sparql(query, { extra: '&format=tsv' });
    assert.equal(tsv.text.replace(/\r/g, ''), '?label\n"height"@en\n"instance of"@en\n');
    const xml = await sparql(query, { accept: 'application/sparql-results+xml' });
    assert.match(xml.type, /^application\/sparql-results\+xml/);
    assert.match(xml.text, /<literal xml:lang="en">instance of<\/literal>/);
    const ask = await sparql(`ASK { wd:${property} wikibase:propertyType wikibase:Quantity }`);
    assert.equal(JSON.parse(ask.text).boolean, true);
  });

  it('writes CONSTRUCT and DESCRIBE results as Turtle, N-Triples or JSON-LD', async () => {
    const query = `CONSTRUCT { wd:${property} rdfs:label ?l } WHERE { wd:${property} rdfs:label ?l }`;
    const turtle = await sparql(query);
    assert.match(turtle.type, /^text\/turtle/);
    assert.match(turtle.text, /"height"@en/);
    const nt = await sparql(query, { accept: 'application/n-triples' });
    assert.equal(nt.text.trim(), `<http://www.wikidata.org/entity/${property}> <http://www.w3.org/2000/01/rdf-schema#label> "height"@en .`);
    const jsonld = await sparql(query, { accept: 'application/ld+json' });
    assert.equal(JSON.parse(jsonld.text)[0]['@id'], `http://www.wikidata.org/entity/${property}`);
    const described = await sparql(`DESCRIBE wd:${property}`, { extra: '&format=ntriples' });
    assert.ok(described.text.includes('"height"@en'));
  });

  it('refuses what it cannot run with a JSON error, never a stack trace', async () => {
    const cases: [Promise<Response>, number, string][] = [
      [fetch(`${s.url}/sparql?query=${encodeURIComponent('SELEKT * WHERE {}')}`), 400, 'invalid-sparql-query'],
      [fetch(`${s.url}/sparql?query=${encodeURIComponent('INSERT DATA { <a:b> <a:c> <a:d> }')}`), 403, 'sparql-update-refused'],
      [fetch(`${s.url}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: 'CLEAR ALL' }), 403, 'sparql-update-refused'],
      [fetch(`${s.url}/sparql`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ update: 'CLEAR ALL' }) }), 403, 'sparql-update-refused'],
      [fetch(`${s.url}/sparql`), 400, 'missing-field'],
      [fetch(`${s.url}/sparql?query=ASK%7B%7D&format=pdf`), 400, 'invalid-query-parameter'],
      [fetch(`${s.url}/sparql?query=ASK%7B%7D&after=yesterday`), 400, 'invalid-query-parameter'],
      [fetch(`${s.url}/sparql?query=ASK%7B%7D&uselang=%22`), 400, 'invalid-query-parameter'],
      [fetch(`${s.url}/sparql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 415, 'rest-unsupported-content-type'],
      [fetch(`${s.url}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: 'x'.repeat(2 << 20) }), 413, 'request-body-too-large'],
      [fetch(`${s.url}/sparql?query=${encodeURIComponent('SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }')}`), 400, 'invalid-sparql-query'],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      const body = await res.json() as any;
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(body.code, code);
    }
  });

  it('says where a query stops being SPARQL, and at what', async () => {
    const reason = async (query: string) => {
      const res = await sparql(query);
      assert.equal(res.status, 400, res.text);
      return JSON.parse(res.text).context.reason as string;
    };
    assert.equal(await reason('SELECT * WHERE { ?s ?p ?o'), 'line 1, column 24: the query ends early near "...T * WHERE { ?s ?p ?o"');
    assert.equal(await reason('SELECT ?s\nWHERE { ?s ?p ?o . FILTER(?o > ) }'), 'line 2, column 30: unexpected ")" near "...?p ?o . FILTER(?o > ) }"');
    assert.equal(await reason('SELECT * WHERE { ?s nope:x ?o }'), 'Unknown prefix: nope');
  });

  it('reads the Query Service\'s prefixes without declarations, and a query\'s own declarations win', async () => {
    const own = await sparql('PREFIX wd: <http://example.org/> SELECT ?x WHERE { BIND(wd:Q1 AS ?x) }');
    assert.equal(JSON.parse(own.text).results.bindings[0].x.value, 'http://example.org/Q1');
    const predeclared = await sparql('SELECT ?x WHERE { BIND(wdt:P31 AS ?x) }');
    assert.equal(JSON.parse(predeclared.text).results.bindings[0].x.value, 'http://www.wikidata.org/prop/direct/P31');
  });
});

describe('the Query Service\'s extensions', () => {
  it('ignores Blazegraph\'s query hints and answers wikibase:isSomeValue() as the Query Service does', async () => {
    const item = (await s.post('/v1/entities/items', { item: { statements: { [itemProperty]: [
      { property: { id: itemProperty }, value: { type: 'somevalue' } }] } } })).body.id;
    const query = `SELECT ?statement WHERE {
      hint:Query hint:optimizer "None" .
      wd:${item} p:${itemProperty} ?statement . ?statement ps:${itemProperty} ?value .
      FILTER(wikibase:isSomeValue(?value))
    }`;
    const rows = JSON.parse((await sparql(query)).text).results.bindings;
    assert.equal(rows.length, 1);
    assert.match(rows[0].statement.value, new RegExp(`/entity/statement/${item}-`));
    // A known value is not some value.
    await s.post(`/v1/entities/items/${item}/statements`, { statement: { property: { id: itemProperty }, value: { type: 'value', content: item } } });
    assert.equal(JSON.parse((await sparql(query)).text).results.bindings.length, 1);
  });
});

describe('the mirror after every kind of edit', () => {
  it('holds exactly the store\'s RDF: labels, aliases, statements, ranks, qualifiers, references, sitelinks, redirects, reverts', async () => {
    const quantity = (amount: string) => ({ type: 'value', content: { amount, unit: '1' } });
    const a = (await s.post('/v1/entities/items', { item: { labels: { en: 'a' } } })).body.id;
    const b = (await s.post('/v1/entities/items', { item: { labels: { en: 'b' }, aliases: { en: ['bee'] } } })).body.id;
    await assertMirrorInStep(s);

    await s.put(`/v1/entities/items/${a}/labels/en`, { label: 'a, relabelled' });
    await s.post(`/v1/entities/items/${a}/aliases/en`, { aliases: ['first'] });
    await s.put(`/v1/entities/items/${a}/descriptions/fr`, { description: 'une chose' });
    await assertMirrorInStep(s);

    // One value node shared by two items: it stays while either uses it, and goes with the last.
    const onA = (await s.post(`/v1/entities/items/${a}/statements`, { statement: { property: { id: property }, value: quantity('+5') } })).body;
    const onB = (await s.post(`/v1/entities/items/${b}/statements`, { statement: { property: { id: property }, value: quantity('+5'),
      qualifiers: [{ property: { id: itemProperty }, value: { type: 'value', content: a } }],
      references: [{ parts: [{ property: { id: property }, value: quantity('+7') }] }] } })).body;
    await assertMirrorInStep(s);
    await s.put(`/v1/statements/${onA.id}`, { statement: { property: { id: property }, value: quantity('+6'), rank: 'preferred' } });
    await assertMirrorInStep(s);
    await s.delete(`/v1/statements/${onB.id}`);
    await assertMirrorInStep(s);
    const valueNodes = await sparql('SELECT ?v WHERE { ?v wikibase:quantityAmount ?amount }');
    assert.deepEqual(JSON.parse(valueNodes.text).results.bindings.length, 1, 'only +6 has a value node now');

    await s.post(`/v1/entities/items/${b}/statements`, { statement: { property: { id: itemProperty }, value: { type: 'somevalue' },
      references: [{ parts: [{ property: { id: itemProperty }, value: { type: 'somevalue' } }] }] } });
    await s.patch(`/v1/entities/items/${a}/sitelinks`, { patch: [{ op: 'add', path: '/enwiki', value: { title: 'Mirror test' } }] });
    await assertMirrorInStep(s);
    await s.delete(`/v1/entities/items/${a}/sitelinks/enwiki`);
    await assertMirrorInStep(s);

    // A revert restores an older revision; a redirect (as `entia redirect` and merges write it) leaves owl:sameAs only.
    const { revisions } = (await s.get(`/v1/entities/items/${a}/history?limit=500`)).body;
    const reverted = await s.post(`/v1/entities/items/${a}/revert`, { revision: revisions.at(-1).id });
    assert.equal(reverted.status, 200, reverted.text);
    await assertMirrorInStep(s);
    const c = (await s.post('/v1/entities/items', { item: { labels: { en: 'c' }, statements: { [property]: [{ property: { id: property }, value: quantity('+99') }] } } })).body.id;
    await assertMirrorInStep(s);
    await s.store.redirectEntity(c, a, { user: 'test', comment: null, tags: [], bot: false });
    await assertMirrorInStep(s);
  });

  it('removes what an edit replaced whatever its literals hold: quotes, backslashes, characters beyond ASCII', async () => {
    // The engine deletes an edit's old triples with SPARQL (DELETE DATA), where a literal's escapes are read
    // again: each of these must find the triple it names.
    const text = (n: number) => `"quoted" back\\slash ${n} — ünïcødé 🦉 汉字`;
    const strings = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'a string' } } })).body.id;
    const item = (await s.post('/v1/entities/items', { item: { labels: { en: text(1), 'zh-hans': text(2) }, aliases: { de: [text(3)] },
      statements: { [strings]: [{ property: { id: strings }, value: { type: 'value', content: text(4) } }] } } })).body;
    await assertMirrorInStep(s);
    await s.put(`/v1/entities/items/${item.id}/labels/en`, { label: text(5) });
    await s.delete(`/v1/entities/items/${item.id}/labels/zh-hans`);
    await s.put(`/v1/entities/items/${item.id}/aliases/de`, { aliases: [text(6)] });
    const [statement] = item.statements[strings];
    await s.put(`/v1/statements/${statement.id}`, { statement: { property: { id: strings }, value: { type: 'value', content: text(7) } } });
    await assertMirrorInStep(s);
  });
});

describe('the engine\'s bounds and lifetime', () => {
  const query = (server: TestServer, text: string) => fetch(`${server.url}/sparql?query=${encodeURIComponent(text)}`);
  /** A query of `depth` nested groups: 4 KB at 1,000, which sparqljs needs seconds to read (it grows faster than the text). */
  const nested = (server: TestServer, depth: number) => fetch(`${server.url}/sparql`, { method: 'POST',
    headers: { 'content-type': 'application/sparql-query' }, body: `SELECT * WHERE { ${'{ '.repeat(depth)}?s ?p ?o${' }'.repeat(depth)} } LIMIT 1` });

  it('reads queries off the event loop: one nested too deeply is refused, and the server answers meanwhile', async () => {
    const started = Date.now();
    const pending = nested(s, 2000);
    await new Promise((r) => setTimeout(r, 300));
    const read = await s.get(`/v1/entities/properties/${property}`);
    assert.equal(read.status, 200);
    assert.ok(Date.now() - started < 1500, `a read answered after ${Date.now() - started} ms while the query was read`);
    const res = await pending;
    const body = await res.json() as any;
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(body.code, 'invalid-sparql-query');
    assert.match(body.context.reason, /^the query is nested too deeply to be read/);
    // Refused before the engine: it is not restarted (a trap would have made it so, and 422).
    assert.equal((await query(s, 'ASK { }')).status, 200);
  });

  it('bounds reading a query by ENTIA_SPARQL_TIMEOUT too, and reads the next one as before', async () => {
    const quick = await startServer({ config: { sparql: 'full', sparqlTimeoutSeconds: 1 } });
    try {
      await waitForSparql(quick);
      const started = Date.now();
      const res = await nested(quick, 3000);
      const body = await res.json() as any;
      assert.equal(res.status, 503, JSON.stringify(body));
      assert.deepEqual([body.code, body.context], ['query-timeout', { limit: 1 }]);
      assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
      const next = await query(quick, 'ASK { }');
      assert.equal(next.status, 200, await next.text());
    } finally {
      await quick.close();
    }
  });

  it('ends a query past ENTIA_SPARQL_TIMEOUT with a clear error, answering everything else meanwhile, and comes back', async () => {
    const slow = await startServer({ config: { sparql: 'full', sparqlTimeoutSeconds: 1, sparqlQueue: 1 } });
    try {
      for (let i = 0; i < 20; i++) await slow.post('/v1/entities/items', { item: { labels: { en: `item ${i}` }, aliases: { en: [`a${i}`, `b${i}`] } } });
      await waitForSparql(slow);
      await (await fetch(`${slow.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
      const started = Date.now();
      const pending = query(slow, 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }');
      await new Promise((r) => setTimeout(r, 200));
      // The server's event loop is free: reads answer at once while the engine works.
      const read = await slow.get('/v1/entities/items/Q1');
      assert.equal(read.status, 200);
      assert.ok(Date.now() - started < 900, `a read answered in ${Date.now() - started} ms while the query ran`);
      const busy = await query(slow, 'ASK {}');
      assert.equal(busy.status, 503);
      assert.equal(busy.headers.get('retry-after'), '1');
      assert.equal(((await busy.json()) as any).code, 'sparql-busy');
      const res = await pending;
      const body = await res.json() as any;
      assert.equal(res.status, 503);
      assert.deepEqual([body.code, body.context], ['query-timeout', { limit: 1 }]);
      // The engine starts again and is filled again; then it answers as before.
      await waitForSparql(slow);
      const count = await (await fetch(`${slow.url}/sparql?after=latest&query=${encodeURIComponent('SELECT (COUNT(?x) AS ?n) WHERE { ?x rdfs:label ?l }')}`)).json() as any;
      assert.equal(count.results.bindings[0].n.value, '20');
    } finally {
      await slow.close();
    }
  });

  it('answers a query that exhausts the engine\'s memory with a clear error, and gives the memory back', async () => {
    const heavy = await startServer({ config: { sparql: 'full' } });
    try {
      for (let i = 0; i < 5; i++) await heavy.post('/v1/entities/items', { item: { labels: { en: `item number ${i} of this test` } } });
      await waitForSparql(heavy);
      await (await fetch(`${heavy.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
      // Each REPLACE puts the whole text at every position of itself: 27 characters, then 756, 572,000, and
      // 327 GB, past the 4 GB WebAssembly can address: Oxigraph's allocation fails, and Rust aborts (a trap).
      const bomb = `SELECT (STRLEN(?x3) AS ?n) WHERE { wd:Q1 rdfs:label ?l BIND(STR(?l) AS ?x0) BIND(REPLACE(?x0, "", ?x0) AS ?x1)
        BIND(REPLACE(?x1, "", ?x1) AS ?x2) BIND(REPLACE(?x2, "", ?x2) AS ?x3) }`;
      const res = await query(heavy, bomb);
      const body = await res.json() as any;
      assert.equal(res.status, 422, JSON.stringify(body).slice(0, 500));
      assert.equal(body.code, 'query-exhausted-engine');
      // The thread that trapped is replaced (WebAssembly never shrinks its memory: reused, it would hold the
      // gigabytes it reached), the engine is filled again, and it answers as before.
      await waitForSparql(heavy);
      const count = await (await fetch(`${heavy.url}/sparql?after=latest&query=${encodeURIComponent('SELECT (COUNT(?x) AS ?n) WHERE { ?x rdfs:label ?l }')}`)).json() as any;
      assert.equal(count.results.bindings[0].n.value, '5');
      assert.ok(process.memoryUsage().rss < 2 ** 31, `the process holds ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB after the engine restarted`);
    } finally {
      await heavy.close();
    }
  });

  it('stops on SIGTERM while a query runs, telling its client so, instead of waiting for the query', async () => {
    const db = await createTestDb();
    const server = await startServerProcess({ ENTIA_DB: db.location, ENTIA_SPARQL: 'full', ENTIA_SPARQL_SNAPSHOT: 'off' });
    try {
      for (let i = 0; i < 20; i++) await call(server.url, 'POST', '/v1/entities/items', { item: { labels: { en: `item ${i}` }, aliases: { en: [`a${i}`, `b${i}`] } } });
      const deadline = Date.now() + 60_000;
      while ((await call(server.url, 'GET', '/sparql?after=latest&query=ASK%7B%7D')).status !== 200) {
        assert.ok(Date.now() < deadline, 'the engine is filled within a minute');
        await new Promise((r) => setTimeout(r, 100));
      }
      // Some 10^13 rows to count: minutes of the engine's time, under the default limit of 60 s a query.
      const running = call(server.url, 'GET', `/sparql?query=${encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }')}`);
      await new Promise((r) => setTimeout(r, 500));
      const started = Date.now();
      const code = await server.stop();
      assert.equal(code, 0, server.output());
      assert.ok(Date.now() - started < 10_000, `stopped after ${Date.now() - started} ms`);
      const answer = await running;
      assert.equal(answer.status, 503, answer.text);
      assert.deepEqual([answer.body.code, answer.body.context], ['sparql-unavailable', { reason: 'the server is stopping' }]);
    } finally {
      await server.stop();
      await db.drop();
    }
  });

  it('refuses to build past ENTIA_SPARQL_MEMORY, saying what to do instead; off means off', async () => {
    const first = await startServer();
    await first.post('/v1/entities/items', { item: { labels: { en: 'one' } } });
    await first.close({ keepFiles: true });
    const small = await startServer({ dbPath: first.dbPath, config: { sparql: 'full', sparqlMemoryBytes: 1000 } });
    try {
      let body: any;
      for (let i = 0; i < 50; i++) {
        body = await (await query(small, 'ASK {}')).json();
        if (!/being filled/.test(body.message)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(body.code, 'sparql-unavailable');
      assert.match(body.context.reason, /ENTIA_SPARQL_MEMORY/);
      assert.match(body.context.reason, /ENTIA_SPARQL=truthy/);
    } finally {
      await small.close({ keepFiles: true });
    }
    const off = await startServer({ dbPath: first.dbPath, config: { sparql: 'off' } });
    try {
      const res = await query(off, 'ASK {}');
      assert.equal(res.status, 503);
      assert.match(((await res.json()) as any).message, /ENTIA_SPARQL is off/);
    } finally {
      await off.close();
    }
  });

  it('builds the redirects the store already holds as owl:sameAs', async () => {
    const first = await startServer();
    const target = (await first.post('/v1/entities/items', { item: { labels: { en: 'target' } } })).body.id;
    const source = (await first.post('/v1/entities/items', { item: { labels: { en: 'merged away' } } })).body.id;
    await first.store.redirectEntity(source, target, { user: 'test', comment: null, tags: [], bot: false });
    await first.close({ keepFiles: true });
    const built = await startServer({ dbPath: first.dbPath, config: { sparql: 'full' } });
    try {
      const res = await fetch(`${built.url}/sparql?after=latest&format=csv&query=${encodeURIComponent(`SELECT ?p ?o WHERE { wd:${source} ?p ?o }`)}`);
      assert.equal((await res.text()).trim(), `p,o\r\nhttp://www.w3.org/2002/07/owl#sameAs,http://www.wikidata.org/entity/${target}`);
    } finally {
      await built.close();
    }
  });

  it('patches what a build wrote: the first edits after it leave exactly the store\'s RDF', async () => {
    // Entities the engine learns of from a build, not from the feed: the writer holds what it built (ADR 0016),
    // so their first edits are patches against it.
    const first = await startServer();
    const p = (await first.post('/v1/entities/properties', { property: { data_type: 'quantity' } })).body.id;
    const amount = (n: string) => ({ property: { id: p }, value: { type: 'value', content: { amount: n, unit: '1' } } });
    const twin = (await first.post('/v1/entities/items', { item: { labels: { en: 'twin' }, statements: { [p]: [amount('+3')] } } })).body;
    const other = (await first.post('/v1/entities/items', { item: { labels: { en: 'other', de: 'andere' }, aliases: { en: ['o'] },
      statements: { [p]: [amount('+3'), amount('+4')] } } })).body;
    await first.close({ keepFiles: true });
    const built = await startServer({ dbPath: first.dbPath, config: { sparql: 'full' } });
    try {
      await waitForSparql(built);
      await assertMirrorInStep(built);
      await built.put(`/v1/entities/items/${other.id}/labels/en`, { label: 'other, relabelled' });
      await built.delete(`/v1/statements/${other.statements[p][0].id}`);
      await built.put(`/v1/statements/${twin.statements[p][0].id}`, { statement: { ...amount('+5'), rank: 'preferred' } });
      await built.delete(`/v1/entities/items/${other.id}/aliases/en`);
      await assertMirrorInStep(built);
    } finally {
      await built.close();
    }
  });

  it('holds only best-rank values, terms and sitelinks with ENTIA_SPARQL=truthy', async () => {
    const truthy = await startServer({ config: { sparql: 'truthy' } });
    try {
      const p = (await truthy.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id;
      const q = (await truthy.post('/v1/entities/items', { item: { labels: { en: 'x' }, statements: { [p]: [
        { property: { id: p }, value: { type: 'value', content: 'kept' }, rank: 'preferred' },
        { property: { id: p }, value: { type: 'value', content: 'dropped' } }] } } })).body.id;
      const res = await fetch(`${truthy.url}/sparql?after=latest&format=csv&query=${encodeURIComponent(`SELECT ?p ?o WHERE { wd:${q} ?p ?o } ORDER BY ?p ?o`)}`);
      const lines = (await res.text()).trim().split(/\r?\n/);
      assert.ok(lines.includes(`http://www.wikidata.org/prop/direct/${p},kept`), lines.join('\n'));
      assert.ok(!lines.some((l) => l.includes('dropped') || l.includes('/entity/statement/')), lines.join('\n'));
    } finally {
      await truthy.close();
    }
  });

  it('restarts from its snapshot and follows the feed from the snapshot\'s cursor', async () => {
    const snapshot = `${tmpdir()}/entia-sparql-${process.pid}-${Date.now()}.nq`;
    const first = await startServer({ config: { sparql: 'full', sparqlSnapshot: snapshot } });
    const p = (await first.post('/v1/entities/properties', { property: { data_type: 'quantity' } })).body.id;
    const id = (await first.post('/v1/entities/items', { item: { labels: { en: 'before the restart' } } })).body.id;
    const valued = (await first.post('/v1/entities/items', { item: { labels: { en: 'not edited meanwhile' },
      statements: { [p]: [{ property: { id: p }, value: { type: 'value', content: { amount: '+12', unit: '1' } } }] } } })).body.id;
    await waitForSparql(first);
    await (await fetch(`${first.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
    await first.close({ keepFiles: true });
    assert.ok(existsSync(snapshot), 'the snapshot is written on shutdown');
    // An edit while no engine runs: the next start applies it after loading the snapshot.
    const between = await startServer({ dbPath: first.dbPath, config: { sparql: 'off' } });
    await between.put(`/v1/entities/items/${id}/labels/en`, { label: 'while the engine was down' });
    await between.close({ keepFiles: true });
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => { logged.push(args.join(' ')); };
    const second = await startServer({ dbPath: first.dbPath, config: { sparql: 'full', sparqlSnapshot: snapshot } });
    try {
      await waitForSparql(second);
      console.error = original;
      assert.ok(logged.some((l) => l.includes(`loaded`) && l.includes(snapshot)), logged.join('\n'));
      assert.ok(!logged.some((l) => l.includes('built from')), logged.join('\n'));
      const res = await fetch(`${second.url}/sparql?after=latest&format=csv&query=${encodeURIComponent(`SELECT ?l WHERE { wd:${id} rdfs:label ?l }`)}`);
      assert.equal((await res.text()).trim().split(/\r?\n/)[1], 'while the engine was down');
      // What the loaded engine knew of each entity's value nodes came back with it: an edit still collects them.
      const valueNodes = async () => ((await (await fetch(`${second.url}/sparql?after=latest&query=${encodeURIComponent(
        'SELECT ?v WHERE { ?v wikibase:quantityAmount ?a }')}`)).json()) as any).results.bindings.length;
      assert.equal(await valueNodes(), 1);
      await second.patch(`/v1/entities/items/${valued}`, { patch: [{ op: 'remove', path: '/statements' }] });
      assert.equal(await valueNodes(), 0);
      const metrics = await (await fetch(`${second.url}/metrics`)).text();
      assert.match(metrics, /^entia_sparql_ready 1$/m);
      assert.match(metrics, /^entia_sparql_triples [1-9]/m);
    } finally {
      console.error = original;
      await second.close();
      rmSync(snapshot, { force: true });
    }
  });

  it('writes no snapshot when it has no place for one (PostgreSQL), and leaves no file behind on shutdown', async () => {
    const junk = () => readdirSync(process.cwd()).filter((name) => name.startsWith('null'));
    const before = junk();
    const server = await startServer({ config: { sparql: 'full', sparqlSnapshot: null } });
    await waitForSparql(server);
    await server.post('/v1/entities/items', { item: { labels: { en: 'edited before shutdown' } } });
    await fetch(`${server.url}/sparql?after=latest&query=ASK%7B%7D`);
    await server.close();
    assert.deepEqual(junk(), before);
  });
});
