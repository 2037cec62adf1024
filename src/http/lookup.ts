// Builds the synchronous ReferenceLookup the pure statement validators need, from one store query
// over every id the input mentions.
import { referencedIds, type ReferenceLookup } from '../domain/statements.js';
import type { Store } from '../store/store.js';

export async function lookupFor(store: Store, ...inputs: unknown[]): Promise<ReferenceLookup> {
  const ids = inputs.flatMap((input) => referencedIds(input));
  const found = ids.length ? await store.lookupEntities(ids) : new Map<string, string | null>();
  return {
    dataTypeOf: (id) => found.get(id) ?? undefined,
    exists: (id) => found.has(id),
  };
}
