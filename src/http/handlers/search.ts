// Search and suggest for items and properties (spec §4.7, docs/api.md §10.7, D3, D4, D12): parse the query
// parameters (400 invalid-query-parameter), hand a typed query to the store, render the entries (§4.6).
import { fail } from '../../domain/errors.js';
import { numericPart, parseIdOfKind } from '../../domain/kinds.js';
import { isTermLanguage } from '../../domain/languages.js';
import type { SearchHit } from '../../search/hits.js';
import { parseText, type SearchMode } from '../../search/query.js';
import { searchLanguages } from '../../search/languages.js';
import { foldText, wordsOf } from '../../search/text.js';
import { hasControlCharacter } from '../../domain/text.js';
import type { Ctx, Handler, Result } from '../context.js';
import { MAX_CONDITIONS, splitCondition, type StatementCondition } from '../../domain/statement-values.js';
import { firstInChain } from '../../search/hits.js';
import { MAX_FILTERED_ROWS } from '../../search/rank.js';
import type { StatementFilter } from '../../store/store.js';
import { conditionKeys, type WrittenCondition } from './lookup.js';

/** docs/api.md D12: the /v0 generation allows up to 500 results per page. */
const MAX_LIMIT = 500;
const DEFAULT_LIMIT = 10;
const DIGITS = /^[0-9]+$/;

/** A single-valued query parameter; a repeated one is invalid. */
function single(ctx: Ctx, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') fail('invalid-query-parameter', { parameter: name });
  return raw;
}

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

function parseQ(ctx: Ctx): string {
  return searchableText(single(ctx, 'q')) ?? fail('invalid-query-parameter', { parameter: 'q' });
}

/** docs/api.md D4: `language` is accepted for `lang`, and then names itself in errors. */
function parseLang(ctx: Ctx): string {
  const name = ctx.query.lang === undefined && ctx.query.language !== undefined ? 'language' : 'lang';
  const lang = single(ctx, name);
  // docs/api.md §3: `mul` is not a search language.
  if (lang === undefined || !isTermLanguage(lang, 'search')) fail('invalid-query-parameter', { parameter: name });
  return lang;
}

function parseCount(ctx: Ctx, name: 'limit' | 'offset', fallback: number, max: number): number {
  const raw = single(ctx, name);
  if (raw === undefined) return fallback;
  const n = DIGITS.test(raw) ? Number(raw) : NaN;
  if (!(n <= max)) fail('invalid-query-parameter', { parameter: name });
  return n;
}

function render(hit: SearchHit): Record<string, unknown> {
  return { id: hit.id, 'display-label': hit.displayLabel, description: hit.description, match: hit.match };
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
async function statementFilter(ctx: Ctx, all: WrittenCondition[], none: WrittenCondition[]): Promise<StatementFilter | null> {
  const keys = await conditionKeys(ctx.store, [...all, ...none]);
  const required = keys.slice(0, all.length);
  if (required.some((k) => k === null)) return null;
  return { all: required as StatementCondition[], none: keys.slice(all.length).filter((k): k is StatementCondition => k !== null) };
}

/**
 * Only keywords, no text: the matches in id order, labelled in the request's languages. Like a filtered text
 * search it examines at most MAX_FILTERED_ROWS index rows, however large the offset.
 */
async function statementHits(ctx: Ctx, filter: StatementFilter, languages: string[], limit: number, offset: number): Promise<SearchHit[]> {
  const { statementValues } = ctx.store;
  const kind = ctx.kind.name;
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
    const read = await ctx.store.readEntity(ctx.kind.prefix + n);
    if (read.status !== 'found') continue;
    const { labels, descriptions } = read.entity;
    hits.push({ id: read.entity.id, displayLabel: firstInChain((l) => labels[l], languages),
      description: firstInChain((l) => descriptions[l], languages), match: { type: 'statement', text } });
  }
  return hits;
}

export function searchTerms(mode: SearchMode): Handler {
  return async (ctx: Ctx): Promise<Result> => {
    const q = parseQ(ctx);
    const lang = parseLang(ctx);
    const limit = parseCount(ctx, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
    // Any non-negative integer is a valid offset; past the last match the page is simply empty.
    const offset = Math.min(parseCount(ctx, 'offset', 0, Infinity), Number.MAX_SAFE_INTEGER);
    const { text, all, none } = mode === 'search' ? splitKeywords(q) : { text: q, all: [], none: [] };
    const languages = searchLanguages(lang);
    const statements = all.length + none.length > 0 ? await statementFilter(ctx, all, none) : undefined;
    const id = parseIdOfKind(ctx.kind, text);
    const hits = statements === null ? []
      : statements && text === '' ? await statementHits(ctx, statements, languages, limit, offset)
        : await ctx.store.search({ kind: ctx.kind.name, mode, text: parseText(text), entityId: id ? numericPart(id) : null,
          languages, limit, offset, statements });
    // docs/api.md §2.3: search responses carry no ETag or Last-Modified.
    return { body: { results: hits.map(render) } };
  };
}
