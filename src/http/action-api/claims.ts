// Claims and snaks between the Action API's shape (`mainsnak`, `datavalue`, snaks grouped by property) and the
// contract's (`property`, `value: {type, content}`, flat lists). Input is only reshaped here: whether a value
// suits its property, a language or a site exists, is decided by the same domain parsers as for the REST
// routes (domain/statements.ts), when the edited document is parsed.
import type { Snak, SourceDetails, Statement } from '../../domain/entity.js';
import { isPlainObject } from '../../domain/problems.js';
import { datavalueContent } from '../../domain/wikidata.js';
import { toWikidataSnak } from '../../domain/wikidata-export.js';
// A snak's hash as the Action API shows it beside qualifiers and uses to name one (wbsetqualifier): Wikibase's.
import { snakHash } from '../../domain/wikibase-hash.js';
import { refuse, type Json } from './protocol.js';

const SNAK_TYPES = ['value', 'somevalue', 'novalue'];
const RANKS = ['preferred', 'normal', 'deprecated'];

function invalidSnak(why: string): never {
  return refuse('invalid-snak', `Invalid snak: ${why}.`);
}

const withHash = (snak: Json): Json => ({ ...snak, hash: snakHash(snak) });

/** A dump-format claim with hashes on its snaks, as wbgetentities and the edit modules answer claims. */
export function hashedClaim(claim: Json): Json {
  const out: Json = { ...claim, mainsnak: withHash(claim.mainsnak as Json) };
  if (isPlainObject(claim.qualifiers)) {
    out.qualifiers = Object.fromEntries(Object.entries(claim.qualifiers)
      .map(([pid, group]) => [pid, (group as Json[]).map(withHash)]));
  }
  return out;
}

export function hashedClaims(claims: Record<string, Json[]>): Record<string, Json[]> {
  return Object.fromEntries(Object.entries(claims).map(([pid, group]) => [pid, group.map(hashedClaim)]));
}

/** The hash of a stored qualifier, as the Action API names it (its statement and entity's source details included). */
export function storedSnakHash(snak: Snak, statementId: string, source: SourceDetails | undefined): string | null {
  const converted = toWikidataSnak(snak, { statementId, source });
  return converted ? snakHash(converted) : null;
}

/** The contract's `{type, content}` of a snak's type and datavalue. */
function snakValue(snaktype: unknown, datavalue: unknown): Json {
  if (typeof snaktype !== 'string' || !SNAK_TYPES.includes(snaktype)) return invalidSnak('"snaktype" must be value, somevalue or novalue');
  if (snaktype !== 'value') return { type: snaktype };
  if (!isPlainObject(datavalue)) return invalidSnak('a value snak needs a "datavalue"');
  const content = datavalueContent(datavalue);
  if (content === undefined) return invalidSnak(`unknown datavalue type ${JSON.stringify(datavalue.type)}`);
  return { type: 'value', content };
}

/**
 * A bare datavalue `value` (wbcreateclaim, wbsetclaimvalue, wbsetqualifier send no type): its type told by its
 * shape, as each value type's fields differ.
 */
export function valueFromAction(snaktype: string, v: unknown): Json {
  if (snaktype !== 'value') return snakValue(snaktype, undefined);
  const o = isPlainObject(v) ? v : {};
  const type = typeof v === 'string' ? 'string'
    : 'numeric-id' in o || 'entity-type' in o || 'id' in o ? 'wikibase-entityid'
      : 'time' in o ? 'time' : 'amount' in o ? 'quantity' : 'latitude' in o ? 'globecoordinate'
        : 'text' in o ? 'monolingualtext' : null;
  return snakValue('value', { type, value: v });
}

/** One Action API snak as a contract snak (`{property: {id}, value}`). */
function snakFromAction(raw: unknown): Json {
  if (!isPlainObject(raw)) return invalidSnak('a snak must be an object');
  if (typeof raw.property !== 'string') return invalidSnak('a snak needs a "property"');
  return { property: { id: raw.property.toUpperCase() }, value: snakValue(raw.snaktype, raw.datavalue) };
}

/**
 * Snaks grouped by property (`{"P1": [snak, …]}`) in `order` when given, or already a list (wbsetreference takes
 * both), as a flat list of contract snaks.
 */
export function snakListFromAction(groups: unknown, order?: unknown): Json[] {
  if (groups === undefined) return [];
  if (Array.isArray(groups)) return groups.map(snakFromAction);
  if (!isPlainObject(groups)) return invalidSnak('snaks must be grouped by property');
  const keys = Array.isArray(order) ? order.map(String) : Object.keys(groups);
  for (const key of Object.keys(groups)) if (!keys.includes(key)) keys.push(key);
  return keys.flatMap((key) => {
    const group = groups[key];
    if (group === undefined) return [];
    if (!Array.isArray(group)) return invalidSnak(`the snaks of ${key} must be a list`);
    return group.map(snakFromAction);
  });
}

/** A dump-format claim as a contract statement; its id, if any, is kept for the caller to match. */
export function statementFromAction(raw: unknown): Json {
  if (!isPlainObject(raw)) return refuse('invalid-claim', 'A claim must be a JSON object.');
  const main = snakFromAction(raw.mainsnak);
  const rank = raw.rank ?? 'normal';
  if (typeof rank !== 'string' || !RANKS.includes(rank)) return refuse('invalid-claim', 'Unknown rank.');
  const references = raw.references ?? [];
  if (!Array.isArray(references)) return refuse('invalid-claim', '"references" must be a list.');
  const out: Json = {
    rank,
    qualifiers: snakListFromAction(raw.qualifiers, raw['qualifiers-order']),
    references: references.map((r) => {
      if (!isPlainObject(r)) return refuse('invalid-claim', 'A reference must be a JSON object.');
      return { parts: snakListFromAction(r.snaks, r['snaks-order']) };
    }),
    ...main,
  };
  if (raw.id !== undefined) out.id = raw.id;
  return out;
}

/** The stored statement with this id (ids compared as Wikibase does: the entity part case-insensitively). */
export function statementById(statements: Record<string, Statement[]>, id: string): Statement | null {
  for (const group of Object.values(statements)) {
    const found = group.find((s) => s.id === id || s.id.toUpperCase() === id.toUpperCase());
    if (found) return found;
  }
  return null;
}
