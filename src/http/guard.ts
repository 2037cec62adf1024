// The EditGuard that enforces the security model (README "Security model", docs/api.md §2.5, D9, issue #7):
// who may edit (403 permission-denied) and how much (429 request-limit-reached).
import type { Config, Rate } from '../config.js';
import { fail } from '../domain/errors.js';
import type { AccountStore } from '../store/store.js';
import { addressKey, memoryRateLimiter, RequestLimitReached, type RateLimiter } from './rate-limit.js';
import { LOGIN_ATTEMPTS, type Client, type EditGuard, type Identity } from './services.js';
import { bearerToken, hashToken, sameSecret, tokenSecret } from './tokens.js';

/** The `denial_reason` values this service answers with (all with a string `denial_context`, D9). */
export const DENIAL_REASONS = {
  /** A token was sent but is unknown or malformed, in either edit mode; context "". */
  invalidToken: 'invalid-token',
  /** ENTIA_EDIT=token and the request has no token; context "". */
  unauthenticated: 'unauthenticated',
  /** The account is blocked; context: the reason given when blocking, or "". */
  blockedUser: 'blocked-user',
  /** The entity is protected and the user is not an admin; context: the entity id. */
  resourceProtected: 'resource-protected',
} as const;

function deny(reason: string, context = ''): never {
  fail('permission-denied', { denial_reason: reason, denial_context: context });
}

export interface GuardOptions {
  config: Config;
  accounts: AccountStore;
  /** Defaults to an in-memory limiter (one process). */
  limiter?: RateLimiter;
}

export async function buildGuard({ config, accounts, limiter = memoryRateLimiter() }: GuardOptions): Promise<EditGuard> {
  const secret = await tokenSecret(config.secret, accounts);
  // An edit that loses a race is re-run with the same Ctx (app.ts); it is counted once.
  const charged = new WeakSet<Client>();

  async function identify(authorization: string | string[] | undefined): Promise<Identity> {
    const token = bearerToken(authorization);
    if (token === null) return { kind: 'anonymous' };
    if (token === 'malformed') return { kind: 'invalid-token' };
    const hash = hashToken(secret, token);
    const found = await accounts.userByTokenHash(hash);
    // The store matched on the hash already; the constant-time re-check guards against a backend whose
    // lookup is looser than byte equality (collation, case folding).
    if (!found || !sameSecret(found.tokenHash, hash)) return { kind: 'invalid-token' };
    return { kind: 'user', account: found.account };
  }

  async function authorize(ctx: Client, entityId: string | null): Promise<void> {
    const { identity } = ctx;
    if (identity.kind === 'invalid-token') deny(DENIAL_REASONS.invalidToken);
    if (identity.kind === 'anonymous' && config.editMode === 'token') deny(DENIAL_REASONS.unauthenticated);
    const account = identity.kind === 'user' ? identity.account : null;
    if (account && account.blockReason !== null) deny(DENIAL_REASONS.blockedUser, account.blockReason);
    if (entityId !== null && account?.group !== 'admin' && await accounts.isProtected(entityId)) {
      deny(DENIAL_REASONS.resourceProtected, entityId);
    }
  }

  /** Per account, or per address (IPv6: per /64) for anonymous clients. */
  function clientKey(ctx: Client): string {
    return ctx.identity.kind === 'user' ? `user:${ctx.identity.account.name}` : `addr:${addressKey(ctx.address)}`;
  }

  /** Bots and admins get ENTIA_RATE_MULTIPLIER times every budget. */
  async function spend(ctx: Client, budget: string, rate: Rate | null): Promise<void> {
    if (!rate) return;
    const group = ctx.identity.kind === 'user' ? ctx.identity.account.group : null;
    const scaled = group === 'bot' || group === 'admin'
      ? { ...rate, count: rate.count * config.rateMultiplier } : rate;
    const decision = await limiter.hit(`${budget}:${clientKey(ctx)}`, scaled);
    if (!decision.allowed) throw new RequestLimitReached(decision.retryAfterSeconds);
  }

  return {
    identify,
    authorize,
    async consume(ctx, creation) {
      if (charged.has(ctx)) return;
      await spend(ctx, creation ? 'create' : 'edit', creation ? config.rateCreate : config.rateEdit);
      charged.add(ctx);
    },
    async read(ctx) {
      await spend(ctx, 'read', config.rateRead);
    },
    async loginAttempt(address) {
      // Always on, shared like the other budgets: 200 wrong passwords in 0.36 s went unthrottled (issue #31).
      await spend({ identity: { kind: 'anonymous' }, address }, 'login', LOGIN_ATTEMPTS);
    },
  };
}
