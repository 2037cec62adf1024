// An entity as RDF, the way Wikibase writes it (its RDF binding, "Wikibase/Indexing/RDF Dump Format"): the entity
// and its data node with version and time, terms, sitelinks, statements with ranks, qualifiers, references and
// full value nodes, and the truthy (best-rank) triples. Works on the dump form (wikidata-export.ts), which carries
// each snak's data type, hash and time details. Output is N-Triples lines; ids of value and reference nodes are
// Wikibase's own hashes (wikibase-hash.ts, ADR 0012), so one value has one node whoever writes it. Pure.
import { hash } from 'node:crypto';
import { phpNumberText, referenceHash, snakHash, valueHash } from './wikibase-hash.js';
import { standardDate } from './rdf-time.js';
import {
  A, CC, CC0, COMMONS_DATA, COMMONS_FILE, EARTH, GEO, namespacesOf, OWL, RANK_TERMS, RDF, RDF_FORMAT_VERSION, RDFS, SCHEMA, SKOS, T,
  WIKIBASE, XSD, XSD_DATETIME, XSD_DECIMAL, XSD_DOUBLE, XSD_INTEGER, type Namespaces, type RdfVocabulary,
} from './rdf-vocabulary.js';
import { Graph, iri, plain, tagged, triple, typed } from './rdf-terms.js';
import type { SiteTable } from './sites.js';
import { sitelinkUrl } from './sites.js';
import { entityIdValueId, ITEM, kindNamed } from './kinds.js';
import type { Entity } from './entity.js';
import { toWikidata } from './wikidata-export.js';

type Json = Record<string, any>;

/** What to write: `full`, every part; `truthy`, the entity, its terms, sitelinks and best-rank values only. */
export type RdfFlavor = 'full' | 'truthy';

export interface RdfOptions {
  vocabulary: RdfVocabulary;
  sites: SiteTable;
  flavor: RdfFlavor;
  /** The revision and time the data node states (`schema:version`, `schema:dateModified`). */
  revision?: { id: number; modified: string };
  /** Blank nodes as IRIs under this base (the Query Service's skolem IRIs, sparql/mirror-triples.ts), not `_:` labels. */
  skolemBase?: string;
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
      return date === null ? plain(v.time) : typed(date, XSD_DATETIME);
    }
    case 'quantity': return typed(v.amount, XSD_DECIMAL);
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

/** The lines of a full value node (`wdv:` `subject`), by the value types that have one. */
const VALUE_NODES: Readonly<Record<string, (subject: string, v: Json) => string>> = {
  time(subject, v) {
    const date = standardDate(v.time, v.precision, v.calendarmodel);
    return triple(subject, A, T.timeValue) + triple(subject, T.time, date === null ? plain(v.time) : typed(date, XSD_DATETIME))
      + triple(subject, T.timePrecision, typed(String(v.precision), XSD_INTEGER))
      + triple(subject, T.timeTimezone, typed(String(v.timezone ?? 0), XSD_INTEGER))
      + triple(subject, T.timeCalendarModel, iri(String(v.calendarmodel).trim()));
  },
  quantity: (subject, v) => triple(subject, A, T.quantityValue) + triple(subject, T.quantityAmount, typed(v.amount, XSD_DECIMAL))
    + (v.upperBound !== undefined ? triple(subject, T.quantityUpperBound, typed(v.upperBound, XSD_DECIMAL)) : '')
    + (v.lowerBound !== undefined ? triple(subject, T.quantityLowerBound, typed(v.lowerBound, XSD_DECIMAL)) : '')
    // The unit "1" (none) is Wikidata's item "1" (Q199), as Wikibase writes it.
    + triple(subject, T.quantityUnit, v.unit === '1' ? T.unitOne : iri(v.unit)),
  globecoordinate: (subject, v) => triple(subject, A, T.globeValue) + triple(subject, T.geoLatitude, typed(phpNumberText(v.latitude), XSD_DOUBLE))
    + triple(subject, T.geoLongitude, typed(phpNumberText(v.longitude), XSD_DOUBLE))
    + (v.precision !== null && v.precision !== undefined ? triple(subject, T.geoPrecision, typed(phpNumberText(v.precision), XSD_DOUBLE)) : '')
    + triple(subject, T.geoGlobe, v.globe !== undefined && v.globe !== null ? iri(v.globe) : T.earth),
};

