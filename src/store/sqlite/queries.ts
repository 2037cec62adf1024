// All SQL of the SQLite backend, prepared once per connection.
import type Database from 'better-sqlite3';
import type { KindName } from '../../domain/entity.js';
import type { SearchTable } from '../index-rows.js';

interface HeadRow { rev_id: number | null; timestamp: number; redirect_to: string | null }
interface RevisionRow {
  rev_id: number; entity_id: string; timestamp: number; user: string; comment: string | null; tags: string; bot: number;
  content: string | Buffer;
}

interface UserRow { name: string; user_group: string; token_hash: string | null; block_reason: string | null; created: number }

/**
 * Rows per statement of a bulk insert. Each statement call costs about a microsecond beyond the work of its
 * rows (issue #8, search rows into a 20,000-item store: 2.2 µs a row one by one, 1.3 at fifty a statement,
 * 1.2 at two hundred).
 */
const ROWS_PER_INSERT = 100;

/** Inserts rows given as flat, row-major lists of column values (a row never spans two lists). */
export type RowInserter = (lists: Iterable<readonly unknown[]>) => void;

/** `head`: `INSERT … (columns) VALUES`, completed here with a hundred rows' placeholders (the rest one by one). */
export function rowInserter(db: Database.Database, head: string, columns: number): RowInserter {
  const row = `(${Array(columns).fill('?').join(', ')})`;
  const one = db.prepare(`${head} ${row}`);
  const many = db.prepare(`${head} ${Array(ROWS_PER_INSERT).fill(row).join(', ')}`);
  const width = columns * ROWS_PER_INSERT;
  return (lists) => {
    const params: unknown[] = new Array(width);
    let filled = 0;
    for (const values of lists) {
      for (let i = 0; i < values.length; i++) {
        params[filled++] = values[i];
        if (filled === width) {
          many.run(params);
          filled = 0;
        }
      }
    }
    for (let i = 0; i < filled; i += columns) one.run(params.slice(i, i + columns));
  };
}

