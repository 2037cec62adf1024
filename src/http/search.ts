// The search every dialect shares (docs/api.md §10.7): the REST routes' search and suggest, the Action API's
// list=search. A dialect reads its own parameters (each says a bad one its own way) and asks for entities here;
// `haswbstatement:` keywords are taken out of the text and become statement-value conditions.
import { fail } from '../domain/errors.js';
import { numericPart, parseIdOfKind, type Kind } from '../domain/kinds.js';
import { MAX_CONDITIONS, splitCondition, type StatementCondition } from '../domain/statement-values.js';
import { firstInChain, type SearchHit } from '../search/hits.js';
import { searchLanguages } from '../search/languages.js';
import { parseText, type SearchMode } from '../search/query.js';
import { MAX_FILTERED_ROWS } from '../search/rank.js';
import type { EntityStore, SearchIndex, StatementFilter } from '../store/store.js';
import { conditionKeys, type WrittenCondition } from './lookup.js';

/** A page of results: 10 entries unless asked, at most 500 (docs/api.md D12); any offset (past the end: empty). */
export const SEARCH_PAGE = { default: 10, max: 500 } as const;

/** A `limit` or `offset` as written: digits, at most `max`; null for anything else. */
export function searchCount(raw: string, max: number): number | null {
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  return n <= max ? n : null;
}

export interface EntitySearch {
  kind: Kind;
  mode: SearchMode;
  /** The searched text, already checked (search/searchable.ts); in `search` mode it may hold keywords. */
  q: string;
  /** The language asked for: its fallbacks are searched too. */
  lang: string;
  limit: number;
  offset: number;
}

/** The entities a search finds, best first; a keyword that is not a condition is 400 `invalid-query-parameter` (`q`). */
export async function findEntities(store: EntityStore & SearchIndex, { kind, mode, q, lang, limit, ...asked }: EntitySearch): Promise<SearchHit[]> {
  // Any non-negative integer is a valid offset; past the last match the page is simply empty.
  const offset = Math.min(asked.offset, Number.MAX_SAFE_INTEGER);
  const { text, all, none } = mode === 'search' ? splitKeywords(q) : { text: q, all: [], none: [] };
  const languages = searchLanguages(lang);
  const statements = all.length + none.length > 0 ? await statementFilter(store, all, none) : undefined;
  if (statements === null) return [];
  if (statements && text === '') return statementHits(store, kind, statements, languages, limit, offset);
  const id = parseIdOfKind(kind, text);
  return store.search({ kind: kind.name, mode, text: parseText(text), entityId: id ? numericPart(id) : null, languages, limit, offset, statements });
}

const KEYWORD = /^(-?)haswbstatement:(.*)$/i;

/**
 * CirrusSearch's `haswbstatement:P31=Q5` (and `-haswbstatement:`, `haswbstatement:P214` for any value) taken out
 * of q (docs/api.md §10.7): what remains is the text searched (q itself when it has no keyword).
 */
function splitKeywords(q: string): { text: string; all: WrittenCondition[]; none: WrittenCondition[] } {
  const words: string[] = [];
  const all: WrittenCondition[] = [];
  const none: WrittenCondition[] = [];
  for (const word of q.split(/\s+/)) {
    const m = KEYWORD.exec(word);
    if (!m) { words.push(word); continue; }
    const condition = splitCondition(m[2], '=') ?? fail('invalid-query-parameter', { parameter: 'q' });
    (m[1] ? none : all).push(condition);
  }
  const keywords = all.length + none.length;
  if (keywords > MAX_CONDITIONS || (keywords > 0 && words.length === 0 && all.length === 0)) {
    fail('invalid-query-parameter', { parameter: 'q' });
  }
  return { text: keywords === 0 ? q : words.join(' '), all, none };
}

/**
 * The conditions as index keys, in one data-type lookup: a required one that can hold for nothing (a value
 * that is not of its property's type) means no entity matches (null); an excluded one like it excludes nothing.
 */
async function statementFilter(store: EntityStore, all: WrittenCondition[], none: WrittenCondition[]): Promise<StatementFilter | null> {
  const keys = await conditionKeys(store, [...all, ...none]);
  const required = keys.slice(0, all.length);
  if (required.some((k) => k === null)) return null;
  return { all: required as StatementCondition[], none: keys.slice(all.length).filter((k): k is StatementCondition => k !== null) };
}

/**
 * Only keywords, no text: the matches in id order, labelled in the request's languages. Like a filtered text
 * search it examines at most MAX_FILTERED_ROWS index rows, however large the offset.
 */
async function statementHits(store: EntityStore & SearchIndex, of: Kind, filter: StatementFilter, languages: string[], limit: number, offset: number): Promise<SearchHit[]> {
  const { statementValues } = store;
  const kind = of.name;
  const ids: number[] = [];
  let after: number | null = null;
  for (let examined = 0; ids.length < offset + limit && examined < MAX_FILTERED_ROWS;) {
    const page = await statementValues.find({ kind, conditions: filter.all, after, limit: 500 });
    examined += page.length;
    for (const n of page) if (await statementValues.holds(kind, n, { all: [], none: filter.none })) ids.push(n);
    if (page.length < 500) break;
    after = page[page.length - 1];
  }
  const text = filter.all.map((c) => `${c.property}=${c.key || '*'}`).join(' ');
  const hits: SearchHit[] = [];
  for (const n of ids.slice(offset, offset + limit)) {
    const read = await store.readEntity(of.prefix + n);
    if (read.status !== 'found') continue;
    const { labels, descriptions } = read.entity;
    hits.push({ id: read.entity.id, displayLabel: firstInChain((l) => labels[l], languages),
      description: firstInChain((l) => descriptions[l], languages), match: { type: 'statement', text } });
  }
  return hits;
}
