// The languages a search looks in and shows, best first (docs/api.md §10.7: "lang, its fallbacks, mul, en").
import { fallbackChain } from '../domain/languages.js';

/**
 * `fallbackChain(lang, 'search')` leaves `mul` out, because `mul` is not a valid search *parameter*; but labels
 * and aliases in `mul` are searched and shown, in §9.3's place just before `en`. The label chain is exactly
 * that: every term language is a label language, `mul` included.
 */
export function searchLanguages(lang: string): string[] {
  return fallbackChain(lang, 'labels');
}
