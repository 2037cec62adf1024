// Rate limits shared across server processes (issue #9): through Redis (ENTIA_REDIS; runs when ENTIA_TEST_REDIS
// names a Redis server) and through PostgreSQL's counters (runs when ENTIA_TEST_POSTGRES is set). .ci/run sets
// both; an unset one is a named skip.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { redisRateLimiter } from '../../src/http/rate-limit-redis.js';
import { call, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { createTestDb, postgresSkipReason, postgresUrl, type TestDb } from '../helpers/store.js';

const redisUrl = process.env.ENTIA_TEST_REDIS || null;

if (!redisUrl) {
  it('rate limits shared through Redis', { skip: 'ENTIA_TEST_REDIS is not set (a redis:// URL the tests may write keys to)' }, () => {});
} else {
  describe('rate limits shared through Redis', () => {
    let redis: Redis;
    const prefix = `entia-test:${process.pid}:${Date.now()}:`;
    before(async () => { redis = new Redis(redisUrl); });
    /** The servers' own keys (default prefix) for this machine's loopback client, so each run starts afresh. */
    const forgetLoopbackBudgets = async () => {
      const keys = (await redis.keys('entia:rate:*')).filter((k) => k.includes('127.0.0.1'));
      if (keys.length) await redis.del(...keys);
    };
    after(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    });

    it('allows `count` hits per window, then answers with the time left, then resets', async () => {
      const limiter = redisRateLimiter(redis, prefix);
      const rate = { count: 2, windowSeconds: 1 };
      assert.deepEqual(await limiter.hit('k', rate), { allowed: true });
      assert.deepEqual(await limiter.hit('k', rate), { allowed: true });
      assert.deepEqual(await limiter.hit('k', rate), { allowed: false, retryAfterSeconds: 1 });
      assert.deepEqual(await limiter.hit('other', rate), { allowed: true });
      await new Promise((r) => setTimeout(r, 1100));
      assert.deepEqual(await limiter.hit('k', rate), { allowed: true });
    });

    it('counts concurrent hits exactly once each', async () => {
      const limiter = redisRateLimiter(redis, prefix);
      const rate = { count: 5, windowSeconds: 30 };
      const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.hit('burst', rate)));
      assert.equal(decisions.filter((d) => d.allowed).length, 5);
    });

    describe('across two server processes', () => {
      let db: TestDb;
      let servers: ServerProcess[] = [];
      before(async () => {
        db = await createTestDb();
        await forgetLoopbackBudgets();
        const env = { ENTIA_DB: db.location, ENTIA_REDIS: redisUrl, ENTIA_RATE_CREATE: '3/60', ENTIA_PG_POOL: '2' };
        servers = await Promise.all([0, 1].map(() => startServerProcess(env)));
      });
      after(async () => {
        await Promise.all(servers.map((s) => s.stop()));
        await db?.drop();
        await forgetLoopbackBudgets();
      });

      it('spends one budget whichever process serves the request', async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await call(servers[i % 2].url, 'POST', '/v1/entities/items', { item: {} })).status);
        assert.deepEqual(statuses, [201, 201, 201, 429]);
        const refused = await call(servers[1].url, 'POST', '/v1/entities/items', { item: {} });
        assert.equal(refused.status, 429);
        assert.equal(refused.body.code, 'request-limit-reached');
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      });
    });
  });
}

/** Two real server processes with a creation budget of 3 per minute: four creations spread over both. */
async function spendAcrossProcesses(env: Record<string, string>): Promise<{ statuses: number[]; retryAfter: number }> {
  const servers = await Promise.all([0, 1].map(() => startServerProcess({ ENTIA_RATE_CREATE: '3/60', ENTIA_PG_POOL: '2', ...env })));
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(servers[i % 2].url, 'POST', '/v1/entities/items', { item: {} })).status);
    const refused = await call(servers[1].url, 'POST', '/v1/entities/items', { item: {} });
    assert.equal(refused.body.code, 'request-limit-reached');
    return { statuses, retryAfter: Number(refused.headers.get('retry-after')) };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

if (!postgresUrl) {
  it('rate limits shared through PostgreSQL', { skip: postgresSkipReason! }, () => {});
} else {
  describe('rate limits shared through PostgreSQL', () => {
    let db: TestDb;
    before(async () => { db = await createTestDb('postgres'); });
    after(async () => { await db?.drop(); });

    it('spends one budget whichever process serves the request', async () => {
      const { statuses, retryAfter } = await spendAcrossProcesses({ ENTIA_DB: db.location });
      assert.deepEqual(statuses, [201, 201, 201, 429]);
      assert.ok(retryAfter >= 1 && retryAfter <= 60);
    });
  });
}
