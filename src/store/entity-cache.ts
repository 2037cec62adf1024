// Parsed entity documents by (id, revision), least recently used first out, bounded by the size of their
// JSON text. A revision's document never changes, so an entry is valid for as long as that revision is the
// entity's head; the backend checks the head (one small indexed read) before asking here. Entries are deeply
// frozen because every reader shares them (store.ts, ReadResult).
import { freezeJson, type Entity } from '../domain/entity.js';

interface Entry {
  revision: number;
  entity: Entity;
  size: number;
}

export class EntityCache {
  private readonly entries = new Map<string, Entry>();
  private used = 0;

  /** `budget`: total JSON length (characters) of the documents kept; 0 disables the cache. */
  constructor(private readonly budget: number) {}

  get(id: string, revision: number): Entity | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.revision !== revision) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.entity;
  }

  /** Freezes and keeps the document parsed from `size` characters of JSON; returns it frozen. */
  put(id: string, revision: number, entity: Entity, size: number): Entity {
    freezeJson(entity);
    if (size > this.budget / 4) return entity; // one huge entity must not flush everything else
    const old = this.entries.get(id);
    if (old) {
      this.used -= old.size;
      this.entries.delete(id);
    }
    this.entries.set(id, { revision, entity, size });
    this.used += size;
    for (const [key, entry] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(key);
      this.used -= entry.size;
    }
    return entity;
  }
}
