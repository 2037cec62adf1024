// Scoring for the reconciliation service (docs/api.md §10.13): how well a candidate's names match a query, how
// property matches weigh in, and when the best candidate is a match. Pure and deterministic: the same store
// and query always give the same scores. Names are compared after the same folding as search (text.ts).
import { foldText } from './text.js';

/** Character bigrams of a folded string, with a boundary mark so that one-letter words count too. */
function bigrams(folded: string): Map<string, number> {
  const chars = Array.from(` ${folded} `);
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < chars.length; i++) {
    const pair = chars[i] + chars[i + 1];
    out.set(pair, (out.get(pair) ?? 0) + 1);
  }
  return out;
}

/** Sørensen–Dice similarity of two folded strings' bigrams, 0..1. */
function dice(a: string, b: string): number {
  if (a === b) return 1;
  const x = bigrams(a);
  const y = bigrams(b);
  let shared = 0;
  let total = 0;
  for (const [pair, n] of x) {
    shared += Math.min(n, y.get(pair) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total === 0 ? 0 : (2 * shared) / total;
}

/**
 * 0..100: 100 when a name equals the query after folding (case, diacritics, punctuation), otherwise the best
 * bigram similarity of any name (label or alias) to the query, scaled to 0..99.
 */
export function nameScore(query: string, names: readonly string[]): number {
  const q = foldText(query);
  let best = 0;
  for (const name of names) {
    const folded = foldText(name);
    if (folded === q) return 100;
    best = Math.max(best, dice(q, folded));
  }
  return Math.min(99, Math.round(best * 100));
}

/**
 * The candidate's score: the name's score and each property condition's (100 when the candidate has a
 * statement with that value, 0 otherwise) averaged with equal weight, rounded to one decimal.
 */
export function candidateScore(name: number, properties: readonly boolean[]): number {
  const total = properties.reduce((sum, matched) => sum + (matched ? 100 : 0), name);
  return Math.round((total / (1 + properties.length)) * 10) / 10;
}

/** A score at least this high can be a match… */
export const MATCH_SCORE = 95;
/** …when no other candidate comes within this many points of it. */
export const MATCH_MARGIN = 10;

/** Whether the best of candidates sorted by score (best first) is an unambiguous match. */
export function isMatch(scores: readonly number[]): boolean {
  const [best, next] = scores;
  return best !== undefined && best >= MATCH_SCORE && (next === undefined || best - next >= MATCH_MARGIN);
}
