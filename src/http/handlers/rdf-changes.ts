// The change feed's `format=rdf` (docs/api.md §10.10): each change as Wikimedia's rdf_change event
// (sparql/rdf-change.ts), from the revision it made and the one before it.
import type { Change, EntityStore } from '../../store/store.js';
import { RevisionCache } from '../../store/revision-cache.js';
import { rdfChangeEvent, revisionTriples, triplesSize, type RdfChangeEvent, type RevisionTriples } from '../../sparql/rdf-change.js';
import { mirrorLayout } from '../../sparql/mirror-triples.js';
import { conceptVocabulary } from '../vocabulary.js';
import type { Config } from '../../config.js';
import type { SiteTable } from '../../domain/sites.js';

/** Characters of triples kept: one revision per entity, the last one rendered (a large item is some 1 MB). */
const CACHE_CHARS = 32 * 2 ** 20;

export type RdfChangeRenderer = (store: EntityStore, changes: readonly Change[]) => Promise<RdfChangeEvent[]>;

/**
 * Renders pages of changes as events. The triples of each entity's last rendered revision are kept (a revision
 * never changes): an edit's "after" is the next edit's "before", so a follower in step renders each revision
 * once, not twice.
 */
export function rdfChangeRenderer(services: { config: Config; sites: SiteTable }): RdfChangeRenderer {
  const cache = new RevisionCache<NonNullable<RevisionTriples>>(CACHE_CHARS);
  return async (store, changes) => {
    // Read per page: the public URL (the data nodes' base) is the configured one, known once the server listens.
    const setup = { vocabulary: conceptVocabulary(services.config), sites: services.sites, flavor: 'full' as const };
    const layout = mirrorLayout(setup.vocabulary);
    const domain = new URL(services.config.publicUrl).host;
    const triples = async (entity: string, revision: number): Promise<RevisionTriples> => {
      const kept = cache.get(entity, revision);
      if (kept) return kept;
      const made = revisionTriples(layout, setup, entity, await store.readRevision(entity, revision));
      return made && cache.put(entity, revision, made, triplesSize(made));
    };
    const events: RdfChangeEvent[] = [];
    for (const change of changes) {
      const [previous] = await store.revisions(change.entity, 1, change.revision);
      const before = previous ? await triples(change.entity, previous.revision) : null;
      const after = await triples(change.entity, change.revision);
      events.push(rdfChangeEvent({ cursor: change.cursor, entity: change.entity, revision: change.revision, timestamp: change.timestamp, before, after },
        domain));
    }
    return events;
  };
}
