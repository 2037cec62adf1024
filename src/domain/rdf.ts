// An entity as RDF, the way Wikibase writes it (its RDF binding, "Wikibase/Indexing/RDF Dump Format"): the entity
// and its data node with version and time, terms, sitelinks, statements with ranks, qualifiers, references and
// full value nodes, and the truthy (best-rank) triples. Works on the dump form (wikidata-export.ts), which carries
// each snak's data type, hash and time details. Output is N-Triples lines; ids of value and reference nodes are
// Wikibase's own hashes (wikibase-hash.ts, ADR 0012), so one value has one node whoever writes it. Pure.
import { createHash } from 'node:crypto';
import { phpNumberText, referenceHash, snakHash, valueHash } from './wikibase-hash.js';
import { standardDate } from './rdf-time.js';
import { blank, Graph, iri, plain, tagged, typed } from './rdf-terms.js';
import type { SiteTable } from './sites.js';
import { sitelinkUrl } from './sites.js';
import { entityIdValueId, ITEM, kindNamed } from './kinds.js';
import type { Entity } from './entity.js';
import { toWikidata } from './wikidata-export.js';

type Json = Record<string, any>;

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
const { rdf: RDF, rdfs: RDFS, xsd: XSD, owl: OWL, schema: SCHEMA, skos: SKOS, wikibase: WIKIBASE, prov: PROV, geo: GEO, cc: CC } = VOCABULARIES;
const CC0 = 'http://creativecommons.org/publicdomain/zero/1.0/';
const COMMONS_FILE = 'http://commons.wikimedia.org/wiki/Special:FilePath/';
const COMMONS_DATA = 'http://commons.wikimedia.org/data/main/';
/** The RDF format version Wikibase writes as `schema:softwareVersion`. */
export const RDF_FORMAT_VERSION = '1.0.0';
const WIKIDATA_ENTITY = 'http://www.wikidata.org/entity/';
const EARTH = `${WIKIDATA_ENTITY}Q2`;

/** Where an instance's nodes live: concept URIs (`wd:`) and the data documents about them (`wdata:`). */
export interface RdfVocabulary {
  /** `http://www.wikidata.org/entity/`: entities, and statements under `statement/`. */
  conceptBase: string;
  /** `https://www.wikidata.org/wiki/Special:EntityData/`: one data node per entity. */
  dataBase: string;
}

/** What to write: `full`, every part; `truthy`, the entity, its terms, sitelinks and best-rank values only. */
export type RdfFlavor = 'full' | 'truthy';

export interface RdfOptions {
  vocabulary: RdfVocabulary;
  sites: SiteTable;
  flavor: RdfFlavor;
  /** The revision and time the data node states (`schema:version`, `schema:dateModified`). */
  revision?: { id: number; modified: string };
}

/** The vocabulary's namespaces, derived as Wikibase derives them: properties and values beside `entity/`. */
function namespaces(v: RdfVocabulary) {
  const top = v.conceptBase.replace(/entity\/$/, '');
  return {
    entity: (id: string) => v.conceptBase + id,
    data: (id: string) => v.dataBase + id,
    statement: (id: string) => `${v.conceptBase}statement/${id.replace(/[^\w-]/g, '-')}`,
    value: (hash: string) => `${top}value/${hash}`,
    reference: (hash: string) => `${top}reference/${hash}`,
    prop: (ns: string, pid: string) => `${top}prop/${ns ? `${ns}/` : ''}${pid}`,
  };
}
type Namespaces = ReturnType<typeof namespaces>;

