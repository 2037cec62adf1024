// The accounts part of the SQLite backend (issue #7): users with their token hashes, protected entities,
// and the server secret in the meta table. better-sqlite3 is synchronous; the interface is not.
import type { Account, AccountStore, UserGroup } from '../store.js';
import type { Queries, UserRow } from './queries.js';

const SECRET_KEY = 'token-secret';

function toAccount(row: UserRow): Account {
  return {
    name: row.name,
    group: row.user_group as UserGroup,
    blockReason: row.block_reason,
    hasToken: row.token_hash !== null,
    created: new Date(row.created * 1000),
  };
}

export function sqliteAccounts(q: Queries): AccountStore {
  return {
    async createUser(name, group) {
      const { changes } = q.insertUser.run(name, group, Math.floor(Date.now() / 1000));
      return changes === 0 ? null : toAccount(q.userByName.get(name)!);
    },
    async user(name) {
      const row = q.userByName.get(name);
      return row ? toAccount(row) : null;
    },
    async listUsers() {
      return q.listUsers.all().map(toAccount);
    },
    async setTokenHash(name, tokenHash) {
      return q.setTokenHash.run(tokenHash, name).changes > 0;
    },
    async userByTokenHash(tokenHash) {
      const row = q.userByTokenHash.get(tokenHash);
      return row && row.token_hash ? { account: toAccount(row), tokenHash: row.token_hash } : null;
    },
    async setBlocked(name, reason) {
      return q.setBlockReason.run(reason, name).changes > 0;
    },
    async setProtected(entityId, isProtected) {
      if (isProtected) q.protect.run(entityId);
      else q.unprotect.run(entityId);
    },
    async isProtected(entityId) {
      return q.isProtected.get(entityId) !== undefined;
    },
    async secret(candidate) {
      // INSERT … DO NOTHING then SELECT: two processes starting at once agree on the first one written.
      q.insertMeta.run(SECRET_KEY, candidate);
      return q.readMeta.get(SECRET_KEY)!.value;
    },
  };
}
