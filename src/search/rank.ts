// The ranking rules of search and suggest (docs/api.md §10.7; issue #6), shared by every backend. Pure: a
// backend only answers "the next rows of this stream" through SearchBackend; this module decides which
// streams exist, in which order, which rows count, and when to stop.
//
// The unpaged result list is the concatenation of streams, one per (tier, language of the chain, term type),
// in this order:
//   0. the entity q names by id, if it exists;
//   1. tier: exact full-term match, then prefix, then (search only) word match;
//   2. language: earlier in the chain first;
//   3. type: label, then alias;
//   and inside a stream: rank (more sitelinks, then more statements), then ascending numeric id.
// An entity is reported once, in the first stream that yields it (its best match). Every stream is an index
// range already sorted by (rank, entity), so paging reads only offset + limit accepted rows.
import { PREFIX_INDEX_LENGTH, TERM_TYPES, type SearchTermType } from './index-keys.js';
import { firstWordToken, isDecidedByToken, requiredTokens, tierOf, type ParsedText, type SearchMode, type Tier } from './query.js';
import { codePointLength } from './text.js';
import type { KindName } from '../domain/kinds.js';

/** A kind of entity, by name (domain/kinds.ts). */
export type KindCode = KindName;

/** Where a stream's rows come from; every source yields (rank, entity) ascending. */
export type Source =
  /** folded term equal to `folded` */
  | { index: 'terms'; folded: string }
  /** folded term in [from, to), sorted after reading: prefixes longer than the prefix index, few matches */
  | { index: 'terms-range'; from: string; to: string }
  /** folded term in [from, to), filtered while reading the language's terms in rank order: many matches */
  | { index: 'terms-by-rank'; from: string; to: string }
  /** stored prefix equal to `prefix` */
  | { index: 'prefixes'; prefix: string }
  /** token postings of `token` whose (entity, language, type) also has every token of `also` */
  | { index: 'tokens'; token: string; also: string[] };

export interface Stream {
  kind: KindCode;
  tier: Tier;
  lang: string;
  type: SearchTermType;
  source: Source;
  /** The source over-approximates: each row's stored terms must be checked with tierOf. */
  verify: boolean;
}

export interface Row {
  rank: number;
  entity: number;
}

export interface SearchBackend {
  /** Up to `size` (one of PAGE_SIZES) rows of the stream strictly after `after` in (rank, entity) order. */
  page(stream: Stream, after: Row | null, size: number): Promise<Row[]>;
  /** How many folded terms of a language and type lie in [from, to), counting no further than `cap`. */
  rangeCount(kind: KindCode, lang: string, type: SearchTermType, from: string, to: string, cap: number): Promise<number>;
  /** How many postings a token has in one language, counting no further than `cap`. */
  postings(kind: KindCode, lang: string, token: string, cap: number): Promise<number>;
  /** The stored terms of an entity in one language and type. */
  texts(kind: KindCode, entity: number, lang: string, type: SearchTermType): Promise<string[]>;
  /** Whether the entity exists and is not a redirect. */
  exists(kind: KindCode, entity: number): Promise<boolean>;
  /**
   * Whether the prefix index holds every prefix of the language's terms; false for a language whose prefix
   * rows a bulk import left out as too small to need them (store/prefix-languages.ts), read by range instead.
   */
  prefixIndexed(kind: KindCode, lang: string): Promise<boolean>;
}

export interface RankRequest {
  kind: KindCode;
  mode: SearchMode;
  text: ParsedText;
  /** Numeric part of the id q spells for this kind, or null. */
  entityId: number | null;
  /** The language chain: lang, its fallbacks, mul, en. */
  languages: readonly string[];
  limit: number;
  offset: number;
}

export interface Ranked {
  entity: number;
  /** 'id' for the entity named by q. */
  tier: Tier | 'id';
  lang: string;
  type: SearchTermType;
}

/** Upper bound of a code-point prefix range: nothing a folded term can contain sorts after U+10FFFF. */
const RANGE_END = '\u{10FFFF}';
/**
 * Token postings are counted to pick the rarest token of a multi-token query: first up to a small cap (cheap,
 * and decisive when one token is rare), then up to a larger one when every token is common.
 */
const POSTINGS_CAPS = [200, 5000];
/** Tokens checked in the index beside the driver (see tokenSource). */
export const MAX_ALSO_TOKENS = 3;
/**
 * A long prefix matching fewer terms than this is read whole and sorted (cost: its matches); one matching more
 * is found by reading the language's terms in rank order (cost: about page × terms-in-language / matches).
 * Either way a query costs at most a few thousand index steps.
 */
const RANGE_SORT_CAP = 3000;

/** Postings counted once per request and language. */
type Counts = Map<string, number>;

/** The token with the fewest postings drives the stream; the others are checked on each of its rows. */
async function tokenSource(req: RankRequest, lang: string, tokens: string[], counts: Counts, backend: SearchBackend): Promise<Source> {
  let driver = tokens[0];
  for (const cap of tokens.length > 1 ? POSTINGS_CAPS : []) {
    let fewest = Infinity;
    for (const token of tokens) {
      const key = `${lang}\u0000${token}\u0000${cap}`;
      let n = counts.get(key);
      if (n === undefined) counts.set(key, n = await backend.postings(req.kind, lang, token, cap));
      if (n < fewest) [driver, fewest] = [token, n];
    }
    if (fewest < cap) break;
  }
  // The other tokens narrow the driver's rows inside the index read; a stream with more than a few of them is
  // verified against the term's text anyway (streamSource), so the rest are left to that check. This keeps the
  // number of statement shapes a backend prepares fixed, whatever the number of words in the query.
  return { index: 'tokens', token: driver, also: tokens.filter((t) => t !== driver).slice(0, MAX_ALSO_TOKENS) };
}

