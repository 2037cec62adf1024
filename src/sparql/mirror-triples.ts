// How the SPARQL mirror lays out an entity's RDF (domain/rdf.ts) in the engine: the triples that only this
// entity can state (about the entity, its data node, statements, sitelink pages, its property predicates) go in
// a named graph of its own, so that an edit replaces them by dropping one graph; the nodes entities share
// (values and references, named by their hashes, and the sites' root pages) go in the default graph once,
// and are removed when nothing points at them any more. Queries read the union of all graphs, which has each
// triple once. Pure.
import type { Entity } from '../domain/entity.js';
import { redirectTriple, revisionGroups, type PartTriples } from '../domain/rdf.js';
import { instancePrefixes, type RdfVocabulary } from '../domain/rdf-vocabulary.js';
import type { EngineSetup, MirrorEntity } from './engine-protocol.js';

export interface MirrorLayout {
  /** The IRI a blank node becomes (the Query Service's skolem IRIs: `…/.well-known/genid/<label>`). */
  genidBase: string;
  /** The named graph holding one entity's own triples. */
  graphOf(id: string): string;
  /** Whether an IRI names a reference node (collected before the values it uses). */
  isReference(iri: string): boolean;
}

/** Where blank nodes become IRIs, beside the instance's `entity/` (Wikidata: `…/.well-known/genid/`). */
export function genidBase(vocabulary: RdfVocabulary): string {
  return `${vocabulary.conceptBase.replace(/entity\/$/, '')}.well-known/genid/`;
}

export function mirrorLayout(vocabulary: RdfVocabulary): MirrorLayout {
  const { wdref: reference } = instancePrefixes(vocabulary);
  return {
    genidBase: genidBase(vocabulary),
    graphOf: (id) => `${vocabulary.conceptBase}${id}`,
    isReference: (iri) => iri.startsWith(reference),
  };
}

const NOTHING: PartTriples = { own: [], shared: new Map() };

/**
 * The triples of one entity as the mirror holds it, in their groups (its own lines, and the shared nodes it uses
 * by IRI): the RDF of its stored document with blank nodes as skolem IRIs (Wikibase labels them from their place,
 * so the same node written twice, or saved and loaded again, stays one node), a redirect's `owl:sameAs` (as the
 * Query Service holds it), or none (it is gone). The external sync writes these; the mirror counts them to
 * estimate the engine's size.
 */
export function mirrorTriples(entity: MirrorEntity, setup: EngineSetup): PartTriples {
  if (entity.redirect) return { own: [redirectTriple(setup.vocabulary, entity.id, entity.redirect)], shared: new Map() };
  if (entity.json === undefined || !entity.head) return NOTHING;
  return revisionGroups(JSON.parse(entity.json) as Entity, { revision: entity.head.revision, modified: new Date(entity.head.modified) },
    { vocabulary: setup.vocabulary, sites: setup.sites, flavor: setup.flavor, skolemBase: genidBase(setup.vocabulary) });
}

/** How many triples a grouping holds (a shared node's lines end with a line break each). */
export function tripleCount({ own, shared }: PartTriples): number {
  let n = own.length;
  for (const lines of shared.values()) for (let i = lines.indexOf('\n'); i !== -1; i = lines.indexOf('\n', i + 1)) n++;
  return n;
}
