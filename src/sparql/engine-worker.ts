// The SPARQL engine's thread: an Oxigraph store (Rust compiled to WebAssembly, in memory) holding the mirror of
// the entity store (mirror-triples.ts), and the queries, run here so that neither a long query nor a large build
// ever blocks the server's event loop. Entities arrive as triples from the RDF writer's thread (rdf-worker.ts),
// everything else from the server (engine.ts); one message at a time, in the order they come.
import { createReadStream, createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { mirrorLayout } from './mirror-triples.js';
import type { EngineReply, EngineRequest, EngineSetup, FreshBatch, PatchedEntity, PreparedEntity } from './engine-protocol.js';

const { setup, writer } = workerData as { setup: EngineSetup; writer: MessagePort };
const layout = mirrorLayout(setup.vocabulary);
const store = new oxigraph.Store();
const UNION = { use_default_graph_as_union: true } as const;

/**
 * The shared nodes each entity uses (domain/rdf.ts names them by content hashes), space-separated: what an
 * edit compares to know which nodes it may have orphaned, without reading the engine.
 */
const uses = new Map<string, string>();

/**
 * Removes the shared nodes nothing points at any more (a node other entities use stays): one query finds which
 * of them something still points at, one update removes the others. References first: a value node only a
 * removed reference used is then unused too. (A query per node cost some 300 µs each, and its removal a
 * deletion per quad.)
 */
function collect(candidates: string[]): void {
  const references = candidates.filter((node) => layout.isReference(node));
  const values = candidates.filter((node) => !layout.isReference(node));
  for (const nodes of [references, values]) {
    if (nodes.length === 0) continue;
    const listed = (list: string[]) => list.map((node) => `<${node}>`).join(' ');
    const rows = store.query(`SELECT DISTINCT ?n WHERE { VALUES ?n { ${listed(nodes)} } ?s ?p ?n }`, UNION) as Map<string, oxigraph.Term>[];
    const used = new Set(rows.map((row) => row.get('n')!.value));
    const unused = nodes.filter((node) => !used.has(node));
    if (unused.length) store.update(`DELETE { ?n ?p ?o } WHERE { VALUES ?n { ${listed(unused)} } ?n ?p ?o }`);
  }
}

const LOAD = { format: 'application/n-quads', lenient: true } as const;

/**
 * Characters of N-Quads per call to the engine's load. One call per batch (some 10 M characters in a build) went at
 * 175-205 K triples/s, the same text in calls of about 1 M at 225-290 K (a scratch load of the 2,000-item bench
 * store's snapshot; 256 K: 250 K/s, 4 M: 215-280 K/s, 16 M: 183-208 K/s): the engine copies each call's text into
 * its memory at once, and a large copy costs more than its share.
 */
const LOAD_CHARS = 1 << 20;

/** Text to load, gathered from whole lines and loaded in calls of about LOAD_CHARS. */
class Loads {
  private pending: string[] = [];
  private chars = 0;

  add(text: string): void {
    if (text.length === 0) return;
    this.pending.push(text);
    this.chars += text.length;
    if (this.chars >= LOAD_CHARS) this.flush();
  }

  flush(): void {
    if (this.chars === 0) return;
    store.load(this.pending.join(''), LOAD);
    this.pending = [];
    this.chars = 0;
  }
}

/**
 * An entity's patch: the text to load (its added quads, the shared nodes it starts using) joins `toLoad`, its deleted
 * triples go in the batch's DELETE DATA (`deletes`, SPARQL: N-Triples lines are its triple syntax), and the nodes
 * it stops using join `unused`, to be collected once everything is loaded.
 */
function patch({ id, added, deleted, linked, unlinked }: PatchedEntity, deletes: string[], unused: Set<string>, toLoad: string[]): void {
  if (deleted) deletes.push(`GRAPH <${layout.graphOf(id)}> {\n${deleted}\n}`);
  const nodes = new Set(uses.get(id)?.split(' ') ?? []);
  for (const node of unlinked) {
    nodes.delete(node);
    unused.add(node);
  }
  toLoad.push(added);
  for (const [node, lines] of linked) {
    nodes.add(node);
    toLoad.push(lines);
  }
  if (nodes.size > 0) uses.set(id, [...nodes].join(' '));
  else uses.delete(id);
}

/** Bytes of a build's text per call to the engine's load (1 M: as fast as 256 K, 8 M was 10% slower). */
const LOAD_BYTES = 1 << 20;
const FRESH_LOAD = { ...LOAD, no_transaction: true } as const;

/**
 * A build's batch (the engine holds none of its entities: nothing to drop or collect, and the load skips the
 * engine's transaction), in calls of about LOAD_BYTES cut after a line.
 */
function load({ text, uses: used }: FreshBatch): void {
  for (let start = 0; start < text.length;) {
    const cut = text.indexOf(0x0a, Math.min(start + LOAD_BYTES, text.length) - 1);
    const end = cut < 0 ? text.length : cut + 1;
    store.load(text.subarray(start, end), FRESH_LOAD);
    start = end;
  }
  for (const [id, nodes] of used) uses.set(id, nodes);
}

/**
 * Writes entities: each replaces what the engine held for it. Its graph is dropped and written again, the shared
 * nodes it uses newly are added, and those it no longer uses are collected. The whole batch goes at once (one
 * update, its loads, one collection): per call, the engine's fixed costs were most of an entity's. Each entity
 * appears once in a batch.
 */
function put(entities: readonly (PreparedEntity | PatchedEntity)[]): void {
  if (entities.length === 0) return;
  const whole = entities.filter((e): e is PreparedEntity => 'own' in e);
  const written = new Set<string>();
  const unused = new Set<string>();
  const deletes: string[] = [];
  // What the patches add is loaded after the removals (a patch may delete a line that another part adds back).
  const patchedText: string[] = [];
  for (const entity of entities) if (!('own' in entity)) patch(entity, deletes, unused, patchedText);
  // Every removal of the batch in one update: a quad deleted through the API at a time cost some 60 µs (each a
  // JavaScript object made from the parsed text and passed back), most of an edit's time in this thread.
  const removals = whole.map(({ id }) => `DROP SILENT GRAPH <${layout.graphOf(id)}>`);
  if (deletes.length) removals.push(`DELETE DATA {\n${deletes.join('\n')}\n}`);
  if (removals.length) store.update(removals.join(' ;\n'));
  const loads = new Loads();
  for (const text of patchedText) loads.add(text);
  for (const { id, own, shared } of whole) {
    const before = new Set(uses.get(id)?.split(' ') ?? []);
    loads.add(own);
    for (const [node, lines] of shared) {
      if (!before.has(node) && !written.has(node)) loads.add(lines);
      written.add(node);
    }
    if (shared.size > 0) uses.set(id, [...shared.keys()].join(' '));
    else uses.delete(id);
    for (const node of before) if (!shared.has(node)) unused.add(node);
  }
  loads.flush();
  collect([...unused]);
}

/** Whether a save is under way: queries may run between its steps, since it only reads. */
let saving = false;

/**
 * The engine's whole content as N-Quads, written beside `path` and renamed into place: never half a file. It
 * yields between graphs, and queries that arrive meanwhile run then; writes wait for it (they go in order).
 */
async function save(path: string, header: string): Promise<void> {
  // Named by process: several server processes (ENTIA_WORKERS) may save the same snapshot; the last rename wins whole.
  const partial = `${path}.${process.pid}.partial`;
  const out = createWriteStream(partial);
  const write = async (text: string) => { if (!out.write(text)) await once(out, 'drain'); };
  saving = true;
  try {
    await write(`# ${header}\n`);
    await write(store.dump({ format: 'application/n-quads', from_graph_name: oxigraph.defaultGraph() }));
    const graphs = store.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { } }') as Map<string, oxigraph.Term>[];
    for (const [i, row] of graphs.entries()) {
      const graph = row.get('g') as oxigraph.NamedNode;
      const triples = store.dump({ format: 'application/n-triples', from_graph_name: graph });
      await write(triples.replace(/ \.\n/g, ` <${graph.value}> .\n`));
      if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    // What each entity uses, as comments the engine's parser skips and restore reads.
    for (const [id, nodes] of uses) await write(`#u ${id} ${nodes}\n`);
  } finally {
    saving = false;
  }
  out.end();
  await once(out, 'finish');
  renameSync(partial, path);
}

function restoreChunk(text: string): void {
  for (const m of text.matchAll(/^#u (\S+) (.*)$/gm)) uses.set(m[1], m[2]);
  store.load(text, FRESH_LOAD);
}

/** Loads a file `save` wrote, in chunks of whole lines; returns its header line. */
async function restore(path: string): Promise<string> {
  let header: string | null = null;
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: LOAD_CHARS })) {
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

/**
 * Oxigraph counts its triples by walking all of them (`size`): some 30 ms at 600,000 triples. Counted after every
 * write, that was most of this thread's time while following edits (and a quarter of the edit rate lost with
 * it); the count, which only /metrics and the log show, is now refreshed at most every COUNT_EVERY_MS.
 */
const COUNT_EVERY_MS = 5_000;
let counted = { at: -Infinity, triples: 0 };
function triples(force = false): number {
  const at = performance.now();
  if (force || at - counted.at >= COUNT_EVERY_MS) counted = { at, triples: store.size };
  return counted.triples;
}

async function handle(request: EngineRequest): Promise<EngineReply> {
  switch (request.op) {
    case 'put':
      put(request.entities);
      return { id: request.id, ok: true, triples: triples() };
    case 'load':
      load(request.batch);
      return { id: request.id, ok: true, triples: triples() };
    case 'query':
      parentPort!.postMessage({ id: request.id, started: true });
      return { id: request.id, ok: true, result: run(request.query, request.format) };
    case 'save':
      await save(request.path, request.header);
      return { id: request.id, ok: true, triples: triples(true) };
    case 'restore':
      return { id: request.id, ok: true, header: await restore(request.path), triples: triples(true) };
    case 'count':
      return { id: request.id, ok: true, triples: triples(true) };
    case 'clear':
      store.update('CLEAR ALL');
      uses.clear();
      return { id: request.id, ok: true, triples: triples(true) };
  }
}

/**
 * Set once the engine has trapped (or overflowed its stack). A trap leaves Oxigraph's heap in no known state (a
 * write half done, a lock held) and its memory at the peak that failed, which WebAssembly never gives back:
 * nothing more is answered from this store, and the server replaces the thread (engine.ts).
 */
let trapped = false;

// One at a time, whichever thread sent it: a query never sees an entity half written.
let chain = Promise.resolve();
async function answer(request: EngineRequest): Promise<void> {
  if (trapped) return;
  let reply: EngineReply;
  try {
    reply = await handle(request);
  } catch (e) {
    // A stack overflow inside the engine (a RangeError out of its WebAssembly) leaves it as a trap does: on
    // 2026-11-28 every later query of that store failed with "memory access out of bounds".
    trapped = e instanceof WebAssembly.RuntimeError || e instanceof RangeError;
    reply = { id: request.id, ok: false, error: e instanceof Error ? e.message : String(e), ...(trapped && { trapped: true as const }) };
  }
  parentPort!.postMessage(reply);
}
function enqueue(request: EngineRequest): void {
  if (request.op === 'query' && saving) {
    void answer(request);
    return;
  }
  chain = chain.then(() => answer(request));
}
parentPort!.on('message', enqueue);
writer.on('message', enqueue);
