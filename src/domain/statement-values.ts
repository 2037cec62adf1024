// Lookup by statement value (docs/api.md §10.12): which keys an entity's statements are found under, and what
// a client's `P214:113230702` means. Pure: both backends index the keys derived here, and the query side parses
// a condition into the same key, so "found" means the same thing everywhere.
import type { Entity, Statement } from './entity.js';
import { kindOfDataType, parseIdOfKind, PROPERTY } from './kinds.js';

/**
 * The key that means "has a statement of this property, whatever its value" (`P625:*`). Every non-deprecated
 * statement adds it, a `somevalue` or `novalue` one included.
 */
export const ANY_VALUE = '';

/** Longest value key kept in the index; a longer value is found by `P:*` only (strings are at most 1,500). */
export const MAX_VALUE_KEY = 400;

/** One row of the statement-value index: property id, value key. */
export interface ValueKey {
  property: string;
  key: string;
}

/** A decimal amount without its sign when positive and without insignificant zeros: "+1.50" and "1.5" meet. */
export function canonicalAmount(amount: string): string | null {
  const m = /^([+-]?)0*([0-9]*?)(?:\.([0-9]*?)0*)?$/.exec(amount.trim());
  if (!m || !/[0-9]/.test(amount)) return null;
  const whole = m[2] === '' ? '0' : m[2];
  const fraction = m[3] ?? '';
  const digits = fraction === '' ? whole : `${whole}.${fraction}`;
  return m[1] === '-' && digits !== '0' ? `-${digits}` : digits;
}

/** The key of one stored value's content, by its shape; null for a shape nothing is looked up by. */
function keyOfContent(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (typeof content !== 'object' || content === null) return null;
  const c = content as Record<string, unknown>;
  if (typeof c.time === 'string') return c.time;
  if (typeof c.amount === 'string') return canonicalAmount(c.amount);
  if (typeof c.text === 'string') return c.text;
  if (typeof c.latitude === 'number' && typeof c.longitude === 'number') return `${c.latitude},${c.longitude}`;
  return null;
}

/**
 * A time below day precision is also found by its date at that precision: `+1953-01-01T00:00:00Z` at year
 * precision (9, or coarser) by `+1953-00-00T00:00:00Z`, which is what `P569:1953` asks for; at month precision
 * (10) by `+1953-05-00T00:00:00Z`. Null for a day-precision time, whose stored form is its date.
 */
function keyAtPrecision(content: unknown): string | null {
  const c = content as { time?: unknown; precision?: unknown } | null;
  if (typeof c?.time !== 'string' || typeof c.precision !== 'number' || c.precision >= 11) return null;
  const m = /^([+-]\d+)-(\d\d)-\d\dT00:00:00Z$/.exec(c.time);
  return m ? `${m[1]}-${c.precision === 10 ? m[2] : '00'}-00T00:00:00Z` : null;
}

/** The keys one statement is found under; none for a deprecated one (it is kept as wrong, not as a fact). */
function keysOfStatement(statement: Statement): string[] {
  if (statement.rank === 'deprecated') return [];
  const keys = [ANY_VALUE];
  if (statement.value.type === 'value') {
    for (const key of [keyOfContent(statement.value.content), keyAtPrecision(statement.value.content)]) {
      if (key !== null && key !== ANY_VALUE && key.length <= MAX_VALUE_KEY && !keys.includes(key)) keys.push(key);
    }
  }
  return keys;
}

/** Every (property, key) an entity is found under, each once. */
export function statementValueKeys(entity: Pick<Entity, 'statements'>): ValueKey[] {
  const out: ValueKey[] = [];
  for (const [property, group] of Object.entries(entity.statements)) {
    const keys = new Set<string>();
    for (const statement of group) for (const key of keysOfStatement(statement)) keys.add(key);
    for (const key of keys) out.push({ property, key });
  }
  return out;
}

/** A condition of a lookup: the entity has a statement of `property`, with this value key (ANY_VALUE: any). */
export interface StatementCondition {
  property: string;
  key: string;
}

/** Most conditions one lookup or search may combine: each is one more index probe per candidate. */
export const MAX_CONDITIONS = 10;

/**
 * A time as a client writes it: the stored form (`+1952-03-11T00:00:00Z`), or a date at year, month or day
 * precision (`1952`, `1952-03`, `1952-03-11`), which means the stored form at that precision.
 */
function timeKey(value: string): string | null {
  if (/^[+-][0-9]{1,16}-[0-9]{2}-[0-9]{2}T00:00:00Z$/.test(value)) return value;
  const m = /^([+-]?)([0-9]{1,16})(?:-([0-9]{2})(?:-([0-9]{2}))?)?$/.exec(value);
  if (!m || m[2].length < 4) return null;
  return `${m[1] || '+'}${m[2]}-${m[3] ?? '00'}-${m[4] ?? '00'}T00:00:00Z`;
}

/**
 * The key a client's value text stands for, given the property's data type (null when the property is
 * unknown): an amount is compared as a number, a date at its precision, everything else as written.
 */
export function valueKeyOf(text: string, dataType: string | null): string | null {
  if (text === '*') return ANY_VALUE;
  if (text === '' || text.length > MAX_VALUE_KEY) return null;
  if (dataType === 'quantity') return canonicalAmount(text);
  if (dataType === 'time') return timeKey(text);
  if (kindOfDataType(dataType)) return text.toUpperCase();
  return text;
}

/**
 * Splits `P214:113230702` (REST) or `P31=Q5` (CirrusSearch's haswbstatement) at the first separator; a lone
 * property id means any value. Null when the property part is not a property id.
 */
export function splitCondition(text: string, separator: ':' | '='): { property: string; value: string } | null {
  const at = text.indexOf(separator);
  const property = parseIdOfKind(PROPERTY, at < 0 ? text : text.slice(0, at));
  if (!property) return null;
  return { property, value: at < 0 ? '*' : text.slice(at + 1) };
}
