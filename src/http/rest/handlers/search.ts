// Search and suggest for items and properties (spec §4.7, docs/api.md §10.7, D3, D4, D12): the query parameters
// read (400 invalid-query-parameter), the search the dialects share (http/search.ts), the entries rendered (§4.6).
import { fail } from '../../../domain/errors.js';
import { isTermLanguage } from '../../../domain/languages.js';
import type { SearchHit } from '../../../search/hits.js';
import type { SearchMode } from '../../../search/query.js';
import { searchableText } from '../../../search/searchable.js';
import type { Ctx, Handler, Result } from '../../context.js';
import { findEntities } from '../../search.js';
import type { EntityStore, SearchIndex } from '../../../store/store.js';

/** docs/api.md D12: the /v0 generation allows up to 500 results per page. */
const MAX_LIMIT = 500;
const DEFAULT_LIMIT = 10;
const DIGITS = /^[0-9]+$/;

/** A single-valued query parameter; a repeated one is invalid. */
function single(ctx: Ctx<unknown>, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') fail('invalid-query-parameter', { parameter: name });
  return raw;
}

function parseQ(ctx: Ctx<unknown>): string {
  return searchableText(single(ctx, 'q')) ?? fail('invalid-query-parameter', { parameter: 'q' });
}

/** docs/api.md D4: `language` is accepted for `lang`, and then names itself in errors. */
function parseLang(ctx: Ctx<unknown>): string {
  const name = ctx.query.lang === undefined && ctx.query.language !== undefined ? 'language' : 'lang';
  const lang = single(ctx, name);
  // docs/api.md §3: `mul` is not a search language.
  if (lang === undefined || !isTermLanguage(lang, 'search')) fail('invalid-query-parameter', { parameter: name });
  return lang;
}

function parseCount(ctx: Ctx<unknown>, name: 'limit' | 'offset', fallback: number, max: number): number {
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
  return async (ctx: Ctx<EntityStore & SearchIndex>): Promise<Result> => {
    const q = parseQ(ctx);
    const lang = parseLang(ctx);
    const limit = parseCount(ctx, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
    // Any non-negative integer is a valid offset; past the last match the page is simply empty.
    const offset = Math.min(parseCount(ctx, 'offset', 0, Infinity), Number.MAX_SAFE_INTEGER);
    const hits = await findEntities(ctx.store, { kind: ctx.kind, mode, q, lang, limit, offset });
    // docs/api.md §2.3: search responses carry no ETag or Last-Modified.
    return { body: { results: hits.map(render) } };
  };
}
