// How much (spec §8, docs/api.md §2.5, issue #7): per-client budgets for creations, other edits and reads,
// answered with 429 request-limit-reached and Retry-After, and reset when the window ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addressKey, memoryRateLimiter } from '../../src/http/rate-limit.js';
import type { TestResponse, TestServer } from '../helpers/server.js';
import { addUser, startSecureServer } from '../helpers/secure.js';

const relabel = (value: string) => ({ patch: [{ op: 'add', path: '/labels/en', value }] });

function assertLimited(res: TestResponse, retryAfter: number): void {
  assert.equal(res.status, 429, res.text);
  assert.deepEqual(res.body, {
    code: 'request-limit-reached',
    message: 'Exceeded the limit of actions that can be performed in a given span of time',
    context: { reason: 'rate-limit-reached' },
  });
  assert.equal(res.headers.get('retry-after'), String(retryAfter));
  assert.equal(res.headers.get('content-language'), 'en');
}

/** A clock the test moves by hand. */
function fakeClock() {
  let t = 1_000_000;
  return { now: () => t, advance: (seconds: number) => { t += seconds * 1000; } };
}

describe('rate limits', () => {
  const clock = fakeClock();
  let s: TestServer;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let robot: Record<string, string>;
  before(async () => {
    s = await startSecureServer(
      { rateCreate: { count: 2, windowSeconds: 60 }, rateEdit: { count: 3, windowSeconds: 10 }, rateMultiplier: 2 },
      memoryRateLimiter({ now: clock.now }),
    );
    alice = await addUser(s.store, 'alice');
    bob = await addUser(s.store, 'bob');
    robot = await addUser(s.store, 'robot', 'bot');
  });
  after(() => s.close());

  it('limits creations per user, says when to retry, and resets after the window', async () => {
    assert.equal((await s.post('/v1/entities/items', { item: {} }, alice)).status, 201);
    clock.advance(15);
    assert.equal((await s.post('/v1/entities/properties', { property: { data_type: 'string' } }, alice)).status, 201);
    assertLimited(await s.post('/v1/entities/items', { item: {} }, alice), 45);
    clock.advance(44.5);
    assertLimited(await s.post('/v1/entities/properties', { property: { data_type: 'url' } }, alice), 1);
    // Someone else's budget is untouched.
    assert.equal((await s.post('/v1/entities/items', { item: {} }, bob)).status, 201);
    clock.advance(0.5);
    assert.equal((await s.post('/v1/entities/items', { item: {} }, alice)).status, 201);
  });

  it('counts other edits in a budget of their own, and rejected edits change nothing', async () => {
    clock.advance(60);
    const id = (await s.post('/v1/entities/items', { item: {} }, alice)).body.id;
    assert.equal((await s.post('/v1/entities/items', { item: {} }, alice)).status, 201);
    for (const label of ['a', 'b', 'c']) assert.equal((await s.patch(`/v1/entities/items/${id}`, relabel(label), alice)).status, 200);
    assertLimited(await s.patch(`/v1/entities/items/${id}`, relabel('d'), alice), 10);
    assert.equal((await s.get(`/v1/entities/items/${id}`)).body.labels.en, 'c');
    assert.equal((await s.store.revisions(id, 100)).length, 4);
    // A no-op makes no revision and spends nothing (docs/api.md §2.3).
    assert.equal((await s.patch(`/v1/entities/items/${id}`, relabel('c'), alice)).status, 200);
    // Other checks come first: a 400 is a 400 even over budget.
    assert.equal((await s.patch(`/v1/entities/items/${id}`, { patch: 'x' }, alice)).status, 400);
    clock.advance(10);
    assert.equal((await s.patch(`/v1/entities/items/${id}`, relabel('d'), alice)).status, 200);
  });

  it('gives anonymous clients a budget per address', async () => {
    clock.advance(60);
    assert.equal((await s.post('/v1/entities/items', { item: {} })).status, 201);
    assert.equal((await s.post('/v1/entities/items', { item: {} })).status, 201);
    assertLimited(await s.post('/v1/entities/items', { item: {} }), 60);
    assert.equal((await s.post('/v1/entities/items', { item: {} }, bob)).status, 201);
  });

  it('multiplies the budgets of bots and admins', async () => {
    clock.advance(60);
    for (let i = 0; i < 4; i++) assert.equal((await s.post('/v1/entities/items', { item: {} }, robot)).status, 201);
    assertLimited(await s.post('/v1/entities/items', { item: {} }, robot), 60);
  });

  it('ranks permission (403) before the limit (429), as docs/api.md §7.7 orders them', async () => {
    clock.advance(60);
    await s.store.accounts.setBlocked('bob', 'x');
    for (let i = 0; i < 3; i++) assert.equal((await s.post('/v1/entities/items', { item: {} }, bob)).status, 403);
    await s.store.accounts.setBlocked('bob', null);
    assert.equal((await s.post('/v1/entities/items', { item: {} }, bob)).status, 201);
  });

  it('leaves reads unlimited by default', async () => {
    for (let i = 0; i < 20; i++) assert.equal((await s.get('/v1/property-data-types')).status, 200);
  });
});

