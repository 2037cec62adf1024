// Versioned schema for the SQLite backend. PRAGMA user_version records how many migrations ran; a new
// schema change is a new entry appended here, never an edit of an old one and never a wipe.

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

  -- The primary key is the "one item per page" rule (REFERENCE §6.4), enforced by the store itself.
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
];
