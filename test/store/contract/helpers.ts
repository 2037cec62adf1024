// What the store contract's parts share: edit metadata and a creation through the store's own edit path.
import type { Entity } from '../../../src/domain/entity.js';
import type { EditMeta, Store } from '../../../src/store/store.js';

export const META: EditMeta = { user: 'tester', comment: 'c', tags: [], bot: false };

/** Creates the entity under a freshly allocated id, as an edit with its revision. */
export async function create(store: Store, entity: Entity): Promise<Entity> {
  const id = await store.allocateId(entity.type);
  const withId = { ...entity, id };
  await store.applyEdit({ entity: withId, previous: null, meta: META, checks: {} });
  return withId;
}
