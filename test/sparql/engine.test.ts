// The embedded engine's threads when they fail (issue #34): a thread that dies is started again, empty, and the
// mirror refills it; one that keeps dying is stopped rather than restarted forever on the same data, and what
// was asked of it fails with EngineRestarted instead of hanging. The failure is injected by ending the thread
// from outside, as the kernel's OOM killer or a fault in the WebAssembly engine would.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { buildSiteTable } from '../../src/domain/sites.js';
import { EngineRestarted, SparqlEngine, writerChars } from '../../src/sparql/engine.js';
import type { Entity } from '../../src/domain/entity.js';
import { entityChange } from '../../src/sparql/entity-change.js';
import { mirrorLayout } from '../../src/sparql/mirror-triples.js';
import { EntityRdf } from '../../src/sparql/rdf-diff.js';

const setup = { vocabulary: { conceptBase: 'http://www.wikidata.org/entity/', dataBase: 'http://entia.test/wiki/Special:EntityData/' },
  sites: buildSiteTable(undefined), flavor: 'full' as const };
/** The engine's thread, which nothing outside engine.ts holds: reached here only to end it. */
const thread = (engine: SparqlEngine) => (engine as unknown as { worker: Worker }).worker;

describe('the SPARQL engine\'s threads', () => {
  it('lets the RDF writer hold a sixteenth of the engine\'s memory allowance, and never less than 96 M characters', () => {
    // The server's default allowance (3 GB) holds every entity of a store of some 4,000 Wikidata-sized items.
    assert.equal(writerChars(3 * 2 ** 30), 192 * 2 ** 20);
    assert.equal(writerChars(3584 * 2 ** 20), 224 * 2 ** 20);
    // A small machine's allowance keeps the budget the writer had before it grew with the allowance.
    assert.equal(writerChars(512 * 2 ** 20), 96 * 2 ** 20);
  });

  it('starts again after a thread dies, and stops after three deaths in a row', async () => {
    const engine = new SparqlEngine(setup);
    try {
      assert.equal(await engine.query('ASK { ?s ?p ?o }', 'json', 10_000), '{"head":{},"boolean":false}');
      const failed = once(engine, 'failed');
      for (let death = 1; death <= 3; death++) {
        const pending = engine.query('SELECT * WHERE { ?s ?p ?o }', 'json', 10_000);
        const restarted = death < 3 ? once(engine, 'restarted') : null;
        await thread(engine).terminate();
        await assert.rejects(pending, EngineRestarted);
        if (restarted) {
          await restarted;
          // The new thread answers (empty: the mirror would fill it).
          assert.match(String(await engine.query('ASK { ?s ?p ?o }', 'json', 10_000)), /"boolean":false/);
        }
      }
      const [error] = await failed;
      assert.match((error as Error).message, /exited/);
      await assert.rejects(engine.query('ASK {}', 'json', 1000));
    } finally {
      await engine.close();
    }
  });

  it('applies a batch of changes when holding one pushes another out of the writer\'s memory', async () => {
    // Eight items, written as a build; then a batch changing the first two, the first made larger. The writer's
    // memory is sized (by the same renderer it uses) to hold the eight exactly, so that holding the first's new
    // revision pushes out the one it has used least since: the second, whose change comes next in the batch.
    const item = (n: number, labels: Record<string, string>): Entity => ({ id: `Q${n}`, type: 'item', labels, descriptions: {}, aliases: {},
      statements: {}, sitelinks: {} });
    const items = Array.from({ length: 8 }, (_, i) => item(i + 1, { en: `item ${i + 1}` }));
    const larger = item(1, { en: 'item 1, changed', de: 'Ding 1', fr: 'chose 1' });
    const smaller = item(2, { en: 'two' });
    const sizes = (from: Entity, to: Entity) => {
      const state = new EntityRdf(mirrorLayout(setup.vocabulary), setup, from.id);
      state.update({ kind: 'entity', entity: from, head: { revision: 1, modified: new Date(0) } });
      const built = state.size;
      state.update({ kind: 'entity', entity: to, head: { revision: 2, modified: new Date(0) } });
      return [built, state.size];
    };
    const wd = setup.vocabulary.conceptBase;
    const [built, grown] = sizes(items[0], larger);
    assert.ok(grown > built && grown <= 2 * built, `${built} → ${grown}`);
    const engine = new SparqlEngine(setup, { writerChars: 8 * built });
    try {
      const head = (revision: number) => ({ revision, modified: 0 });
      await engine.put(items.map((e) => ({ id: e.id, json: JSON.stringify(e), head: head(1) })), true);
      const change = (from: Entity, to: Entity) => ({ id: to.id, head: head(2), changed: { base: 1, json: JSON.stringify(entityChange(from, to)) } });
      const done = await engine.put([change(items[0], larger), change(items[1], smaller)], false);
      assert.equal(done.missing, undefined);
      const labels = await engine.query(`SELECT ?l WHERE { VALUES ?e { <${wd}Q1> <${wd}Q2> } ?e <http://www.w3.org/2000/01/rdf-schema#label> ?l } ORDER BY ?l`, 'json', 10_000);
      assert.deepEqual(JSON.parse(String(labels)).results.bindings.map((b: { l: { value: string } }) => b.l.value),
        ['Ding 1', 'chose 1', 'item 1, changed', 'two']);
    } finally {
      await engine.close();
    }
  });
});