async function prefixSource(req: RankRequest, lang: string, type: SearchTermType, backend: SearchBackend): Promise<Source> {
  const { folded } = req.text;
  if (codePointLength(folded) <= PREFIX_INDEX_LENGTH && await backend.prefixIndexed(req.kind, lang)) return { index: 'prefixes', prefix: folded };
  const range = { from: folded, to: folded + RANGE_END };
  // Counted per type: reading in rank order pays only when this very stream has many matches.
  const matches = await backend.rangeCount(req.kind, lang, type, range.from, range.to, RANGE_SORT_CAP);
  return { index: matches < RANGE_SORT_CAP ? 'terms-range' : 'terms-by-rank', ...range };
}

/** The source of one stream; null when the tier cannot match. */
async function streamSource(
  req: RankRequest, tier: Tier, lang: string, type: SearchTermType, counts: Counts, backend: SearchBackend,
): Promise<{ source: Source; verify: boolean } | null> {
  const { text } = req;
  if (tier === 'exact') return text.folded === '' ? null : { source: { index: 'terms', folded: text.folded }, verify: false };
  if (req.mode === 'suggest') return { source: await prefixSource(req, lang, type, backend), verify: false };
  const first = firstWordToken(text);
  if (!first) return null;
  if (tier === 'prefix') {
    // docs/api.md §10.7 search: the term's first words are the query's words.
    const rest = requiredTokens({ ...text, words: text.words.slice(1) });
    return { source: await tokenSource(req, lang, [first, ...rest], counts, backend), verify: text.words.length > 1 };
  }
  return { source: await tokenSource(req, lang, requiredTokens(text), counts, backend), verify: !isDecidedByToken(text) };
}

/** The streams of the request in ranking order, produced lazily (later ones are often never needed). */
async function* streams(req: RankRequest, backend: SearchBackend): AsyncGenerator<Stream> {
  const tiers: Tier[] = req.mode === 'suggest' ? ['exact', 'prefix'] : ['exact', 'prefix', 'word'];
  const counts: Counts = new Map();
  for (const tier of tiers) {
    for (const lang of req.languages) {
      for (const type of TERM_TYPES) {
        const planned = await streamSource(req, tier, lang, type, counts, backend);
        if (planned) yield { kind: req.kind, tier, lang, type, ...planned };
      }
    }
  }
}

async function verified(stream: Stream, row: Row, req: RankRequest, backend: SearchBackend): Promise<boolean> {
  if (!stream.verify) return true;
  const texts = await backend.texts(stream.kind, row.entity, stream.lang, stream.type);
  return texts.some((t) => tierOf(t, req.text, req.mode) === stream.tier);
}

/** Page sizes a backend is asked for: a fixed few, so that it can prepare one statement per size. */
export const PAGE_SIZES = [32, 128, 512, 1024] as const;

/** Rows asked for per page: what is still needed, with room for rows that are skipped. */
function pageSize(missing: number): number {
  return PAGE_SIZES.find((size) => size >= missing * 2 + 20) ?? PAGE_SIZES[PAGE_SIZES.length - 1];
}

/**
 * With a statement filter (haswbstatement:), rows are checked one by one after the text matched; a request stops
 * after this many rows so that a common word with a rare statement costs bounded work (docs/api.md §10.7).
 */
export const MAX_FILTERED_ROWS = 20_000;

/** Whether an entity passes the request's statement filter; absent: every entity does. */
export type EntityFilter = (entity: number) => Promise<boolean>;

/** Entries offset .. offset+limit of the unpaged ranked list. */
export async function rankedPage(req: RankRequest, backend: SearchBackend, filter?: EntityFilter): Promise<Ranked[]> {
  const wanted = req.offset + req.limit;
  const out: Ranked[] = [];
  if (req.limit === 0) return out;
  const seen = new Set<number>();
  let budget = filter ? MAX_FILTERED_ROWS : Infinity;
  const passes = async (entity: number) => !filter || (budget-- > 0 && await filter(entity));
  if (req.entityId !== null && await backend.exists(req.kind, req.entityId) && await passes(req.entityId)) {
    out.push({ entity: req.entityId, tier: 'id', lang: '', type: 'label' });
    seen.add(req.entityId);
  }
  for await (const stream of streams(req, backend)) {
    let after: Row | null = null;
    while (out.length < wanted) {
      const size = pageSize(wanted - out.length);
      const rows = await backend.page(stream, after, size);
      for (const row of rows) {
        after = row;
        if (seen.has(row.entity) || !(await verified(stream, row, req, backend)) || !(await passes(row.entity))) continue;
        seen.add(row.entity);
        out.push({ entity: row.entity, tier: stream.tier, lang: stream.lang, type: stream.type });
        if (out.length >= wanted) break;
      }
      if (rows.length < size || budget <= 0) break;
    }
    if (out.length >= wanted || budget <= 0) break;
  }
  return out.slice(req.offset);
}
