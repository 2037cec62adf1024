// A test server that enforces the real security model (guard.ts), and accounts made the way the CLI makes them.
import type { Config } from '../../src/config.js';
import { buildGuard } from '../../src/http/guard.js';
import type { RateLimiter } from '../../src/http/rate-limit.js';
import { hashToken, newToken, tokenSecret } from '../../src/http/tokens.js';
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

/** Every entity's head and document, the revision count and the accounts: equal before and after a refused request. */
export function snapshot(store: Store): string {
  const { db } = store as SqliteStore;
  return JSON.stringify([
    db.prepare('SELECT e.id, e.head_rev, e.redirect_to, r.content FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev ORDER BY e.id').all(),
    db.prepare('SELECT count(*) AS n, max(rev_id) AS last FROM revisions').get(),
    db.prepare('SELECT name, user_group, token_hash, block_reason FROM users ORDER BY name').all(),
  ]);
}
