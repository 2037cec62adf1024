// How the SPARQL mirror lays out an entity's RDF (domain/rdf.ts) in the engine: the triples that only this
// entity can state (about the entity, its data node, statements, sitelink pages, its property predicates) go in
// a named graph of its own, so that an edit replaces them by dropping one graph; the nodes entities share
// (values and references, named by their hashes, and the sites' root pages) go in the default graph once,
// and are removed when nothing points at them any more. Queries read the union of all graphs, which has each
// triple once. Pure.
import type { Entity } from '../domain/entity.js';
import { instancePrefixes, redirectTriple, revisionTriples, type RdfVocabulary } from '../domain/rdf.js';
import type { EngineSetup, MirrorEntity } from './engine-protocol.js';

export interface MirrorLayout {
  /** The IRI a blank node becomes (the Query Service's skolem IRIs: `…/.well-known/genid/<label>`). */
  genidBase: string;
  /** The named graph holding one entity's own triples. */
  graphOf(id: string): string;
  /** Whether a triple's subject is a node entities share (it goes in the default graph). */
  isShared(line: string): boolean;
  /** Whether an IRI names a reference node (collected before the values it uses). */
  isReference(iri: string): boolean;
}

const WIKI_GROUP = '<http://wikiba.se/ontology#wikiGroup>';

/** Where blank nodes become IRIs, beside the instance's `entity/` (Wikidata: `…/.well-known/genid/`). */
export function genidBase(vocabulary: RdfVocabulary): string {
  return `${vocabulary.conceptBase.replace(/entity\/$/, '')}.well-known/genid/`;
}

export function mirrorLayout(vocabulary: RdfVocabulary): MirrorLayout {
  const { wdv: value, wdref: reference } = instancePrefixes(vocabulary);
  return {
    genidBase: genidBase(vocabulary),
    graphOf: (id) => `${vocabulary.conceptBase}${id}`,
    isShared: (line) => line.startsWith(`<${value}`) || line.startsWith(`<${reference}`) || line.includes(` ${WIKI_GROUP} `),
    isReference: (iri) => iri.startsWith(reference),
  };
}

const BLANK_SUBJECT = /^_:([A-Za-z0-9]+) /;
const BLANK_OBJECT = / _:([A-Za-z0-9]+) \.$/;

/**
 * A line with its blank nodes made IRIs, as the Query Service stores them: Wikibase labels them from their
 * place (domain/rdf.ts), so the same node written twice, or saved and loaded again, stays one node (an engine
 * renames blank nodes on every load). A literal never matches: it ends in a quote, a language or a type.
 */
export function skolemize(layout: MirrorLayout, line: string): string {
  if (!line.includes('_:')) return line;
  return line.replace(BLANK_SUBJECT, (_, label) => `<${layout.genidBase}${label}> `)
    .replace(BLANK_OBJECT, (_, label) => ` <${layout.genidBase}${label}> .`);
}

/** An entity's triples, skolemised: its own N-Triples lines, and each shared node's N-Triples by the node's IRI. */
export function groupTriples(layout: MirrorLayout, triples: readonly string[]): { own: string[]; shared: Map<string, string> } {
  const own: string[] = [];
  const shared = new Map<string, string>();
  for (const triple of triples) {
    const line = skolemize(layout, triple);
    if (layout.isShared(line)) {
      const subject = line.slice(1, line.indexOf('>'));
      shared.set(subject, `${shared.get(subject) ?? ''}${line}\n`);
    } else {
      own.push(line);
    }
  }
  return { own, shared };
}

/**
 * The triples of one entity as the mirror holds it: the RDF of its stored document, a redirect's `owl:sameAs`
 * (as the Query Service holds it), or none (it is gone). The RDF writer writes these; the mirror counts them to
 * estimate the engine's size.
 */
export function mirrorLines(entity: MirrorEntity, setup: EngineSetup): string[] {
  if (entity.redirect) return [redirectTriple(setup.vocabulary, entity.id, entity.redirect)];
  if (entity.json === undefined || !entity.head) return [];
  return revisionTriples(JSON.parse(entity.json) as Entity, { revision: entity.head.revision, modified: new Date(entity.head.modified) }, setup);
}
