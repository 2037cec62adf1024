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
import type { Ctx, Handler, Result } from '../route.js';
import { MAX_CONDITIONS, splitCondition } from '../../domain/statement-values.js';
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

function parseQ(ctx: Ctx): string {
  const q = single(ctx, 'q')?.normalize('NFC').trim();
  if (!q || hasControlCharacter(q) || [...q].length > SEARCH_TEXT_LIMITS.characters
    || wordsOf(foldText(q)).length > SEARCH_TEXT_LIMITS.words) {
    fail('invalid-query-parameter', { parameter: 'q' });
  }
  return q;
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
 * of q (docs/api.md §10.7): what remains is the text searched.
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
  if (all.length + none.length > MAX_CONDITIONS) fail('invalid-query-parameter', { parameter: 'q' });
  return { text: words.join(' '), all, none };
}

/** The written conditions as index keys; one that can hold for nothing makes `all` fail and drops out of `none`. */
async function statementFilter(ctx: Ctx, all: WrittenCondition[], none: WrittenCondition[]): Promise<StatementFilter | null> {
  const required = await conditionKeys(ctx.store, all);
  if (required === null) return null;
  const excluded: StatementFilter['none'] = [];
  for (const c of none) excluded.push(...(await conditionKeys(ctx.store, [c])) ?? []);
  return { all: required, none: excluded };
}

/** Only keywords, no text: the matches in id order, labelled in the request's languages. */
async function statementHits(ctx: Ctx, filter: StatementFilter, languages: string[], limit: number, offset: number): Promise<SearchHit[]> {
  const ids: number[] = [];
  let after: number | null = null;
  // Offsets beyond a few pages cost a read each; a lookup by value pages with a cursor (docs/api.md §10.12).
  while (ids.length < offset + limit) {
    const page = await ctx.store.statementValues.find({ kind: ctx.kind.name, conditions: filter.all, after, limit: 500 });
    for (const n of page) if (filter.none.length === 0 || await ctx.store.statementValues.holds(ctx.kind.name, n, { all: [], none: filter.none })) ids.push(n);
    if (page.length < 500) break;
    after = page[page.length - 1];
  }
  const hits: SearchHit[] = [];
  for (const n of ids.slice(offset, offset + limit)) {
    const id = ctx.kind.prefix + n;
    const read = await ctx.store.readEntity(id);
    if (read.status !== 'found') continue;
    const first = (map: Record<string, string>) => {
      const language = languages.find((l) => map[l] !== undefined);
      return language === undefined ? null : { language, value: map[language] };
    };
    hits.push({ id, displayLabel: first(read.entity.labels), description: first(read.entity.descriptions),
      match: { type: 'statement', text: filter.all.map((c) => `${c.property}=${c.key || '*'}`).join(' ') } });
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
    let hits: SearchHit[];
    if (all.length + none.length === 0) {
      const id = parseIdOfKind(ctx.kind, q);
      hits = await ctx.store.search({ kind: ctx.kind.name, mode, text: parseText(q), entityId: id ? numericPart(id) : null,
        languages, limit, offset });
    } else {
      const statements = await statementFilter(ctx, all, none);
      if (text === '' && all.length === 0) fail('invalid-query-parameter', { parameter: 'q' });
      const id = parseIdOfKind(ctx.kind, text);
      hits = statements === null ? []
        : text === '' ? await statementHits(ctx, statements, languages, limit, offset)
          : await ctx.store.search({ kind: ctx.kind.name, mode, text: parseText(text), entityId: id ? numericPart(id) : null,
            languages, limit, offset, statements });
    }
    // docs/api.md §2.3: search responses carry no ETag or Last-Modified.
    return { body: { results: hits.map(render) } };
  };
}