/** A full value node (`wdv:`), written once per graph, for the value types that have one; its IRI, or null. */
function valueNode(graph: Graph, ns: Namespaces, datavalue: Json): string | null {
  const lines = Object.hasOwn(VALUE_NODES, datavalue.type) ? VALUE_NODES[datavalue.type] : undefined;
  if (!lines) return null;
  const subject = iri(ns.value(valueHash(datavalue)));
  if (!graph.hasNode(subject)) graph.addNode(subject, lines(subject, datavalue.value));
  return subject;
}

/** Where a snak's triples go: the graph's own lines, or a reference node's (its lines, written once). */
interface LineSink { add(subject: string, predicate: string, object: string): void }

/** Lines gathered for one shared node. */
class NodeLines implements LineSink {
  text = '';
  add(subject: string, predicate: string, object: string): void {
    this.text += triple(subject, predicate, object);
  }
}

/**
 * One snak about `subject` with the property namespace `simple` (`ps`, `pq`, `pr`, or `direct`) and, for a value
 * with a value node, `full` (`psv`, …): Wikibase's SnakRdfBuilder. A somevalue snak is a blank node labelled
 * from its place, so that writing the same entity twice gives the same graph.
 */
function addSnak(graph: Graph, into: LineSink, ns: Namespaces, subject: string, parent: string, snak: Json, simple: string, full: string | null): void {
  const pid = String(snak.property);
  if (snak.snaktype === 'novalue') {
    into.add(subject, A, ns.propTerm('novalue', pid));
  } else if (snak.snaktype === 'somevalue') {
    const label = hash('md5', [parent, simple, 'v', snakHash(snak)].join('-'));
    into.add(subject, ns.propTerm(simple, pid), graph.blank(label));
  } else if (snak.datavalue) {
    const value = simpleValue(ns, String(snak.datatype), snak.datavalue);
    if (value !== null) into.add(subject, ns.propTerm(simple, pid), value);
    if (full !== null) {
      const node = valueNode(graph, ns, snak.datavalue);
      if (node !== null) into.add(subject, ns.propTerm(full, pid), node);
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
  const graph = new Graph();
  addComponents(graph, namespacesOf(vocabulary), pid, dataType, source);
  return graph.lines();
}

function addComponents(graph: Graph, ns: Namespaces, pid: string, dataType: string, source = 'wikidata'): void {
  const property = iri(ns.entity(pid));
  const simpleKind = iri(OWL + (IRI_TYPES.has(dataType) ? 'ObjectProperty' : 'DatatypeProperty'));
  graph.add(property, iri(`${WIKIBASE}propertyType`), iri(WIKIBASE + ontologyType(dataType)));
  const roles: [string, string, string][] = [
    ['directClaim', 'direct', 'simple'], ['claim', '', 'object'], ['statementProperty', 'statement', 'simple'],
    ['statementValue', 'statement/value', 'object'], ['qualifier', 'qualifier', 'simple'],
    ['qualifierValue', 'qualifier/value', 'object'], ['reference', 'reference', 'simple'],
    ['referenceValue', 'reference/value', 'object'],
  ];
  for (const [role, namespace, kind] of roles) {
    const predicate = ns.propTerm(namespace, pid);
    graph.add(property, iri(WIKIBASE + role), predicate);
    graph.add(predicate, A, kind === 'simple' ? simpleKind : iri(`${OWL}ObjectProperty`));
  }
  const novalue = ns.propTerm('novalue', pid);
  const restriction = graph.blank(hash('md5', ['owl:complementOf', source, pid].join('-')));
  graph.add(property, iri(`${WIKIBASE}novalue`), novalue);
  graph.add(novalue, A, iri(`${OWL}Class`));
  graph.add(novalue, iri(`${OWL}complementOf`), restriction);
  graph.add(restriction, A, iri(`${OWL}Restriction`));
  graph.add(restriction, iri(`${OWL}onProperty`), ns.propTerm('direct', pid));
  graph.add(restriction, iri(`${OWL}someValuesFrom`), iri(`${OWL}Thing`));
}

/** The N-Triples of one entity in the dump form (toWikidata), each line once, in no particular order. */
export function entityTriples(dump: Json, options: RdfOptions): string[] {
  return entityGraph(dump, options).lines();
}

/** One entity in the dump form, written into a graph: its own lines and the shared nodes apart. */
function entityGraph(dump: Json, options: RdfOptions): Graph {
  const ns = namespacesOf(options.vocabulary);
  const graph = new Graph(options.skolemBase);
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
  if (kindNamed(dump.type)?.hasDataType && typeof dump.datatype === 'string') addComponents(graph, ns, id, dump.datatype);
  for (const claims of Object.values(dump.claims ?? {}) as Json[][]) {
    const best = bestStatements(claims);
    for (const claim of claims) addClaim(graph, ns, entity, id, claim, best.has(claim), options.flavor);
  }
  return graph;
}

/** One revision of an entity (Entia's model) in the dump form, with the options that state its revision and time. */
function revisionDump(entity: Entity, head: { revision: number; modified: Date }, options: Omit<RdfOptions, 'revision'>): [Json, RdfOptions] {
  const dump = toWikidata(entity, { id: head.revision, modified: head.modified }, { hashes: false });
  // Named member by member: spreading `options` and adding a member it lacks is slow in V8 11 (ADR 0021).
  const { vocabulary, sites, flavor, skolemBase } = options;
  return [dump, { vocabulary, sites, flavor, skolemBase, revision: { id: head.revision, modified: String(dump.modified) } }];
}

/** The N-Triples of one revision of an entity (Entia's model), stating that revision and its time. */
export function revisionTriples(entity: Entity, head: { revision: number; modified: Date }, options: Omit<RdfOptions, 'revision'>): string[] {
  return entityTriples(...revisionDump(entity, head, options));
}

/** The same triples in their groups (Graph): the entity's own lines, each once, and the shared nodes it uses. */
export function revisionGroups(entity: Entity, head: { revision: number; modified: Date }, options: Omit<RdfOptions, 'revision'>): PartTriples {
  const graph = entityGraph(...revisionDump(entity, head, options));
  return { own: [...new Set([...graph.own, ...graph.common])], shared: graph.shared };
}

/**
 * One part's triples: its own lines, and the shared nodes it uses with their lines (Graph). `common`: own lines
 * that another part of the entity may state too (Graph.common), given apart by a part of an entity and left
 * out when `own` holds them all.
 */
export interface PartTriples {
  own: readonly string[];
  common?: readonly string[];
  shared: ReadonlyMap<string, string>;
}

/**
 * The same triples, part by part: each part of an entity rendered alone, so that a revision which changed one
 * statement renders that statement only (the rdf_change events, sparql/rdf-diff.ts). The union of an
 * entity's parts is entityTriples' answer.
 */
export interface EntityRdfParts {
  /** The entity's type and its data node: `type` is the dump's `item` or `property`. */
  head(type: string): PartTriples;
  /** The data node's revision and time (`schema:version`, `schema:dateModified`), which every edit changes. */
  version(): PartTriples;
  label(language: string, value: string): PartTriples;
  description(language: string, value: string): PartTriples;
  alias(language: string, values: readonly string[]): PartTriples;
  sitelink(siteId: string, link: { title: string; badges?: readonly string[] }): PartTriples;
  /** A property's components, which follow from its data type (propertyComponents). */
  components(dataType: string): PartTriples;
  /** A dump claim; `best`: whether it is among its property's best-ranked statements. */
  claim(claim: Json, best: boolean): PartTriples;
}

export function entityRdfParts(id: string, options: RdfOptions): EntityRdfParts {
  const ns = namespacesOf(options.vocabulary);
  const entity = iri(ns.entity(id));
  const part = (add: (graph: Graph) => void): PartTriples => {
    const graph = new Graph(options.skolemBase);
    add(graph);
    return graph;
  };
  return {
    head: (type) => part((g) => addHead(g, ns, id, type)),
    version: () => part((g) => addVersion(g, ns, id, options)),
    label: (language, value) => part((g) => addLabel(g, entity, language, value)),
    description: (language, value) => part((g) => addDescription(g, entity, language, value)),
    alias: (language, values) => part((g) => { for (const value of values) addAlias(g, entity, language, value); }),
    sitelink: (siteId, link) => part((g) => addSitelink(g, entity, siteId, link, options.sites, ns)),
    components: (dataType) => part((g) => addComponents(g, ns, id, dataType)),
    claim: (claim, best) => part((g) => addClaim(g, ns, entity, id, claim, best, options.flavor)),
  };
}

function addHead(graph: Graph, ns: Namespaces, id: string, type: string): void {
  const entity = iri(ns.entity(id));
  const data = iri(ns.data(id));
  // The ontology's class of the kind is its noun: wikibase:Item, wikibase:Property.
  graph.add(entity, A, iri(WIKIBASE + (kindNamed(type)?.noun ?? ITEM.noun)));
  graph.add(data, A, T.dataset);
  graph.add(data, T.about, entity);
  graph.add(data, T.license, T.cc0);
  graph.add(data, T.softwareVersion, T.formatVersion);
}

function addVersion(graph: Graph, ns: Namespaces, id: string, options: RdfOptions): void {
  const data = iri(ns.data(id));
  if (options.revision) {
    graph.add(data, T.version, typed(String(options.revision.id), XSD_INTEGER));
    graph.add(data, T.dateModified, typed(options.revision.modified, XSD_DATETIME));
  }
}

const LABEL_PREDICATES = [`${RDFS}label`, `${SKOS}prefLabel`, `${SCHEMA}name`].map(iri);
function addLabel(graph: Graph, entity: string, language: string, value: string): void {
  const object = tagged(value, language);
  for (const predicate of LABEL_PREDICATES) graph.add(entity, predicate, object);
}
function addDescription(graph: Graph, entity: string, language: string, value: string): void {
  graph.add(entity, T.description, tagged(value, language));
}
function addAlias(graph: Graph, entity: string, language: string, value: string): void {
  graph.add(entity, T.altLabel, tagged(value, language));
}

/** A claim's truthy triple (best rank only) and, in the full flavour, its statement node. */
function addClaim(graph: Graph, ns: Namespaces, entity: string, id: string, claim: Json, best: boolean, flavor: RdfFlavor): void {
  if (best) addSnak(graph, graph.commonSink, ns, entity, id, claim.mainsnak, 'direct', null);
  if (flavor === 'full') addStatement(graph, ns, entity, claim, best);
}

function addSitelink(graph: Graph, entity: string, siteId: string, link: Json, sites: SiteTable, ns: Namespaces): void {
  const site = Object.hasOwn(sites, siteId) ? sites[siteId] : undefined;
  if (!site) return;
  const url = sitelinkUrl(site, String(link.title));
  const page = iri(url);
  // The site is its scheme and host (Wikibase's SiteLinksRdfBuilder): <https://en.wikipedia.org/>.
  const root = iri(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0].concat('/') ?? sitelinkUrl(site, ''));
  graph.add(page, A, T.article);
  graph.add(page, T.about, entity);
  graph.add(page, T.inLanguage, plain(site.language));
  graph.add(page, T.isPartOf, root);
  graph.add(page, T.name, tagged(String(link.title), site.language));
  graph.addNode(root, triple(root, T.wikiGroup, plain(site.group || 'none')));
  for (const badge of (link.badges ?? []) as string[]) graph.add(page, T.badge, iri(ns.entity(badge)));
}

function addStatement(graph: Graph, ns: Namespaces, entity: string, claim: Json, best: boolean): void {
  const pid = String(claim.mainsnak.property);
  const lname = String(claim.id).replace(/[^\w-]/g, '-');
  const statement = iri(ns.statement(String(claim.id)));
  graph.add(entity, ns.propTerm('', pid), statement);
  graph.add(statement, A, T.statement);
  graph.add(statement, T.rank, RANK_TERMS[claim.rank] ?? RANK_TERMS.normal);
  if (best) graph.add(statement, A, T.bestRank);
  addSnak(graph, graph, ns, statement, lname, claim.mainsnak, 'statement', 'statement/value');
  for (const qualifier of Object.values(claim.qualifiers ?? {}).flat() as Json[]) {
    addSnak(graph, graph, ns, statement, lname, qualifier, 'qualifier', 'qualifier/value');
  }
  for (const reference of (claim.references ?? []) as Json[]) {
    const snaks = Object.values(reference.snaks ?? {}).flat() as Json[];
    const referenceId = referenceHash(snaks);
    const node = iri(ns.reference(referenceId));
    graph.add(statement, T.wasDerivedFrom, node);
    if (graph.hasNode(node)) continue;
    const lines = new NodeLines();
    lines.add(node, A, T.reference);
    for (const snak of snaks) addSnak(graph, lines, ns, node, referenceId, snak, 'reference', 'reference/value');
    graph.addNode(node, lines.text);
  }
}

/** A redirect as Wikibase's dumps and the Query Service hold it: `wd:Q1 owl:sameAs wd:Q2`. */
export function redirectTriple(vocabulary: RdfVocabulary, id: string, target: string): string {
  const ns = namespacesOf(vocabulary);
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
