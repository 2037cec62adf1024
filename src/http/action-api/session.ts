// Who an Action API request comes from, and the MediaWiki login dance tools expect (docs/api.md §10.15).
// Entia has no passwords: an account's token stands in for a bot password, so `action=login` with the account's
// name and token gives a session cookie. The cookie is the token itself, sealed (AES-256-GCM) under a key derived
// from the server secret, with an expiry: any process of the deployment can open it, nothing is stored, and a
// replaced token ends every session made with it. Edits need a CSRF token (`meta=tokens`) derived from the
// caller's token, so a cross-site form post with the cookie alone cannot edit; anonymous edits (when the edit
// mode allows them) use MediaWiki's `+\`.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Identity, Services } from '../services.js';
import { bearerToken, sameSecret, tokenSecret } from '../tokens.js';
import { RequestLimitReached } from '../rate-limit.js';
import type { AccountStore } from '../../store/store.js';
import { param, refuse, type Json } from './protocol.js';

/** The session cookie's name: MediaWiki clients keep cookies whose name ends in `session`. */
const SESSION_COOKIE = 'entia_session';
const SESSION_SECONDS = 12 * 3600;
/** Login tokens are good for this long (two windows of it are accepted). */
const LOGIN_WINDOW_MS = 10 * 60_000;
const ANONYMOUS_CSRF = '+\\';

export interface Sessions {
  /** The identity of a request: its bearer token, else its session cookie, else anonymous. */
  identify(headers: { authorization?: string; cookie?: string }): Promise<{ identity: Identity; bearer: string | null }>;
  csrfToken(bearer: string | null): Promise<string>;
  loginToken(): Promise<string>;
  /** `action=login`: the answer and, on success, the Set-Cookie value. */
  /** `address`: the client's, whose login attempts are counted (EditGuard.loginAttempt). */
  login(params: Json, address: string): Promise<{ body: Json; cookie?: string }>;
  logoutCookie(): string;
}

export function buildSessions(services: Services, accounts: AccountStore): Sessions {
  let keys: Promise<{ seal: Buffer; mac: Buffer }> | null = null;
  // The secret is read (or created) on first use, as the guard does; every process derives the same keys.
  const key = () => (keys ??= tokenSecret(services.config.secret, accounts).then((secret) => ({
    seal: createHmac('sha256', secret).update('entia action-api session').digest(),
    mac: createHmac('sha256', secret).update('entia action-api tokens').digest(),
  })));
  const hmac = async (text: string) => createHmac('sha256', (await key()).mac).update(text).digest('hex');

  async function seal(token: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', (await key()).seal, iv);
    const plain = Buffer.from(JSON.stringify({ t: token, e: Math.floor(Date.now() / 1000) + SESSION_SECONDS }), 'utf8');
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('hex');
  }

  async function open(value: string): Promise<string | null> {
    if (!/^[0-9a-f]{60,2000}$/.test(value)) return null;
    const bytes = Buffer.from(value, 'hex');
    try {
      const decipher = createDecipheriv('aes-256-gcm', (await key()).seal, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const plain = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'));
      return typeof plain.t === 'string' && plain.e > Date.now() / 1000 ? plain.t : null;
    } catch {
      return null;
    }
  }

  const loginTokenAt = async (window: number) => `${(await hmac(`login ${window}`)).slice(0, 40)}+\\`;

  return {
    async identify(headers) {
      if (headers.authorization !== undefined) {
        const identity = await services.guard.identify(headers.authorization);
        // A known account's header is a well-formed bearer token (guard.identify parsed it the same way).
        return { identity, bearer: identity.kind === 'user' ? bearerToken(headers.authorization) as string : null };
      }
      const sealed = cookieValue(headers.cookie, SESSION_COOKIE);
      const token = sealed ? await open(sealed) : null;
      if (token === null) return { identity: { kind: 'anonymous' }, bearer: null };
      const identity = await services.guard.identify(`Bearer ${token}`);
      // A session whose token was replaced or whose account is gone is no session: the client is anonymous.
      return identity.kind === 'user' ? { identity, bearer: token } : { identity: { kind: 'anonymous' }, bearer: null };
    },
    async csrfToken(bearer) {
      return bearer === null ? ANONYMOUS_CSRF : `${(await hmac(`csrf ${bearer}`)).slice(0, 40)}+\\`;
    },
    async loginToken() {
      return loginTokenAt(Math.floor(Date.now() / LOGIN_WINDOW_MS));
    },
    async login(params, address) {
      const name = param(params, 'lgname');
      const password = param(params, 'lgpassword');
      const given = param(params, 'lgtoken');
      if (given === undefined) return { body: { login: { result: 'NeedToken', token: await loginTokenAt(Math.floor(Date.now() / LOGIN_WINDOW_MS)) } } };
      const window = Math.floor(Date.now() / LOGIN_WINDOW_MS);
      const valid = [await loginTokenAt(window), await loginTokenAt(window - 1)].some((t) => sameSecret(t, given));
      if (!valid) return { body: { login: { result: 'WrongToken' } } };
      if (!name || !password) refuse('missingparam', 'The "lgname" and "lgpassword" parameters must be set.');
      try {
        await services.guard.loginAttempt(address);
      } catch (e) {
        if (!(e instanceof RequestLimitReached)) throw e;
        const minutes = Math.max(1, Math.ceil(e.retryAfterSeconds / 60));
        return { body: { login: { result: 'Failed', reason: `You have made too many recent login attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before trying again.` } } };
      }
      const identity = await services.guard.identify(`Bearer ${password}`);
      // Bot passwords are named `Account@bot`; the account is what comes before the `@`.
      const account = name.split('@')[0];
      // MediaWiki capitalises a user name's first letter (Pywikibot sends `Clbot` for the account `clbot`).
      if (identity.kind !== 'user' || firstLetterUpper(identity.account.name) !== firstLetterUpper(account)) {
        return { body: { login: { result: 'Failed', reason: 'Incorrect username or token entered. Please try again.' } } };
      }
      return {
        body: { login: { result: 'Success', lguserid: 0, lgusername: identity.account.name } },
        cookie: `${SESSION_COOKIE}=${await seal(password)}; Path=/; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Lax`,
      };
    },
    logoutCookie() {
      return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;
    },
  };
}

/** A user name as MediaWiki compares them: its first letter in upper case. */
const firstLetterUpper = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** One cookie's value from a Cookie header (RFC 6265 §5.4: `name=value` pairs separated by `; `). */
function cookieValue(header: string | undefined, name: string): string | null {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return null;
}

/** Whether the request's `token` is the CSRF token of its identity. */
export async function checkCsrf(sessions: Sessions, bearer: string | null, token: string | undefined): Promise<void> {
  if (token === undefined) refuse('missingparam', 'The "token" parameter must be set.');
  if (!sameSecret(await sessions.csrfToken(bearer), token)) refuse('badtoken', 'Invalid CSRF token.');
}