export function prepareQueries(db: Database.Database) {
  return {
    // The head first, the document only when the entity cache does not hold that revision.
    readHead: db.prepare<[string], HeadRow>(`
      SELECT r.rev_id, r.timestamp, e.redirect_to
      FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev WHERE e.id = ?`),
    readContent: db.prepare<[number], { content: string | Buffer }>('SELECT content FROM revisions WHERE rev_id = ?'),
    readHeads: db.prepare<[string], HeadRow & { id: string }>(`
      SELECT e.id, r.rev_id, r.timestamp, e.redirect_to
      FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev WHERE e.id IN (SELECT value FROM json_each(?))`),
    // One query for every id a validation needs (statements name many): data types without parsing documents.
    lookupEntities: db.prepare<[string], { id: string; data_type: string | null }>(`
      SELECT e.id, CASE WHEN e.kind = 'property' THEN json_extract(r.content, '$.data_type') END AS data_type
      FROM entities e JOIN revisions r ON r.rev_id = e.head_rev
      WHERE e.id IN (SELECT value FROM json_each(?)) AND e.redirect_to IS NULL`),
    /** Which of a batch's ids (a JSON array) have a row already: one query instead of a read per entity. */
    existingIds: db.prepare<[string], { id: string }>('SELECT id FROM entities WHERE id IN (SELECT value FROM json_each(?))'),
    // An import on the import thread spans several messages, so it opens and ends its transaction by hand.
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    headOf: db.prepare<[string], { head_rev: number | null }>('SELECT head_rev FROM entities WHERE id = ?'),
    allocateId: db.prepare<[string], { last: number }>(
      'UPDATE id_counters SET last = last + 1 WHERE kind = ? RETURNING last'),
    raiseCounter: db.prepare<[number, string, number]>('UPDATE id_counters SET last = ? WHERE kind = ? AND last < ?'),
    upsertRedirect: db.prepare<[string, number, string]>(`
      INSERT INTO entities (id, kind, head_rev, redirect_to) VALUES (?, 'item', ?, ?)
      ON CONFLICT (id) DO UPDATE SET head_rev = excluded.head_rev, redirect_to = excluded.redirect_to,
        sitelink_count = 0, statement_count = 0`),
    insertRevision: db.prepare<[string, number, string, string | null, string, number, string | Uint8Array, string | null], { rev_id: number }>(`
      INSERT INTO revisions (entity_id, timestamp, user, comment, tags, bot, content, action)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING rev_id`),
    insertEntity: db.prepare<[string, string, number, number, number]>(
      'INSERT INTO entities (id, kind, head_rev, sitelink_count, statement_count) VALUES (?, ?, ?, ?, ?)'),
    updateHead: db.prepare<[number, number, number, string]>(
      'UPDATE entities SET head_rev = ?, sitelink_count = ?, statement_count = ? WHERE id = ?'),
    insertTerm: db.prepare<[string, string, string, string, string]>(
      'INSERT INTO terms (entity_id, kind, type, lang, text) VALUES (?, ?, ?, ?, ?)'),
    insertTerms: rowInserter(db, 'INSERT INTO terms (entity_id, kind, type, lang, text) VALUES', 5),
    deleteTerm: db.prepare<[string, string, string, string]>(
      'DELETE FROM terms WHERE entity_id = ? AND type = ? AND lang = ? AND text = ?'),
    insertSitelink: db.prepare<[string, string, string]>('INSERT INTO sitelinks (site, title, item_id) VALUES (?, ?, ?)'),
    deleteSitelink: db.prepare<[string, string, string]>(
      'DELETE FROM sitelinks WHERE site = ? AND title = ? AND item_id = ?'),
    sitelinkOwner: db.prepare<[string, string], { item_id: string }>(
      'SELECT item_id FROM sitelinks WHERE site = ? AND title = ?'),
    propertyWithLabel: db.prepare<[string, string, string], { entity_id: string }>(`
      SELECT entity_id FROM terms
      WHERE kind = 'property' AND type = 'label' AND lang = ? AND text = ? AND entity_id <> ? LIMIT 1`),
    itemWithLabelAndDescription: db.prepare<[string, string, string, string], { entity_id: string }>(`
      SELECT l.entity_id FROM terms l
      JOIN terms d ON d.entity_id = l.entity_id AND d.type = 'description' AND d.lang = l.lang
      WHERE l.kind = 'item' AND l.type = 'label' AND l.lang = ? AND l.text = ? AND d.text = ? AND l.entity_id <> ?
      LIMIT 1`),
    revisionsOf: db.prepare<[string, number, number], RevisionRow>(`
      SELECT rev_id, entity_id, timestamp, user, comment, tags, bot, content FROM revisions
      WHERE entity_id = ? AND rev_id < ? ORDER BY rev_id DESC LIMIT ?`),
    revisionBefore: db.prepare<[string, number], { rev_id: number | null }>(`
      SELECT max(rev_id) AS rev_id FROM revisions WHERE entity_id = ? AND rev_id < ?`),
    revisionOf: db.prepare<[string, number], RevisionRow>(`
      SELECT rev_id, entity_id, timestamp, user, comment, tags, bot, content FROM revisions
      WHERE entity_id = ? AND rev_id = ?`),
    ...accountQueries(db),
    // Times in milliseconds. A window that has ended starts again with this hit.
    countHit: db.prepare<[{ key: string; now: number; window: number }], { count: number; reset_at: number }>(`
      INSERT INTO rate_windows (key, reset_at, count) VALUES (@key, @now + @window, 1)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
        reset_at = CASE WHEN reset_at <= @now THEN @now + @window ELSE reset_at END
      RETURNING count, reset_at`),
    dropEndedWindows: db.prepare<[number]>('DELETE FROM rate_windows WHERE reset_at <= ?'),
    // GET /metrics: the counts the entity_counts triggers keep (migration 14), and unfinished imports.
    entityCounts: db.prepare<[], { kind: KindName; redirect: number; n: number }>('SELECT kind, redirect, n FROM entity_counts'),
    unfinishedImports: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM meta WHERE key LIKE 'import:%'"),
  };
}

const USER_COLUMNS = 'name, user_group, token_hash, block_reason, created';