/** The Query Service's prefixes of an instance's own nodes (`wd:`, `wdt:`, `p:`, `ps:`, …), as namespaces() writes them. */
export function instancePrefixes(v: RdfVocabulary): Record<string, string> {
  const ns = namespaces(v);
  const prop = (namespace: string) => ns.prop(namespace, '');
  return {
    wd: ns.entity(''), wds: ns.statement(''), wdv: ns.value(''), wdref: ns.reference(''), wdata: ns.data(''),
    p: prop(''), wdt: prop('direct'), wdtn: prop('direct-normalized'), wdno: prop('novalue'),
    ps: prop('statement'), psv: prop('statement/value'), psn: prop('statement/value-normalized'),
    pq: prop('qualifier'), pqv: prop('qualifier/value'), pqn: prop('qualifier/value-normalized'),
    pr: prop('reference'), prv: prop('reference/value'), prn: prop('reference/value-normalized'),
  };
}

// ---- Values --------------------------------------------------------------------------------------------------

/** A snak's simple value (`ps:`, `pq:`, `pr:`, `wdt:`), or null for a value with no simple form. */
function simpleValue(ns: Namespaces, dataType: string, datavalue: Json): string | null {
  const v = datavalue.value;
  switch (datavalue.type) {
    case 'wikibase-entityid': return iri(ns.entity(entityIdValueId(v) ?? ''));
    case 'monolingualtext': return tagged(v.text, v.language);
    case 'time': {
      const date = standardDate(v.time, v.precision, v.calendarmodel);
      return date === null ? plain(v.time) : typed(date, `${XSD}dateTime`);
    }
    case 'quantity': return typed(v.amount, `${XSD}decimal`);
    case 'globecoordinate': {
      const point = `Point(${phpNumberText(v.longitude)} ${phpNumberText(v.latitude)})`;
      return typed(v.globe && v.globe !== EARTH ? `<${v.globe}> ${point}` : point, `${GEO}wktLiteral`);
    }
    case 'string':
      switch (dataType) {
        case 'url': return iri(String(v).trim());
        case 'commonsMedia': return iri(COMMONS_FILE + encodeURIComponent(String(v).replace(/ /g, '_')).replace(/%2F/g, '/'));
        case 'geo-shape':
        case 'tabular-data': return iri(COMMONS_DATA + encodeURIComponent(String(v).replace(/ /g, '_')).replace(/%3A/g, ':').replace(/%2F/g, '/'));
        default: return plain(String(v));
      }
    default: return null;
  }
}

/** A full value node (`wdv:`), for the value types that have one; its IRI, or null. */
function valueNode(graph: Graph, ns: Namespaces, datavalue: Json): string | null {
  const v = datavalue.value;
  const node = () => iri(ns.value(valueHash(datavalue)));
  switch (datavalue.type) {
    case 'time': {
      const subject = node();
      const date = standardDate(v.time, v.precision, v.calendarmodel);
      graph.add(subject, iri(`${RDF}type`), iri(`${WIKIBASE}TimeValue`));
      graph.add(subject, iri(`${WIKIBASE}timeValue`), date === null ? plain(v.time) : typed(date, `${XSD}dateTime`));
      graph.add(subject, iri(`${WIKIBASE}timePrecision`), typed(String(v.precision), `${XSD}integer`));
      graph.add(subject, iri(`${WIKIBASE}timeTimezone`), typed(String(v.timezone ?? 0), `${XSD}integer`));
      graph.add(subject, iri(`${WIKIBASE}timeCalendarModel`), iri(String(v.calendarmodel).trim()));
      return subject;
    }
    case 'quantity': {
      const subject = node();
      graph.add(subject, iri(`${RDF}type`), iri(`${WIKIBASE}QuantityValue`));
      graph.add(subject, iri(`${WIKIBASE}quantityAmount`), typed(v.amount, `${XSD}decimal`));
      if (v.upperBound !== undefined) graph.add(subject, iri(`${WIKIBASE}quantityUpperBound`), typed(v.upperBound, `${XSD}decimal`));
      if (v.lowerBound !== undefined) graph.add(subject, iri(`${WIKIBASE}quantityLowerBound`), typed(v.lowerBound, `${XSD}decimal`));
      // The unit "1" (none) is Wikidata's item "1" (Q199), as Wikibase writes it.
      graph.add(subject, iri(`${WIKIBASE}quantityUnit`), iri(v.unit === '1' ? `${WIKIDATA_ENTITY}Q199` : v.unit));
      return subject;
    }
    case 'globecoordinate': {
      const subject = node();
      graph.add(subject, iri(`${RDF}type`), iri(`${WIKIBASE}GlobecoordinateValue`));
      graph.add(subject, iri(`${WIKIBASE}geoLatitude`), typed(phpNumberText(v.latitude), `${XSD}double`));
      graph.add(subject, iri(`${WIKIBASE}geoLongitude`), typed(phpNumberText(v.longitude), `${XSD}double`));
      if (v.precision !== null && v.precision !== undefined) graph.add(subject, iri(`${WIKIBASE}geoPrecision`), typed(phpNumberText(v.precision), `${XSD}double`));
      graph.add(subject, iri(`${WIKIBASE}geoGlobe`), iri(v.globe ?? EARTH));
      return subject;
    }
    default: return null;
  }
}

