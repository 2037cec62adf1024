// Edits of one entity that reach one process take turns. Concurrent edits would otherwise all read the same
// head, and all but one would fail the store's compare-and-set and start again: under a burst of edits to one
// entity (200 at once) the retries ran out and most clients got a 500. In turn, each edit reads the head the
// previous one wrote. The compare-and-set still arbitrates between processes (workers, PostgreSQL).

export class EditQueue {
  /** The last task queued per entity; removed when it settles with nothing queued behind it. */
  private readonly tails = new Map<string, Promise<unknown>>();

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
  const id = params.item_id ?? params.property_id ?? params.statement_id?.split('$')[0];
  return id ? id.toUpperCase() : null;
}
