// A test server that enforces the real security model (guard.ts), and accounts made the way the CLI makes them.
import type { Config } from '../../src/config.js';
import { buildGuard } from '../../src/http/guard.js';
import type { RateLimiter } from '../../src/http/rate-limit.js';
import { hashToken, newToken, tokenSecret } from '../../src/http/tokens.js';
import { existsSync, readFileSync } from 'node:fs';
import type { PostgresStore } from '../../src/store/postgres/index.js';
import type { SqliteStore } from '../../src/store/sqlite/index.js';
import type { Store, UserGroup } from '../../src/store/store.js';
import { startServer, type TestServer } from './server.js';

/** Nothing a response says may reveal code, queries or files. */
export const INTERNALS = /\bat [\w.<>]+ \(|\.[tj]s:\d|SELECT|INSERT|UPDATE |sqlite|node_modules|\/work\/|\/tmp\//i;

export async function startSecureServer(config: Partial<Config> = {}, limiter?: RateLimiter): Promise<TestServer> {
  return startServer({ config, guard: (store, cfg) => buildGuard({ config: cfg, accounts: store.accounts, limiter }) });
}

/** Creates an account and returns the `Authorization` header of its new token. */
export async function addUser(store: Store, name: string, group: UserGroup = 'user'): Promise<Record<string, string>> {
  await store.accounts.createUser(name, group);
  const token = newToken();
  await store.accounts.setTokenHash(name, hashToken(await tokenSecret(null, store.accounts), token));
  return { authorization: `Bearer ${token}` };
}

type Rows = (sql: string) => Promise<unknown[]>;

/** Runs read-only SQL on whichever backend the test store is (white-box: tests only). */
function sqlOf(store: Store): Rows {
  if ('pool' in store) return async (sql) => (await (store as PostgresStore).pool.query(sql)).rows;
  return async (sql) => (store as SqliteStore).db.prepare(sql).all();
}

/** Every entity's head and document, the revision count and the accounts: equal before and after a refused request. */
export async function snapshot(store: Store): Promise<string> {
  const rows = sqlOf(store);
  return JSON.stringify([
    await rows('SELECT e.id, e.head_rev, e.redirect_to, r.content FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev ORDER BY e.id'),
    await rows('SELECT count(*) AS n, max(rev_id) AS last FROM revisions'),
    await rows('SELECT name, user_group, token_hash, block_reason FROM users ORDER BY name'),
    await rows('SELECT entity_id FROM protected_entities ORDER BY entity_id'),
  ]);
}

/** Everything the database keeps, as bytes: the SQLite file (and its WAL), or the rows of every Entia table. */
export async function storedBytes(store: Store, location: string): Promise<Buffer> {
  if ('pool' in store) {
    const rows = sqlOf(store);
    const tables = ['users', 'meta', 'revisions', 'entities', 'protected_entities', 'terms'];
    return Buffer.from(JSON.stringify(await Promise.all(tables.map((t) => rows(`SELECT * FROM ${t}`)))));
  }
  return Buffer.concat([location, `${location}-wal`].filter(existsSync).map((f) => readFileSync(f)));
}