/**
 * One snak about `subject` with the property namespace `simple` (`ps`, `pq`, `pr`, or `direct`) and, for a value
 * with a value node, `full` (`psv`, …): Wikibase's SnakRdfBuilder. A somevalue snak is a blank node labelled
 * from its place, so that writing the same entity twice gives the same graph.
 */
function addSnak(graph: Graph, ns: Namespaces, subject: string, parent: string, snak: Json, simple: string, full: string | null): void {
  const pid = String(snak.property);
  if (snak.snaktype === 'novalue') {
    graph.add(subject, iri(`${RDF}type`), iri(ns.prop('novalue', pid)));
  } else if (snak.snaktype === 'somevalue') {
    const label = createHash('md5').update([parent, simple, 'v', snakHash(snak)].join('-')).digest('hex');
    graph.add(subject, iri(ns.prop(simple, pid)), blank(label));
  } else if (snak.datavalue) {
    const value = simpleValue(ns, String(snak.datatype), snak.datavalue);
    if (value !== null) graph.add(subject, iri(ns.prop(simple, pid)), value);
    if (full !== null) {
      const node = valueNode(graph, ns, snak.datavalue);
      if (node !== null) graph.add(subject, iri(ns.prop(full, pid)), node);
    }
  }
}

/** The statements of each property that are best: the preferred ones, else the normal ones; never deprecated. */
function bestStatements(claims: Json[]): Set<Json> {
  const preferred = claims.filter((c) => c.rank === 'preferred');
  return new Set(preferred.length ? preferred : claims.filter((c) => c.rank === 'normal'));
}

/** Data types whose simple value is an IRI: their simple-value predicates are `owl:ObjectProperty`. */
const IRI_TYPES = new Set(['wikibase-item', 'wikibase-property', 'wikibase-lexeme', 'wikibase-form', 'wikibase-sense',
  'commonsMedia', 'url', 'geo-shape', 'tabular-data', 'entity-schema']);

/** Wikibase's name of a data type in the ontology: `wikibase-item` is `wikibase:WikibaseItem`. */
const ontologyType = (dataType: string) => dataType.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/**
 * What a property says about the predicates named after it (Wikibase's PropertySpecificComponentsRdfBuilder):
 * its data type, the predicate of each role (`wikibase:directClaim` → `wdt:P31`, …) with its OWL kind, and the
 * class of entities with no value (`wdno:P31`, the complement of having a `wdt:P31`). `source`: the entity source
 * name in the stable label of that class's blank node (Wikidata's is `wikidata`).
 */
