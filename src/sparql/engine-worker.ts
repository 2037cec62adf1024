// The SPARQL engine's thread: an Oxigraph store (Rust compiled to WebAssembly, in memory) holding the mirror of
// the entity store (mirror-triples.ts), its entities written here from their dump form, and queries run here, so
// that neither a long query nor a large build ever blocks the server's event loop. Messages in, replies out
// (engine.ts is the other side); one message at a time, in order.
import { createReadStream, createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import type { Entity } from '../domain/entity.js';
import { entityTriples, type RdfFlavor, type RdfVocabulary } from '../domain/rdf.js';
import { toWikidata } from '../domain/wikidata-export.js';
import type { SiteTable } from '../domain/sites.js';
import { mirrorLayout, splitTriples } from './mirror-triples.js';
import type { EngineReply, EngineRequest, MirrorEntity } from './engine-protocol.js';

export interface EngineWorkerData {
  vocabulary: RdfVocabulary;
  sites: SiteTable;
  flavor: RdfFlavor;
}

const { vocabulary, sites, flavor } = workerData as EngineWorkerData;
const layout = mirrorLayout(vocabulary);
const store = new oxigraph.Store();
const OWL_SAME_AS = '<http://www.w3.org/2002/07/owl#sameAs>';
const UNION = { use_default_graph_as_union: true } as const;

/** The lines of one entity as the mirror holds it: its RDF, or a redirect's `owl:sameAs` (as the Query Service). */
function linesOf(entity: MirrorEntity): string[] {
  if (entity.redirect) return [`<${vocabulary.conceptBase}${entity.id}> ${OWL_SAME_AS} <${vocabulary.conceptBase}${entity.redirect}> .`];
  if (entity.json === undefined || !entity.head) return [];
  const dump = toWikidata(JSON.parse(entity.json) as Entity, { id: entity.head.revision, modified: new Date(entity.head.modified) });
  return entityTriples(dump, { vocabulary, sites, flavor, revision: { id: entity.head.revision, modified: String(dump.modified) } });
}

/**
 * The shared nodes each entity uses (domain/rdf.ts names them by content hashes), space-separated: what an
 * edit compares to know which nodes it may have orphaned, without reading the engine.
 */
const uses = new Map<string, string>();

/** References first: a value node only a removed reference used is then unused too. */
const referencesFirst = (a: string, b: string) => Number(layout.isReference(b)) - Number(layout.isReference(a));

/** Removes the shared nodes nothing points at any more (a node other entities use stays). */
function collect(candidates: string[]): void {
  for (const node of candidates.sort(referencesFirst)) {
    if (store.query(`ASK { ?s ?p <${node}> }`, UNION) === true) continue;
    for (const quad of store.match(oxigraph.namedNode(node), null, null, oxigraph.defaultGraph())) store.delete(quad);
  }
}

const LOAD = { format: 'application/n-quads', lenient: true } as const;

/**
 * Writes entities. `fresh`: the engine holds none of them yet (a build), so nothing is dropped or collected and
 * the batch loads in one call; otherwise each replaces what the engine held for it: its graph is dropped and
 * written again, the shared nodes it uses newly are added, and those it no longer uses are collected.
 */
function put(entities: readonly MirrorEntity[], fresh: boolean): void {
  if (fresh) {
    let text = '';
    const written = new Set<string>();
    for (const entity of entities) {
      const { own, shared } = splitTriples(layout, entity.id, linesOf(entity));
      text += own;
      for (const [node, lines] of shared) {
        if (!written.has(node)) text += lines;
        written.add(node);
      }
      if (shared.size > 0) uses.set(entity.id, [...shared.keys()].join(' '));
    }
    store.load(text, { ...LOAD, no_transaction: true });
    return;
  }
  for (const entity of entities) {
    const before = new Set(uses.get(entity.id)?.split(' ') ?? []);
    const { own, shared } = splitTriples(layout, entity.id, linesOf(entity));
    store.update(`DROP SILENT GRAPH <${layout.graphOf(entity.id)}>`);
    let text = own;
    for (const [node, lines] of shared) if (!before.has(node)) text += lines;
    store.load(text, LOAD);
    if (shared.size > 0) uses.set(entity.id, [...shared.keys()].join(' '));
    else uses.delete(entity.id);
    collect([...before].filter((node) => !shared.has(node)));
  }
}

/** The engine's whole content as N-Quads, written beside `path` and renamed into place: never half a file. */
async function save(path: string, header: string): Promise<void> {
  // Named by process: several server processes (ENTIA_WORKERS) may save the same snapshot; the last rename wins whole.
  const partial = `${path}.${process.pid}.partial`;
  const out = createWriteStream(partial);
  const write = async (text: string) => { if (!out.write(text)) await once(out, 'drain'); };
  await write(`# ${header}\n`);
  await write(store.dump({ format: 'application/n-quads', from_graph_name: oxigraph.defaultGraph() }));
  const graphs = store.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { } }') as Map<string, oxigraph.Term>[];
  for (const row of graphs) {
    const graph = row.get('g') as oxigraph.NamedNode;
    const triples = store.dump({ format: 'application/n-triples', from_graph_name: graph });
    await write(triples.replace(/ \.\n/g, ` <${graph.value}> .\n`));
  }
  // What each entity uses, as comments the engine's parser skips and restore reads.
  for (const [id, nodes] of uses) await write(`#u ${id} ${nodes}\n`);
  out.end();
  await once(out, 'finish');
  renameSync(partial, path);
}

function restoreChunk(text: string): void {
  for (const m of text.matchAll(/^#u (\S+) (.*)$/gm)) uses.set(m[1], m[2]);
  store.load(text, { ...LOAD, no_transaction: true });
}

/** Loads a file `save` wrote, in chunks of whole lines; returns its header line. */
async function restore(path: string): Promise<string> {
  let header: string | null = null;
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 8 << 20 })) {
    let text = rest + chunk;
    if (header === null) {
      const end = text.indexOf('\n');
      if (end < 0) { rest = text; continue; }
      header = text.slice(2, end);
      text = text.slice(end + 1);
    }
    const cut = text.lastIndexOf('\n') + 1;
    restoreChunk(text.slice(0, cut));
    rest = text.slice(cut);
  }
  if (rest) restoreChunk(rest);
  return header ?? '';
}

function run(query: string, format: string): string | boolean {
  const result = store.query(query, { ...UNION, results_format: format });
  return result as string;
}

async function handle(request: EngineRequest): Promise<EngineReply> {
  switch (request.op) {
    case 'put':
      put(request.entities, request.fresh);
      return { id: request.id, ok: true, triples: store.size };
    case 'query':
      parentPort!.postMessage({ id: request.id, started: true });
      return { id: request.id, ok: true, result: run(request.query, request.format) };
    case 'save':
      await save(request.path, request.header);
      return { id: request.id, ok: true, triples: store.size };
    case 'restore':
      return { id: request.id, ok: true, header: await restore(request.path), triples: store.size };
    case 'clear':
      store.update('CLEAR ALL');
      uses.clear();
      return { id: request.id, ok: true, triples: 0 };
  }
}

// One at a time: a query never sees an entity half written, and replies come back in request order.
let chain = Promise.resolve();
parentPort!.on('message', (request: EngineRequest) => {
  chain = chain.then(async () => {
    let reply: EngineReply;
    try {
      reply = await handle(request);
    } catch (e) {
      reply = { id: request.id, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    parentPort!.postMessage(reply);
  });
});
