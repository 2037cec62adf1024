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

/** A language of one kind of entity (kind 0 items, 1 properties), as the search tables key it. */
export interface Language {
  kind: number;
  lang: string;
}

/** The languages of each thing a build does about prefix rows. */
export interface PrefixPlans {
  /** Large, with all their rows: prefix rows of this build's staged terms. */
  fromStaged: Language[];
  /** Recorded, now large: prefix rows of all their terms, and out of the record. */
  backfill: Language[];
  /** Small, with terms in this build: into the record, no prefix rows. */
  skip: Language[];
}

/** A language as one string, for sets and maps. */
export const languageKey = (l: Language) => `${l.kind}\u0000${l.lang}`;

/** The languages a build must decide about: those recorded, and those it brings terms of, each once. */
export function planCandidates(skipped: readonly Language[], staged: readonly Language[]): Language[] {
  const all = new Map([...skipped, ...staged].map((l) => [languageKey(l), l]));
  return [...all.values()];
}

/**
 * What a build does about each language's prefix rows, given whether it is `large` (at least the threshold of
 * folded terms once this build's terms are in). A recorded language stays recorded until it is large.
 */
export function planPrefixes(skipped: readonly Language[], staged: readonly Language[], large: (l: Language) => boolean): PrefixPlans {
  const isSkipped = new Set(skipped.map(languageKey));
  const plans: PrefixPlans = { fromStaged: [], backfill: [], skip: [] };
  for (const l of planCandidates(skipped, staged)) {
    // A candidate that is not recorded is one this build brings terms of.
    const recorded = isSkipped.has(languageKey(l));
    if (large(l)) (recorded ? plans.backfill : plans.fromStaged).push(l);
    else if (!recorded) plans.skip.push(l);
  }
  return plans;
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