export function propertyComponents(vocabulary: RdfVocabulary, pid: string, dataType: string, source = 'wikidata'): string[] {
  const ns = namespaces(vocabulary);
  const graph = new Graph();
  const property = iri(ns.entity(pid));
  const a = iri(`${RDF}type`);
  const simpleKind = iri(OWL + (IRI_TYPES.has(dataType) ? 'ObjectProperty' : 'DatatypeProperty'));
  graph.add(property, iri(`${WIKIBASE}propertyType`), iri(WIKIBASE + ontologyType(dataType)));
  const roles: [string, string, string][] = [
    ['directClaim', 'direct', 'simple'], ['claim', '', 'object'], ['statementProperty', 'statement', 'simple'],
    ['statementValue', 'statement/value', 'object'], ['qualifier', 'qualifier', 'simple'],
    ['qualifierValue', 'qualifier/value', 'object'], ['reference', 'reference', 'simple'],
    ['referenceValue', 'reference/value', 'object'],
  ];
  for (const [role, namespace, kind] of roles) {
    const predicate = iri(ns.prop(namespace, pid));
    graph.add(property, iri(WIKIBASE + role), predicate);
    graph.add(predicate, a, kind === 'simple' ? simpleKind : iri(`${OWL}ObjectProperty`));
  }
  const novalue = iri(ns.prop('novalue', pid));
  const restriction = blank(createHash('md5').update(['owl:complementOf', source, pid].join('-')).digest('hex'));
  graph.add(property, iri(`${WIKIBASE}novalue`), novalue);
  graph.add(novalue, a, iri(`${OWL}Class`));
  graph.add(novalue, iri(`${OWL}complementOf`), restriction);
  graph.add(restriction, a, iri(`${OWL}Restriction`));
  graph.add(restriction, iri(`${OWL}onProperty`), iri(ns.prop('direct', pid)));
  graph.add(restriction, iri(`${OWL}someValuesFrom`), iri(`${OWL}Thing`));
  return [...graph.lines];
}

const RANKS: Record<string, string> = { preferred: 'PreferredRank', normal: 'NormalRank', deprecated: 'DeprecatedRank' };

/** The N-Triples of one entity in the dump form (toWikidata), each line once, in no particular order. */
export function entityTriples(dump: Json, options: RdfOptions): string[] {
  const ns = namespaces(options.vocabulary);
  const graph = new Graph();
  const id = String(dump.id);
  const entity = iri(ns.entity(id));
  addHead(graph, ns, id, String(dump.type));
  addVersion(graph, ns, id, options);
  for (const term of Object.values(dump.labels ?? {}) as Json[]) addLabel(graph, entity, term.language, term.value);
  for (const term of Object.values(dump.descriptions ?? {}) as Json[]) addDescription(graph, entity, term.language, term.value);
  for (const list of Object.values(dump.aliases ?? {}) as Json[][]) {
    for (const term of list) addAlias(graph, entity, term.language, term.value);
  }
  for (const [siteId, link] of Object.entries(dump.sitelinks ?? {}) as [string, Json][]) addSitelink(graph, entity, siteId, link, options.sites, ns);
  if (kindNamed(dump.type)?.hasDataType && typeof dump.datatype === 'string') {
    for (const line of propertyComponents(options.vocabulary, id, dump.datatype)) graph.lines.add(line);
  }
  for (const claims of Object.values(dump.claims ?? {}) as Json[][]) {
    const best = bestStatements(claims);
    for (const claim of claims) addClaim(graph, ns, entity, id, claim, best.has(claim), options.flavor);
  }
  return [...graph.lines];
}

/** The N-Triples of one revision of an entity (Entia's model), stating that revision and its time. */
export function revisionTriples(entity: Entity, head: { revision: number; modified: Date }, options: Omit<RdfOptions, 'revision'>): string[] {
  const dump = toWikidata(entity, { id: head.revision, modified: head.modified }, { hashes: false });
  return entityTriples(dump, { ...options, revision: { id: head.revision, modified: String(dump.modified) } });
}

/**
 * The same triples, part by part: each part of an entity rendered alone, so that a revision which changed one
 * statement renders that statement only (the rdf_change events, sparql/rdf-diff.ts). The union of an
 * entity's parts is entityTriples' answer.
 */
