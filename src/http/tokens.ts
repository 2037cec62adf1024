// Bearer tokens (issue #7): random, shown once, stored only as HMAC-SHA256 under a server secret, so a
// copy of the database file does not let anyone edit, and looked up by that hash.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountStore } from '../store/store.js';

/** 32 random bytes: 43 base64url characters. */
export const TOKEN_BYTES = 32;

/** What a token can look like; anything else is refused without touching the store. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,256}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashToken(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token, 'utf8').digest('hex');
}

/** Constant-time equality of two secrets (token hashes, CSRF and login tokens). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The key of token hashes: ENTIA_SECRET when configured, else one generated on first use and kept in the
 * store, so that restarts (and the CLI, which hashes new tokens) use the same one.
 */
export async function tokenSecret(configured: string | null, accounts: AccountStore): Promise<string> {
  return configured ?? accounts.secret(randomBytes(32).toString('base64url'));
}

/**
 * The token of an `Authorization: Bearer …` header: null when there is no header, 'malformed' when the
 * header is present but is not a bearer token of a possible shape (403 on writes, like an unknown token).
 */
export function bearerToken(header: string | string[] | undefined): string | null | 'malformed' {
  if (header === undefined) return null;
  if (Array.isArray(header)) return 'malformed';
  const m = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return m && TOKEN_SHAPE.test(m[1]) ? m[1] : 'malformed';
}
