// An entity as RDF, the way Wikibase writes it (its RDF binding, "Wikibase/Indexing/RDF Dump Format"): the entity
// and its data node with version and time, terms, sitelinks, statements with ranks, qualifiers, references and
// full value nodes, and the truthy (best-rank) triples. Works on the dump form (wikidata-export.ts), which carries
// each snak's data type, hash and time details. Output is N-Triples lines; ids of value and reference nodes are
// Wikibase's own hashes (wikibase-hash.ts, ADR 0012), so one value has one node whoever writes it. Pure.
import { createHash } from 'node:crypto';
import { phpNumberText, referenceHash, snakHash, valueHash } from './wikibase-hash.js';
import type { SiteTable } from './sites.js';
import { sitelinkUrl } from './sites.js';

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
const GREGORIAN = `${WIKIDATA_ENTITY}Q1985727`;
const JULIAN = `${WIKIDATA_ENTITY}Q1985786`;

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

// ---- N-Triples terms -------------------------------------------------------------------------------------

/** An IRI term; characters an IRI may not hold are percent-encoded (a URL value can hold anything). */
const IRI_UNSAFE = /[\u0000-\u0020<>"{}|^`\\]/;
const IRI_UNSAFE_ALL = new RegExp(IRI_UNSAFE.source, 'g');
export function iri(text: string): string {
  // Most IRIs need nothing: tested first, since this runs for nearly every term of every entity.
  if (!IRI_UNSAFE.test(text)) return `<${text}>`;
  return `<${text.replace(IRI_UNSAFE_ALL, (c) => encodeURIComponent(c))}>`;
}

/** A literal's lexical form, ASCII only: `\"`, `\\`, `\n`, `\r`, `\t`, and `\uXXXX` / `\UXXXXXXXX` beyond. */
const LITERAL_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
function escapeLiteral(text: string): string {
  if (LITERAL_PLAIN.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0xffff)) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    else if (cp > 0xffff) out += `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`;
    else out += ch;
  }
  return out;
}

const plain = (text: string) => `"${escapeLiteral(text)}"`;
const tagged = (text: string, language: string) => `"${escapeLiteral(text)}"@${language}`;
const typed = (text: string, type: string) => `"${escapeLiteral(text)}"^^<${type}>`;
const blank = (label: string) => `_:${label}`;

/** Triples as N-Triples lines, each written once. */
class Graph {
  readonly lines = new Set<string>();
  add(subject: string, predicate: string, object: string): void {
    this.lines.add(`${subject} ${predicate} ${object} .`);
  }
}

// ---- Values --------------------------------------------------------------------------------------------------

/**
 * Wikibase's `xsd:dateTime` of a time value (its JulianDateTimeValueCleaner): a Julian date of day precision
 * converted to the Gregorian calendar; a Gregorian one, or any coarser than a day, with XSD 1.1 years (1 BCE is
 * 0000) and an unknown month or day as 01; null (the time is then written as a plain literal) for a day in
 * another calendar.
 */
export function standardDate(time: string, precision: number, calendar: string): string | null {
  if (calendar === JULIAN && precision >= 11) return julianToGregorian(time);
  if (calendar !== GREGORIAN && precision >= 11) return null;
  const m = /^([+-])(\d+)-(\d\d)-(\d\d)T(.*)$/.exec(time);
  if (!m) return null;
  let minus = m[1] === '-' ? '-' : '';
  let year = m[2].replace(/^0+/, '');
  if (year === '') return null; // year 0 is invalid
  let month = Math.min(12, Math.max(1, Number(m[3])));
  let day = Math.max(1, Number(m[4]));
  if (precision <= 9) { day = 1; month = 1; } else if (precision === 10) day = 1;
  if (!(day <= 28 || (month !== 2 && day <= 30))) day = Math.min(day, daysInMonth(month, Number(year) * (minus ? -1 : 1)));
  if (precision >= 9 && minus) {
    year = (BigInt(year) - 1n).toString();
    if (year === '0') minus = '';
  }
  return `${minus}${year.padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${m[5]}`;
}

