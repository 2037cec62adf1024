// What a bulk import (store.ts, BulkImport) writes and reads beside the entities: the source's revisions, where an
// interrupted import stands, each entity's import state, the first local ids, the steps of the index build.
import type { KindName } from '../domain/entity.js';

/** Written with an import batch, in its transaction. */
export interface ImportExtras {
  /** Each entity's revision in the source dump (its `lastrevid`; 0 when unknown or a placeholder). */
  sourceRevisions?: readonly (readonly [id: string, revision: number])[];
  /** Where the input stands once this batch is written, so that an interrupted import can go on from there. */
  checkpoint?: { key: string; value: string };
}

/** The numeric part of the first local id of each kind (1000000000: Q1000000000). */
export type LocalIdStart = Record<KindName, number>;

/** The meta key under which a store records its LocalIdStart. */
export const LOCAL_ID_START_KEY = 'local_ids_from';

export interface ImportState {
  /** The current revision; null for a redirect. */
  head: number | null;
  /** The local revision the last import of this entity wrote, or null if none did. */
  importedAs: number | null;
  /** The source revision that import carried. */
  sourceRevision: number | null;
}

/** One step of an import's index build (finishImport), for its progress display. */
export interface BuildStep {
  step: string;
  rows: number;
}
