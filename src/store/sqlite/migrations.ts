// Versioned schema for the SQLite backend. PRAGMA user_version records how many migrations ran; a new
// schema change is a new entry appended here, never an edit of an old one and never a wipe.
import type Database from 'better-sqlite3';
import { KINDS } from '../../domain/kinds.js';
import { ENTITY_VALUE_GLOB } from '../index-rows.js';

export const MIGRATIONS: readonly string[] = [
  // 1: entities, revisions, id counters and the index rows of store/index-rows.ts
  `
  CREATE TABLE id_counters (
    kind TEXT PRIMARY KEY,
    last INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO id_counters (kind, last) VALUES ('item', 0), ('property', 0);

  -- One row per entity; its document lives in the revision its head points at (stored once).
  CREATE TABLE entities (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    head_rev INTEGER,
    redirect_to TEXT,
    sitelink_count INTEGER NOT NULL DEFAULT 0,
    statement_count INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;

  -- AUTOINCREMENT: revision ids are never reused, even after the newest revision is rolled back.
  CREATE TABLE revisions (
    rev_id INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id TEXT NOT NULL,
    timestamp INTEGER NOT NULL,
    user TEXT NOT NULL,
    comment TEXT,
    tags TEXT NOT NULL,
    bot INTEGER NOT NULL,
    content TEXT NOT NULL
  );
  CREATE INDEX revisions_by_entity ON revisions (entity_id, rev_id);

  CREATE TABLE terms (
    entity_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    type TEXT NOT NULL,
    lang TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (entity_id, type, lang, text)
  ) WITHOUT ROWID;
  CREATE INDEX terms_by_text ON terms (kind, type, lang, text);

  CREATE TABLE statements (
    id TEXT PRIMARY KEY,
    entity_id TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX statements_by_upper_id ON statements (upper(id));

  -- The primary key is the "one item per page" rule (docs/api.md §6.4), enforced by the store itself.
  CREATE TABLE sitelinks (
    site TEXT NOT NULL,
    title TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (site, title)
  ) WITHOUT ROWID;
  CREATE INDEX sitelinks_by_item ON sitelinks (item_id);
  `,
  // 2: accounts, their token hashes, protected entities and server-wide settings (issue #7)
  `
  -- Key/value settings of this database, e.g. the secret that keys token hashes.
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;

  -- token_hash: HMAC-SHA256 of the token under the server secret, hex; the token itself is never stored.
  CREATE TABLE users (
    name TEXT PRIMARY KEY,
    user_group TEXT NOT NULL CHECK (user_group IN ('user', 'bot', 'admin')),
    token_hash TEXT UNIQUE,
    block_reason TEXT,
    created INTEGER NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE protected_entities (
    entity_id TEXT PRIMARY KEY
  ) WITHOUT ROWID;
  `,
  // 3: the search index (docs/adr/0003-search-index.md). Keys come from src/search/index-keys.ts; every key
  // ends in (rank, entity) so that one index seek yields candidates in ranking order. kind: 0 item, 1 property;
  // type: 0 label, 1 alias; entity: the numeric part of the id.
  `
  CREATE TABLE search_terms (
    kind INTEGER NOT NULL,
    lang TEXT NOT NULL,
    folded TEXT NOT NULL,
    type INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    entity INTEGER NOT NULL,
    PRIMARY KEY (kind, lang, folded, type, rank, entity)
  ) WITHOUT ROWID;
  -- The same rows in ranking order: a long prefix that matches very many terms is read in this order and
  -- filtered, instead of sorting all its matches.
  CREATE INDEX search_terms_by_rank ON search_terms (kind, lang, type, rank, entity, folded);

  CREATE TABLE search_prefixes (
    kind INTEGER NOT NULL,
    lang TEXT NOT NULL,
    prefix TEXT NOT NULL,
    type INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    entity INTEGER NOT NULL,
    PRIMARY KEY (kind, lang, prefix, type, rank, entity)
  ) WITHOUT ROWID;

  CREATE TABLE search_tokens (
    kind INTEGER NOT NULL,
    lang TEXT NOT NULL,
    token TEXT NOT NULL,
    type INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    entity INTEGER NOT NULL,
    PRIMARY KEY (kind, lang, token, type, rank, entity)
  ) WITHOUT ROWID;

  -- Entities written before this migration: the store indexes them when it opens (folding is JavaScript).
  CREATE TABLE search_backlog (entity_id TEXT PRIMARY KEY) WITHOUT ROWID;
  INSERT INTO search_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL;
  `,
  // 4: fixed-window counters shared by the processes using this file (rate limits, issue #9)
  `
  CREATE TABLE rate_windows (
    key TEXT PRIMARY KEY,
    reset_at INTEGER NOT NULL,
    count INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX rate_windows_by_reset ON rate_windows (reset_at);
  `,
  // 5: search ranks count statements by powers of two (src/search/index-keys.ts rankOf, issue #8), so every
  // stored rank is recomputed: the rows go, and the entities are indexed again from the backlog on open.
  `
  DELETE FROM search_terms;
  DELETE FROM search_prefixes;
  DELETE FROM search_tokens;
  INSERT OR IGNORE INTO search_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL;
  `,
  // 6: search ranks count statements by powers of four (rankOf, issue #8: fewer rank changes, so fewer rewrites
  // of all of an entity's search rows when statements are added); every stored rank is recomputed, as in 5.
  `
  DELETE FROM search_terms;
  DELETE FROM search_prefixes;
  DELETE FROM search_tokens;
  INSERT OR IGNORE INTO search_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL;
  `,
  // 7: what `entia import` wrote, so that a later import can tell a newer dump from a local edit
  // (docs/api.md Part 2, "Importing"): each entity's revision in the source and the local revision the import made.
  `
  CREATE TABLE import_sources (
    entity_id TEXT PRIMARY KEY,
    source_rev INTEGER NOT NULL,
    local_rev INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 8: no statement index: a statement id names the entity that holds it, and that entity's document is
  // where the statement is looked for (ADR 0005). On 20,000 generated items the table and its index were 16% of
  // the file and two of every seven index entries a bulk load wrote.
  `
  DROP TABLE statements;
  `,
  // 9: the change feed (docs/api.md §10.10): what a revision did when that is not create or edit.
  `
  ALTER TABLE revisions ADD COLUMN action TEXT;
  `,
  // 10: lookup by statement value (docs/api.md §10.12, ADR 0007): (property, value key, kind, entity) per
  // non-deprecated statement value, and (property, '', kind, entity) for "has the property". Entities stored
  // before are indexed from the backlog when the store opens.
  `
  CREATE TABLE statement_values (
    property INTEGER NOT NULL,
    value TEXT NOT NULL,
    kind INTEGER NOT NULL,
    entity INTEGER NOT NULL,
    PRIMARY KEY (property, value, kind, entity)
  ) WITHOUT ROWID;
  CREATE TABLE value_backlog (entity_id TEXT PRIMARY KEY) WITHOUT ROWID;
  INSERT INTO value_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL;
  `,
  // 11: entities a bulk import wrote whose index rows are staged, not yet built (ADR 0008,
  // src/store/sqlite/deferred-index.ts): rev_id is the revision the staged rows come from; edited is set when
  // an edit changed the entity before the build, which then applies the difference from that revision.
  `
  CREATE TABLE index_backlog (
    entity_id TEXT PRIMARY KEY,
    rev_id INTEGER NOT NULL,
    edited INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  `,
  // 12: the term index by text holds labels only. The uniqueness rules (an item's label and description in one
  // language, a property's label) are its only readers, and they look up labels (docs/api.md §6.3); with
  // descriptions and aliases it was 13% of a loaded store and 11% of the entries a bulk import writes (ADR 0008).
  `
  DROP INDEX terms_by_text;
  CREATE INDEX terms_by_label ON terms (kind, lang, text) WHERE type = 'label';
  `,
  // 13: a bulk import's build makes prefix rows only for languages with enough terms to need them, and records
  // here the languages whose prefix rows it left out; suggest reads those by folded-term range
  // (src/store/prefix-languages.ts, ADR 0003). Stores written before have every prefix row: nothing recorded.
  `
  CREATE TABLE search_prefix_skipped (
    kind INTEGER NOT NULL,
    lang TEXT NOT NULL,
    PRIMARY KEY (kind, lang)
  ) WITHOUT ROWID;
  `,
  // 14: how many entities of each kind the store holds, and how many of them are redirects, kept by triggers on
  // every write path (edits, imports, redirects), so GET /metrics reads four rows instead of counting millions
  // (a count(*) of 1,000,000 entities held the event loop for 260 ms).
  `
  CREATE TABLE entity_counts (
    kind TEXT NOT NULL,
    redirect INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (kind, redirect)
  ) WITHOUT ROWID;
  INSERT INTO entity_counts (kind, redirect, n) VALUES ('item', 0, 0), ('item', 1, 0), ('property', 0, 0), ('property', 1, 0);
  UPDATE entity_counts SET n = (SELECT count(*) FROM entities e
    WHERE e.kind = entity_counts.kind AND (e.redirect_to IS NOT NULL) = entity_counts.redirect);
  CREATE TRIGGER entity_counts_insert AFTER INSERT ON entities BEGIN
    UPDATE entity_counts SET n = n + 1 WHERE kind = new.kind AND redirect = (new.redirect_to IS NOT NULL);
  END;
  CREATE TRIGGER entity_counts_delete AFTER DELETE ON entities BEGIN
    UPDATE entity_counts SET n = n - 1 WHERE kind = old.kind AND redirect = (old.redirect_to IS NOT NULL);
  END;
  CREATE TRIGGER entity_counts_update AFTER UPDATE OF kind, redirect_to ON entities
    WHEN old.kind IS NOT new.kind OR (old.redirect_to IS NULL) IS NOT (new.redirect_to IS NULL) BEGIN
    UPDATE entity_counts SET n = n - 1 WHERE kind = old.kind AND redirect = (old.redirect_to IS NOT NULL);
    UPDATE entity_counts SET n = n + 1 WHERE kind = new.kind AND redirect = (new.redirect_to IS NOT NULL);
  END;
  `,
  // 15: a time below day precision is found by the date at its precision too (`P569:1953` finds
  // `+1953-01-01T00:00:00Z` at year precision; domain/statement-values.ts): entities holding a time are indexed
  // again from the backlog when the store opens, which adds those keys (the stored-form keys stay).
  `
  INSERT OR IGNORE INTO value_backlog
    SELECT DISTINCT CASE kind WHEN 0 THEN 'Q' ELSE 'P' END || entity FROM statement_values
    WHERE value GLOB '[+-]*-[0-9][0-9]-[0-9][0-9]T00:00:00Z';
  `,
  // 16: browsing and what links here (docs/api.md §10.12, §10.19): entities of a kind in the order of their
  // numbers (the key is text: `Q10` sorts before `Q9`), and the statement values that are entity ids, by value.
  // Both partial: redirects and values that are not ids take no room.
  `
  CREATE INDEX IF NOT EXISTS entities_by_number ON entities (kind, CAST(substr(id, 2) AS INTEGER)) WHERE redirect_to IS NULL;
  CREATE INDEX IF NOT EXISTS statement_values_by_entity_value ON statement_values (value, kind, entity, property)
    WHERE value GLOB '[QP][1-9]*';
  `,
];

/**
 * Each kind's own rows (domain/kinds.ts): its id counter and its entity counts, added when the store opens if
 * missing, so that a kind added to the descriptor needs no migration of its own. Migrations 1 and 14 made the
 * first two kinds' rows; for those this adds nothing.
 */
export function addKindRows(db: Database.Database): void {
  const counter = db.prepare('INSERT OR IGNORE INTO id_counters (kind, last) VALUES (?, 0)');
  const counts = db.prepare('INSERT OR IGNORE INTO entity_counts (kind, redirect, n) VALUES (?, 0, 0), (?, 1, 0)');
  for (const kind of KINDS) {
    counter.run(kind.name);
    counts.run(kind.name, kind.name);
  }
}

/**
 * The incoming-links index of migration 16 with the condition the kinds make now (index-rows.ts): built again,
 * once, when a version that knows another kind opens the store (on a large store that reads every statement
 * value); for the first two kinds the condition is migration 16's and this does nothing.
 */
export function entityValueIndex(db: Database.Database): void {
  const row = db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'statement_values_by_entity_value'").get();
  if (row?.sql.endsWith(`GLOB ${ENTITY_VALUE_GLOB}`)) return;
  db.exec(`DROP INDEX IF EXISTS statement_values_by_entity_value;
    CREATE INDEX statement_values_by_entity_value ON statement_values (value, kind, entity, property) WHERE value GLOB ${ENTITY_VALUE_GLOB}`);
}
