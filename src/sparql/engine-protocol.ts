// The messages between the server and the SPARQL engine's thread (engine-worker.ts).

/**
 * One entity as the mirror writes it: its stored document (JSON text, parsed in the engine's thread, so that
 * the server's thread only reads bytes) with its head, a redirect's target, or neither (it is gone).
 */
export interface MirrorEntity {
  id: string;
  json?: string;
  head?: { revision: number; modified: number };
  redirect?: string;
}

export type EngineRequest =
  | { id: number; op: 'put'; entities: MirrorEntity[]; fresh: boolean }
  | { id: number; op: 'query'; query: string; format: string }
  | { id: number; op: 'save'; path: string; header: string }
  | { id: number; op: 'restore'; path: string }
  | { id: number; op: 'clear' };

export type EngineReply =
  | { id: number; started: true }
  | { id: number; ok: true; triples?: number; result?: string | boolean; header?: string }
  | { id: number; ok: false; error: string };
