// The search index an entity contributes, as plain keys that every backend stores in three B-tree indexes
// (docs/adr/0003-search-index.md):
//   terms    (kind, lang, folded term,  type, rank, entity): exact matches, and long prefixes by range;
//   prefixes (kind, lang, first 1..PREFIX_INDEX_LENGTH code points, type, rank, entity): short prefixes;
//   tokens   (kind, lang, word or CJK uni/bigram or ^first-word, type, rank, entity): search by words.
// Each key ends in (rank, entity), so one index seek yields a stream already in ranking order and a query
// reads only as many rows as the page needs, however common the prefix.
import { forEachName, type Entity, type NameRole } from '../domain/entity.js';
import { foldText, indexTokens } from './text.js';

/**
 * Prefixes up to this many code points are stored, so that type-ahead (one to six characters, where matches run
 * to tens of thousands) is one index seek. Longer suggest queries read the folded-term range: sorted when it is
 * small, filtered in rank order when it is large (search/rank.ts).
 */
export const PREFIX_INDEX_LENGTH = 6;

/** A name's role (the entity model's): what the index rows' type code stands for. */
export type SearchTermType = NameRole;
/** Label before alias (docs/api.md §10.7), as stored: the type code sorts in ranking order. */
export const TYPE_CODE: Record<SearchTermType, number> = { label: 0, alias: 1 };
export const TERM_TYPES: readonly SearchTermType[] = ['label', 'alias'];

export interface SearchKey {
  lang: string;
  type: SearchTermType;
  key: string;
}

export interface SearchKeys {
  terms: SearchKey[];
  prefixes: SearchKey[];
  tokens: SearchKey[];
}

export interface Popularity {
  sitelinks: number;
  statements: number;
}

/** Room for the statement bucket (0–16) under each sitelink count. */
const STATEMENT_SPAN = 64;

/**
 * Ascending rank = more popular first: more sitelinks, then more statements by powers of four (0, 1–3, 4–15,
 * 16–63, …; ties: ascending id, the last key column). Negative so that the natural ascending index order is the
 * ranking order. Statements count by magnitude because the rank is part of every search key, so a change of
 * rank rewrites all of the entity's search rows (hundreds for a typical item): with an exact count every POST
 * statement did (issue #8: two thirds of its time); by powers of two one in 15 did on the benchmark's items
 * (5–50 statements), about a sixth of the server's time per POST statement; by powers of four, one in 46.
 */
export function rankOf(pop: Popularity): number {
  return -(pop.sitelinks * STATEMENT_SPAN + statementBucket(pop.statements));
}

/** 0 for none, then 1 + the base-4 magnitude: 1–3 → 1, 4–15 → 2, 16–63 → 3, … */
function statementBucket(statements: number): number {
  const binaryDigits = 32 - Math.clz32(Math.max(0, Math.min(statements, 2 ** 31)));
  return Math.ceil(binaryDigits / 2);
}

/** Deduplicating collector: two terms that fold alike give one key. */
class KeySet {
  private readonly seen = new Set<string>();
  readonly keys: SearchKey[] = [];
  add(lang: string, type: SearchTermType, key: string): void {
    const id = `${lang}\u0000${type}\u0000${key}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.keys.push({ lang, type, key });
  }
}

function prefixesOf(folded: string): string[] {
  const out: string[] = [];
  let prefix = '';
  let n = 0;
  for (const char of folded) { // by code point
    prefix += char;
    // A query is trimmed, so it never ends in a space: such a prefix would never be looked up.
    if (char !== ' ') out.push(prefix);
    if (++n === PREFIX_INDEX_LENGTH) break;
  }
  return out;
}

/**
 * An entity's names (the model's forEachName: labels and aliases, not descriptions) are searchable, in every
 * language the entity has them. `withPrefixes` false: no prefix keys (a bulk import's build makes those in SQL,
 * store/prefix-languages.ts).
 */
export function searchKeys(entity: Entity | null, withPrefixes = true): SearchKeys {
  const terms = new KeySet();
  const prefixes = new KeySet();
  const tokens = new KeySet();
  if (entity) {
    const add = (lang: string, type: SearchTermType, text: string) => {
      const folded = foldText(text);
      if (folded === '') return;
      terms.add(lang, type, folded);
      if (withPrefixes) for (const p of prefixesOf(folded)) prefixes.add(lang, type, p);
      for (const t of indexTokens(folded)) tokens.add(lang, type, t);
    };
    forEachName(entity, add);
  }
  return { terms: terms.keys, prefixes: prefixes.keys, tokens: tokens.keys };
}
