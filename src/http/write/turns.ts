// Edits of one entity that reach one process take turns. Concurrent edits would otherwise all read the same
// head, and all but one would fail the store's compare-and-set and start again: under a burst of edits to one
// entity (200 at once) the retries ran out and most clients got a 500. In turn, each edit reads the head the
// previous one wrote. The compare-and-set still arbitrates between processes (workers, PostgreSQL); an entity
// whose edits lose races there is remembered as contended for a moment, and its edits then take turns in the
// store (store.inTurn) too.

/** How long an entity counts as contended after an edit of it lost a race to another process. */
const CONTENDED_MS = 5_000;
/** Entities remembered as contended at most; past this the oldest are forgotten (they only lose the turn). */
const MAX_CONTENDED = 10_000;

import { EditConflict, type EntityStore } from '../../store/store.js';
import { pathEntityParameter } from '../path-parameters.js';

/**
 * Edits that lose a race re-run from the start; If-Match then turns a stale retry into 412. Each lost race
 * means another edit of the entity committed, so N simultaneous edits need at most N attempts. A retry first
 * waits a random, growing moment so that a crowd of edits (many processes on PostgreSQL) spreads out instead
 * of colliding again in lockstep (docs/adr/0002-postgres-concurrency.md).
 */
const EDIT_ATTEMPTS = 10;
const retryPause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * 2 ** attempt)));

export class EditQueue {
  /** The last task queued per entity; removed when it settles with nothing queued behind it. */
  private readonly tails = new Map<string, Promise<unknown>>();
  /** Entities whose edits lost a race recently, with when that stops counting (insertion order = age). */
  private readonly contended = new Map<string, number>();

  /**
   * Whether edits of this entity should take their turn among every process's (store.inTurn) from their first
   * attempt: once one edit lost a race, the processes crowding the entity all switch within one attempt, and
   * their edits then queue in the database instead of colliding until their retries run out.
   */
  isContended(entityId: string, now = Date.now()): boolean {
    const until = this.contended.get(entityId);
    if (until === undefined) return false;
    if (until > now) return true;
    this.contended.delete(entityId);
    return false;
  }

  /** Notes that an edit of this entity lost the compare-and-set. */
  lostRace(entityId: string, now = Date.now()): void {
    this.contended.delete(entityId);
    this.contended.set(entityId, now + CONTENDED_MS);
    if (this.contended.size > MAX_CONTENDED) this.contended.delete(this.contended.keys().next().value!);
  }

  async run<T>(entityId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(entityId);
    const result = previous ? previous.then(task, task) : task();
    const tail = result.catch(() => undefined);
    this.tails.set(entityId, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(entityId) === tail) this.tails.delete(entityId);
    }
  }
}

/** The entity a write request edits, from its path: the item or property id, or a statement id's subject. */
export function editedEntity(params: Record<string, string>): string | null {
  const id = pathEntityParameter(params) ?? params.statement_id?.split('$')[0];
  return id ? id.toUpperCase() : null;
}

/**
 * Runs one edit of an entity, whatever API it came through: in its turn among this process's edits of the
 * entity, in the store's turn once the entity is contended (store.inTurn), and again from the start when it
 * lost the compare-and-set to another process.
 */
export async function runEdit<T>(edits: EditQueue, store: EntityStore, entity: string, task: () => Promise<T>): Promise<T> {
  return edits.run(entity, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        // An edit of a contended entity (a retry, or one after a recent lost race) waits for its turn among
        // every process's (store.inTurn) instead of racing them again.
        return attempt > 1 || edits.isContended(entity) ? await store.inTurn(entity, task) : await task();
      } catch (e) {
        if (!(e instanceof EditConflict) || attempt >= EDIT_ATTEMPTS) throw e;
        edits.lostRace(entity);
        await retryPause(attempt);
      }
    }
  });
}