describe('read limit (ENTIA_RATE_READ)', () => {
  it('limits reads per client when configured', async () => {
    const clock = fakeClock();
    const s = await startSecureServer({ rateRead: { count: 3, windowSeconds: 5 } }, memoryRateLimiter({ now: clock.now }));
    try {
      const alice = await addUser(s.store, 'alice');
      const id = (await s.post('/v1/entities/items', { item: {} })).body.id;
      for (let i = 0; i < 3; i++) assert.equal((await s.get(`/v1/entities/items/${id}`)).status, 200);
      assertLimited(await s.get(`/v1/entities/items/${id}`), 5);
      const head = await s.request('HEAD', `/v1/entities/items/${id}`);
      assert.equal(head.status, 429);
      assert.equal(head.headers.get('retry-after'), '5');
      assert.equal((await s.get(`/v1/entities/items/${id}`, alice)).status, 200);
      // Edits do not spend the read budget.
      assert.equal((await s.patch(`/v1/entities/items/${id}`, relabel('x'))).status, 200);
      clock.advance(5);
      assert.equal((await s.get(`/v1/entities/items/${id}`)).status, 200);
    } finally {
      await s.close();
    }
  });

  it('counts the reconciliation service\'s calls as reads', async () => {
    const clock = fakeClock();
    const s = await startSecureServer({ rateRead: { count: 2, windowSeconds: 5 } }, memoryRateLimiter({ now: clock.now }));
    try {
      assert.equal((await s.get('/v1/reconcile')).status, 200);
      assert.equal((await s.get('/v1/reconcile/suggest/entity?prefix=a')).status, 200);
      assertLimited(await s.get(`/v1/reconcile?queries=${encodeURIComponent('{"q0":{"query":"a"}}')}`), 5);
    } finally {
      await s.close();
    }
  });
});

describe('memoryRateLimiter', () => {
  it('allows count hits per window per key and reports the seconds left', async () => {
    const clock = fakeClock();
    const limiter = memoryRateLimiter({ now: clock.now });
    const rate = { count: 2, windowSeconds: 3 };
    assert.deepEqual(await limiter.hit('k', rate), { allowed: true });
    assert.deepEqual(await limiter.hit('k', rate), { allowed: true });
    assert.deepEqual(await limiter.hit('k', rate), { allowed: false, retryAfterSeconds: 3 });
    assert.deepEqual(await limiter.hit('other', rate), { allowed: true });
    clock.advance(2.2);
    assert.deepEqual(await limiter.hit('k', rate), { allowed: false, retryAfterSeconds: 1 });
    clock.advance(0.8);
    assert.deepEqual(await limiter.hit('k', rate), { allowed: true });
  });

  it('keeps at most maxKeys windows', async () => {
    const clock = fakeClock();
    const limiter = memoryRateLimiter({ now: clock.now, maxKeys: 3 });
    const rate = { count: 1, windowSeconds: 60 };
    for (const k of ['a', 'b', 'c', 'd']) await limiter.hit(k, rate);
    // 'a' was the oldest and was forgotten to make room; 'd' is still counted.
    assert.deepEqual(await limiter.hit('a', rate), { allowed: true });
    assert.equal((await limiter.hit('d', rate)).allowed, false);
  });

  it('keys anonymous IPv6 clients by their /64', () => {
    assert.equal(addressKey('127.0.0.1'), '127.0.0.1');
    assert.equal(addressKey('::ffff:10.1.2.3'), '10.1.2.3');
    assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8::5'), '2001:db8:0:0::/64');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
  });
});
