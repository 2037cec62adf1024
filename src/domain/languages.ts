// Term languages and language fallback as data (docs/api.md §3, §9.3, Appendix A and B). The lists live in
// languages.json so that they can be reviewed and replaced without touching code.
import data from './languages.json' with { type: 'json' };
import type { TermField } from './entity.js';

/** Where a language code is used: a term field, or the search `lang` parameter (docs/api.md §10.7). */
export type LanguageUse = TermField | 'search';

/** docs/api.md §3: `mul` is enabled, but only for labels and aliases. */
const MUL = 'mul';
/** docs/api.md §9.3: every chain ends with `mul`, then `en`. */
const LAST_RESORT = [MUL, 'en'];

export const TERM_LANGUAGES: readonly string[] = Object.freeze([...data.termLanguages]);

const termLanguages: ReadonlySet<string> = new Set(data.termLanguages);
const monolingualLanguages: ReadonlySet<string> = new Set(
  data.termLanguages.filter((code) => !data.monolingualExcluded.includes(code)),
);
const fallbacks = new Map<string, readonly string[]>(Object.entries(data.fallbacks));

/** Code → its variant group: the group's base code first, then its variants (MediaWiki language converters). */
const variantGroups = new Map<string, readonly string[]>();
for (const [base, members] of Object.entries(data.variants)) {
  const group = [base, ...members];
  for (const code of group) variantGroups.set(code, group);
}

/** Exact, case-sensitive membership (docs/api.md §3: `en-gb`, not `en-GB`). */
export function isTermLanguage(code: string, use: LanguageUse): boolean {
  if (code === MUL) return use === 'labels' || use === 'aliases';
  return termLanguages.has(code);
}

/** Appendix A: monolingual-text values use the term languages minus `mul`, deprecated and formal codes. */
export function isMonolingualLanguage(code: string): boolean {
  return monolingualLanguages.has(code);
}

/**
 * The other codes of `code`'s variant group. Its own fallbacks inside the group come first, as in MediaWiki's
 * converters, so that `zh-tw` tries zh-hant and zh-hans before the other zh codes (docs/api.md §3 note).
 */
function variantsOf(code: string): string[] {
  const group = variantGroups.get(code);
  if (!group) return [];
  const preferred = (fallbacks.get(code) ?? []).filter((c) => group.includes(c));
  return [...preferred, ...group].filter((c) => c !== code);
}

/** Appendix B fallbacks, depth-first and transitively, each followed by its variants (docs/api.md §9.3). */
function addFallbacks(code: string, chain: string[], visited: Set<string>): void {
  for (const next of fallbacks.get(code) ?? []) {
    if (visited.has(next)) continue;
    visited.add(next);
    chain.push(next, ...variantsOf(next));
    addFallbacks(next, chain, visited);
  }
}

const chains = new Map<string, readonly string[]>();

/**
 * docs/api.md §9.3: [L, variants of L, fallbacks of L (each followed by its variants), mul, en], duplicates removed
 * and restricted to the languages valid for `use` (so descriptions and search never try `mul`). An invalid L
 * is itself dropped; callers reject it before asking.
 */
export function fallbackChain(code: string, use: LanguageUse): string[] {
  const key = `${use}:${code}`;
  let chain = chains.get(key);
  if (!chain) {
    const raw = [code, ...variantsOf(code)];
    addFallbacks(code, raw, new Set([code]));
    raw.push(...LAST_RESORT);
    chain = [...new Set(raw)].filter((c) => isTermLanguage(c, use));
    // Only valid codes are remembered, so that arbitrary input cannot grow the cache.
    if (isTermLanguage(code, use)) chains.set(key, chain);
  }
  return [...chain];
}
