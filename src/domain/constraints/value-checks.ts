// The checks of one value against a constraint's parameters (format, one-of, range, units, integer), for
// check.ts: pure, each answering the problem it finds or null. Formats run on RE2, so no pattern can stall a check.
import { RE2JS } from 're2js';
import type { Snak } from '../entity.js';
import { compareDecimals, parseDecimal } from '../values/decimal.js';
import type { Constraint } from './model.js';
import { parseEntityId } from '../kinds.js';

/** What a broken constraint says: its message, or that its parameters cannot be used. */
export type Problem = string | { badParameters: string };

export const itemValue = (snak: Pick<Snak, 'value'>): string | null =>
  (snak.value.type === 'value' && typeof snak.value.content === 'string' && parseEntityId(snak.value.content)?.id === snak.value.content ? snak.value.content : null);

export const list = (ids: readonly string[]) => ids.join(', ');

const regexCache = new Map<string, RE2JS | Error>();

/** The pattern compiled on RE2 (linear time, so no pattern can stall the check), or why it cannot be. */
function compiled(pattern: string): RE2JS | Error {
  let re = regexCache.get(pattern);
  if (!re) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      re = e instanceof Error ? e : new Error(String(e));
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

export function format(c: Constraint, snak: Pick<Snak, 'value'>): Problem | null {
  if (snak.value.type !== 'value') return null;
  const content = snak.value.content as unknown;
  const text = typeof content === 'string' ? content : (content as { text?: unknown } | null)?.text;
  if (typeof text !== 'string') return null;
  if (c.format === null) return { badParameters: 'A format constraint needs its regular expression (P1793).' };
  const re = compiled(c.format);
  if (re instanceof Error) return { badParameters: `The format ${c.format} cannot be used: ${re.message}.` };
  return re.matches(text) ? null : `The value "${text}" should match the format ${c.format}.`;
}

export function oneOf(c: Constraint, snak: Pick<Snak, 'value'>, allowed: boolean): Problem | null {
  const value = snak.value.type === 'value' ? itemValue(snak) : snak.value.type;
  if (value === null) return null;
  const listed = c.items.includes(value);
  if (listed === allowed) return null;
  return allowed ? `The value ${value} should be one of ${list(c.items)}.` : `The value ${value} should not be one of ${list(c.items)}.`;
}

export function range(c: Constraint, snak: Pick<Snak, 'value'>): Problem | null {
  const value = magnitude(snak);
  if (value === null) return null;
  const min = magnitude({ value: { type: 'value', content: c.minimum } });
  const max = magnitude({ value: { type: 'value', content: c.maximum } });
  if ((min !== null && value < min) || (max !== null && value > max)) {
    return `The value should be between ${shown(c.minimum) ?? '−∞'} and ${shown(c.maximum) ?? '∞'}.`;
  }
  return null;
}

export function shown(bound: unknown): string | null {
  const b = bound as { amount?: string; time?: string } | null;
  return b?.amount ?? b?.time ?? null;
}

/** A quantity's amount, or a time as years (fractions for months and days), comparable as numbers. */
export function magnitude(snak: Pick<Snak, 'value'>): number | null {
  if (snak.value.type !== 'value') return null;
  const c = snak.value.content as { amount?: unknown; time?: unknown } | null;
  if (typeof c?.amount === 'string') return Number(c.amount);
  if (typeof c?.time === 'string') {
    const m = /^([+-])(\d+)-(\d\d)-(\d\d)/.exec(c.time);
    if (!m) return null;
    const year = Number(m[2]) * (m[1] === '-' ? -1 : 1);
    return year + Math.max(Number(m[3]) - 1, 0) / 12 + Math.max(Number(m[4]) - 1, 0) / 365;
  }
  return null;
}

export function units(c: Constraint, snak: Pick<Snak, 'value'>): Problem | null {
  if (snak.value.type !== 'value') return null;
  const unit = (snak.value.content as { unit?: unknown } | null)?.unit;
  if (typeof unit !== 'string') return null;
  const id = unit === '1' ? 'novalue' : unit.slice(unit.lastIndexOf('/') + 1);
  if (c.items.includes(id)) return null;
  return unit === '1' ? `This quantity should have a unit (${list(c.items.filter((i) => i !== 'novalue'))}).`
    : `The unit ${id} is not allowed here (allowed: ${list(c.items.map((i) => (i === 'novalue' ? 'none' : i)))}).`;
}

export function integer(snak: Pick<Snak, 'value'>): Problem | null {
  if (snak.value.type !== 'value') return null;
  const c = snak.value.content as Record<string, unknown> | null;
  const amounts = [c?.amount, c?.upperBound, c?.lowerBound].filter((a): a is string => typeof a === 'string');
  const fractional = amounts.some((a) => {
    const d = parseDecimal(a);
    return d !== null && compareDecimals(d, parseDecimal(d.split('.')[0])!) !== 0;
  });
  return fractional ? 'This quantity should be an integer.' : null;
}

export function bounded(snak: Pick<Snak, 'value'>): boolean {
  if (snak.value.type !== 'value') return false;
  return (snak.value.content as Record<string, unknown> | null)?.upperBound !== undefined;
}
