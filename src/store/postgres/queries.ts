// All SQL of the PostgreSQL backend. Every value travels as a bind parameter or, in a bulk import, as a COPY
// row (copy.ts); the only text assembled at run time is a schema name in CREATE SCHEMA, checked against a
// strict pattern first (identifiers cannot be parameters). Arrays + unnest() write many index rows in one
// round trip. The search index's SQL is search-queries.ts.
import type pg from 'pg';
import type { KindName } from '../../domain/entity.js';
import type { EditMeta, PolicyQuery } from '../store.js';
import { arrayLiteral, copyRows } from './copy.js';
import { perKind } from '../../domain/kinds.js';

/** A head an edit moved: its new revision, and whether the entity waits for an import's index build. */
export interface MovedHead {
  revision: number;
  waiting: boolean;
}

/** A pool or one checked-out connection (inside a transaction). */
export interface Db {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export async function rows<R extends pg.QueryResultRow>(db: Db, text: string, values: unknown[] = []): Promise<R[]> {
  return (await db.query<R>(text, values)).rows;
}

export async function first<R extends pg.QueryResultRow>(db: Db, text: string, values: unknown[] = []): Promise<R | undefined> {
  return (await db.query<R>(text, values)).rows[0];
}

/** One write as SQL and its values, its parameters numbered from $1: writes that may run as one statement (`combined`). */
export interface WritePart {
  sql: string;
  values: unknown[];
}

/**
 * Writes as one statement, each a data-modifying WITH query: one round trip where each was its own (an edit's
 * revision and index rows were a dozen, each a round trip of the driver and a wake-up of the server's backend).
 * PostgreSQL runs the parts on one snapshot in no set order, so no two may touch the same row: an index's rows
 * removed and added are a difference, which never shares a row. Returns the rows of `returning`, when given.
 * A part's SQL holds `$` only in its parameters, which are renumbered here.
 */
export function combined(parts: readonly WritePart[], returning?: WritePart): WritePart {
  const values: unknown[] = [];
  const renumbered = (part: WritePart) => {
    const offset = values.length;
    values.push(...part.values);
    return part.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  };
  const queries = parts.map((part, i) => `w${i} AS (${renumbered(part)})`);
  if (!returning) return { sql: `WITH ${queries.join(',\n')} SELECT 1`, values };
  queries.push(`returned AS (${renumbered(returning)})`);
  return { sql: `WITH ${queries.join(',\n')} SELECT * FROM returned`, values };
}

/**
 * Runs `parts` and `returning` as one statement, a lone write as it is (nothing when there is none); the rows of
 * `returning`.
 */
export async function runCombined<R extends pg.QueryResultRow>(db: Db, parts: readonly WritePart[], returning?: WritePart): Promise<R[]> {
  const all = returning ? [...parts, returning] : parts;
  if (all.length === 0) return [];
  const { sql, values } = all.length === 1 ? all[0] : combined(parts, returning);
  const written = await rows<R>(db, sql, values);
  return returning ? written : [];
}

/** The revision an edit writes; returns its time, the database's clock, so every process stamps from one clock (1 s resolution). */
export const revisionInsert = (revId: number, entityId: string, meta: EditMeta, content: string): WritePart => ({
  sql: `INSERT INTO revisions (rev_id, entity_id, "timestamp", user_name, comment, tags, bot, content, action)
      VALUES ($1, $2, date_trunc('second', statement_timestamp()), $3, $4, $5, $6, $7, $8) RETURNING "timestamp"`,
  values: [revId, entityId, meta.user, meta.comment, meta.tags, meta.bot, content, meta.action ?? null],
});

export const termsRemoved = (entityId: string, t: Pick<TermColumns, 'types' | 'langs' | 'texts'>): WritePart => ({
  sql: `DELETE FROM terms WHERE entity_id = $1
      AND (type, lang, text) IN (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))`,
  values: [entityId, t.types, t.langs, t.texts],
});

export const termsAdded = (t: TermColumns): WritePart => ({
  sql: `INSERT INTO terms (entity_id, kind, type, lang, text)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`,
  values: [t.entityIds, t.kinds, t.types, t.langs, t.texts],
});

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function isSchemaName(name: string): boolean {
  return SCHEMA_NAME.test(name);
}

// One sequence per kind, named after it (`item_ids`; made at open, migrations.ts kindSequence): nextval() never hands out a number
// twice, whatever the number of processes.
const ID_SEQUENCE: Record<KindName, { next: string; raise: string }> = perKind(({ name }) => ({
  next: `SELECT nextval('${name}_ids') AS n`,
  raise: `SELECT setval('${name}_ids', $1) FROM ${name}_ids
          WHERE (CASE WHEN is_called THEN last_value ELSE last_value - 1 END) < $1`,
}));

export interface EntityRow { content: string | null; rev_id: string | null; timestamp: Date | null; redirect_to: string | null }
export interface RevisionRow {
  rev_id: string; entity_id: string; timestamp: Date; user_name: string; comment: string | null; tags: string[]; bot: boolean;
  size: number;
}
export interface Counts { sitelinks: number; statements: number }
export interface TermColumns { entityIds: string[]; kinds: string[]; types: string[]; langs: string[]; texts: string[] }

export const migrationQueries = {
  currentSchema: async (db: Db) => (await first<{ schema: string | null }>(db, 'SELECT current_schema() AS schema'))?.schema ?? null,
  schemaExists: async (db: Db, name: string) =>
    (await rows(db, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [name])).length > 0,
  createSchema: async (db: Db, name: string) => {
    if (!isSchemaName(name)) throw new Error(`invalid schema name '${name}'`);
    await db.query(`CREATE SCHEMA "${name}"`);
  },
  /** Held until the migration transaction ends: N processes starting together migrate once. */
  lock: async (db: Db, key: bigint) => { await db.query('SELECT pg_advisory_xact_lock($1::bigint)', [key.toString()]); },
  createTable: async (db: Db) => {
    await db.query(`CREATE TABLE IF NOT EXISTS entia_migrations (
      version integer PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now())`);
  },
  applied: async (db: Db) => (await rows<{ version: number }>(db, 'SELECT version FROM entia_migrations')).map((r) => r.version),
  /** A migration is a script of several statements without parameters (simple query protocol). */
  run: async (db: Db, script: string) => { await db.query(script); },
  record: async (db: Db, version: number) => { await db.query('INSERT INTO entia_migrations (version) VALUES ($1)', [version]); },
  /** An index's definition as PostgreSQL writes it back (`CREATE INDEX … WHERE (…)`), or null when there is none. */
  indexDefinition: async (db: Db, schema: string, name: string) =>
    (await first<{ indexdef: string }>(db, 'SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [schema, name]))?.indexdef ?? null,
};

/** The read of every GET of one entity (queries.readHead), apart so that `npm run bench:postgres` can EXPLAIN it. */
export const READ_HEAD = `
    SELECT e.id, e.head_rev AS rev_id, r."timestamp", e.redirect_to, CASE WHEN e.head_rev = $2 THEN NULL ELSE r.content END AS content
    FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev WHERE e.id = $1`;

export const queries = {
  readEntity: (db: Db, id: string) => first<EntityRow>(db, `
    SELECT r.content, r.rev_id, r."timestamp", e.redirect_to
    FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev WHERE e.id = $1`, [id]),

  /**
   * The head of one entity, with its document only when its revision is not `held` (the one the process holds
   * already, 0 for none): the document is the read's cost (decompressed, sent, decoded), the head is a key
   * lookup.
   */
  readHead: (db: Db, id: string, held: number) => first<EntityRow & { id: string }>(db, READ_HEAD, [id, held]),

  /**
   * readHead for a batch: `held` lists the revisions the process holds (a revision id belongs to one entity, so
   * they need no pairing with the ids). Kept apart from readHead: with `= ANY` one id costs the server about
   * twice as much (143 against 49–73 µs a GET, measured), and single reads are the hot path.
   */
  readHeads: (db: Db, ids: string[], held: number[]) => rows<EntityRow & { id: string }>(db, `
    SELECT e.id, e.head_rev AS rev_id, r."timestamp", e.redirect_to,
      CASE WHEN e.head_rev = ANY($2::bigint[]) THEN NULL ELSE r.content END AS content
    FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev WHERE e.id = ANY($1::text[])`, [ids, held]),

  /** Existing, non-redirect entities among `ids`; the document only for properties (their data type). */
  lookup: (db: Db, ids: string[]) => rows<{ id: string; kind: string; content: string | null }>(db, `
    SELECT e.id, e.kind, CASE WHEN e.kind = 'property' THEN r.content END AS content
    FROM entities e JOIN revisions r ON r.rev_id = e.head_rev
    WHERE e.id = ANY($1::text[]) AND e.redirect_to IS NULL`, [ids]),

  nextId: async (db: Db, kind: KindName) => Number((await first<{ n: string }>(db, ID_SEQUENCE[kind].next))!.n),
  /** Only ever raises the sequence, so a concurrent allocation below `last` is never handed out again. */
  raiseId: async (db: Db, kind: KindName, last: number) => { await db.query(ID_SEQUENCE[kind].raise, [last]); },

  /** Transaction-scoped advisory locks, taken in the order given (callers sort them: no lock-order deadlock). */
  lockShared: async (db: Db, key: bigint) => { await db.query('SELECT pg_advisory_xact_lock_shared($1::bigint)', [key.toString()]); },
  lockKeys: async (db: Db, keys: bigint[]) => {
    if (keys.length === 0) return;
    await db.query('SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k', [keys.map(String)]);
  },

  /**
   * Compare-and-set of the head, allocating the revision id: no row ⇒ somebody else moved the head. In the same
   * statement, an entity whose index rows an import has not built yet is marked edited (deferred-index.ts), and
   * `waiting` says so: its edit then leaves those rows to the build. A failed compare-and-set rolls the mark back
   * with the edit's transaction.
   */
  moveHead: async (db: Db, id: string, base: number, counts: Counts): Promise<MovedHead | null> => {
    const row = await first<{ head_rev: string; waiting: boolean }>(db, `
      WITH waiting AS (UPDATE index_backlog SET edited = true WHERE entity_id = $1 RETURNING 1)
      UPDATE entities SET head_rev = nextval('revision_ids'), sitelink_count = $3, statement_count = $4
      WHERE id = $1 AND head_rev = $2 RETURNING head_rev, EXISTS (SELECT 1 FROM waiting) AS waiting`,
    [id, base, counts.sitelinks, counts.statements]);
    return row ? { revision: Number(row.head_rev), waiting: row.waiting } : null;
  },
  /** A new entity's head; a new entity never waits for an import's build. */
  insertEntity: async (db: Db, id: string, kind: KindName, counts: Counts): Promise<MovedHead | null> => {
    const row = await first<{ head_rev: string }>(db, `
      INSERT INTO entities (id, kind, head_rev, sitelink_count, statement_count)
      VALUES ($1, $2, nextval('revision_ids'), $3, $4) ON CONFLICT (id) DO NOTHING RETURNING head_rev`,
    [id, kind, counts.sitelinks, counts.statements]);
    return row ? { revision: Number(row.head_rev), waiting: false } : null;
  },
  /** Points an entity (created if absent) at a redirect revision; its counts drop to zero. */
  upsertRedirect: async (db: Db, id: string, target: string) =>
    Number((await first<{ head_rev: string }>(db, `
      INSERT INTO entities (id, kind, head_rev, redirect_to) VALUES ($1, 'item', nextval('revision_ids'), $2)
      ON CONFLICT (id) DO UPDATE SET head_rev = nextval('revision_ids'), redirect_to = excluded.redirect_to,
        sitelink_count = 0, statement_count = 0
      RETURNING head_rev`, [id, target]))!.head_rev),
  /** Compare-and-set of an entity's head onto a redirect revision (a merge's source); null: the head moved. */
  moveHeadToRedirect: async (db: Db, id: string, base: number, target: string): Promise<MovedHead | null> => {
    const row = await first<{ head_rev: string; waiting: boolean }>(db, `
      WITH waiting AS (UPDATE index_backlog SET edited = true WHERE entity_id = $1 RETURNING 1)
      UPDATE entities SET head_rev = nextval('revision_ids'), redirect_to = $3, sitelink_count = 0, statement_count = 0
      WHERE id = $1 AND head_rev = $2 AND redirect_to IS NULL
      RETURNING head_rev, EXISTS (SELECT 1 FROM waiting) AS waiting`, [id, base, target]);
    return row ? { revision: Number(row.head_rev), waiting: row.waiting } : null;
  },
  deleteSitelinks: async (db: Db, itemId: string, sites: string[], titles: string[]) => {
    await db.query(`
      DELETE FROM sitelinks WHERE item_id = $1
      AND (site, title) IN (SELECT * FROM unnest($2::text[], $3::text[]))`, [itemId, sites, titles]);
  },
  /**
   * The primary key (site, title) is "one item per page" (docs/api.md §6.4). ON CONFLICT DO NOTHING waits for
   * a concurrent inserter of the same page to finish, then skips the row: the rows not returned lost.
   */
  insertSitelinks: (db: Db, sites: string[], titles: string[], itemIds: string[]) => rows<{ site: string; title: string }>(db, `
    INSERT INTO sitelinks (site, title, item_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
    ON CONFLICT (site, title) DO NOTHING RETURNING site, title`, [sites, titles, itemIds]),
  sitelinkOwner: async (db: Db, site: string, title: string) =>
    (await first<{ item_id: string }>(db, 'SELECT item_id FROM sitelinks WHERE site = $1 AND title = $2', [site, title]))?.item_id ?? null,

  propertyWithLabel: async (db: Db, lang: string, label: string, exceptId: string) =>
    (await first<{ entity_id: string }>(db, `
      SELECT entity_id FROM terms
      WHERE kind = 'property' AND type = 'label' AND lang = $1 AND text = $2 AND entity_id <> $3 LIMIT 1`,
    [lang, label, exceptId]))?.entity_id ?? null,
  itemWithLabelAndDescription: async (db: Db, lang: string, label: string, description: string, exceptId: string) =>
    (await first<{ entity_id: string }>(db, `
      SELECT l.entity_id FROM terms l
      JOIN terms d ON d.entity_id = l.entity_id AND d.type = 'description' AND d.lang = l.lang
      WHERE l.kind = 'item' AND l.type = 'label' AND l.lang = $1 AND l.text = $2 AND d.text = $3 AND l.entity_id <> $4
      LIMIT 1`, [lang, label, description, exceptId]))?.entity_id ?? null,
  /** The data policy's lookup port (domain/policy.ts): another entity holding the value, or null. */
  policyHolder: (db: Db, query: PolicyQuery): Promise<string | null> => {
    switch (query.rule) {
      case 'property-label': return queries.propertyWithLabel(db, query.language, query.label, query.exceptId);
      case 'item-label-description':
        return queries.itemWithLabelAndDescription(db, query.language, query.label, query.description, query.exceptId);
      case 'sitelink': return queries.sitelinkOwner(db, query.siteId, query.title);
    }
  },

  /** Exact id first, else a case-insensitive match (through the upper(id) index). */

  revisionsOf: (db: Db, entityId: string, limit: number, before: number) => rows<RevisionRow>(db, `
    SELECT rev_id, entity_id, "timestamp", user_name, comment, tags, bot, octet_length(content) AS size FROM revisions
    WHERE entity_id = $1 AND rev_id < $3 ORDER BY rev_id DESC LIMIT $2`, [entityId, limit, before]),
  revisionBefore: (db: Db, entityId: string, revision: number) => first<{ rev_id: string | null }>(db, `
    SELECT max(rev_id) AS rev_id FROM revisions WHERE entity_id = $1 AND rev_id < $2`, [entityId, revision]),
  revisionOf: (db: Db, entityId: string, revision: number) => first<{ rev_id: string; timestamp: Date; content: string }>(db, `
    SELECT rev_id, "timestamp", content FROM revisions WHERE entity_id = $1 AND rev_id = $2`, [entityId, revision]),

  // Bulk import (importEntities): one statement per table for a whole batch of entities.
  nextRevisionIds: async (db: Db, count: number) =>
    (await rows<{ id: string }>(db, `SELECT nextval('revision_ids') AS id FROM generate_series(1, $1)`, [count]))
      .map((r) => Number(r.id)).sort((a, b) => a - b),
  /** An import batch's revisions, sent with COPY (copy.ts), stamped with the statement's second as edits are. */
  insertRevisions: async (client: pg.PoolClient, revIds: number[], entityIds: string[], contents: string[], meta: EditMeta) => {
    const now = (await first<{ ts: Date }>(client, "SELECT date_trunc('second', statement_timestamp()) AS ts"))!.ts.toISOString();
    const tags = arrayLiteral(meta.tags);
    await copyRows(client, 'revisions', ['rev_id', 'entity_id', '"timestamp"', 'user_name', 'comment', 'tags', 'bot', 'content'],
      revIds.map((rev, i) => [rev, entityIds[i], now, meta.user, meta.comment, tags, meta.bot, contents[i]]));
  },
  upsertEntities: async (db: Db, ids: string[], kinds: string[], revIds: number[], sitelinks: number[], statements: number[]) => {
    await db.query(`
      INSERT INTO entities (id, kind, head_rev, sitelink_count, statement_count)
      SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::integer[])
      ON CONFLICT (id) DO UPDATE SET head_rev = excluded.head_rev,
        sitelink_count = excluded.sitelink_count, statement_count = excluded.statement_count`,
    [ids, kinds, revIds, sitelinks, statements]);
  },
  /** The terms of entities an import replaces (their new terms are inserted after). */
  deleteTermsOf: async (db: Db, ids: string[]) => {
    if (ids.length) await db.query('DELETE FROM terms WHERE entity_id = ANY($1::text[])', [ids]);
  },
  deleteSitelinksOf: async (db: Db, ids: string[]) => {
    if (ids.length) await db.query('DELETE FROM sitelinks WHERE item_id = ANY($1::text[])', [ids]);
  },
  revisionContent: (db: Db, revId: number) => first<{ content: string }>(db, 'SELECT content FROM revisions WHERE rev_id = $1', [revId]),
};

export interface UserRow { name: string; user_group: string; token_hash: string | null; block_reason: string | null; created: Date }

const USER_COLUMNS = 'name, user_group, token_hash, block_reason, created';

/** Accounts, tokens, protection and settings (issue #7). */
export const accountQueries = {
  insertUser: async (db: Db, name: string, group: string) => (await db.query(`
    INSERT INTO users (name, user_group, created) VALUES ($1, $2, date_trunc('second', statement_timestamp()))
    ON CONFLICT (name) DO NOTHING`, [name, group])).rowCount ?? 0,
  userByName: (db: Db, name: string) => first<UserRow>(db, `SELECT ${USER_COLUMNS} FROM users WHERE name = $1`, [name]),
  userByTokenHash: (db: Db, hash: string) => first<UserRow>(db, `SELECT ${USER_COLUMNS} FROM users WHERE token_hash = $1`, [hash]),
  listUsers: (db: Db) => rows<UserRow>(db, `SELECT ${USER_COLUMNS} FROM users ORDER BY created, name`),
  setTokenHash: async (db: Db, name: string, hash: string) =>
    (await db.query('UPDATE users SET token_hash = $1 WHERE name = $2', [hash, name])).rowCount ?? 0,
  setBlockReason: async (db: Db, name: string, reason: string | null) =>
    (await db.query('UPDATE users SET block_reason = $1 WHERE name = $2', [reason, name])).rowCount ?? 0,
  protect: async (db: Db, entityId: string) => {
    await db.query('INSERT INTO protected_entities (entity_id) VALUES ($1) ON CONFLICT DO NOTHING', [entityId]);
  },
  unprotect: async (db: Db, entityId: string) => { await db.query('DELETE FROM protected_entities WHERE entity_id = $1', [entityId]); },
  isProtected: async (db: Db, entityId: string) =>
    (await first(db, 'SELECT 1 FROM protected_entities WHERE entity_id = $1', [entityId])) !== undefined,
  /**
   * Stores the value unless the key has one, then reads what is stored: two statements, so that the read
   * sees a row another process committed while the insert waited on it.
   */
  metaValue: async (db: Db, key: string, candidate: string) => {
    await db.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, candidate]);
    return (await first<{ value: string }>(db, 'SELECT value FROM meta WHERE key = $1', [key]))!.value;
  },
};

/** Shared fixed-window counters; one atomic statement per hit (the row lock orders concurrent hits). */
export const counterQueries = {
  countHit: async (db: Db, key: string, windowSeconds: number) => (await first<{ count: number; reset_at: Date }>(db, `
    INSERT INTO rate_windows (key, reset_at, count) VALUES ($1, clock_timestamp() + make_interval(secs => $2), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_windows.reset_at <= clock_timestamp() THEN 1 ELSE rate_windows.count + 1 END,
      reset_at = CASE WHEN rate_windows.reset_at <= clock_timestamp() THEN excluded.reset_at ELSE rate_windows.reset_at END
    RETURNING count, reset_at`, [key, windowSeconds]))!,
  dropEndedWindows: async (db: Db) => { await db.query('DELETE FROM rate_windows WHERE reset_at <= clock_timestamp()'); },
};

/** GET /metrics: what the store holds (a count over every entity: the caller caches it). */
export const statisticsQueries = {
  entityCounts: async (db: Db) => (await db.query<{ kind: KindName; redirect: boolean; n: string }>(
    'SELECT kind, redirect_to IS NOT NULL AS redirect, count(*) AS n FROM entities GROUP BY 1, 2')).rows,
  unfinishedImports: async (db: Db) =>
    Number((await first<{ n: string }>(db, "SELECT count(*) AS n FROM meta WHERE key LIKE 'import:%'"))!.n),
};

/** Transaction control: READ COMMITTED (the default); concurrency is handled as docs/adr/0002 describes. */
export const transactionQueries = {
  begin: async (db: Db) => { await db.query('BEGIN'); },
  commit: async (db: Db) => { await db.query('COMMIT'); },
  rollback: async (db: Db) => { await db.query('ROLLBACK'); },
};

/** `entia import`'s bookkeeping: source revisions, the sitelinks a batch would take, checkpoints. */
export const importQueries = {
  recordSources: (db: Db, ids: string[], sourceRevisions: number[]) => db.query(`
    INSERT INTO import_sources (entity_id, source_rev, local_rev)
    SELECT e.id, s.rev, e.head_rev FROM unnest($1::text[], $2::bigint[]) AS s(id, rev)
    JOIN entities e ON e.id = s.id AND e.head_rev IS NOT NULL
    ON CONFLICT (entity_id) DO UPDATE SET source_rev = EXCLUDED.source_rev, local_rev = EXCLUDED.local_rev`,
  [ids, sourceRevisions]),
  states: (db: Db, ids: string[]) => rows<{ id: string; head_rev: string | null; redirect_to: string | null; source_rev: string | null; local_rev: string | null }>(db, `
    SELECT e.id, e.head_rev, e.redirect_to, s.source_rev, s.local_rev FROM entities e
    LEFT JOIN import_sources s ON s.entity_id = e.id WHERE e.id = ANY($1::text[])`, [ids]),
  sitelinkOwners: (db: Db, sites: string[], titles: string[]) => rows<{ site: string; title: string; item_id: string }>(db, `
    SELECT l.site, l.title, l.item_id FROM sitelinks l
    JOIN unnest($1::text[], $2::text[]) AS w(site, title) ON l.site = w.site AND l.title = w.title`, [sites, titles]),
  setMeta: (db: Db, key: string, value: string) => db.query(`
    INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [key, value]),
  getMeta: (db: Db, key: string) => first<{ value: string }>(db, 'SELECT value FROM meta WHERE key = $1', [key]),
  deleteMeta: (db: Db, key: string) => db.query('DELETE FROM meta WHERE key = $1', [key]),
};

/**
 * The change feed: revisions in the order of their transactions' ids, and only those of transactions older
 * than every transaction still running (pg_snapshot_xmin), so that one committing late cannot be skipped by a
 * reader that has already moved past its revision id (ADR 0006).
 */
export const changeQueries = {
  entityIds: (db: Db, after: string, limit: number) => rows<{ id: string }>(db, `
    SELECT id FROM entities WHERE id COLLATE "C" > $1 AND head_rev IS NOT NULL AND redirect_to IS NULL
    ORDER BY id COLLATE "C" LIMIT $2`, [after, limit]),
  /** The expression and the redirect condition are those of the partial index entities_by_number (migration 16). */
  entityNumbers: (db: Db, kind: string, after: number, limit: number) => rows<{ n: string }>(db, `
    SELECT substr(id, 2)::bigint AS n FROM entities
    WHERE kind = $1 AND redirect_to IS NULL AND substr(id, 2)::bigint > $2 AND head_rev IS NOT NULL
    ORDER BY substr(id, 2)::bigint LIMIT $3`, [kind, after, limit]),
  redirects: (db: Db, after: string, limit: number) => rows<{ id: string; target: string }>(db, `
    SELECT id, redirect_to AS target FROM entities WHERE id COLLATE "C" > $1 AND redirect_to IS NOT NULL
    ORDER BY id COLLATE "C" LIMIT $2`, [after, limit]),
  /**
   * The newest committed revision, whether or not an older transaction still runs (head waits for those).
   * Ordered by the column `r.xid`, not the output's `xid`, which is its text: ordered as text, 9988 came after
   * 10001, and from a transaction id of 10,000 on the head stayed at the last revision below it (ADR 0006).
   */
  committed: (db: Db) => first<{ xid: string; rev_id: string }>(db, `
    SELECT r.xid::text AS xid, r.rev_id FROM revisions r ORDER BY r.xid DESC, r.rev_id DESC LIMIT 1`),
  head: (db: Db) => first<{ xid: string; rev_id: string }>(db, `
    SELECT r.xid::text AS xid, r.rev_id FROM revisions r WHERE r.xid < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY r.xid DESC, r.rev_id DESC LIMIT 1`),
  /** Changes after the position in commit order, or (newestFirst) before it, newest first. */
  page: (db: Db, newestFirst: boolean, xid: string, rev: number, limit: number, entities: string[] | null, prefixes: string[] | null,
    users: string[] | null, bot: boolean | null) =>
    rows<{ rev_id: string; xid: string; entity_id: string; timestamp: Date; user_name: string; comment: string | null; action: string | null; previous: string | null }>(db, `
      SELECT r.rev_id, r.xid::text AS xid, r.entity_id, r."timestamp", r.user_name, r.comment, r.action,
        (SELECT max(p.rev_id) FROM revisions p WHERE p.entity_id = r.entity_id AND p.rev_id < r.rev_id) AS previous
      FROM revisions r
      WHERE (r.xid, r.rev_id) ${newestFirst ? '<' : '>'} ($1::xid8, $2::bigint) AND r.xid < pg_snapshot_xmin(pg_current_snapshot())
        AND ($4::text[] IS NULL OR r.entity_id = ANY($4::text[]))
        AND ($5::text[] IS NULL OR left(r.entity_id, 1) = ANY($5::text[]))
        AND ($6::text[] IS NULL OR r.user_name = ANY($6::text[]))
        AND ($7::boolean IS NULL OR r.bot = $7::boolean)
      ORDER BY r.xid ${newestFirst ? 'DESC' : ''}, r.rev_id ${newestFirst ? 'DESC' : ''} LIMIT $3`, [xid, rev, limit, entities, prefixes, users, bot]),
};
