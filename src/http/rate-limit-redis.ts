// A RateLimiter shared by every process that talks to one Redis (ENTIA_REDIS): the same fixed windows as
// the in-memory limiter, kept as Redis keys that expire with their window (issue #9: limits across workers).
import type { Redis } from 'ioredis';
import type { Rate } from '../config.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';

// One round trip, atomic: count the hit unless the window is full, start the window's expiry on its
// first hit, and report the time left. A refused hit is not counted, as in memoryRateLimiter.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if count > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return {0, ttl}
end
return {1, ttl}`;

export function redisRateLimiter(redis: Redis, prefix = 'entia:rate:'): RateLimiter {
  return {
    async hit(key: string, rate: Rate): Promise<RateDecision> {
      const [allowed, ttl] = (await redis.eval(HIT, 1, prefix + key, rate.count, rate.windowSeconds * 1000)) as [number, number];
      if (allowed === 1) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(ttl, 0) / 1000)) };
    },
  };
}
