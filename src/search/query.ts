// What a search text means (docs/api.md §10.7): the folded query, its words, the tokens an index lookup needs,
// and the tier a stored term reaches for it. Pure; shared by every backend.
import { FIRST_WORD, foldText, isUnspacedRun, queryTokensOfWord, wordsOf } from './text.js';

export type SearchMode = 'search' | 'suggest';

/** How well a term matches, best first: the whole term, its beginning, or (search only) its words. */
export type Tier = 'exact' | 'prefix' | 'word';

export interface ParsedText {
  /** The query folded like stored terms (search/text.ts). */
  folded: string;
  /** Its words, in order. */
  words: string[];
}

export function parseText(q: string): ParsedText {
  const folded = foldText(q);
  return { folded, words: wordsOf(folded) };
}

/** Index tokens a term must contain to be a word match: every word's tokens, without duplicates. */
export function requiredTokens(text: ParsedText): string[] {
  return [...new Set(text.words.flatMap(queryTokensOfWord))];
}

/** The first-word token of the query, for the search prefix tier; null when the query has no word. */
export function firstWordToken(text: ParsedText): string | null {
  return text.words.length > 0 ? FIRST_WORD + text.words[0] : null;
}

/**
 * Whether one token lookup decides a word match exactly: a single word that is its own token (a spaced word,
 * or an unspaced run of one or two characters). Otherwise candidates are checked against their text.
 */
export function isDecidedByToken(text: ParsedText): boolean {
  if (text.words.length !== 1) return false;
  const [word] = text.words;
  return !isUnspacedRun(word) || Array.from(word).length <= 2;
}

/** A query word occurs in a term: as a whole word, or for unspaced scripts as part of an unspaced run. */
function occurs(word: string, termWords: readonly string[]): boolean {
  if (!isUnspacedRun(word)) return termWords.includes(word);
  return termWords.some((w) => w.includes(word));
}

/** The best tier a stored term reaches for the query, or null when it does not match in this mode. */
export function tierOf(term: string, text: ParsedText, mode: SearchMode): Tier | null {
  const folded = foldText(term);
  if (folded === text.folded) return 'exact';
  if (mode === 'suggest') return folded.startsWith(text.folded) ? 'prefix' : null;
  if (text.words.length === 0) return null;
  const termWords = wordsOf(folded);
  if (!text.words.every((w) => occurs(w, termWords))) return null;
  return text.words.every((w, i) => termWords[i] === w) ? 'prefix' : 'word';
}
