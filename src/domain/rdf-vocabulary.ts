// The words of Wikibase's RDF (domain/rdf.ts writes with them): the fixed vocabularies under the Query Service's
// prefixes, an instance's own namespaces (entities, statements, values, references, property predicates) derived
// from its concept URI as Wikibase derives them, and the fixed terms every entity writes. Pure.
import { iri, plain } from './rdf-terms.js';

/** The fixed vocabularies of Wikibase's RDF, under the prefixes the Query Service gives them. */
export const VOCABULARIES = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  schema: 'http://schema.org/',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  wikibase: 'http://wikiba.se/ontology#',
  prov: 'http://www.w3.org/ns/prov#',
  geo: 'http://www.opengis.net/ont/geosparql#',
  cc: 'http://creativecommons.org/ns#',
} as const;
export const { rdf: RDF, rdfs: RDFS, xsd: XSD, owl: OWL, schema: SCHEMA, skos: SKOS, wikibase: WIKIBASE, prov: PROV, geo: GEO, cc: CC } = VOCABULARIES;
export const CC0 = 'http://creativecommons.org/publicdomain/zero/1.0/';
export const COMMONS_FILE = 'http://commons.wikimedia.org/wiki/Special:FilePath/';
export const COMMONS_DATA = 'http://commons.wikimedia.org/data/main/';
/** The RDF format version Wikibase writes as `schema:softwareVersion`. */
export const RDF_FORMAT_VERSION = '1.0.0';
const WIKIDATA_ENTITY = 'http://www.wikidata.org/entity/';
export const EARTH = `${WIKIDATA_ENTITY}Q2`;

/** Where an instance's nodes live: concept URIs (`wd:`) and the data documents about them (`wdata:`). */
export interface RdfVocabulary {
  /** `http://www.wikidata.org/entity/`: entities, and statements under `statement/`. */
  conceptBase: string;
  /** `https://www.wikidata.org/wiki/Special:EntityData/`: one data node per entity. */
  dataBase: string;
}

/** The vocabulary's namespaces, derived as Wikibase derives them: properties and values beside `entity/`. */
function namespaces(v: RdfVocabulary) {
  const top = v.conceptBase.replace(/entity\/$/, '');
  const prop = (ns: string, pid: string) => `${top}prop/${ns ? `${ns}/` : ''}${pid}`;
  /** Each property's predicate terms by namespace (`direct`: `<…/prop/direct/P31>`), made once per property. */
  const propTerms = new Map<string, Map<string, string>>();
  return {
    entity: (id: string) => v.conceptBase + id,
    data: (id: string) => v.dataBase + id,
    statement: (id: string) => `${v.conceptBase}statement/${id.replace(/[^\w-]/g, '-')}`,
    value: (hash: string) => `${top}value/${hash}`,
    reference: (hash: string) => `${top}reference/${hash}`,
    prop,
    /** iri(prop(ns, pid)), kept: every snak of every statement names one. */
    propTerm(ns: string, pid: string): string {
      let terms = propTerms.get(pid);
      if (!terms) propTerms.set(pid, terms = new Map());
      let term = terms.get(ns);
      if (term === undefined) terms.set(ns, term = iri(prop(ns, pid)));
      return term;
    },
  };
}
export type Namespaces = ReturnType<typeof namespaces>;

/**
 * The namespaces of a vocabulary, made once per vocabulary: callers build a vocabulary object per request, so
 * they are found by the vocabulary's text. Bounded: a process uses one or two.
 */
const namespacesByVocabulary = new Map<string, Namespaces>();
export function namespacesOf(v: RdfVocabulary): Namespaces {
  const key = `${v.conceptBase} ${v.dataBase}`;
  let ns = namespacesByVocabulary.get(key);
  if (!ns) {
    if (namespacesByVocabulary.size >= 16) namespacesByVocabulary.clear();
    namespacesByVocabulary.set(key, ns = namespaces(v));
  }
  return ns;
}

/** The Query Service's prefixes of an instance's own nodes (`wd:`, `wdt:`, `p:`, `ps:`, …), as namespaces() writes them. */
export function instancePrefixes(v: RdfVocabulary): Record<string, string> {
  const ns = namespacesOf(v);
  const prop = (namespace: string) => ns.prop(namespace, '');
  return {
    wd: ns.entity(''), wds: ns.statement(''), wdv: ns.value(''), wdref: ns.reference(''), wdata: ns.data(''),
    p: prop(''), wdt: prop('direct'), wdtn: prop('direct-normalized'), wdno: prop('novalue'),
    ps: prop('statement'), psv: prop('statement/value'), psn: prop('statement/value-normalized'),
    pq: prop('qualifier'), pqv: prop('qualifier/value'), pqn: prop('qualifier/value-normalized'),
    pr: prop('reference'), prv: prop('reference/value'), prn: prop('reference/value-normalized'),
  };
}

// The fixed terms, made once: every entity writes them hundreds of times.
export const A = iri(`${RDF}type`);
const wb = (name: string) => iri(WIKIBASE + name);
export const T = {
  timeValue: wb('TimeValue'), time: wb('timeValue'), timePrecision: wb('timePrecision'), timeTimezone: wb('timeTimezone'),
  timeCalendarModel: wb('timeCalendarModel'), quantityValue: wb('QuantityValue'), quantityAmount: wb('quantityAmount'),
  quantityUpperBound: wb('quantityUpperBound'), quantityLowerBound: wb('quantityLowerBound'), quantityUnit: wb('quantityUnit'),
  globeValue: wb('GlobecoordinateValue'), geoLatitude: wb('geoLatitude'), geoLongitude: wb('geoLongitude'),
  geoPrecision: wb('geoPrecision'), geoGlobe: wb('geoGlobe'), statement: wb('Statement'), rank: wb('rank'), bestRank: wb('BestRank'),
  reference: wb('Reference'), wikiGroup: wb('wikiGroup'), badge: wb('badge'), wasDerivedFrom: iri(`${PROV}wasDerivedFrom`),
  article: iri(`${SCHEMA}Article`), about: iri(`${SCHEMA}about`), inLanguage: iri(`${SCHEMA}inLanguage`),
  isPartOf: iri(`${SCHEMA}isPartOf`), name: iri(`${SCHEMA}name`), description: iri(`${SCHEMA}description`),
  altLabel: iri(`${SKOS}altLabel`), dataset: iri(`${SCHEMA}Dataset`), license: iri(`${CC}license`), cc0: iri(CC0),
  softwareVersion: iri(`${SCHEMA}softwareVersion`), formatVersion: plain(RDF_FORMAT_VERSION), version: iri(`${SCHEMA}version`),
  dateModified: iri(`${SCHEMA}dateModified`), unitOne: iri(`${WIKIDATA_ENTITY}Q199`), earth: iri(EARTH),
};
export const RANK_TERMS: Record<string, string> = { preferred: wb('PreferredRank'), normal: wb('NormalRank'), deprecated: wb('DeprecatedRank') };
export const XSD_DECIMAL = `${XSD}decimal`;
export const XSD_INTEGER = `${XSD}integer`;
export const XSD_DOUBLE = `${XSD}double`;
export const XSD_DATETIME = `${XSD}dateTime`;
