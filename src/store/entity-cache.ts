// Parsed entity documents by (id, revision), bounded by the length of their JSON text. Entries are deeply
// frozen because every reader shares them (store.ts, ReadResult).
import { freezeJson, type Entity } from '../domain/entity.js';
import { RevisionCache } from './revision-cache.js';

export class EntityCache extends RevisionCache<Entity> {
  /** Freezes and keeps the document parsed from `size` characters of JSON; returns it frozen. */
  override put(id: string, revision: number, entity: Entity, size: number): Entity {
    return super.put(id, revision, freezeJson(entity), size);
  }
}
