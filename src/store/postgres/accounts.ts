// The accounts part of the PostgreSQL backend (issue #7): users with their token hashes, protected
// entities, and the server secret in the meta table. Each operation is one statement, so concurrent
// processes need no transaction to agree.
import type { Account, AccountStore, UserGroup } from '../store.js';
import { accountQueries as q, type Db, type UserRow } from './queries.js';

const SECRET_KEY = 'token-secret';

function toAccount(row: UserRow): Account {
  return {
    name: row.name,
    group: row.user_group as UserGroup,
    blockReason: row.block_reason,
    hasToken: row.token_hash !== null,
    created: row.created,
  };
}

export function postgresAccounts(db: Db): AccountStore {
  return {
    async createUser(name, group) {
      if ((await q.insertUser(db, name, group)) === 0) return null;
      return toAccount((await q.userByName(db, name))!);
    },
    async user(name) {
      const row = await q.userByName(db, name);
      return row ? toAccount(row) : null;
    },
    async listUsers() {
      return (await q.listUsers(db)).map(toAccount);
    },
    async setTokenHash(name, tokenHash) {
      return (await q.setTokenHash(db, name, tokenHash)) > 0;
    },
    async userByTokenHash(tokenHash) {
      const row = await q.userByTokenHash(db, tokenHash);
      return row && row.token_hash ? { account: toAccount(row), tokenHash: row.token_hash } : null;
    },
    async setBlocked(name, reason) {
      return (await q.setBlockReason(db, name, reason)) > 0;
    },
    async setProtected(entityId, isProtected) {
      if (isProtected) await q.protect(db, entityId);
      else await q.unprotect(db, entityId);
    },
    async isProtected(entityId) {
      return q.isProtected(db, entityId);
    },
    async secret(candidate) {
      return q.metaValue(db, SECRET_KEY, candidate);
    },
  };
}
