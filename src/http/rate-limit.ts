// Request budgets (spec §8, docs/api.md §2.5, issue #7). The interface is async and tiny so that a shared
// implementation (PostgreSQL, Redis) can replace the in-memory one when several processes serve one store.
import type { Rate } from '../config.js';
import { EntiaError } from '../domain/errors.js';
import type { Counters } from '../store/store.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request under `key` against `rate`; over budget, says when the window resets. */
  hit(key: string, rate: Rate): Promise<RateDecision>;
}

/** 429 request-limit-reached with `Retry-After` (reply-error.ts adds the header). */
export class RequestLimitReached extends EntiaError<'request-limit-reached'> {
  constructor(readonly retryAfterSeconds: number) {
    super('request-limit-reached', { reason: 'rate-limit-reached' });
  }
}

export interface MemoryLimiterOptions {
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  /** Keys kept at most; past it expired windows are dropped, then the oldest (bounded memory). */
  maxKeys?: number;
}

/**
 * Fixed windows per key, in this process's memory: a key's window starts at its first request and
 * allows `count` requests until `windowSeconds` later. A burst of up to 2×count across a window edge is
 * the accepted price of O(1) memory per key.
 */
export function memoryRateLimiter({ now = Date.now, maxKeys = 100_000 }: MemoryLimiterOptions = {}): RateLimiter {
  const windows = new Map<string, { resetAt: number; count: number }>();
  const evict = (t: number) => {
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  };
  return {
    async hit(key, rate) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        windows.delete(key);
        if (windows.size >= maxKeys) evict(t);
        w = { resetAt: t + rate.windowSeconds * 1000, count: 0 };
        windows.set(key, w);
      }
      if (w.count >= rate.count) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) };
      w.count++;
      return { allowed: true };
    },
  };
}

/**
 * Budgets kept in the store's shared counters: one budget for every process on one database, with no other
 * service (issue #9). Unlike the in-memory limiter, a refused hit is counted too; it changes nothing visible,
 * since the window's end (Retry-After) stays the same.
 */
export function storeRateLimiter(store: Counters): RateLimiter {
  return {
    async hit(key, rate) {
      const { count, resetAt } = await store.countHit(key, rate.windowSeconds);
      if (count <= rate.count) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000)) };
    },
  };
}

/**
 * The budget key of an anonymous client: its address, or for IPv6 its /64 network, since one host
 * usually holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(address: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}