export interface EntityRdfParts {
  /** The entity's type and its data node: `type` is the dump's `item` or `property`. */
  head(type: string): string[];
  /** The data node's revision and time (`schema:version`, `schema:dateModified`), which every edit changes. */
  version(): string[];
  label(language: string, value: string): string[];
  description(language: string, value: string): string[];
  alias(language: string, values: readonly string[]): string[];
  sitelink(siteId: string, link: { title: string; badges?: readonly string[] }): string[];
  /** A property's components, which follow from its data type (propertyComponents). */
  components(dataType: string): string[];
  /** A dump claim; `best`: whether it is among its property's best-ranked statements. */
  claim(claim: Json, best: boolean): string[];
}

export function entityRdfParts(id: string, options: RdfOptions): EntityRdfParts {
  const ns = namespaces(options.vocabulary);
  const entity = iri(ns.entity(id));
  const part = (add: (graph: Graph) => void) => {
    const graph = new Graph();
    add(graph);
    return [...graph.lines];
  };
  return {
    head: (type) => part((g) => addHead(g, ns, id, type)),
    version: () => part((g) => addVersion(g, ns, id, options)),
    label: (language, value) => part((g) => addLabel(g, entity, language, value)),
    description: (language, value) => part((g) => addDescription(g, entity, language, value)),
    alias: (language, values) => part((g) => { for (const value of values) addAlias(g, entity, language, value); }),
    sitelink: (siteId, link) => part((g) => addSitelink(g, entity, siteId, link, options.sites, ns)),
    components: (dataType) => propertyComponents(options.vocabulary, id, dataType),
    claim: (claim, best) => part((g) => addClaim(g, ns, entity, id, claim, best, options.flavor)),
  };
}

function addHead(graph: Graph, ns: Namespaces, id: string, type: string): void {
  const entity = iri(ns.entity(id));
  const data = iri(ns.data(id));
  const a = iri(`${RDF}type`);
  // The ontology's class of the kind is its noun: wikibase:Item, wikibase:Property.
  graph.add(entity, a, iri(WIKIBASE + (kindNamed(type)?.noun ?? ITEM.noun)));
  graph.add(data, a, iri(`${SCHEMA}Dataset`));
  graph.add(data, iri(`${SCHEMA}about`), entity);
  graph.add(data, iri(`${CC}license`), iri(CC0));
  graph.add(data, iri(`${SCHEMA}softwareVersion`), plain(RDF_FORMAT_VERSION));
}

function addVersion(graph: Graph, ns: Namespaces, id: string, options: RdfOptions): void {
  const data = iri(ns.data(id));
  if (options.revision) {
    graph.add(data, iri(`${SCHEMA}version`), typed(String(options.revision.id), `${XSD}integer`));
    graph.add(data, iri(`${SCHEMA}dateModified`), typed(options.revision.modified, `${XSD}dateTime`));
  }
}

const LABEL_PREDICATES = [`${RDFS}label`, `${SKOS}prefLabel`, `${SCHEMA}name`].map(iri);
function addLabel(graph: Graph, entity: string, language: string, value: string): void {
  for (const predicate of LABEL_PREDICATES) graph.add(entity, predicate, tagged(value, language));
}
function addDescription(graph: Graph, entity: string, language: string, value: string): void {
  graph.add(entity, iri(`${SCHEMA}description`), tagged(value, language));
}
function addAlias(graph: Graph, entity: string, language: string, value: string): void {
  graph.add(entity, iri(`${SKOS}altLabel`), tagged(value, language));
}

/** A claim's truthy triple (best rank only) and, in the full flavour, its statement node. */
function addClaim(graph: Graph, ns: Namespaces, entity: string, id: string, claim: Json, best: boolean, flavor: RdfFlavor): void {
  if (best) addSnak(graph, ns, entity, id, claim.mainsnak, 'direct', null);
  if (flavor === 'full') addStatement(graph, ns, entity, claim, best);
}

