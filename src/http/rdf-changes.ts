// The change feed's `format=rdf` (docs/api.md §10.10): each change as Wikimedia's rdf_change event
// (sparql/rdf-change.ts), the difference between the revision it made and the one before it (sparql/rdf-diff.ts).
import type { Change, CommitWatch, EntityStore } from '../store/store.js';
import { RevisionCache } from '../store/revision-cache.js';
import { rdfChangeEvent, rdfChangeSize, type RdfChangeEvent } from '../sparql/rdf-change.js';
import { EntityRdf } from '../sparql/rdf-diff.js';
import { mirrorLayout } from '../sparql/mirror-triples.js';
import { conceptVocabulary } from './vocabulary.js';
import type { Config } from '../config.js';
import { entityJson } from '../domain/entity.js';
import type { SiteTable } from '../domain/sites.js';

/** Characters of triples kept: one revision per entity, the last one rendered (a large item is some 1 MB). */
const CACHE_CHARS = 32 * 2 ** 20;

/** `maxBytes`: stop once the events rendered hold that many characters of RDF (one event at least). */
export type RdfChangeRenderer = (store: EntityStore & Partial<Pick<CommitWatch, 'writtenRevision'>>, changes: readonly Change[], maxBytes?: number) => Promise<RdfChangeEvent[]>;

/**
 * Renders pages of changes as events. Each entity's RDF at its last rendered revision is kept part by part (a
 * revision never changes): a follower in step renders only the parts each edit changed. An entity not kept at
 * the revision before the change, which this process has just written from that revision, is held at it
 * unrendered (EntityRdf.holdUnrendered): the edit renders only the sections it changed. Otherwise the entity's
 * kept state is moved to the revision before the change first (rendered whole when none is kept): a follower
 * elsewhere in the feed.
 */
export function rdfChangeRenderer(services: { config: Config; sites: SiteTable }): RdfChangeRenderer {
  const cache = new RevisionCache<EntityRdf>(CACHE_CHARS);
  return async (store, changes, maxBytes = Infinity) => {
    // Read per page: the public URL (the data nodes' base) is the configured one, known once the server listens.
    const setup = { vocabulary: conceptVocabulary(services.config), sites: services.sites, flavor: 'full' as const };
    const layout = mirrorLayout(setup.vocabulary);
    const domain = new URL(services.config.publicUrl).host;
    const events: RdfChangeEvent[] = [];
    let bytes = 0;
    for (const change of changes) {
      if (bytes >= maxBytes) break;
      const { previous } = change;
      const content = await store.readRevision(change.entity, change.revision);
      // Taken from the cache and moved on with no await between, so two followers never move one state at once.
      let state = previous !== null && cache.get(change.entity, previous);
      const written = previous !== null ? store.writtenRevision?.(change.entity, change.revision) : undefined;
      // Kept, but as other objects than the edit started from (the entity was read from the store again): the
      // sections the edit left alone would be compared value by value, where held unrendered they are the same.
      if (written?.base?.head.revision === previous && (!state || state.entity !== written.base.entity)) {
        cache.take(change.entity);
        state = new EntityRdf(layout, setup, change.entity);
        // Charged as the written revision's document, which the edit has serialised already.
        state.holdUnrendered({ kind: 'entity', entity: written.base.entity, head: written.base.head }, entityJson(written.entity).length);
      }
      if (!state) {
        const before = previous !== null ? await store.readRevision(change.entity, previous) : null;
        // The entity at another revision (a follower elsewhere, or edits nobody followed) is moved to the one
        // before the change: only what differs is rendered.
        state = cache.take(change.entity) ?? new EntityRdf(layout, setup, change.entity);
        state.update(before);
      }
      const delta = state.update(content);
      cache.put(change.entity, change.revision, state, state.size);
      const operation = previous === null ? 'import' : !content ? 'delete' : 'diff';
      const event = rdfChangeEvent(change, operation, delta, domain);
      events.push(event);
      bytes += rdfChangeSize(event);
    }
    return events;
  };
}
