// The SPARQL mirror's RDF writer: a thread of its own that turns stored documents into the triples the engine
// loads (domain/rdf.ts, laid out by mirror-triples.ts) and passes them straight to the engine's thread. Writing
// RDF costs about as much as the engine's loading it; in two threads the two overlap, so a build goes at the
// engine's own loading speed (docs/adr/0013).
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Entity } from '../domain/entity.js';
import { entityTriples, redirectTriple } from '../domain/rdf.js';
import { toWikidata } from '../domain/wikidata-export.js';
import { mirrorLayout, splitTriples } from './mirror-triples.js';
import type { EngineReply, EngineRequest, EngineSetup, MirrorEntity, PreparedEntity, WriterRequest } from './engine-protocol.js';

const { setup, engine } = workerData as { setup: EngineSetup; engine: MessagePort };
const { vocabulary, sites, flavor } = setup;
const layout = mirrorLayout(vocabulary);

/** The lines of one entity as the mirror holds it: its RDF, or a redirect's `owl:sameAs` (as the Query Service). */
function linesOf(entity: MirrorEntity): string[] {
  if (entity.redirect) return [redirectTriple(vocabulary, entity.id, entity.redirect)];
  if (entity.json === undefined || !entity.head) return [];
  const dump = toWikidata(JSON.parse(entity.json) as Entity, { id: entity.head.revision, modified: new Date(entity.head.modified) });
  return entityTriples(dump, { vocabulary, sites, flavor, revision: { id: entity.head.revision, modified: String(dump.modified) } });
}

parentPort!.on('message', (request: WriterRequest) => {
  try {
    const entities: PreparedEntity[] = request.entities.map((e) => ({ id: e.id, ...splitTriples(layout, e.id, linesOf(e)) }));
    engine.postMessage({ id: request.id, op: 'put', entities, fresh: request.fresh } satisfies EngineRequest);
  } catch (e) {
    // A document the writer cannot read fails its own request, through the engine so that order is kept.
    parentPort!.postMessage({ id: request.id, ok: false, error: (e as Error).message } satisfies EngineReply);
  }
});
