// The SPARQL mirror's RDF writer: a thread of its own that turns stored documents into the triples the engine
// loads (domain/rdf.ts, laid out by mirror-triples.ts) and passes them straight to the engine's thread. Writing
// RDF costs about as much as the engine's loading it; in two threads the two overlap (docs/adr/0013 has the
// figures).
//
// The writer keeps what it last wrote of the entities it wrote lately, part by part (rdf-diff.ts); a build's
// resting, as the document it rendered, its parts rendered again at its first edit: the next write of such an
// entity is a patch, the triples of the parts that changed, not the whole entity dropped and loaded again. An
// entity it does not hold (the first edit after a restart from a snapshot, one pushed out of its memory) is
// written whole, and held from then on. A build's triples go to the engine's thread as UTF-8 bytes, moved, not
// copied.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Entity } from '../domain/entity.js';
import { RevisionCache } from '../store/revision-cache.js';
import type { RevisionContent } from '../store/store.js';
import { mirrorLayout } from './mirror-triples.js';
import { EntityRdf, type RdfDelta } from './rdf-diff.js';
import { applyEntityChange } from './entity-change.js';
import type { EngineReply, EngineRequest, EngineSetup, EntityChange, FreshBatch, MirrorEntity, PatchedEntity, PreparedEntity, WriterRequest } from './engine-protocol.js';

/**
 * `heldChars`: characters of triples held (a Wikidata-sized item is some 300 triples, about 45,000 characters), as
 * the engine's owner sizes it (engine.ts, `writerChars`).
 */
const { setup, engine, heldChars } = workerData as { setup: EngineSetup; engine: MessagePort; heldChars: number };
const layout = mirrorLayout(setup.vocabulary);
let held = new RevisionCache<EntityRdf>(heldChars);

/**
 * A document as the revision it is (a redirect's revision number is not needed to write it); a change, as the
 * revision it makes of the entity `held` holds.
 */
function contentOf(e: MirrorEntity, held: EntityRdf | undefined): RevisionContent | null {
  if (e.changed) {
    // The caller checked that the writer holds the entity at the change's base revision.
    if (!e.head) throw new Error(`the change of ${e.id} came without its revision`);
    const entity = applyEntityChange(held!.entity!, JSON.parse(e.changed.json) as EntityChange);
    return { kind: 'entity', entity, head: { revision: e.head.revision, modified: new Date(e.head.modified) } };
  }
  if (e.redirect !== undefined) return { kind: 'redirect', target: e.redirect, head: { revision: 0, modified: new Date(0) } };
  if (e.json === undefined || !e.head) return null;
  return { kind: 'entity', entity: JSON.parse(e.json) as Entity, head: { revision: e.head.revision, modified: new Date(e.head.modified) } };
}

/**
 * N-Triples lines as N-Quads in the entity's graph: each line's ` .` becomes ` <graph> .`. One pass over one
 * string (a literal's line breaks are escaped, so ` .` and a break only ever end a line); a line at a time was
 * a sixth of a build's writing.
 */
const quads = (id: string, lines: readonly string[]) => {
  if (lines.length === 0) return '';
  return `${lines.join('\n')}\n`.replaceAll(' .\n', ` <${layout.graphOf(id)}> .\n`);
};

function patchOf(id: string, delta: RdfDelta): PatchedEntity {
  const linked = new Map<string, string>();
  for (const lines of delta.linked) linked.set(lines.slice(1, lines.indexOf('>')), `${lines}\n`);
  const unlinked = delta.unlinked.map((lines) => lines.slice(1, lines.indexOf('>')));
  return { id, added: quads(id, delta.added), deleted: delta.deleted.join('\n'), linked, unlinked };
}

/**
 * An entity written: a patch from `state`, what the writer held of it (taken out of `held`), else whole; held
 * from then on.
 */
