// Search and suggest for items and properties (spec §4.7, docs/api.md §10.7, D3, D4, D12): the query parameters
// read (400 invalid-query-parameter), the search the dialects share (http/search.ts), the entries rendered (§4.6).
import { fail } from '../../../domain/errors.js';
import { isTermLanguage } from '../../../domain/languages.js';
import type { SearchHit } from '../../../search/hits.js';
import type { SearchMode } from '../../../search/query.js';
import { searchableText } from '../../../search/searchable.js';
import type { Ctx, Handler, Result } from '../../context.js';
import { findEntities, SEARCH_PAGE, searchCount } from '../../search.js';
import type { EntityStore, SearchIndex } from '../../../store/store.js';


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
  return searchCount(raw, max) ?? fail('invalid-query-parameter', { parameter: name });
}

function render(hit: SearchHit): Record<string, unknown> {
  return { id: hit.id, 'display-label': hit.displayLabel, description: hit.description, match: hit.match };
}

export function searchTerms(mode: SearchMode): Handler {
  return async (ctx: Ctx<EntityStore & SearchIndex>): Promise<Result> => {
    const q = parseQ(ctx);
    const lang = parseLang(ctx);
    const limit = parseCount(ctx, 'limit', SEARCH_PAGE.default, SEARCH_PAGE.max);
    const offset = parseCount(ctx, 'offset', 0, Infinity);
    const hits = await findEntities(ctx.store, { kind: ctx.kind, mode, q, lang, limit, offset });
    // docs/api.md §2.3: search responses carry no ETag or Last-Modified.
    return { body: { results: hits.map(render) } };
  };
}
