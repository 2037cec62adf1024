// One search result entry from a ranked row and the entity's terms (docs/api.md §4.6, §10.7). Pure.
import type { SearchTermType } from './index-keys.js';
import { tierOf, type ParsedText, type SearchMode } from './query.js';
import { rankedPage, type EntityFilter, type KindCode, type RankRequest, type Ranked, type SearchBackend } from './rank.js';
import { kindByName } from '../domain/kinds.js';

export interface LanguageValue {
  language: string;
  value: string;
}

export type SearchMatch =
  | { type: SearchTermType; language: string; text: string }
  | { type: 'entityId'; text: string }
  /** A search of haswbstatement: keywords alone: the conditions the entity meets. */
  | { type: 'statement'; text: string };

export interface SearchHit {
  id: string;
  displayLabel: LanguageValue | null;
  description: LanguageValue | null;
  match: SearchMatch;
}

/**
 * An entity's stored terms, asked for one language at a time: a hit usually needs only the first language
 * of the chain, so a backend answers with point lookups (or from terms it fetched at once).
 */
export interface EntityTerms {
  label(lang: string): string | undefined;
  description(lang: string): string | undefined;
  aliases(lang: string): readonly string[];
}

/** The first language of the chain with a value, and that value. */
export function firstInChain(get: (lang: string) => string | undefined, languages: readonly string[]): LanguageValue | null {
  for (const language of languages) {
    const value = get(language);
    if (value !== undefined) return { language, value };
  }
  return null;
}

/** The stored term the row matched: the first of its language and type that reaches the row's tier. */
function matchedText(ranked: Ranked, terms: EntityTerms, text: ParsedText, mode: SearchMode): string {
  const label = terms.label(ranked.lang);
  const candidates = ranked.type === 'label' ? (label === undefined ? [] : [label]) : terms.aliases(ranked.lang);
  return candidates.find((t) => tierOf(t, text, mode) === ranked.tier) ?? candidates[0] ?? '';
}

export function buildHit(
  id: string, ranked: Ranked, terms: EntityTerms, req: { text: ParsedText; mode: SearchMode; languages: readonly string[] },
): SearchHit {
  const description = firstInChain((lang) => terms.description(lang), req.languages);
  const label = firstInChain((lang) => terms.label(lang), req.languages);
  if (ranked.tier === 'id') return { id, displayLabel: label, description, match: { type: 'entityId', text: id } };
  const match = { type: ranked.type, language: ranked.lang, text: matchedText(ranked, terms, req.text, req.mode) };
  // docs/api.md §10.7: no label in the chain → the matched term is the display label.
  return { id, displayLabel: label ?? { language: match.language, value: match.text }, description, match };
}

/** A backend that can also tell an entity's terms, for the entries of a page. */
export interface HitBackend extends SearchBackend {
  entityTerms(kind: KindCode, entity: number, languages: readonly string[]): Promise<EntityTerms>;
}


/** One page of search results: the ranked rows, each made into an entry. */
export async function searchHits(req: RankRequest, backend: HitBackend, filter?: EntityFilter): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  for (const ranked of await rankedPage(req, backend, filter)) {
    const terms = await backend.entityTerms(req.kind, ranked.entity, req.languages);
    hits.push(buildHit(kindByName(req.kind).prefix + ranked.entity, ranked, terms, req));
  }
  return hits;
}
