// Who may edit (spec §5, docs/api.md §2.5, D9, issue #7): the two edit modes, tokens, every 403 reason, the
// user recorded on revisions, and the client address (X-Forwarded-For only when trusted).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestResponse, TestServer } from '../helpers/server.js';
import { addUser, startSecureServer, storedBytes } from '../helpers/secure.js';

const relabel = (value: string) => ({ patch: [{ op: 'add', path: '/labels/en', value }] });

function assertDenied(res: TestResponse, reason: string, context = ''): void {
  assert.equal(res.status, 403, res.text);
  assert.deepEqual(res.body, {
    code: 'permission-denied', message: 'Access to resource is denied', context: { denial_reason: reason, denial_context: context },
  });
  assert.equal(res.headers.get('content-language'), 'en');
}

async function revisionCount(s: TestServer, id: string): Promise<number> {
  return (await s.store.revisions(id, 1000)).length;
}

describe('ENTIA_EDIT=token', () => {
  let s: TestServer;
  let alice: Record<string, string>;
  before(async () => {
    s = await startSecureServer({ editMode: 'token' });
    alice = await addUser(s.store, 'alice');
  });
  after(() => s.close());

  it('refuses anonymous writes with unauthenticated, after validation and existence (docs/api.md §7.7)', async () => {
    assertDenied(await s.post('/v1/entities/items', { item: {} }), 'unauthenticated');
    assertDenied(await s.post('/v1/entities/properties', { property: { data_type: 'string' } }), 'unauthenticated');
    // 400 and 404 come first: permission is step 7.
    assert.equal((await s.post('/v1/entities/items', { item: { labels: { en: '' } } })).body.code, 'invalid-item-data');
    assert.equal((await s.patch('/v1/entities/items/Q999', relabel('x'))).body.code, 'item-not-found');
    const item = await s.post('/v1/entities/items', { item: {} }, alice);
    assertDenied(await s.patch(`/v1/entities/items/${item.body.id}`, relabel('anon')), 'unauthenticated');
    assert.equal(await revisionCount(s, item.body.id), 1);
  });

  it('accepts a valid token, names the user in X-Authenticated-User and on the revision', async () => {
    const res = await s.post('/v1/entities/items', { item: { labels: { en: 'by alice' } } }, alice);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-authenticated-user'), 'alice');
    const patched = await s.patch(`/v1/entities/items/${res.body.id}`, relabel('by alice 2'), alice);
    assert.equal(patched.status, 200);
    assert.equal(patched.headers.get('x-authenticated-user'), 'alice');
    assert.deepEqual((await s.store.revisions(res.body.id, 5)).map((r) => r.user), ['alice', 'alice']);
    const read = await s.get(`/v1/entities/items/${res.body.id}`, alice);
    assert.equal(read.headers.get('x-authenticated-user'), 'alice');
  });

  it('keeps reads open to anyone, with or without a good token', async () => {
    const id = (await s.post('/v1/entities/items', { item: {} }, alice)).body.id;
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic YWxpY2U6eA==' }] as Record<string, string>[]) {
      const res = await s.get(`/v1/entities/items/${id}`, headers);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-authenticated-user'), null);
    }
  });

  it('sends no X-Authenticated-User on errors', async () => {
    const res = await s.post('/v1/entities/items', { item: 'x' }, alice);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('x-authenticated-user'), null);
  });
});

