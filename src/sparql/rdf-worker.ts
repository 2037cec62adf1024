// The SPARQL mirror's RDF writer: a thread of its own that turns stored documents into the triples the engine
// loads (domain/rdf.ts, laid out by mirror-triples.ts) and passes them straight to the engine's thread. Writing
// RDF costs about as much as the engine's loading it; in two threads the two overlap (docs/adr/0013 has the
// figures).
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { mirrorLayout, mirrorLines, splitTriples } from './mirror-triples.js';
import type { EngineReply, EngineRequest, EngineSetup, PreparedEntity, WriterRequest } from './engine-protocol.js';

const { setup, engine } = workerData as { setup: EngineSetup; engine: MessagePort };
const layout = mirrorLayout(setup.vocabulary);

parentPort!.on('message', (request: WriterRequest) => {
  try {
    const entities: PreparedEntity[] = request.entities.map((e) => ({ id: e.id, ...splitTriples(layout, e.id, mirrorLines(e, setup)) }));
    engine.postMessage({ id: request.id, op: 'put', entities, fresh: request.fresh } satisfies EngineRequest);
  } catch (e) {
    // A document the writer cannot read fails its own request; the engine never sees it.
    parentPort!.postMessage({ id: request.id, ok: false, error: (e as Error).message } satisfies EngineReply);
  }
});
