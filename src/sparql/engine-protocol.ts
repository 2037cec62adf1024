// The messages between the server and the SPARQL engine's two threads: the RDF writer (rdf-worker.ts), which
// turns stored documents into the mirror's triples, and the engine (engine-worker.ts), which holds them and
// answers queries. Writes go server → writer → engine, each writer message one engine message, in order;
// everything else goes server → engine. The engine replies to the server for both.
import type { RdfFlavor } from '../domain/rdf.js';
import type { RdfVocabulary } from '../domain/rdf-vocabulary.js';
import type { SiteTable } from '../domain/sites.js';

/** What both threads are started with. */
export interface EngineSetup {
  vocabulary: RdfVocabulary;
  sites: SiteTable;
  flavor: RdfFlavor;
}

/**
 * One entity as the mirror writes it: its stored document (JSON text, parsed by the writer, so that the
 * server's thread only reads bytes) with its head, a redirect's target, or neither (it is gone). Or, for a
 * revision this process just wrote, only what the edit changed (`changed`, with `head`): the writer applies it
 * to the revision `changed.base` it holds, and says it is `missing` when it holds another.
 */
export interface MirrorEntity {
  id: string;
  json?: string;
  head?: { revision: number; modified: number };
  redirect?: string;
  changed?: { base: number; json: string };
}

/**
 * What an edit changed of an entity, by its top-level members (`set`, `unset`) and its properties' statements
 * (`statements`, `unstated`): all the writer needs to rebuild the revision from the one before (sparql/sections.ts).
 */
export interface EntityChange {
  set: Record<string, unknown>;
  unset: string[];
  statements: Record<string, unknown>;
  unstated: string[];
}

/** One entity's triples as the engine loads them (mirror-triples.ts): its own N-Quads, the shared nodes' N-Triples. */
export interface PreparedEntity {
  id: string;
  own: string;
  shared: Map<string, string>;
}

/**
 * A build's batch, none of whose entities the engine holds yet: their N-Quads and the shared nodes' N-Triples
 * (each node once) as one UTF-8 text, which moves to the engine's thread instead of being copied and which the
 * engine loads as it is, and the shared nodes each entity uses (space-separated).
 */
export interface FreshBatch {
  text: Uint8Array;
  uses: [string, string][];
}

/**
 * What changed of an entity the engine holds (the writer knows what it last wrote, rdf-diff.ts): its own quads
 * added (N-Quads in its graph) and its own triples deleted (N-Triples lines of its graph, which the engine
 * deletes with one SPARQL `DELETE DATA` per batch), the shared nodes it starts using (their N-Triples) and stops
 * using.
 */
export interface PatchedEntity {
  id: string;
  added: string;
  deleted: string;
  linked: Map<string, string>;
  unlinked: string[];
}

/**
 * To the writer: entities to write, or `reset`: forget what was written (the engine is emptied or loaded from
 * a snapshot, or a write failed), so that each entity's next write replaces it whole.
 */
export type WriterRequest = { id: number; entities: MirrorEntity[]; fresh: boolean } | { reset: true };

export type EngineRequest =
  | { id: number; op: 'put'; entities: (PreparedEntity | PatchedEntity)[] }
  | { id: number; op: 'load'; batch: FreshBatch }
  | { id: number; op: 'query'; query: string; format: string }
  | { id: number; op: 'save'; path: string; header: string }
  | { id: number; op: 'restore'; path: string }
  | { id: number; op: 'clear' }
  /** The engine's triples counted now (they are otherwise counted every few seconds). */
  | { id: number; op: 'count' };

export type EngineReply =
  | { id: number; started: true }
  /** `missing`: from the writer, the entities whose `changed` it could not apply; it wrote nothing of the batch. */
  | { id: number; ok: true; triples?: number; result?: string | boolean; header?: string; missing?: string[] }
  /**
   * `trapped`: the engine's WebAssembly trapped (Rust aborts so when an allocation fails, or on a panic): its heap
   * is in no known state, so the thread answers nothing more and is replaced.
   */
  | { id: number; ok: false; error: string; trapped?: true };
