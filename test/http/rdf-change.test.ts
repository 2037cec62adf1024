// The change feed as Wikimedia's rdf_change events (issue #33): `GET /v1/changes?format=rdf` and the SSE stream
// give each revision as the RDF it adds and removes. Applying every event from the start to an empty graph, as
// the Query Service's consumer does, yields the RDF of the store now: after labels, statements sharing value
// nodes, qualifiers, references, sitelinks, a revert, a redirect and an import; no value or reference node is
// left behind.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULTS } from '../../src/config.js';
import { startServer, until, type TestServer } from '../helpers/server.js';
import { literal, storeTriples } from '../helpers/sparql.js';
import { ENTIA } from '../helpers/entia-command.js';


let s: TestServer;
let dir: string;
before(async () => {
  s = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'entia-rdf-change-'));
});
after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every event of the feed, page by page. */
async function allEvents(): Promise<any[]> {
  const events: any[] = [];
  let since = '0';
  for (;;) {
    const res = await s.get(`/v1/changes?format=rdf&limit=200&since=${since}`);
    assert.equal(res.status, 200, res.text);
    events.push(...res.body.changes);
    if (res.body.changes.length < 200) return events;
    since = res.body.next;
  }
}

/** An N-Triples line as the helpers compare triples: `s p o`, literals in one spelling. */
function triple(line: string): string {
  // Data nodes as storeTriples writes them (the engine-side base, before the test server learnt its port).
  const m = /^(<[^>]*>) (<[^>]*>) (.*) \.$/.exec(line.replaceAll(`${s.url}/wiki/`, `${DEFAULTS.publicUrl}/wiki/`))!;
  return `${m[1]} ${m[2]} ${literal(m[3])}`;
}
const lines = (data?: { data: string; mime_type: string }) => {
  if (!data) return [];
  assert.equal(data.mime_type, 'text/turtle');
  return data.data.trim().split('\n');
};

/**
 * What a consumer holds after the events: added and linked triples in, deleted ones out, and an unlinked node's
 * triples out once nothing else points at it (a reference's values are free once the reference goes).
 */
function apply(events: any[]): Set<string> {
  const graph = new Set<string>();
  for (const e of events) {
    for (const l of lines(e.rdf_deleted_data)) graph.delete(triple(l));
    for (const l of [...lines(e.rdf_added_data), ...lines(e.rdf_linked_shared_data)]) graph.add(triple(l));
    const unlinked = new Set(lines(e.rdf_unlinked_shared_data).map((l) => l.slice(0, l.indexOf('>') + 1)));
    for (let changed = true; changed;) {
      changed = false;
      for (const node of unlinked) {
        if ([...graph].some((t) => t.endsWith(` ${node}`) && !t.startsWith(`${node} `))) continue;
        for (const t of [...graph]) if (t.startsWith(`${node} `)) graph.delete(t);
        unlinked.delete(node);
        changed = true;
      }
    }
  }
  return graph;
}

function entia(args: string[]): Promise<void> {
  return new Promise((done, fail) => execFile(process.execPath, [...ENTIA, ...args], { env: { ...process.env, ENTIA_DB: s.dbPath } },
    (error, _stdout, stderr) => (error ? fail(new Error(stderr)) : done())));
}

