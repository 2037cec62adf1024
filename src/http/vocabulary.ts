// The IRIs an instance's RDF is written under: entities under ENTIA_CONCEPT_URI (Wikidata's by default), data
// nodes under the public URL's Special:EntityData. A leaf: EntityData, the change feed's RDF and SPARQL use it.
import type { Config } from '../config.js';
import type { RdfVocabulary } from '../domain/rdf-vocabulary.js';

/** Where this instance's RDF nodes live: its concept URIs, and data nodes at its own Special:EntityData. */
export function conceptVocabulary(config: Pick<Config, 'conceptUri' | 'publicUrl'>): RdfVocabulary {
  return { conceptBase: config.conceptUri, dataBase: `${config.publicUrl}/wiki/Special:EntityData/` };
}