function addSitelink(graph: Graph, entity: string, siteId: string, link: Json, sites: SiteTable, ns: Namespaces): void {
  const site = Object.hasOwn(sites, siteId) ? sites[siteId] : undefined;
  if (!site) return;
  const url = sitelinkUrl(site, String(link.title));
  const page = iri(url);
  // The site is its scheme and host (Wikibase's SiteLinksRdfBuilder): <https://en.wikipedia.org/>.
  const root = iri(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0].concat('/') ?? sitelinkUrl(site, ''));
  graph.add(page, iri(`${RDF}type`), iri(`${SCHEMA}Article`));
  graph.add(page, iri(`${SCHEMA}about`), entity);
  graph.add(page, iri(`${SCHEMA}inLanguage`), plain(site.language));
  graph.add(page, iri(`${SCHEMA}isPartOf`), root);
  graph.add(page, iri(`${SCHEMA}name`), tagged(String(link.title), site.language));
  graph.add(root, iri(`${WIKIBASE}wikiGroup`), plain(site.group || 'none'));
  for (const badge of (link.badges ?? []) as string[]) graph.add(page, iri(`${WIKIBASE}badge`), iri(ns.entity(badge)));
}

function addStatement(graph: Graph, ns: Namespaces, entity: string, claim: Json, best: boolean): void {
  const pid = String(claim.mainsnak.property);
  const lname = String(claim.id).replace(/[^\w-]/g, '-');
  const statement = iri(ns.statement(String(claim.id)));
  const a = iri(`${RDF}type`);
  graph.add(entity, iri(ns.prop('', pid)), statement);
  graph.add(statement, a, iri(`${WIKIBASE}Statement`));
  graph.add(statement, iri(`${WIKIBASE}rank`), iri(WIKIBASE + (RANKS[claim.rank] ?? 'NormalRank')));
  if (best) graph.add(statement, a, iri(`${WIKIBASE}BestRank`));
  addSnak(graph, ns, statement, lname, claim.mainsnak, 'statement', 'statement/value');
  for (const qualifier of Object.values(claim.qualifiers ?? {}).flat() as Json[]) {
    addSnak(graph, ns, statement, lname, qualifier, 'qualifier', 'qualifier/value');
  }
  for (const reference of (claim.references ?? []) as Json[]) {
    const snaks = Object.values(reference.snaks ?? {}).flat() as Json[];
    const hash = referenceHash(snaks);
    const node = iri(ns.reference(hash));
    graph.add(statement, iri(`${PROV}wasDerivedFrom`), node);
    graph.add(node, a, iri(`${WIKIBASE}Reference`));
    for (const snak of snaks) addSnak(graph, ns, node, hash, snak, 'reference', 'reference/value');
  }
}

/** A redirect as Wikibase's dumps and the Query Service hold it: `wd:Q1 owl:sameAs wd:Q2`. */
export function redirectTriple(vocabulary: RdfVocabulary, id: string, target: string): string {
  const ns = namespaces(vocabulary);
  return `${iri(ns.entity(id))} ${iri(`${OWL}sameAs`)} ${iri(ns.entity(target))} .`;
}

/** The triples a whole dump starts with (Wikibase's dump header): what it is, its licence, format and time. */
export function dumpHeader(modified: string): string[] {
  const dump = iri(`${WIKIBASE}Dump`);
  const a = iri(`${RDF}type`);
  return [
    `${dump} ${a} ${iri(`${SCHEMA}Dataset`)} .`,
    `${dump} ${a} ${iri('http://www.w3.org/2002/07/owl#Ontology')} .`,
    `${dump} ${iri(`${CC}license`)} ${iri(CC0)} .`,
    `${dump} ${iri(`${SCHEMA}softwareVersion`)} ${plain(RDF_FORMAT_VERSION)} .`,
    `${dump} ${iri(`${SCHEMA}dateModified`)} ${typed(modified, `${XSD}dateTime`)} .`,
    `${dump} ${iri('http://www.w3.org/2002/07/owl#imports')} ${iri('http://wikiba.se/ontology-1.0.owl')} .`,
  ];
}
