// Conversion from the Wikidata JSON dump format (Special:EntityData / latest-all.json: `claims` with
// `mainsnak`, terms as {language, value}) to Entia entities. Pure; the import command feeds it.
// Data Entia cannot serve is dropped and counted rather than stored half-valid: terms in languages outside
// the term-language list, sitelinks to unknown sites, snaks of unsupported data types (lexemes, schemas).
import { emptyEntity, type Entity, type Reference, type Snak, type SourceDetails, type Statement, type TimeDetails, type Value } from './entity.js';
import { timeDetailsOf, timeKey } from './source-details.js';
import { ITEM, kindByName, kindNamed, parseEntityId } from './kinds.js';
import { isTermLanguage } from './languages.js';
import type { SiteTable } from './sites.js';
import { isDataType } from './values/index.js';

export interface ConversionReport {
  droppedTerms: number;
  droppedSitelinks: number;
  droppedStatements: number;
  /** Property ids the statements use, with their data type from the snaks. */
  propertyTypes: Map<string, string>;
}

export function newReport(): ConversionReport {
  return { droppedTerms: 0, droppedSitelinks: 0, droppedStatements: 0, propertyTypes: new Map() };
}

type Json = Record<string, any>;

/**
 * What `entia import` keeps of a dump (docs/api.md Part 2, "Importing"): entities of these types, with these
 * ids, having any of these statements (a property with a given item id or string value, or with any value),
 * and of those only the terms in these languages and the sitelinks to these sites (or none).
 */
export interface DumpFilter {
  types?: ReadonlySet<string>;
  ids?: ReadonlySet<string>;
  has?: readonly { property: string; value: string | null }[];
  languages?: ReadonlySet<string>;
  sites?: ReadonlySet<string> | 'none';
}

/** Whether the dump entity passes the filter's entity conditions (types, ids, statements). */
export function passesFilter(raw: Json, filter: DumpFilter): boolean {
  if (filter.types && !filter.types.has(String(raw.type))) return false;
  if (filter.ids && !filter.ids.has(String(raw.id).toUpperCase())) return false;
  if (filter.has && filter.has.length > 0) return filter.has.some((wanted) => hasStatement(raw, wanted.property, wanted.value));
  return true;
}

function hasStatement(raw: Json, property: string, value: string | null): boolean {
  const claims: Json[] = Array.isArray(raw.claims?.[property]) ? raw.claims[property] : [];
  if (value === null) return claims.length > 0;
  return claims.some((claim) => {
    const v = claim?.mainsnak?.datavalue?.value;
    return typeof v === 'string' ? v === value : typeof v?.id === 'string' && v.id.toUpperCase() === value.toUpperCase();
  });
}

/** Converts one dump entity, or returns null for what Entia does not store (lexemes, media info, redirects). */
export function fromWikidata(raw: Json, sites: SiteTable, report: ConversionReport, filter: DumpFilter = {}): Entity | null {
  const parsed = typeof raw?.id === 'string' ? parseEntityId(raw.id) : null;
  const kind = kindNamed(raw?.type);
  if (!parsed || !kind) return null;
  if (kind.hasDataType && !isDataType(raw.datatype)) return null;
  const entity = emptyEntity(parsed.id, parsed.kind.name, kind.hasDataType ? raw.datatype : undefined);
  entity.labels = terms(raw.labels, 'labels', report, filter.languages);
  entity.descriptions = terms(raw.descriptions, 'descriptions', report, filter.languages);
  for (const [lang, list] of Object.entries<Json[]>(raw.aliases ?? {})) {
    if (filter.languages && !filter.languages.has(lang)) continue;
    if (!isTermLanguage(lang, 'aliases')) { report.droppedTerms += list.length; continue; }
    const values = [...new Set(list.map((a) => String(a.value)))];
    if (values.length) entity.aliases[lang] = values;
  }
  const times: Record<string, TimeDetails> = {};
  for (const [pid, claims] of Object.entries<Json[]>(raw.claims ?? {})) {
    const group = claims.map((c) => statement(c, report, times)).filter((s): s is Statement => s !== null);
    if (group.length) entity.statements[pid] = group;
  }
  const source = sourceDetails(raw, times);
  if (source) entity.source = source;
  if (kindByName(entity.type).hasSitelinks && filter.sites !== 'none') {
    for (const [site, link] of Object.entries<Json>(raw.sitelinks ?? {})) {
      if (filter.sites && !filter.sites.has(site)) continue;
      if (!Object.hasOwn(sites, site)) { report.droppedSitelinks++; continue; }
      entity.sitelinks![site] = { title: String(link.title), badges: Array.isArray(link.badges) ? link.badges : [] };
    }
  }
  return entity;
}

