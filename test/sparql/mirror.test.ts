// The SPARQL mirror's snapshot when the server stops while one is being written (issue #34): stopping waits for
// the snapshot to end, so that the engine's thread is not stopped half-way through the file (which left a
// `.partial` file of tens of megabytes beside the store on every Ctrl-C after a first build, and no snapshot).
// A real store and a real engine; only the engine's save is held back until the test lets it go.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { buildSiteTable } from '../../src/domain/sites.js';
import { SparqlEngine } from '../../src/sparql/engine.js';
import { SparqlMirror } from '../../src/sparql/mirror.js';
import { createTestDb, openTestStore } from '../helpers/store.js';

const setup = { vocabulary: { conceptBase: 'http://www.wikidata.org/entity/', dataBase: 'http://entia.test/wiki/Special:EntityData/' },
  sites: buildSiteTable(undefined), flavor: 'full' as const };

describe('the SPARQL mirror', () => {
  it('waits for a snapshot being written before it stops, and leaves the whole file, not half of one', async () => {
    const db = await createTestDb();
    const store = await openTestStore(db.location);
    const engine = new SparqlEngine(setup);
    const snapshotPath = join(tmpdir(), `entia-mirror-${process.pid}-${Date.now()}.nq`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let saveStarted!: () => void;
    const saving = new Promise<void>((resolve) => { saveStarted = resolve; });
    const save = engine.save.bind(engine);
    engine.save = async (path, header) => {
      saveStarted();
      await held;
      return save(path, header);
    };
    const mirror = new SparqlMirror(store, engine, setup, { snapshotPath, memoryLimit: 2 ** 30, log: () => {} });
    try {
      void mirror.start(); // a first build saves its snapshot once the engine answers
      await saving;
      let stopped = false;
      const stopping = mirror.stop().then(() => { stopped = true; });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(stopped, false, 'stop waits for the snapshot being written');
      release();
      await stopping;
      await engine.close();
      assert.ok(existsSync(snapshotPath), 'the snapshot was written whole');
      const partial = readdirSync(dirname(snapshotPath)).filter((name) => name.startsWith(`${basename(snapshotPath)}.`));
      assert.deepEqual(partial, [], 'no half-written file is left');
    } finally {
      release();
      await engine.close();
      await store.close();
      await db.drop();
      for (const name of readdirSync(dirname(snapshotPath)).filter((n) => n.startsWith(basename(snapshotPath)))) {
        rmSync(join(dirname(snapshotPath), name), { force: true });
      }
    }
  });
});
