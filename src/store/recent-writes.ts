// The entities this process wrote last, parsed, by (id, revision): readers of the change feed (the rdf_change
// events, the SPARQL mirror) read the revision an edit has just written, and an edit already holds it parsed
// and frozen. Keeping it spares them a read and a parse of the whole document; the entity shares its unchanged
// statements with the revision before it, object for object, which lets them find what changed by identity.
// A revision never changes, so an entry is right for as long as it is kept; a miss reads the store. Watchers
// (the change stream) hear of each commit at once, rather than at their next poll; other processes' commits
// they find by polling.
import { entityJson, freezeJson, type Entity } from '../domain/entity.js';
import { RevisionCache } from './revision-cache.js';
import type { Head, RevisionContent, WrittenRevision } from './store.js';

/**
 * Characters of JSON kept: enough for a follower a few hundred edits behind. What they take in memory is less:
 * successive revisions of an entity share every part an edit left alone.
 */
const RECENT_CHARS = 8 * 2 ** 20;

interface Kept {
  content: RevisionContent & { kind: 'entity' };
  /** The entity the edit started from (it shares what the edit left alone), and its head. */
  base: WrittenRevision['base'];
}

export class RecentWrites {
  private readonly cache = new RevisionCache<Kept>(RECENT_CHARS);
  private readonly watchers = new Set<() => void>();

  /**
   * Called once an edit's transaction has committed (never for one rolled back); tells the watchers.
   * `previous`: what the edit was computed from (null for a creation).
   */
  remember(entity: Entity, head: Head, previous: { entity: Entity; head: Head } | null = null): void {
    const frozen = freezeJson(entity);
    const base = previous && { entity: previous.entity, head: previous.head };
    // Keyed by revision too: a follower a few edits behind still finds the revisions between.
    this.cache.put(`${frozen.id} ${head.revision}`, head.revision, { content: { kind: 'entity', entity: frozen, head }, base },
      entityJson(frozen).length);
    this.committed();
  }

  /** A commit with nothing to keep (a redirect): only the watchers are told. */
  committed(): void {
    for (const watcher of this.watchers) watcher();
  }

  /** `listener` is called after each commit of this process; returns how to stop. */
  watch(listener: () => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  get(id: string, revision: number): RevisionContent | undefined {
    return this.cache.get(`${id} ${revision}`, revision)?.content;
  }

  /** The revision with what it was computed from (store.ts, CommitWatch.writtenRevision). */
  written(id: string, revision: number): WrittenRevision | undefined {
    const kept = this.cache.get(`${id} ${revision}`, revision);
    return kept && { entity: kept.content.entity, head: kept.content.head, base: kept.base };
  }
}