function terms(map: Json | undefined, field: 'labels' | 'descriptions', report: ConversionReport,
  languages?: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [lang, term] of Object.entries<Json>(map ?? {})) {
    if (languages && !languages.has(lang)) continue;
    if (isTermLanguage(lang, field)) out[lang] = String(term.value);
    else report.droppedTerms++;
  }
  return out;
}

/** The source's revision and time, and the time details collected from its statements; null when there are none. */
function sourceDetails(raw: Json, times: Record<string, TimeDetails>): SourceDetails | null {
  const source: SourceDetails = {};
  if (Number.isSafeInteger(raw.lastrevid) && raw.lastrevid > 0) source.lastrevid = raw.lastrevid;
  if (typeof raw.modified === 'string' && raw.modified.length <= 40) source.modified = raw.modified;
  if (Object.keys(times).length) source.times = times;
  return Object.keys(source).length ? source : null;
}

/** Keeps a raw time snak's timezone, before and after, where one is not 0, under its place in the statement. */
function collectTimeDetails(statementId: string, raw: Json | undefined, converted: Snak | null, times: Record<string, TimeDetails>): void {
  if (!converted || converted.value.type !== 'value' || raw?.datavalue?.type !== 'time') return;
  const details = timeDetailsOf(raw.datavalue.value);
  if (details) times[timeKey(statementId, converted.property.id, converted.value.content)] = details;
}

function statement(claim: Json, report: ConversionReport, times: Record<string, TimeDetails>): Statement | null {
  const collect = (raw: Json | undefined, converted: Snak | null) => {
    if (typeof claim.id === 'string') collectTimeDetails(claim.id, raw, converted, times);
    return converted;
  };
  const main = collect(claim.mainsnak, snak(claim.mainsnak, report));
  if (!main || typeof claim.id !== 'string') { report.droppedStatements++; return null; }
  return {
    id: claim.id,
    rank: claim.rank === 'preferred' || claim.rank === 'deprecated' ? claim.rank : 'normal',
    qualifiers: orderedSnaks(claim.qualifiers, claim['qualifiers-order'], report, collect),
    references: (claim.references ?? []).map((r: Json): Reference => ({
      hash: String(r.hash), parts: orderedSnaks(r.snaks, r['snaks-order'], report, collect),
    })),
    property: main.property,
    value: main.value,
  };
}

function orderedSnaks(snaks: Json | undefined, order: string[] | undefined, report: ConversionReport,
  collect: (raw: Json, converted: Snak | null) => Snak | null): Snak[] {
  if (!snaks) return [];
  const pids = order ?? Object.keys(snaks);
  return pids.flatMap((pid) => (snaks[pid] ?? []).map((s: Json) => collect(s, snak(s, report))).filter((s: Snak | null): s is Snak => s !== null));
}

function snak(raw: Json | undefined, report: ConversionReport): Snak | null {
  if (!raw || typeof raw.property !== 'string' || !isDataType(raw.datatype)) return null;
  report.propertyTypes.set(raw.property, raw.datatype);
  const property = { id: raw.property, 'data-type': raw.datatype as string };
  if (raw.snaktype === 'somevalue' || raw.snaktype === 'novalue') return { property, value: { type: raw.snaktype } };
  const content = datavalueContent(raw.datavalue);
  return content === undefined ? null : { property, value: { type: 'value', content } as Value };
}

/**
 * docs/api.md §5: the REST content shape of each dump value type; undefined for a type Entia does not know. Also
 * reads untrusted input (the Action API's edits): a malformed value is reshaped, not trusted, and the REST
 * parsers then refuse it.
 */
export function datavalueContent(dv: Json | undefined): unknown {
  const v = dv?.value;
  const o: Json = v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
  switch (dv?.type) {
    case 'string':
      return v;
    case 'wikibase-entityid':
      return typeof o.id === 'string' ? o.id : (kindNamed(o['entity-type']) ?? ITEM).prefix + o['numeric-id'];
    case 'time':
      return { time: o.time, precision: o.precision, calendarmodel: o.calendarmodel };
    case 'quantity': {
      // Pywikibot sends `null` bounds for a quantity without them.
      const q: Json = { amount: o.amount, unit: o.unit };
      if (o.upperBound !== undefined && o.upperBound !== null) q.upperBound = o.upperBound;
      if (o.lowerBound !== undefined && o.lowerBound !== null) q.lowerBound = o.lowerBound;
      return q;
    }
    case 'globecoordinate':
      return { latitude: o.latitude, longitude: o.longitude, precision: o.precision, globe: o.globe };
    case 'monolingualtext':
      return { text: o.text, language: o.language };
    default:
      return undefined;
  }
}
