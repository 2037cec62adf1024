// The bulk path into an external engine (`entia sparql-sync --dump FILE`): the sync's layout (remote-sync.ts,
// remote-updates.ts) for the whole store as N-Quads, ending with the sync's state graph, for the engine's own
// bulk loader (Virtuoso's `ld_dir` and `rdf_loader_run`, `oxigraph load`, QLever's index builder), which takes
// millions of triples a minute where SPARQL Update requests take some 13,500 a second. The state names the change
// feed's head as it was before the first entity was read: `entia sparql-sync` then finds the cursor in the
// engine and follows the feed from there. A change made while the dump was written is applied again, writing the
// entity's current state over whatever the dump held of it: nothing is lost, and nothing goes stale.
import { randomUUID } from 'node:crypto';
import { pagesById } from '../store/store.js';
import type { EngineSetup } from './engine-protocol.js';
import { readMirrorEntities } from './mirror.js';
import { mirrorLayout } from './mirror-triples.js';
import type { SyncStore } from './remote-sync.js';
import { ownGraphLines, remoteEntity, stateQuads } from './remote-updates.js';

/** Entities read and written at once. */
const PAGE = 200;
/**
 * Shared nodes (values, references, sites' roots) remembered as written, so that a node many entities use is
 * written about once: past this many the memory starts again (a node written twice is one node to an engine).
 */
const REMEMBERED_NODES = 1_000_000;

export interface DumpProgress {
  entities: number;
  quads: number;
}

/** The dump's text, a page of entities at a time; `done` hears how much each page added. */
export async function* syncDump(store: SyncStore, setup: EngineSetup, done: (progress: DumpProgress) => void = () => {}): AsyncGenerator<string> {
  const layout = mirrorLayout(setup.vocabulary);
  const cursor = await store.changesHead();
  const written = new Set<string>();
  const progress: DumpProgress = { entities: 0, quads: 0 };
  const page = async (ids: readonly string[]): Promise<string> => {
    const entities = (await readMirrorEntities(store, ids)).map((entity) => remoteEntity(layout, setup, entity));
    const quads: string[] = [];
    for (const entity of entities) {
      const graph = layout.graphOf(entity.id);
      for (const line of ownGraphLines(entity)) quads.push(inGraph(line, graph));
      for (const [node, lines] of entity.shared) {
        if (written.has(node)) continue;
        if (written.size >= REMEMBERED_NODES) written.clear();
        written.add(node);
        for (const line of lines.trimEnd().split('\n')) quads.push(inGraph(line, node));
      }
    }
    progress.entities += ids.length;
    progress.quads += quads.length;
    done(progress);
    return quads.length ? `${quads.join('\n')}\n` : '';
  };
  for await (const ids of pagesById((after, limit) => store.entityIds(after, limit), (id) => id, PAGE)) yield await page(ids);
  for await (const rows of pagesById((after, limit) => store.redirects(after, limit), (r) => r.id, PAGE)) yield await page(rows.map((r) => r.id));
  // Last: an engine that holds the state holds every entity before it (a load cut short shows no cursor).
  yield `${stateQuads({ token: randomUUID(), cursor, flavor: setup.flavor, conceptBase: setup.vocabulary.conceptBase }).join('\n')}\n`;
}

/** An N-Triples line (`S P O .`) as the N-Quads line of the same triple in `graph`. */
function inGraph(line: string, graph: string): string {
  return `${line.slice(0, line.lastIndexOf(' .'))} <${graph}> .`;
}
