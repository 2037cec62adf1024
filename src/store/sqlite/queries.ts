// All SQL of the SQLite backend, prepared once per connection.
import type Database from 'better-sqlite3';

interface HeadRow { rev_id: number | null; timestamp: number; redirect_to: string | null }
interface RevisionRow {
  rev_id: number; entity_id: string; timestamp: number; user: string; comment: string | null; tags: string; bot: number;
}

interface UserRow { name: string; user_group: string; token_hash: string | null; block_reason: string | null; created: number }

export function prepareQueries(db: Database.Database) {
  return {
    // The head first, the document only when the entity cache does not hold that revision.
    readHead: db.prepare<[string], HeadRow>(`
      SELECT r.rev_id, r.timestamp, e.redirect_to
      FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev WHERE e.id = ?`),
    readContent: db.prepare<[number], { content: string }>('SELECT content FROM revisions WHERE rev_id = ?'),
    // One query for every id a validation needs (statements name many): data types without parsing documents.
    lookupEntities: db.prepare<[string], { id: string; data_type: string | null }>(`
      SELECT e.id, CASE WHEN e.kind = 'property' THEN json_extract(r.content, '$.data_type') END AS data_type
      FROM entities e JOIN revisions r ON r.rev_id = e.head_rev
      WHERE e.id IN (SELECT value FROM json_each(?)) AND e.redirect_to IS NULL`),
    headOf: db.prepare<[string], { head_rev: number | null }>('SELECT head_rev FROM entities WHERE id = ?'),
    allocateId: db.prepare<[string], { last: number }>(
      'UPDATE id_counters SET last = last + 1 WHERE kind = ? RETURNING last'),
    raiseCounter: db.prepare<[number, string, number]>('UPDATE id_counters SET last = ? WHERE kind = ? AND last < ?'),
    upsertRedirect: db.prepare<[string, number, string]>(`
      INSERT INTO entities (id, kind, head_rev, redirect_to) VALUES (?, 'item', ?, ?)
      ON CONFLICT (id) DO UPDATE SET head_rev = excluded.head_rev, redirect_to = excluded.redirect_to,
        sitelink_count = 0, statement_count = 0`),
    insertRevision: db.prepare<[string, number, string, string | null, string, number, string], { rev_id: number }>(`
      INSERT INTO revisions (entity_id, timestamp, user, comment, tags, bot, content)
      VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING rev_id`),
    insertEntity: db.prepare<[string, string, number, number, number]>(
      'INSERT INTO entities (id, kind, head_rev, sitelink_count, statement_count) VALUES (?, ?, ?, ?, ?)'),
    updateHead: db.prepare<[number, number, number, string]>(
      'UPDATE entities SET head_rev = ?, sitelink_count = ?, statement_count = ? WHERE id = ?'),
    insertTerm: db.prepare<[string, string, string, string, string]>(
      'INSERT INTO terms (entity_id, kind, type, lang, text) VALUES (?, ?, ?, ?, ?)'),
    deleteTerm: db.prepare<[string, string, string, string]>(
      'DELETE FROM terms WHERE entity_id = ? AND type = ? AND lang = ? AND text = ?'),
    insertStatement: db.prepare<[string, string]>('INSERT INTO statements (id, entity_id) VALUES (?, ?)'),
    deleteStatement: db.prepare<[string]>('DELETE FROM statements WHERE id = ?'),
    statementById: db.prepare<[string], { id: string; entity_id: string }>(
      'SELECT id, entity_id FROM statements WHERE id = ?'),
    statementByUpperId: db.prepare<[string], { id: string; entity_id: string }>(
      'SELECT id, entity_id FROM statements WHERE upper(id) = upper(?) LIMIT 1'),
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
    revisionsOf: db.prepare<[string, number], RevisionRow>(`
      SELECT rev_id, entity_id, timestamp, user, comment, tags, bot FROM revisions
      WHERE entity_id = ? ORDER BY rev_id DESC LIMIT ?`),
    ...accountQueries(db),
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
