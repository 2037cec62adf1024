// Term validation (docs/api.md §6.1, §6.2, §10.1–10.3). Every function takes a base JSON Pointer and throws a
// Problem; the caller decides whether that becomes a body, patch-result or creation error (problems.ts).
import type { AliasMap, TermField, TermMap } from './entity.js';
import { sameJson } from './entity.js';
import { parseIdOfKind, type Kind } from './kinds.js';
import { isTermLanguage } from './languages.js';
import { isPlainObject, pointer, problem } from './problems.js';
import { hasControlCharacter } from './text.js';

export const TERM_MAX_LENGTH = 250;

/** §6.1 step 2: PHP's default `trim` set — other Unicode spaces are rejected (step 5), not trimmed. */
const TRIMMED = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;
/** §6.1 step 5: TAB or any line break anywhere. */
const BREAKS = /[\t\n\r\f\x0B\x85\u2028\u2029]/;
/** §6.1 step 5: any other Unicode whitespace at either end (e.g. NBSP). */
const EDGE_SPACE = /^[\s\x85]|[\s\x85]$/u;

/** §6.1 step 2 alone: what a value will be compared and stored as. */
export function trimTerm(value: string): string {
  return value.replace(TRIMMED, '');
}

/** docs/api.md §6.1 steps 1-6 for one label/description/alias value: returns the trimmed value. */
export function normaliseTerm(value: unknown, path: string, opts: TermRules = {}): string {
  if (typeof value !== 'string') return problem({ type: 'invalid', path, value });
  // §2.1: strings are NFC-normalised, so stored and compared terms have one spelling.
  const term = value.normalize('NFC').replace(TRIMMED, '');
  if (term === '') return problem({ type: 'invalid', path, value: term });
  // Code points, not UTF-16 units (§6.1 step 4).
  if ([...term].length > TERM_MAX_LENGTH) return problem({ type: 'too-long', path, limit: TERM_MAX_LENGTH, value: term });
  if (BREAKS.test(term) || EDGE_SPACE.test(term) || hasControlCharacter(term)) return problem({ type: 'invalid', path, value: term });
  // §6.1 step 6: a property label that reads as a property id would be ambiguous in statement displays.
  if (opts.refusedIds && parseIdOfKind(opts.refusedIds, term) !== null) return problem({ type: 'invalid', path, value: term });
  return term;
}

/** §6.2: map fields must be objects; `[]` is tolerated as `{}` because upstream cannot tell them apart. */
function asMap(input: unknown, path: string): Record<string, unknown> {
  if (Array.isArray(input) && input.length === 0) return {};
  if (!isPlainObject(input)) return problem({ type: 'invalid', path, value: input });
  return input;
}

/** What a value of `field` of an entity of `kind` may not be, beyond the rules every term follows. */
export interface TermRules {
  /** The label may not be an id of this kind (the kind's `labelRefusesOwnIds`). */
  refusedIds?: Kind;
}

export function termRules(field: TermField, kind: Kind): TermRules {
  return field === 'labels' && kind.labelRefusesOwnIds ? { refusedIds: kind } : {};
}

/** A labels or descriptions map; descriptions reject `mul`; property labels reject property ids. */
export function parseTermMap(input: unknown, path: string, field: 'labels' | 'descriptions', kind: Kind): TermMap {
  const rules = termRules(field, kind);
  const out: TermMap = {};
  for (const [lang, value] of Object.entries(asMap(input, path))) {
    if (!isTermLanguage(lang, field)) return problem({ type: 'invalid-key', path, key: lang });
    out[lang] = normaliseTerm(value, pointer(path, lang), rules);
  }
  return out;
}

/** An aliases map: language → non-empty alias list. */
export function parseAliasMap(input: unknown, path: string): AliasMap {
  const out: AliasMap = {};
  for (const [lang, list] of Object.entries(asMap(input, path))) {
    if (!isTermLanguage(lang, 'aliases')) return problem({ type: 'invalid-key', path, key: lang });
    out[lang] = parseAliasList(list, pointer(path, lang));
  }
  return out;
}

/** §6.1: a non-empty array of strings; duplicates (after trimming) dropped, first occurrence kept. */
export function parseAliasList(input: unknown, path: string): string[] {
  if (!Array.isArray(input) || input.length === 0) return problem({ type: 'invalid', path, value: input });
  const aliases = input.map((alias, i) => normaliseTerm(alias, pointer(path, i)));
  return [...new Set(aliases)];
}

/**
 * Languages whose value differs between two term maps (added, changed or removed), in `after`'s order then
 * removals: §6.1's data-policy rules only look at the languages a request sets or changes.
 */
export function changedLanguages(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const changed: string[] = [];
  for (const lang of Object.keys(after)) {
    if (!Object.hasOwn(before, lang) || !sameJson(before[lang], after[lang])) changed.push(lang);
  }
  for (const lang of Object.keys(before)) {
    if (!Object.hasOwn(after, lang)) changed.push(lang);
  }
  return changed;
}

/** §6.1 label ≠ description: the first of `languages` where both exist and are equal, or null. */
export function sameLabelAndDescription(labels: TermMap, descriptions: TermMap, languages: string[]): string | null {
  for (const lang of languages) {
    if (Object.hasOwn(labels, lang) && Object.hasOwn(descriptions, lang) && labels[lang] === descriptions[lang]) {
      return lang;
    }
  }
  return null;
}
