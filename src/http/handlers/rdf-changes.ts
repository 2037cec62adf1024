// The change feed's `format=rdf` (docs/api.md §10.10): each change as Wikimedia's rdf_change event
// (sparql/rdf-change.ts), from the revision it made and the one before it.
import type { Change, EntityStore } from '../../store/store.js';
import { rdfChangeEvent, revisionTriples, type RdfChangeEvent, type RevisionTriples } from '../../sparql/rdf-change.js';
import { mirrorLayout } from '../../sparql/mirror-triples.js';
import { conceptVocabulary } from '../vocabulary.js';
import type { Config } from '../../config.js';
import type { SiteTable } from '../../domain/sites.js';

/** Revisions whose triples are kept: an edit's "after" is the next edit's "before", and followers read alike. */
const CACHED_REVISIONS = 2000;

export type RdfChangeRenderer = (store: EntityStore, changes: readonly Change[]) => Promise<RdfChangeEvent[]>;

/**
 * Renders pages of changes as events. Each revision's triples are written once and kept (a revision never
 * changes), so a follower in step renders each revision once, not twice.
 */
export function rdfChangeRenderer(services: { config: Config; sites: SiteTable }): RdfChangeRenderer {
  const cache = new Map<string, Promise<RevisionTriples>>();
  return async (store, changes) => {
    const setup = { vocabulary: conceptVocabulary(services.config), sites: services.sites, flavor: 'full' as const };
    const layout = mirrorLayout(setup.vocabulary);
    const domain = new URL(services.config.publicUrl).host;
    const triples = (entity: string, revision: number): Promise<RevisionTriples> => {
      const key = `${entity}@${revision}`;
      let found = cache.get(key);
      if (found) {
        cache.delete(key); // most recently used last
      } else {
        found = store.readRevision(entity, revision).then((content) => revisionTriples(layout, setup, entity, content));
        found.catch(() => cache.delete(key));
      }
      cache.set(key, found);
      if (cache.size > CACHED_REVISIONS) cache.delete(cache.keys().next().value!);
      return found;
    };
    const events: RdfChangeEvent[] = [];
    for (const change of changes) {
      const [previous] = await store.revisions(change.entity, 1, change.revision);
      const [before, after] = await Promise.all([previous ? triples(change.entity, previous.revision) : null, triples(change.entity, change.revision)]);
      events.push(rdfChangeEvent({ cursor: change.cursor, entity: change.entity, revision: change.revision, timestamp: change.timestamp, before, after },
        domain));
    }
    return events;
  };
}
