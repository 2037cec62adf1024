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

export function searchTerms(mode: SearchMode): Handler {
  return async (ctx: Ctx): Promise<Result> => {
    const q = parseQ(ctx);
    const lang = parseLang(ctx);
    const limit = parseCount(ctx, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
    // Any non-negative integer is a valid offset; past the last match the page is simply empty.
    const offset = Math.min(parseCount(ctx, 'offset', 0, Infinity), Number.MAX_SAFE_INTEGER);
    const id = parseIdOfKind(ctx.kind, q);
    const hits = await ctx.store.search({
      kind: ctx.kind.name, mode, text: parseText(q), entityId: id ? numericPart(id) : null,
      languages: searchLanguages(lang), limit, offset,
    });
    // docs/api.md §2.3: search responses carry no ETag or Last-Modified.
    return { body: { results: hits.map(render) } };
  };
}