describe('the change feed as rdf_change events', () => {
  it('rebuilds the store\'s RDF from every event after edits, a revert, a redirect and an import, with nothing left behind', async () => {
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'quantity', labels: { en: 'height' } } })).body.id;
    const itemProperty = (await s.post('/v1/entities/properties', { property: { data_type: 'wikibase-item', labels: { en: 'part of' } } })).body.id;
    const quantity = (amount: string) => ({ type: 'value', content: { amount, unit: '1' } });
    const a = (await s.post('/v1/entities/items', { item: { labels: { en: 'a' }, aliases: { en: ['first'] } } })).body.id;
    const b = (await s.post('/v1/entities/items', { item: { labels: { en: 'b' } } })).body.id;
    await s.put(`/v1/entities/items/${a}/labels/en`, { label: 'a, relabelled' });
    await s.put(`/v1/entities/items/${a}/descriptions/fr`, { description: 'une chose' });
    const onA = (await s.post(`/v1/entities/items/${a}/statements`, { statement: { property: { id: property }, value: quantity('+5') } })).body;
    const onB = (await s.post(`/v1/entities/items/${b}/statements`, { statement: { property: { id: property }, value: quantity('+5'),
      qualifiers: [{ property: { id: itemProperty }, value: { type: 'value', content: a } }],
      references: [{ parts: [{ property: { id: property }, value: quantity('+7') }] }] } })).body;
    await s.put(`/v1/statements/${onA.id}`, { statement: { property: { id: property }, value: quantity('+6'), rank: 'preferred' } });
    await s.delete(`/v1/statements/${onB.id}`);
    // Two statements holding one value share its node and their truthy triple: removing one keeps both.
    const twins = [];
    for (let i = 0; i < 2; i++) twins.push((await s.post(`/v1/entities/items/${b}/statements`, { statement: { property: { id: property }, value: quantity('+8') } })).body);
    await s.delete(`/v1/statements/${twins[0].id}`);
    await s.patch(`/v1/entities/items/${a}/sitelinks`, { patch: [{ op: 'add', path: '/enwiki', value: { title: 'Change test' } }] });
    const { revisions } = (await s.get(`/v1/entities/items/${a}/history?limit=500`)).body;
    assert.equal((await s.post(`/v1/entities/items/${a}/revert`, { revision: revisions.at(-2).id })).status, 200);
    const c = (await s.post('/v1/entities/items', { item: { labels: { en: 'c' }, statements: { [property]: [{ property: { id: property }, value: quantity('+99') }] } } })).body.id;
    await s.store.redirectEntity(c, a, { user: 'test', comment: null, tags: [], bot: false });
    const dump = join(dir, 'import.jsonl');
    writeFileSync(dump, `${JSON.stringify({ type: 'item', id: 'Q900', labels: { en: { language: 'en', value: 'imported' } }, descriptions: {}, aliases: {},
      claims: { [property]: [{ mainsnak: { snaktype: 'value', property, datatype: 'quantity', datavalue: { type: 'quantity', value: { amount: '+6', unit: '1' } } },
        type: 'statement', rank: 'normal', id: 'Q900$11111111-2222-3333-4444-555555555555' }] }, sitelinks: {}, lastrevid: 7 })}\n`);
    await entia(['import', dump, '--batch-size', '1']);

    // On PostgreSQL another test file's open transaction can hold the newest changes back for a moment (ADR 0006).
    const events = await until(allEvents, (all) => all.some((e) => e.entity_id === 'Q900'));
    const ids = await s.store.entityIds(null, 1000);
    const redirects = Object.fromEntries((await s.store.redirects(null, 1000)).map((r) => [r.id, r.target]));
    const expected = await storeTriples(s, ids, redirects);
    const rebuilt = apply(events);
    assert.deepEqual({ stale: [...rebuilt].filter((t) => !expected.has(t)), missing: [...expected].filter((t) => !rebuilt.has(t)) },
      { stale: [], missing: [] });
    const values = [...rebuilt].filter((t) => t.includes('<http://wikiba.se/ontology#quantityAmount>')).map((t) => t.split(' ')[2]);
    assert.deepEqual(values.sort(), ['"6"^^<http://www.w3.org/2001/XMLSchema#decimal>', '"8"^^<http://www.w3.org/2001/XMLSchema#decimal>'],
      '+5, +7 and +99 are gone; +6 stays, used twice; +8 stays, used by the twin left');
    const twinLeft = events.filter((e) => e.entity_id === b).at(-1);
    assert.equal(twinLeft.rdf_unlinked_shared_data, undefined, 'the value node is still used by the other twin');
    assert.ok(!lines(twinLeft.rdf_deleted_data).some((l) => l.includes('/prop/direct/')), 'the truthy triple is still stated by the other twin');

    // The events themselves, as the schema has them.
    const first = events.find((e) => e.entity_id === a);
    assert.equal(first.$schema, '/mediawiki/wikibase/entity/rdf_change/2.0.0');
    assert.equal(first.operation, 'import');
    assert.equal(first.meta.stream, 'rdf-streaming-updater.mutation');
    assert.deepEqual([first.sequence, first.sequence_length], [0, 1]);
    assert.equal(typeof first.rev_id, 'number');
    const diffs = events.filter((e) => e.entity_id === a && e.operation === 'diff');
    assert.ok(diffs.length >= 5);
    const relabel = diffs[0];
    assert.deepEqual(lines(relabel.rdf_added_data).filter((l) => l.includes('rdf-schema#label')).map(triple),
      [`<http://www.wikidata.org/entity/${a}> <http://www.w3.org/2000/01/rdf-schema#label> "a, relabelled"@en`]);
    assert.ok(lines(relabel.rdf_deleted_data).map(triple).includes(`<http://www.wikidata.org/entity/${a}> <http://www.w3.org/2000/01/rdf-schema#label> "a"@en`));
    const redirect = events.find((e) => e.entity_id === c && lines(e.rdf_added_data).some((l) => l.includes('owl#sameAs')))!;
    assert.ok(redirect.rdf_unlinked_shared_data, 'the redirected item stops using its value node');
  });

  it('stops a page at 8 MB of RDF, with next after its last event, and loses nothing over the pages', async () => {
    const own = await startServer();
    try {
      const p = (await own.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id;
      // On PostgreSQL a change is read once every transaction older than it has ended (ADR 0006), and other test
      // files share the server: wait (bounded) until the property's creation is the newest change read.
      let start: string | undefined;
      for (const deadline = Date.now() + 10_000; !start && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        const newest = (await own.get('/v1/changes?limit=1&order=newest')).body.changes[0];
        if (newest?.entity === p) start = newest.cursor;
      }
      assert.ok(start, 'the property\'s creation reached the feed');
      // 40 creations of some 300 KB of RDF each: 12 MB, more than one page holds.
      const statements = { [p]: Array.from({ length: 300 }, (_, k) => ({ property: { id: p }, value: { type: 'value', content: `a value of some length, number ${k}` } })) };
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push((await own.post('/v1/entities/items', { item: { labels: { en: `large ${i}` }, statements } })).body.id);
      const first = await own.get(`/v1/changes?format=rdf&limit=500&since=${start}`);
      assert.equal(first.status, 200);
      const pageSize = first.text.length;
      assert.ok(first.body.changes.length > 1 && first.body.changes.length < 40, `${first.body.changes.length} events in the first page`);
      assert.ok(pageSize < 8 * 2 ** 20 + 600_000, `the first page is ${pageSize} characters`);
      // `next` is the cursor of the page's last change (the JSON feed names the cursors).
      const cursors = (await own.get(`/v1/changes?limit=500&since=${start}`)).body.changes.map((c: any) => c.cursor);
      assert.equal(first.body.next, cursors[first.body.changes.length - 1]);
      const seen = [...first.body.changes];
      for (let since = first.body.next; ;) {
        const page = await own.get(`/v1/changes?format=rdf&limit=500&since=${since}`);
        if (page.body.changes.length === 0) break;
        seen.push(...page.body.changes);
        since = page.body.next;
      }
      assert.deepEqual(seen.map((e) => e.entity_id), ids);
    } finally {
      await own.close();
    }
  });

  it('streams the same events over SSE, and refuses an unknown format', async () => {
    const [expected] = (await s.get('/v1/changes?format=rdf&limit=1')).body.changes;
    const controller = new AbortController();
    const res = await fetch(`${s.url}/v1/changes/stream?format=rdf&since=0`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    let text = '';
    while (!/\n\n(?=id:)[\s\S]*\n\n/.test(text.slice(text.indexOf('id:')))) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const frame = text.slice(text.indexOf('id:'));
    assert.match(frame, /^id: \S+\nevent: rdf_change\ndata: /);
    assert.deepEqual(JSON.parse(/\ndata: (.*)\n/.exec(frame)![1]), expected);
    const refused = await s.get('/v1/changes?format=xml');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'invalid-query-parameter');
  });
});
