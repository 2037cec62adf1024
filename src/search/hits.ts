// One search result entry from a ranked row and the entity's terms (REFERENCE §4.6, §10.7). Pure.
import type { SearchTermType } from './index-keys.js';
import { tierOf, type ParsedText, type SearchMode } from './query.js';
import type { Ranked } from './rank.js';

export interface LanguageValue {
  language: string;
  value: string;
}

export type SearchMatch =
  | { type: SearchTermType; language: string; text: string }
  | { type: 'entityId'; text: string };

export interface SearchHit {
  id: string;
  displayLabel: LanguageValue | null;
  description: LanguageValue | null;
  match: SearchMatch;
}

/** An entity's terms in the languages of the chain (others are never shown). */
export interface ChainTerms {
  labels: ReadonlyMap<string, string>;
  descriptions: ReadonlyMap<string, string>;
  aliases: ReadonlyMap<string, readonly string[]>;
}

function firstInChain(map: ReadonlyMap<string, string>, languages: readonly string[]): LanguageValue | null {
  for (const language of languages) {
    const value = map.get(language);
    if (value !== undefined) return { language, value };
  }
  return null;
}

/** The stored term the row matched: the first of its language and type that reaches the row's tier. */
function matchedText(ranked: Ranked, terms: ChainTerms, text: ParsedText, mode: SearchMode): string {
  const label = terms.labels.get(ranked.lang);
  const candidates = ranked.type === 'label' ? (label === undefined ? [] : [label]) : terms.aliases.get(ranked.lang) ?? [];
  return candidates.find((t) => tierOf(t, text, mode) === ranked.tier) ?? candidates[0] ?? '';
}

export function buildHit(
  id: string, ranked: Ranked, terms: ChainTerms, req: { text: ParsedText; mode: SearchMode; languages: readonly string[] },
): SearchHit {
  const description = firstInChain(terms.descriptions, req.languages);
  const label = firstInChain(terms.labels, req.languages);
  if (ranked.tier === 'id') return { id, displayLabel: label, description, match: { type: 'entityId', text: id } };
  const match = { type: ranked.type, language: ranked.lang, text: matchedText(ranked, terms, req.text, req.mode) };
  // REFERENCE §10.7: no label in the chain → the matched term is the display label.
  return { id, displayLabel: label ?? { language: match.language, value: match.text }, description, match };
}