function accountQueries(db: Database.Database) {
  return {
    insertUser: db.prepare<[string, string, number]>(
      'INSERT INTO users (name, user_group, created) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING'),
    userByName: db.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE name = ?`),
    userByTokenHash: db.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE token_hash = ?`),
    listUsers: db.prepare<[], UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY created, name`),
    setTokenHash: db.prepare<[string, string]>('UPDATE users SET token_hash = ? WHERE name = ?'),
    setBlockReason: db.prepare<[string | null, string]>('UPDATE users SET block_reason = ? WHERE name = ?'),
    protect: db.prepare<[string]>('INSERT INTO protected_entities (entity_id) VALUES (?) ON CONFLICT DO NOTHING'),
    unprotect: db.prepare<[string]>('DELETE FROM protected_entities WHERE entity_id = ?'),
    isProtected: db.prepare<[string], { entity_id: string }>('SELECT entity_id FROM protected_entities WHERE entity_id = ?'),
    insertMeta: db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING'),
    readMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
  };
}

export type { UserRow };
export type Queries = ReturnType<typeof prepareQueries>;

/** The key column of each search index table (the search-index migration). */
const SEARCH_KEY_COLUMN: Record<SearchTable, string> = { terms: 'folded', prefixes: 'prefix', tokens: 'token' };

type SearchRowParams = [kind: number, lang: string, key: string, type: number, rank: number, entity: number];
/** Keyset paging: rows strictly after (rank, entity), in index order. */
type PageParams = [kind: number, lang: string, key: string, type: number, rank: number, entity: number];
export interface RankRow { rank: number; entity: number }

/**
 * One prepared statement per key, made on first use. Search statements take their LIMIT as a literal: with a
 * bound LIMIT each run cost about 12 µs more (measured; likely a re-prepare), more than the index seek itself.
 * The ranking module asks for a handful of fixed page sizes and caps, so these caches stay small.
 */
function perKey<K, S>(make: (key: K) => S): (key: K) => S {
  const made = new Map<K, S>();
  return (key) => {
    let stmt = made.get(key);
    if (!stmt) made.set(key, stmt = make(key));
    return stmt;
  };
}

function tableQueries(db: Database.Database, table: SearchTable) {
  const key = SEARCH_KEY_COLUMN[table];
  const name = `search_${table}`;
  return {
    insert: db.prepare<SearchRowParams>(`INSERT OR IGNORE INTO ${name} (kind, lang, ${key}, type, rank, entity) VALUES (?, ?, ?, ?, ?, ?)`),
    insertMany: rowInserter(db, `INSERT OR IGNORE INTO ${name} (kind, lang, ${key}, type, rank, entity) VALUES`, 6),
    delete: db.prepare<SearchRowParams>(
      `DELETE FROM ${name} WHERE kind = ? AND lang = ? AND ${key} = ? AND type = ? AND rank = ? AND entity = ?`),
    page: perKey((limit: number) => db.prepare<PageParams, RankRow>(`
      SELECT rank, entity FROM ${name}
      WHERE kind = ? AND lang = ? AND ${key} = ? AND type = ? AND (rank, entity) > (?, ?)
      ORDER BY rank, entity LIMIT ${limit}`)),
  };
}

/** Token postings that must also have `also` more tokens in the same (entity, language, type). */
function tokenPageWithAlso(db: Database.Database, also: number, limit: number) {
  const exists = Array.from({ length: also }, () => `
        AND EXISTS (SELECT 1 FROM search_tokens o WHERE o.kind = t.kind AND o.lang = t.lang AND o.token = ?
                    AND o.type = t.type AND o.rank = t.rank AND o.entity = t.entity)`).join('');
  return db.prepare<unknown[], RankRow>(`
      SELECT t.rank, t.entity FROM search_tokens t
      WHERE t.kind = ? AND t.lang = ? AND t.token = ? AND t.type = ? AND (t.rank, t.entity) > (?, ?)${exists}
      ORDER BY t.rank, t.entity LIMIT ${limit}`);
}

export function prepareSearchQueries(db: Database.Database) {
  const withAlso = perKey((key: string) => {
    const [also, limit] = key.split(':').map(Number);
    return tokenPageWithAlso(db, also, limit);
  });
  return {
    terms: tableQueries(db, 'terms'),
    prefixes: tableQueries(db, 'prefixes'),
    tokens: tableQueries(db, 'tokens'),
    /**
     * Folded terms in [from, to): a range scan sorted in memory (only for prefixes longer than the prefix index,
     * with few matches). `+type` keeps the planner off search_terms_by_rank, which would read the whole language.
     */
    termsRange: perKey((limit: number) => db.prepare<[number, string, string, string, number, number, number], RankRow>(`
      SELECT rank, entity FROM search_terms
      WHERE kind = ? AND lang = ? AND folded >= ? AND folded < ? AND +type = ? AND (rank, entity) > (?, ?)
      ORDER BY rank, entity LIMIT ${limit}`)),
    /** The same range, filtered while reading a language's terms in ranking order (when the range is large). */
    termsByRank: perKey((limit: number) => db.prepare<[number, string, number, number, number, string, string], RankRow>(`
      SELECT rank, entity FROM search_terms INDEXED BY search_terms_by_rank
      WHERE kind = ? AND lang = ? AND type = ? AND (rank, entity) > (?, ?) AND folded >= ? AND folded < ?
      ORDER BY rank, entity LIMIT ${limit}`)),
    rangeCount: perKey((cap: number) => db.prepare<[number, string, string, string, number], { n: number }>(`
      SELECT count(*) AS n FROM (
        SELECT 1 FROM search_terms WHERE kind = ? AND lang = ? AND folded >= ? AND folded < ? AND +type = ? LIMIT ${cap})`)),
    tokensWithAlso: (also: number, limit: number) => withAlso(`${also}:${limit}`),
    postings: perKey((cap: number) => db.prepare<[number, string, string], { n: number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM search_tokens WHERE kind = ? AND lang = ? AND token = ? LIMIT ${cap})`)),
    texts: db.prepare<[string, string, string], { text: string }>(
      'SELECT text FROM terms WHERE entity_id = ? AND type = ? AND lang = ?'),
    exists: db.prepare<[string], { one: number }>(
      'SELECT 1 AS one FROM entities WHERE id = ? AND head_rev IS NOT NULL AND redirect_to IS NULL'),
    prefixSkipped: db.prepare<[number, string], { one: number }>('SELECT 1 AS one FROM search_prefix_skipped WHERE kind = ? AND lang = ?'),
    backlog: db.prepare<[number], { entity_id: string }>('SELECT entity_id FROM search_backlog LIMIT ?'),
    unqueue: db.prepare<[string]>('DELETE FROM search_backlog WHERE entity_id = ?'),
  };
}

export type SearchQueries = ReturnType<typeof prepareSearchQueries>;
