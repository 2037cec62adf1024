// Versioned schema for the PostgreSQL backend, the same tables and concepts as sqlite/migrations.ts.
// Table entia_migrations records which versions ran; a schema change is a new entry appended here, never
// an edit of an old one. Each entry runs in the migration transaction (PostgreSQL DDL is transactional).
import type { Kind } from '../../domain/kinds.js';
import { ENTITY_VALUE_REGEX } from '../index-rows.js';

export const MIGRATIONS: readonly string[] = [
  // 1: entities, revisions, id sequences and the index rows of store/index-rows.ts
  `
  -- One sequence per kind for Q/P ids and one for revision ids: never repeated, across any number of processes.
  CREATE SEQUENCE item_ids AS bigint MINVALUE 1;
  CREATE SEQUENCE property_ids AS bigint MINVALUE 1;
  CREATE SEQUENCE revision_ids AS bigint MINVALUE 1;

  -- One row per entity; its document lives in the revision its head points at (stored once).
  -- head_rev is the compare-and-set target of every edit (docs/adr/0002-postgres-concurrency.md).
  CREATE TABLE entities (
    id text PRIMARY KEY,
    kind text NOT NULL,
    head_rev bigint,
    redirect_to text,
    sitelink_count integer NOT NULL DEFAULT 0,
    statement_count integer NOT NULL DEFAULT 0
  );

  -- content is text, not jsonb: jsonb reorders object keys, and the stored bytes are served as they are.
  CREATE TABLE revisions (
    rev_id bigint PRIMARY KEY,
    entity_id text NOT NULL,
    "timestamp" timestamptz NOT NULL,
    user_name text NOT NULL,
    comment text,
    tags text[] NOT NULL,
    bot boolean NOT NULL,
    content text NOT NULL
  );
  CREATE INDEX revisions_by_entity ON revisions (entity_id, rev_id);

  CREATE TABLE terms (
    entity_id text NOT NULL,
    kind text NOT NULL,
    type text NOT NULL,
    lang text NOT NULL,
    text text NOT NULL,
    PRIMARY KEY (entity_id, type, lang, text)
  );
  CREATE INDEX terms_by_text ON terms (kind, type, lang, text);

  CREATE TABLE statements (
    id text PRIMARY KEY,
    entity_id text NOT NULL
  );
  CREATE INDEX statements_by_upper_id ON statements (upper(id));

  -- The primary key is the "one item per page" rule (docs/api.md §6.4), enforced by the database itself.
  CREATE TABLE sitelinks (
    site text NOT NULL,
    title text NOT NULL,
    item_id text NOT NULL,
    PRIMARY KEY (site, title)
  );
  CREATE INDEX sitelinks_by_item ON sitelinks (item_id);
  `,
  // 2: accounts, their token hashes, protected entities and database-wide settings (issue #7)
  `
  -- Key/value settings of this database, e.g. the secret that keys token hashes.
  CREATE TABLE meta (
    key text PRIMARY KEY,
    value text NOT NULL
  );

  -- token_hash: HMAC-SHA256 of the token under the server secret, hex; the token itself is never stored.
  CREATE TABLE users (
    name text PRIMARY KEY,
    user_group text NOT NULL CHECK (user_group IN ('user', 'bot', 'admin')),
    token_hash text UNIQUE,
    block_reason text,
    created timestamptz NOT NULL
  );

  CREATE TABLE protected_entities (
    entity_id text PRIMARY KEY
  );
  `,
  // 3: the search index (docs/adr/0003-search-index.md), the same tables as SQLite's migration 3. Keys are
  // COLLATE "C" so that ordering is by code point: prefix ranges [q, q || U+10FFFF) must hold whatever the
  // database collation. kind: 0 item, 1 property; type: 0 label, 1 alias; entity: the numeric part of the id.
  `
  CREATE TABLE search_terms (
    kind smallint NOT NULL,
    lang text COLLATE "C" NOT NULL,
    folded text COLLATE "C" NOT NULL,
    type smallint NOT NULL,
    rank bigint NOT NULL,
    entity bigint NOT NULL,
    PRIMARY KEY (kind, lang, folded, type, rank, entity)
  );
  CREATE INDEX search_terms_by_rank ON search_terms (kind, lang, type, rank, entity, folded);

  CREATE TABLE search_prefixes (
    kind smallint NOT NULL,
    lang text COLLATE "C" NOT NULL,
    prefix text COLLATE "C" NOT NULL,
    type smallint NOT NULL,
    rank bigint NOT NULL,
    entity bigint NOT NULL,
    PRIMARY KEY (kind, lang, prefix, type, rank, entity)
  );

  CREATE TABLE search_tokens (
    kind smallint NOT NULL,
    lang text COLLATE "C" NOT NULL,
    token text COLLATE "C" NOT NULL,
    type smallint NOT NULL,
    rank bigint NOT NULL,
    entity bigint NOT NULL,
    PRIMARY KEY (kind, lang, token, type, rank, entity)
  );

  -- Entities written before this migration: indexed by the first process that opens the store.
  CREATE TABLE search_backlog (entity_id text PRIMARY KEY);
  INSERT INTO search_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL;
  `,
  // 4: fixed-window counters shared by every process on this database (rate limits, issue #9)
  `
  CREATE TABLE rate_windows (
    key text PRIMARY KEY,
    reset_at timestamptz NOT NULL,
    count integer NOT NULL
  );
  CREATE INDEX rate_windows_by_reset ON rate_windows (reset_at);
  `,
  // 5: search ranks count statements by powers of two (src/search/index-keys.ts rankOf, issue #8), so every
  // stored rank is recomputed: the rows go, and the entities are indexed again from the backlog on open.
  `
  DELETE FROM search_terms;
  DELETE FROM search_prefixes;
  DELETE FROM search_tokens;
  INSERT INTO search_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL
    ON CONFLICT DO NOTHING;
  `,
  // 6: search ranks count statements by powers of four (rankOf, issue #8: fewer rank changes, so fewer rewrites
  // of all of an entity's search rows when statements are added); every stored rank is recomputed, as in 5.
  `
  DELETE FROM search_terms;
  DELETE FROM search_prefixes;
  DELETE FROM search_tokens;
  INSERT INTO search_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL
    ON CONFLICT DO NOTHING;
  `,
  // 7: what `entia import` wrote, so that a later import can tell a newer dump from a local edit
  // (docs/api.md Part 2, "Importing"): each entity's revision in the source and the local revision the import made.
  `
  CREATE TABLE import_sources (
    entity_id text PRIMARY KEY,
    source_rev bigint NOT NULL,
    local_rev bigint NOT NULL
  );
  `,
  // 8: no statement index: a statement id names the entity that holds it, and that entity's document is
  // where the statement is looked for (ADR 0005). On 20,000 generated items the table and its index were 16% of
  // the file and two of every seven index entries a bulk load wrote.
  `
  DROP TABLE statements;
  `,
  // 9: the change feed (docs/api.md §10.10): what a revision did when that is not create or edit, and the
  // writing transaction's id. Revision ids are taken before their transaction commits, so two writers can
  // commit them out of order; the feed reads in transaction order and only below the oldest transaction still
  // running, so a revision that commits late is never skipped (ADR 0006).
  `
  ALTER TABLE revisions ADD COLUMN action text;
  ALTER TABLE revisions ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
  CREATE INDEX revisions_in_commit_order ON revisions (xid, rev_id);
  `,
  // 10: lookup by statement value (docs/api.md §10.12, ADR 0007): (property, value key, kind, entity) per
  // non-deprecated statement value, and (property, '', kind, entity) for "has the property". Entities stored
  // before are indexed from the backlog when the store opens.
  `
  CREATE TABLE statement_values (
    property integer NOT NULL,
    value text NOT NULL,
    kind smallint NOT NULL,
    entity integer NOT NULL,
    PRIMARY KEY (property, value, kind, entity)
  );
  CREATE TABLE value_backlog (entity_id text PRIMARY KEY);
  INSERT INTO value_backlog SELECT id FROM entities WHERE head_rev IS NOT NULL AND redirect_to IS NULL;
  `,
  // 11: the term index by text holds labels only, as on SQLite (its migration 12): the uniqueness rules are its
  // only readers and they look up labels; descriptions and aliases made it about three times larger.
  `
  DROP INDEX terms_by_text;
  CREATE INDEX terms_by_label ON terms (kind, lang, text) WHERE type = 'label';
  `,
  // 12: bulk imports build the search, term and value indexes at their end, in key order (ADR 0008), as SQLite
  // does since its migration 11. index_backlog: each imported entity whose rows are not built yet, with the
  // revision they come from, and whether it was edited since. The staging tables hold those rows until the
  // build; UNLOGGED (no WAL), since the backlog says which entities to derive again if a crash empties them.
  `
  CREATE TABLE index_backlog (
    entity_id text PRIMARY KEY,
    rev_id bigint NOT NULL,
    edited boolean NOT NULL DEFAULT false
  );
  CREATE UNLOGGED TABLE stage_entities (entity_id text NOT NULL);
  CREATE UNLOGGED TABLE stage_search_terms (LIKE search_terms);
  CREATE UNLOGGED TABLE stage_search_prefixes (LIKE search_prefixes);
  CREATE UNLOGGED TABLE stage_search_tokens (LIKE search_tokens);
  CREATE UNLOGGED TABLE stage_terms (LIKE terms);
  CREATE UNLOGGED TABLE stage_statement_values (LIKE statement_values);
  `,
  // 13: documents compressed with LZ4 instead of pglz where the server has it (PostgreSQL 14+ built with lz4, as
  // Debian's and the official images are): 5,000 documents of a bulk import batch went into a table in 213 ms
  // instead of 548, at about the same size (ADR 0008); reads decompress faster too. Rows already stored keep pglz.
  `
  DO $$ BEGIN
    ALTER TABLE revisions ALTER COLUMN content SET COMPRESSION lz4;
  EXCEPTION WHEN feature_not_supported OR undefined_object OR syntax_error THEN
    RAISE NOTICE 'LZ4 is not available: documents stay compressed with pglz';
  END $$;
  `,
  // 14: a bulk import's build makes prefix rows only for languages with enough terms to need them, in SQL from
  // the folded terms, and records here the languages whose prefix rows it left out (as SQLite's migration 13;
  // src/store/prefix-languages.ts, ADR 0003). Prefix rows are no longer staged.
  `
  CREATE TABLE search_prefix_skipped (
    kind smallint NOT NULL,
    lang text COLLATE "C" NOT NULL,
    PRIMARY KEY (kind, lang)
  );
  DROP TABLE stage_search_prefixes;
  `,
  // 15: a time below day precision is found by the date at its precision too (as SQLite's migration 15):
  // entities holding a time are indexed again from the backlog when the store opens.
  `
  INSERT INTO value_backlog
    SELECT DISTINCT (CASE kind WHEN 0 THEN 'Q' ELSE 'P' END) || entity FROM statement_values
    WHERE value ~ '^[+-][0-9]+-[0-9]{2}-[0-9]{2}T00:00:00Z$'
  ON CONFLICT DO NOTHING;
  `,
  // 16: browsing and what links here (as SQLite's migration 16): entities of a kind in the order of their
  // numbers, and the statement values that are entity ids, by value; both partial.
  `
  CREATE INDEX IF NOT EXISTS entities_by_number ON entities (kind, (substr(id, 2)::bigint)) WHERE redirect_to IS NULL;
  CREATE INDEX IF NOT EXISTS statement_values_by_entity_value ON statement_values (value, kind, entity, property)
    WHERE value ~ '^[QP][1-9][0-9]*$';
  `,
];

/**
 * A kind's id sequence (domain/kinds.ts; queries.ts takes its ids from `<name>_ids`), made when the store opens
 * if missing, so that a kind added to the descriptor needs no migration of its own. Migration 1 made the first
 * two kinds'.
 */
export function kindSequence(kind: Kind): string {
  if (!/^[a-z]+$/.test(kind.name)) throw new Error(`a kind's name must be lower-case letters: ${kind.name}`);
  return `CREATE SEQUENCE IF NOT EXISTS ${kind.name}_ids AS bigint MINVALUE 1`;
}

/**
 * The incoming-links index of migration 16 with the condition the kinds make now (index-rows.ts), given its
 * definition as the server reports it: null when it has that condition already (the first two kinds: migration
 * 16's), else the script that builds it again, once, when a version that knows another kind opens the store.
 */
export function entityValueIndex(definition: string | null): string | null {
  if (definition?.includes(`value ~ ${ENTITY_VALUE_REGEX}`)) return null;
  return `DROP INDEX IF EXISTS statement_values_by_entity_value;
  CREATE INDEX statement_values_by_entity_value ON statement_values (value, kind, entity, property) WHERE value ~ ${ENTITY_VALUE_REGEX}`;
}
