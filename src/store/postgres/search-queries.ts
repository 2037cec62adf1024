// The PostgreSQL backend's search SQL (docs/adr/0003-search-index.md), beside queries.ts and under its rules:
// every value a bind parameter; table and column names from fixed maps, never from input.
import type { SearchRow, SearchTable } from '../index-rows.js';
import type { Language } from '../prefix-languages.js';
import { first, rows, type Db, type WritePart } from './queries.js';

const SEARCH_KEY_COLUMN: Record<SearchTable, string> = { terms: 'folded', prefixes: 'prefix', tokens: 'token' };

/** Search rows of one table added (those already there are left as they are). */
export const searchRowsAdded = (table: SearchTable, r: SearchRow[]): WritePart => ({
  sql: `INSERT INTO search_${table} (kind, lang, ${SEARCH_KEY_COLUMN[table]}, type, rank, entity)
      SELECT * FROM unnest($1::smallint[], $2::text[], $3::text[], $4::smallint[], $5::bigint[], $6::bigint[])
      ON CONFLICT DO NOTHING`,
  values: searchColumns(r),
});

export const searchRowsRemoved = (table: SearchTable, r: SearchRow[]): WritePart => ({
  sql: `DELETE FROM search_${table} WHERE (kind, lang, ${SEARCH_KEY_COLUMN[table]}, type, rank, entity) IN
        (SELECT * FROM unnest($1::smallint[], $2::text[], $3::text[], $4::smallint[], $5::bigint[], $6::bigint[]))`,
  values: searchColumns(r),
});

export interface RankRow { rank: number; entity: number }
const toRankRows = (list: { rank: string; entity: string }[]): RankRow[] =>
  list.map((r) => ({ rank: Number(r.rank), entity: Number(r.entity) }));

/** Keyset paging: rows strictly after (rank, entity) of one (kind, lang, key, type), in index order. */
async function searchPage(db: Db, sql: string, values: unknown[]): Promise<RankRow[]> {
  return toRankRows(await rows<{ rank: string; entity: string }>(db, sql, values));
}

export const searchQueries = {
  page: (db: Db, table: SearchTable, key: unknown[], after: RankRow, limit: number) => searchPage(db, `
    SELECT rank, entity FROM search_${table}
    WHERE kind = $1 AND lang = $2 AND ${SEARCH_KEY_COLUMN[table]} = $3 AND type = $4 AND (rank, entity) > ($5, $6)
    ORDER BY rank, entity LIMIT $7`, [...key, after.rank, after.entity, limit]),
  /** Few matches: read the folded range and sort. */
  termsRange: (db: Db, kind: number, lang: string, from: string, to: string, type: number, after: RankRow, limit: number) =>
    searchPage(db, `
      SELECT rank, entity FROM search_terms
      WHERE kind = $1 AND lang = $2 AND folded >= $3 AND folded < $4 AND type = $5 AND (rank, entity) > ($6, $7)
      ORDER BY rank, entity LIMIT $8`, [kind, lang, from, to, type, after.rank, after.entity, limit]),
  /** Many matches: read the language's terms in rank order and filter. */
  termsByRank: (db: Db, kind: number, lang: string, type: number, from: string, to: string, after: RankRow, limit: number) =>
    searchPage(db, `
      SELECT rank, entity FROM search_terms
      WHERE kind = $1 AND lang = $2 AND type = $3 AND (rank, entity) > ($4, $5) AND folded >= $6 AND folded < $7
      ORDER BY rank, entity LIMIT $8`, [kind, lang, type, after.rank, after.entity, from, to, limit]),
  /** Token postings whose (entity, lang, type) also has every token of `also`. */
  tokensWithAlso: (db: Db, kind: number, lang: string, token: string, type: number, also: string[], after: RankRow, limit: number) =>
    searchPage(db, `
      SELECT t.rank, t.entity FROM search_tokens t
      WHERE t.kind = $1 AND t.lang = $2 AND t.token = $3 AND t.type = $4 AND (t.rank, t.entity) > ($5, $6)
        AND NOT EXISTS (
          SELECT 1 FROM unnest($7::text[]) AS a(token)
          WHERE NOT EXISTS (SELECT 1 FROM search_tokens o WHERE o.kind = t.kind AND o.lang = t.lang
            AND o.token = a.token AND o.type = t.type AND o.rank = t.rank AND o.entity = t.entity))
      ORDER BY t.rank, t.entity LIMIT $8`, [kind, lang, token, type, after.rank, after.entity, also, limit]),
  rangeCount: async (db: Db, kind: number, lang: string, from: string, to: string, type: number, cap: number) =>
    Number((await first<{ n: string }>(db, `
      SELECT count(*) AS n FROM (SELECT 1 FROM search_terms
        WHERE kind = $1 AND lang = $2 AND folded >= $3 AND folded < $4 AND type = $5 LIMIT $6) AS s`,
    [kind, lang, from, to, type, cap]))!.n),
  postings: async (db: Db, kind: number, lang: string, token: string, cap: number) =>
    Number((await first<{ n: string }>(db, `
      SELECT count(*) AS n FROM (SELECT 1 FROM search_tokens WHERE kind = $1 AND lang = $2 AND token = $3 LIMIT $4) AS s`,
    [kind, lang, token, cap]))!.n),
  texts: async (db: Db, entityId: string, type: string, lang: string) =>
    (await rows<{ text: string }>(db, 'SELECT text FROM terms WHERE entity_id = $1 AND type = $2 AND lang = $3 ORDER BY text',
      [entityId, type, lang])).map((r) => r.text),
  exists: async (db: Db, entityId: string) => (await rows(db,
    'SELECT 1 FROM entities WHERE id = $1 AND head_rev IS NOT NULL AND redirect_to IS NULL', [entityId])).length > 0,
  /** The languages whose prefix rows a bulk import's build left out (prefix-languages.ts). */
  prefixSkipped: (db: Db) => rows<Language>(db, 'SELECT kind, lang FROM search_prefix_skipped'),
  /** Labels, descriptions and aliases of an entity in the given languages. */
  entityTerms: (db: Db, entityId: string, langs: readonly string[]) => rows<{ type: string; lang: string; text: string }>(db, `
    SELECT type, lang, text FROM terms WHERE entity_id = $1 AND lang = ANY($2::text[]) ORDER BY type, lang, text`,
  [entityId, langs]),
  /** Takes up to `limit` queued entity ids; others draining at the same time take other ones. */
  takeBacklog: async (db: Db, limit: number) => (await rows<{ entity_id: string }>(db, `
    DELETE FROM search_backlog WHERE entity_id IN (
      SELECT entity_id FROM search_backlog LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING entity_id`, [limit]))
    .map((r) => r.entity_id),
  /** The current documents of existing, non-redirect entities among `ids`. */
  contents: (db: Db, ids: string[]) => rows<{ id: string; content: string }>(db, `
    SELECT e.id, r.content FROM entities e JOIN revisions r ON r.rev_id = e.head_rev
    WHERE e.id = ANY($1::text[]) AND e.redirect_to IS NULL`, [ids]),
};

function searchColumns(r: SearchRow[]): unknown[] {
  return [r.map((x) => x.kind), r.map((x) => x.lang), r.map((x) => x.key), r.map((x) => x.type), r.map((x) => x.rank),
    r.map((x) => x.entity)];
}