function written(e: MirrorEntity, state: EntityRdf | undefined, fresh = false): PreparedEntity | PatchedEntity {
  const content = contentOf(e, state);
  const next = state ?? new EntityRdf(layout, setup, e.id);
  // A build's entity is held resting: its document, its parts rendered again at its first edit.
  const delta = fresh && e.json !== undefined && content?.kind === 'entity' ? next.restAt(content, e.json) : next.update(content);
  held.put(e.id, e.head?.revision ?? 0, next, next.size);
  const patch = patchOf(e.id, delta);
  // Not held: what the engine holds of it is unknown here, so it is replaced whole (all of it is "added").
  return state ? patch : { id: e.id, own: patch.added, shared: patch.linked };
}

const utf8 = new TextEncoder();

/**
 * UTF-8 text written piece by piece into memory outside the JavaScript heap: a piece's string is garbage as soon
 * as it is written, where strings kept until the batch's end (some 9 MB a batch) were copied by every
 * young-generation collection until promoted.
 */
class Utf8Text {
  private bytes = new Uint8Array(1 << 24);
  length = 0;

  write(text: string): void {
    for (;;) {
      const { read, written } = utf8.encodeInto(text, this.bytes.subarray(this.length));
      this.length += written;
      if (read === text.length) return;
      text = text.slice(read);
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
  }

  /** The text written, as a view whose buffer may be moved to another thread. */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * A build's entities as the engine loads them: one UTF-8 text, each shared node once. Bytes, because a string
 * was copied twice more on its way (to the engine's thread, then into the engine's memory as UTF-8): the
 * 2,000-item bench store's N-Triples loaded in 1.53-1.65 s from bytes against 1.95-2.00 s from strings. Each
 * entity is written out as soon as it is rendered (Utf8Text).
 */
function freshBatch(entities: readonly MirrorEntity[]): FreshBatch {
  const text = new Utf8Text();
  const uses: [string, string][] = [];
  const sent = new Set<string>();
  for (const e of entities) {
    const { own, shared } = written(e, undefined, true) as PreparedEntity;
    text.write(own);
    for (const [node, lines] of shared) {
      if (sent.has(node)) continue;
      sent.add(node);
      text.write(lines);
    }
    if (shared.size > 0) uses.push([e.id, [...shared.keys()].join(' ')]);
  }
  return { text: text.view(), uses };
}

parentPort!.on('message', (request: WriterRequest) => {
  if ('reset' in request) {
    held = new RevisionCache<EntityRdf>(heldChars);
    return;
  }
  // A change applies to the revision it was made from: if the writer holds another (or none), it writes nothing
  // of the batch and says which, and the server sends those entities' documents instead.
  // Without waking what rests: a batch sent back here leaves it resting, at the size the writer's memory counts.
  const missing = request.entities.filter((e) => e.changed && !held.peek(e.id, e.changed.base)?.holdsEntity);
  if (missing.length > 0) {
    parentPort!.postMessage({ id: request.id, ok: true, missing: missing.map((e) => e.id) } satisfies EngineReply);
    return;
  }
  try {
    // A build's entities are held too (resting), as far as the writer's memory goes: the first edit of each after
    // a build is then a patch, not the whole entity dropped and loaded again. A build's (`fresh`) are not in the
    // engine yet, so none is patched. What the writer holds of the batch is taken out before any is written: holding
    // one entity's new revision may push another of the batch out of the writer's memory, and that one's
    // change could then not be applied (which once made a writer under full load forget everything it held).
    if (request.fresh) {
      const batch = freshBatch(request.entities);
      engine.postMessage({ id: request.id, op: 'load', batch } satisfies EngineRequest, [batch.text.buffer as ArrayBuffer]);
      return;
    }
    const states = request.entities.map((e) => held.take(e.id));
    const entities = request.entities.map((e, i) => written(e, states[i]));
    engine.postMessage({ id: request.id, op: 'put', entities } satisfies EngineRequest);
  } catch (e) {
    // A document the writer cannot read fails its own request; the engine never sees it. What the writer held
    // of the batch may have moved on without the engine: it forgets everything, and writes whole from now on.
    held = new RevisionCache<EntityRdf>(heldChars);
    parentPort!.postMessage({ id: request.id, ok: false, error: (e as Error).message } satisfies EngineReply);
  }
});