function daysInMonth(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A Julian date of day precision as the Gregorian date of the same day (through its Julian day number). */
function julianToGregorian(time: string): string | null {
  const m = /^([+-])(\d+)-(\d\d)-(\d\d)T(.*)$/.exec(time);
  if (!m) return null;
  let year = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  if (year < 0) year += 1; // astronomical numbering: 1 BCE is year 0
  const month = Number(m[3]);
  const day = Number(m[4]);
  if (!Number.isSafeInteger(year) || month < 1 || day < 1) return null;
  const a = Math.floor((14 - month) / 12);
  const y = year + 4800 - a;
  const mm = month + 12 * a - 3;
  const jdn = day + Math.floor((153 * mm + 2) / 5) + 365 * y + Math.floor(y / 4) - 32083;
  const b = jdn + 32044;
  const c = Math.floor((4 * b + 3) / 146097);
  const d = b - Math.floor(146097 * c / 4);
  const e = Math.floor((4 * d + 3) / 1461);
  const f = d - Math.floor(1461 * e / 4);
  const g = Math.floor((5 * f + 2) / 153);
  const gd = f - Math.floor((153 * g + 2) / 5) + 1;
  const gm = g + 3 - 12 * Math.floor(g / 10);
  const gy = 100 * c + e - 4800 + Math.floor(g / 10);
  const sign = gy < 0 ? '-' : '';
  return `${sign}${String(Math.abs(gy)).padStart(4, '0')}-${String(gm).padStart(2, '0')}-${String(gd).padStart(2, '0')}T${m[5]}`;
}

/** A snak's simple value (`ps:`, `pq:`, `pr:`, `wdt:`), or null for a value with no simple form. */
function simpleValue(ns: Namespaces, dataType: string, datavalue: Json): string | null {
  const v = datavalue.value;
  switch (datavalue.type) {
    case 'wikibase-entityid': return iri(ns.entity(v.id ?? `${v['entity-type'] === 'property' ? 'P' : 'Q'}${v['numeric-id']}`));
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
const KIND_TYPES: Record<string, string> = { item: 'Item', property: 'Property' };

/** The N-Triples of one entity in the dump form (toWikidata), each line once, in no particular order. */
export function entityTriples(dump: Json, options: RdfOptions): string[] {
  const ns = namespaces(options.vocabulary);
  const graph = new Graph();
  const id = String(dump.id);
  const entity = iri(ns.entity(id));
  const data = iri(ns.data(id));
  const a = iri(`${RDF}type`);
  graph.add(entity, a, iri(WIKIBASE + (KIND_TYPES[dump.type] ?? 'Item')));
  graph.add(data, a, iri(`${SCHEMA}Dataset`));
  graph.add(data, iri(`${SCHEMA}about`), entity);
  graph.add(data, iri(`${CC}license`), iri(CC0));
  graph.add(data, iri(`${SCHEMA}softwareVersion`), plain(RDF_FORMAT_VERSION));
  if (options.revision) {
    graph.add(data, iri(`${SCHEMA}version`), typed(String(options.revision.id), `${XSD}integer`));
    graph.add(data, iri(`${SCHEMA}dateModified`), typed(options.revision.modified, `${XSD}dateTime`));
  }
  for (const term of Object.values(dump.labels ?? {}) as Json[]) {
    for (const predicate of [`${RDFS}label`, `${SKOS}prefLabel`, `${SCHEMA}name`]) graph.add(entity, iri(predicate), tagged(term.value, term.language));
  }
  for (const term of Object.values(dump.descriptions ?? {}) as Json[]) graph.add(entity, iri(`${SCHEMA}description`), tagged(term.value, term.language));
  for (const list of Object.values(dump.aliases ?? {}) as Json[][]) {
    for (const term of list) graph.add(entity, iri(`${SKOS}altLabel`), tagged(term.value, term.language));
  }
  addSitelinks(graph, entity, dump.sitelinks ?? {}, options.sites, ns);
  if (dump.type === 'property' && typeof dump.datatype === 'string') {
    for (const line of propertyComponents(options.vocabulary, id, dump.datatype)) graph.lines.add(line);
  }
  for (const claims of Object.values(dump.claims ?? {}) as Json[][]) {
    const best = bestStatements(claims);
    for (const claim of claims) {
      if (best.has(claim)) addSnak(graph, ns, entity, id, claim.mainsnak, 'direct', null);
      if (options.flavor === 'full') addStatement(graph, ns, entity, claim, best.has(claim));
    }
  }
  return [...graph.lines];
}

function addSitelinks(graph: Graph, entity: string, sitelinks: Json, sites: SiteTable, ns: Namespaces): void {
  for (const [siteId, link] of Object.entries(sitelinks) as [string, Json][]) {
    const site = Object.hasOwn(sites, siteId) ? sites[siteId] : undefined;
    if (!site) continue;
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
