// The change feed's `format=rdf` (docs/api.md §10.10): each change as Wikimedia's rdf_change event
// (sparql/rdf-change.ts), from the revision it made and the one before it.
import type { Change, EntityStore, RevisionContent } from '../../store/store.js';
import { rdfChangeEvent, type RdfChangeEvent } from '../../sparql/rdf-change.js';
import { mirrorLayout } from '../../sparql/mirror-triples.js';
import { conceptVocabulary } from '../entity-data.js';
import type { Services } from '../services.js';

/** The events of a page of changes; each revision is read once, however many of the page's changes need it. */
export async function rdfChangeEvents(store: EntityStore, changes: readonly Change[], services: Pick<Services, 'config' | 'sites'>): Promise<RdfChangeEvent[]> {
  const setup = { vocabulary: conceptVocabulary(services.config), sites: services.sites, flavor: 'full' as const };
  const layout = mirrorLayout(setup.vocabulary);
  const domain = new URL(services.config.publicUrl).host;
  const read = new Map<string, Promise<RevisionContent | null>>();
  const revision = (entity: string, n: number) => {
    const key = `${entity}@${n}`;
    if (!read.has(key)) read.set(key, store.readRevision(entity, n));
    return read.get(key)!;
  };
  const events: RdfChangeEvent[] = [];
  for (const change of changes) {
    const [previous] = await store.revisions(change.entity, 1, change.revision);
    const [before, after] = await Promise.all([previous ? revision(change.entity, previous.revision) : null, revision(change.entity, change.revision)]);
    events.push(rdfChangeEvent({ cursor: change.cursor, entity: change.entity, revision: change.revision, timestamp: change.timestamp, before, after },
      setup, domain, layout));
  }
  return events;
}
