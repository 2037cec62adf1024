// Which text a search may take, wherever it comes from (the REST search's `q`, suggest, the Action API's
// `search`, reconciliation queries): one rule, so that no way in reaches the index with more.
import { hasControlCharacter } from '../domain/text.js';
import { foldText, wordsOf } from './text.js';

/**
 * Bounds on `q` (docs/api.md "Search"): far above any name people search for, and they keep the work of one
 * query bounded. Control characters are refused as in every other text Entia takes in.
 */
export const SEARCH_TEXT_LIMITS = { characters: 300, words: 32 } as const;

/**
 * Text a search may take, NFC and trimmed, or null when it is empty, has a control character or breaks the
 * bounds. Every text that reaches the search index goes through it: `q` here, reconciliation queries and
 * suggest prefixes, the Action API's `search`.
 */
export function searchableText(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.normalize('NFC').trim();
  if (text === '' || hasControlCharacter(text) || [...text].length > SEARCH_TEXT_LIMITS.characters
    || wordsOf(foldText(text)).length > SEARCH_TEXT_LIMITS.words) return null;
  return text;
}
