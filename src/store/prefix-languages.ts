// Prefix rows only where a language needs them (ADR 0003, issue #15).
//
// search_prefixes holds the first 1–6 code points of every folded label and alias, so that a short suggest
// query is one index seek however many terms it matches. In a language with few terms the folded-term range
// answers the same query cheaply (rank.ts: sorted when it matches few, read in rank order when it matches
// many; the cost grows with the square root of the language's size), and most languages are small: on the
// 1,000,000-item bench store 55% of the folded terms are in languages with fewer than 50,000 terms.
//
// So a bulk import's build (ADR 0008) makes prefix rows only for languages with at least `prefixLanguageMin`
// folded terms of the kind, and records the other languages whose prefix rows it left out in
// search_prefix_skipped; suggest reads a recorded language by range. Edits and imports that do not defer their
// indexes keep writing prefix rows in every language, so a language nobody recorded is complete. A recorded
// language that has grown past the threshold by the time of a later build gets all its prefix rows from its
// folded terms then (the backfill) and leaves the record.
import { PREFIX_INDEX_LENGTH } from '../search/index-keys.js';

/** Folded terms of one kind a language needs for a build to make its prefix rows (a store option, for tests). */
export const DEFAULT_PREFIX_LANGUAGE_MIN = 50_000;

/** What a build does about one language's prefix rows. */
export type PrefixPlan = 'from-staged' | 'backfill' | 'skip' | 'none';

/**
 * `large`: the language has at least the threshold of folded terms after this build's terms went in;
 * `skipped`: it is recorded as left out; `staged`: this build brings terms of it.
 */
export function prefixPlan(large: boolean, skipped: boolean, staged: boolean): PrefixPlan {
  if (large) return skipped ? 'backfill' : staged ? 'from-staged' : 'none';
  return staged && !skipped ? 'skip' : 'none';
}

/**
 * The prefix rows of the folded-term rows of `source` (same columns as search_terms, aliased `t`) that `where`
 * selects, in both backends' SQL: the first k code points of the term for k = 1 … PREFIX_INDEX_LENGTH, except
 * those ending in a space (a query is trimmed, so it never ends in one), as searchKeys derives them in
 * JavaScript for an edit. Both SQLite's and PostgreSQL's substr and length count code points.
 */
export function prefixRowsSelect(source: string, where: string): string {
  const lengths = Array.from({ length: PREFIX_INDEX_LENGTH }, (_, i) => `SELECT ${i + 1} AS k`).join(' UNION ALL ');
  return `SELECT t.kind, t.lang, substr(t.folded, 1, n.k) AS prefix, t.type, t.rank, t.entity
    FROM ${source} t JOIN (${lengths}) n ON n.k <= length(t.folded) AND substr(t.folded, n.k, 1) <> ' '
    WHERE ${where}`;
}
