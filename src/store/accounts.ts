// The accounts part of the store (store.ts): who may edit, their tokens' hashes, protected entities.

/** docs/api.md §2.5, issue #7: who may edit. Bots may flag edits `bot: true`; admins may edit protected entities. */
export type UserGroup = 'user' | 'bot' | 'admin';
export const USER_GROUPS: readonly UserGroup[] = ['user', 'bot', 'admin'];

export interface Account {
  name: string;
  group: UserGroup;
  /** Null when the user may edit; otherwise the reason given when blocking ("" for none). */
  blockReason: string | null;
  /** Whether a token is set (the hash itself never leaves the accounts part but through userByTokenHash). */
  hasToken: boolean;
  created: Date;
}

/**
 * Accounts, tokens and protected entities. Tokens are stored only as a keyed hash (http/tokens.ts makes
 * it); the store never sees a token. Names are unique and compared exactly.
 */
export interface AccountStore {
  /** Creates a user; null when the name is taken. */
  createUser(name: string, group: UserGroup): Promise<Account | null>;
  user(name: string): Promise<Account | null>;
  /** Newest last. */
  listUsers(): Promise<Account[]>;
  /** Replaces the user's token hash (one token per user); false when there is no such user. */
  setTokenHash(name: string, tokenHash: string): Promise<boolean>;
  /** The user holding this token hash, with the stored hash for a constant-time re-check. */
  userByTokenHash(tokenHash: string): Promise<{ account: Account; tokenHash: string } | null>;
  /** Blocks with a reason ("" for none), or unblocks with null; false when there is no such user. */
  setBlocked(name: string, reason: string | null): Promise<boolean>;
  /** Protects (true) or unprotects an entity id; editing it then needs an admin. */
  setProtected(entityId: string, isProtected: boolean): Promise<void>;
  isProtected(entityId: string): Promise<boolean>;
  /** The server secret that keys token hashes: the stored one, or `candidate` stored now if there is none. */
  secret(candidate: string): Promise<string>;
}
