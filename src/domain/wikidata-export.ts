// Entia entities in the Wikidata JSON dump format (the inverse of wikidata.ts): what `entia export --format
// wikidata|jsonl` writes, readable by `entia import` and by other dump tools. Terms become {language, value},
// statements become claims with a mainsnak and typed datavalues, qualifiers and reference parts are grouped by
// property with their order kept in `qualifiers-order` / `snaks-order`. Pure.
import type { Entity, Snak, SourceDetails, Statement, TimeDetails } from './entity.js';
import { timeKey } from './source-details.js';
import { snakHash } from './wikibase-hash.js';
import { DATA_TYPES } from './values/index.js';
import { ITEM, kindByName, numericPart, pageOf, parseEntityId } from './kinds.js';

type Json = Record<string, unknown>;

/** The dump's datavalue type of each value type (docs/api.md §5). */
const DATAVALUE_TYPES: Record<string, string> = {
  string: 'string', 'wikibase-entityid': 'wikibase-entityid', time: 'time', quantity: 'quantity',
  globecoordinate: 'globecoordinate', monolingualtext: 'monolingualtext',
};

function datavalue(dataType: string, content: unknown, details: TimeDetails | undefined): Json {
  const valueType = DATA_TYPES[dataType as keyof typeof DATA_TYPES] ?? 'string';
  const c = content as Json;
  switch (valueType) {
    case 'wikibase-entityid': {
      const id = String(content);
      return { type: 'wikibase-entityid',
        value: { 'entity-type': parseEntityId(id)?.kind.name ?? ITEM.name, 'numeric-id': numericPart(id), id } };
    }
    case 'time':
      return { type: 'time', value: { time: c.time, timezone: details?.timezone ?? 0, before: details?.before ?? 0,
        after: details?.after ?? 0, precision: c.precision, calendarmodel: c.calendarmodel } };
    case 'globecoordinate':
      return { type: 'globecoordinate', value: { latitude: c.latitude, longitude: c.longitude, altitude: null, precision: c.precision, globe: c.globe } };
    default:
      return { type: DATAVALUE_TYPES[valueType] ?? 'string', value: content };
  }
}

/** Where a snak stands, for the source details of its time value (source-details.ts); none for a bare snak. */
interface SnakPlace {
  statementId: string;
  source: SourceDetails | undefined;
  /** False leaves the hash out: the RDF writer names its nodes from values and references, not snaks. */
  hashes?: boolean;
}

/**
 * A snak in the dump format, with its hash as Wikibase computes it (ADR 0012); null for a snak whose property no
 * longer exists (its data type is unknown).
 */
export function toWikidataSnak(s: Snak, place?: SnakPlace): Json | null {
  const dataType = s.property['data-type'];
  if (!dataType) return null;
  const out: Json = { snaktype: s.value.type, property: s.property.id };
  if (s.value.type === 'value') {
    const details = place?.source?.times?.[timeKey(place.statementId, s.property.id, s.value.content)];
    out.datavalue = datavalue(dataType, s.value.content, details);
  }
  if (place?.hashes !== false) out.hash = snakHash(out);
  out.datatype = dataType;
  return out;
}

/** Snaks grouped by property, first appearance first, with the order the dump format keeps beside them. */
function grouped(snaks: readonly Snak[], place: SnakPlace): { groups: Record<string, Json[]>; order: string[] } {
  const groups: Record<string, Json[]> = {};
  for (const s of snaks) {
    const converted = toWikidataSnak(s, place);
    if (converted) (groups[s.property.id] ??= []).push(converted);
  }
  return { groups, order: Object.keys(groups) };
}

/**
 * A statement as a dump claim; `source`: its entity's source details (source-details.ts). `hashes: false` leaves
 * the snaks' hashes out (an SHA-1 each, which the RDF of a claim does not use).
 */
export function toWikidataClaim(statement: Statement, source?: SourceDetails, { hashes = true } = {}): Json | null {
  const place = { statementId: statement.id, source, hashes };
  const mainsnak = toWikidataSnak(statement, place);
  if (!mainsnak) return null;
  const out: Json = { mainsnak, type: 'statement', id: statement.id, rank: statement.rank };
  if (statement.qualifiers.length) {
    const { groups, order } = grouped(statement.qualifiers, place);
    out.qualifiers = groups;
    out['qualifiers-order'] = order;
  }
  if (statement.references.length) {
    out.references = statement.references.map((r) => {
      const { groups, order } = grouped(r.parts, place);
      return { hash: r.hash, snaks: groups, 'snaks-order': order };
    });
  }
  return out;
}

const terms = (map: Record<string, string>) =>
  Object.fromEntries(Object.entries(map).map(([language, value]) => [language, { language, value }]));

/**
 * One entity as a dump line's object. `revision` (Entia's) becomes `lastrevid` and `modified`; an imported
 * entity's own source revision and time come beside them as `source_lastrevid` and `source_modified`.
 * `hashes: false` leaves out the snaks' hashes (for the RDF writer, which does not use them).
 */
export function toWikidata(entity: Entity, revision?: { id: number; modified: Date }, { hashes = true } = {}): Json {
  const kind = kindByName(entity.type);
  const out: Json = { type: entity.type, id: entity.id, ...pageOf(kind, entity.id) };
  if (kind.hasDataType) out.datatype = entity.data_type;
  if (revision) {
    out.lastrevid = revision.id;
    out.modified = revision.modified.toISOString().replace('.000Z', 'Z');
  }
  if (entity.source?.lastrevid !== undefined) out.source_lastrevid = entity.source.lastrevid;
  if (entity.source?.modified !== undefined) out.source_modified = entity.source.modified;
  out.labels = terms(entity.labels);
  out.descriptions = terms(entity.descriptions);
  out.aliases = Object.fromEntries(Object.entries(entity.aliases)
    .map(([language, list]) => [language, list.map((value) => ({ language, value }))]));
  out.claims = Object.fromEntries(Object.entries(entity.statements)
    .map(([property, group]) => [property, group.map((s) => toWikidataClaim(s, entity.source, { hashes })).filter((c): c is Json => c !== null)])
    .filter(([, group]) => (group as Json[]).length > 0));
  if (kind.hasSitelinks) {
    out.sitelinks = Object.fromEntries(Object.entries(entity.sitelinks ?? {})
      .map(([site, link]) => [site, { site, title: link.title, badges: link.badges }]));
  }
  return out;
}