describe('ENTIA_EDIT=open', () => {
  let s: TestServer;
  let alice: Record<string, string>;
  let robot: Record<string, string>;
  let root: Record<string, string>;
  before(async () => {
    s = await startSecureServer({ editMode: 'open' });
    alice = await addUser(s.store, 'alice');
    robot = await addUser(s.store, 'robot', 'bot');
    root = await addUser(s.store, 'root', 'admin');
  });
  after(() => s.close());

  it('lets anyone edit and records anonymous edits with the client address', async () => {
    const res = await s.post('/v1/entities/items', { item: {} });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-authenticated-user'), null);
    assert.equal((await s.store.revisions(res.body.id, 1))[0].user, '127.0.0.1');
    const byAlice = await s.patch(`/v1/entities/items/${res.body.id}`, relabel('named'), alice);
    assert.equal(byAlice.headers.get('x-authenticated-user'), 'alice');
    assert.equal((await s.store.revisions(res.body.id, 1))[0].user, 'alice');
  });

  it('refuses an unknown or malformed token even though editing is open', async () => {
    const id = (await s.post('/v1/entities/items', { item: {} })).body.id;
    for (const authorization of ['Bearer ' + 'A'.repeat(43), 'Bearer short', 'Bearer', 'Basic YWxpY2U6eA==', alice.authorization + 'x']) {
      assertDenied(await s.post('/v1/entities/items', { item: {} }, { authorization }), 'invalid-token');
      assertDenied(await s.patch(`/v1/entities/items/${id}`, relabel('x'), { authorization }), 'invalid-token');
    }
    assert.equal(await revisionCount(s, id), 1);
    // The scheme name is case-insensitive (RFC 7235).
    assert.equal((await s.post('/v1/entities/items', { item: {} }, { authorization: alice.authorization.replace('Bearer', 'bearer') })).status, 201);
  });

  it('refuses a blocked user with the block reason as context, until unblocked', async () => {
    const vandal = await addUser(s.store, 'vandal');
    const id = (await s.post('/v1/entities/items', { item: {} })).body.id;
    await s.store.accounts.setBlocked('vandal', 'spam links');
    assertDenied(await s.post('/v1/entities/items', { item: {} }, vandal), 'blocked-user', 'spam links');
    assertDenied(await s.patch(`/v1/entities/items/${id}`, relabel('vandalism'), vandal), 'blocked-user', 'spam links');
    await s.store.accounts.setBlocked('vandal', '');
    assertDenied(await s.patch(`/v1/entities/items/${id}`, relabel('vandalism'), vandal), 'blocked-user', '');
    assert.equal(await revisionCount(s, id), 1);
    // Reads stay open to a blocked user.
    assert.equal((await s.get(`/v1/entities/items/${id}`, vandal)).status, 200);
    await s.store.accounts.setBlocked('vandal', null);
    assert.equal((await s.patch(`/v1/entities/items/${id}`, relabel('reformed'), vandal)).status, 200);
  });

  it('lets only admins edit a protected entity (resource-protected, context: the id)', async () => {
    const item = (await s.post('/v1/entities/items', { item: {} })).body.id;
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id;
    for (const id of [item, property]) await s.store.accounts.setProtected(id, true);
    for (const [id, segment] of [[item, 'items'], [property, 'properties']]) {
      assertDenied(await s.patch(`/v1/entities/${segment}/${id}`, relabel('x')), 'resource-protected', id);
      assertDenied(await s.patch(`/v1/entities/${segment}/${id}`, relabel('x'), alice), 'resource-protected', id);
      assertDenied(await s.patch(`/v1/entities/${segment}/${id}`, relabel('x'), robot), 'resource-protected', id);
      assert.equal(await revisionCount(s, id), 1);
      assert.equal((await s.patch(`/v1/entities/${segment}/${id}`, relabel(`admin ${id}`), root)).status, 200);
      assert.equal((await s.get(`/v1/entities/${segment}/${id}`)).status, 200);
    }
    // Path ids are case-insensitive; protection follows the normalised id.
    assertDenied(await s.patch(`/v1/entities/items/${item.toLowerCase()}`, relabel('y'), alice), 'resource-protected', item);
    await s.store.accounts.setProtected(item, false);
    assert.equal((await s.patch(`/v1/entities/items/${item}`, relabel('free again'), alice)).status, 200);
  });

  it('accepts bot: true from anyone, and records a bot edit only for the bot group (as upstream)', async () => {
    for (const who of [alice, root]) {
      const res = await s.post('/v1/entities/items', { item: {}, bot: true }, who);
      assert.equal(res.status, 201, res.text);
      assert.equal((await s.store.revisions(res.body.id, 1))[0].bot, false);
      const edit = await s.patch(`/v1/entities/items/${res.body.id}`, { ...relabel('x'), bot: true }, who);
      assert.equal(edit.status, 200, edit.text);
      assert.deepEqual((await s.store.revisions(res.body.id, 10)).map((r) => r.bot), [false, false]);
    }
    const res = await s.post('/v1/entities/items', { item: {}, bot: true }, robot);
    assert.equal(res.status, 201);
    assert.equal((await s.store.revisions(res.body.id, 1))[0].bot, true);
    // `bot: false` is anyone's, and a bot's edit without the flag is not a bot edit.
    const plain = await s.post('/v1/entities/items', { item: {}, bot: false }, robot);
    assert.equal((await s.store.revisions(plain.body.id, 1))[0].bot, false);
  });

  it('keeps tokens only as keyed hashes in the database', async () => {
    const fresh = await addUser(s.store, 'hashme');
    const token = fresh.authorization.slice('Bearer '.length);
    assert.equal((await s.post('/v1/entities/items', { item: {} }, fresh)).status, 201);
    const bytes = await storedBytes(s.store, s.dbPath);
    assert.ok(bytes.length > 0);
    assert.equal(bytes.includes(token), false, 'the token is in the database');
    assert.equal(bytes.includes(Buffer.from(token, 'base64url')), false, 'the raw token bytes are in the database');
    assert.equal(bytes.includes('hashme'), true, 'the test reads the right database');
  });
});

describe('client address', () => {
  it('ignores X-Forwarded-For by default', async () => {
    const s = await startSecureServer();
    try {
      const res = await s.post('/v1/entities/items', { item: {} }, { 'x-forwarded-for': '203.0.113.9' });
      assert.equal((await s.store.revisions(res.body.id, 1))[0].user, '127.0.0.1');
    } finally {
      await s.close();
    }
  });

  it('believes X-Forwarded-For from a trusted proxy (ENTIA_TRUST_PROXY)', async () => {
    const s = await startSecureServer({ trustProxy: '127.0.0.1' });
    try {
      const res = await s.post('/v1/entities/items', { item: {} }, { 'x-forwarded-for': '203.0.113.9' });
      assert.equal((await s.store.revisions(res.body.id, 1))[0].user, '203.0.113.9');
    } finally {
      await s.close();
    }
  });
});
