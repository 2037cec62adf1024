// Values derived from one revision of an entity (its parsed document, its rendered bytes), by (id, revision),
// least recently used first out, bounded by a size the caller measures. A revision never changes, so an entry
// is valid for as long as that revision is the entity's head: the caller knows the head (one small indexed
// read) before asking here, and an entry for an older revision simply misses.

interface Entry<V> {
  revision: number;
  value: V;
  size: number;
}

export class RevisionCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private used = 0;
  /** Lookups answered and missed since start, for /metrics. */
  readonly stats = { hits: 0, misses: 0 };

  /** `budget`: total size of the values kept, in the caller's unit; 0 disables the cache. */
  constructor(private readonly budget: number) {}

  get(id: string, revision: number): V | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.revision !== revision) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  /** Whatever revision is held for `id`, taken out of the cache (the caller moves it on and puts it back). */
  take(id: string): V | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.used -= entry.size;
    return entry.value;
  }

  /** The value held for `id` at `revision`, left in place, without counting a lookup or refreshing the entry. */
  peek(id: string, revision: number): V | undefined {
    const entry = this.entries.get(id);
    return entry?.revision === revision ? entry.value : undefined;
  }

  /** The revision held for `id`, without counting a lookup or refreshing the entry. */
  revisionOf(id: string): number | undefined {
    return this.entries.get(id)?.revision;
  }

  /** Keeps `value` (of `size`) unless it alone would take more than a quarter of the budget; returns it. */
  put(id: string, revision: number, value: V, size: number): V {
    if (size > this.budget / 4) return value; // one huge entity must not flush everything else
    const old = this.entries.get(id);
    if (old) {
      this.used -= old.size;
      this.entries.delete(id);
    }
    this.entries.set(id, { revision, value, size });
    this.used += size;
    for (const [key, entry] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(key);
      this.used -= entry.size;
    }
    return value;
  }
}
