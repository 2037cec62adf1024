// The embedded engine's threads when they fail (issue #34): a thread that dies is started again, empty, and the
// mirror refills it; one that keeps dying is stopped rather than restarted forever on the same data, and what
// was asked of it fails with EngineRestarted instead of hanging. The failure is injected by ending the thread
// from outside, as the kernel's OOM killer or a fault in the WebAssembly engine would.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { buildSiteTable } from '../../src/domain/sites.js';
import { EngineRestarted, SparqlEngine } from '../../src/sparql/engine.js';

const setup = { vocabulary: { conceptBase: 'http://www.wikidata.org/entity/', dataBase: 'http://entia.test/wiki/Special:EntityData/' },
  sites: buildSiteTable(undefined), flavor: 'full' as const };
/** The engine's thread, which nothing outside engine.ts holds: reached here only to end it. */
const thread = (engine: SparqlEngine) => (engine as unknown as { worker: Worker }).worker;

describe('the SPARQL engine\'s threads', () => {
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
});
