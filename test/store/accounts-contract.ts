// The accounts part of the storage contract (issue #7), run by storeContract for every backend. Backends
// may hand every test the same database (PostgreSQL: one schema), so names and ids are unique per run.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Store } from '../../src/store/store.js';

const run = Math.random().toString(36).slice(2, 8);
const named = (name: string) => `${name}${run}`;

export function accountsContract(open: () => Promise<Store>): void {
  it('creates users once, with their group, and lists them oldest first', async () => {
    const store = await open();
    const [alice, robot] = [named('alice'), named('robot')];
    const created = await store.accounts.createUser(alice, 'user');
    assert.equal(created?.name, alice);
    assert.equal(created?.group, 'user');
    assert.equal(created?.blockReason, null);
    assert.equal(created?.hasToken, false);
    assert.ok(created?.created instanceof Date);
    assert.equal(await store.accounts.createUser(alice, 'admin'), null);
    await store.accounts.createUser(robot, 'bot');
    const listed = (await store.accounts.listUsers()).filter((u) => u.name.endsWith(run));
    assert.deepEqual(listed.map((u) => [u.name, u.group]), [[alice, 'user'], [robot, 'bot']]);
    assert.equal((await store.accounts.user(robot))?.group, 'bot');
    assert.equal(await store.accounts.user(named('nobody')), null);
    await store.close();
  });

  it('finds a user by token hash; a new hash replaces the old', async () => {
    const store = await open();
    const name = named('tok');
    const [a, b, c] = ['a', 'b', 'c'].map((x) => `${run}${x}`.padEnd(64, x));
    await store.accounts.createUser(name, 'user');
    assert.equal(await store.accounts.setTokenHash(name, a), true);
    assert.equal(await store.accounts.setTokenHash(named('nobody'), c), false);
    const found = await store.accounts.userByTokenHash(a);
    assert.equal(found?.account.name, name);
    assert.equal(found?.tokenHash, a);
    assert.equal(found?.account.hasToken, true);
    await store.accounts.setTokenHash(name, b);
    assert.equal(await store.accounts.userByTokenHash(a), null);
    assert.equal((await store.accounts.userByTokenHash(b))?.account.name, name);
    await store.close();
  });

  it('blocks with a reason and unblocks', async () => {
    const store = await open();
    const name = named('vandal');
    await store.accounts.createUser(name, 'user');
    assert.equal(await store.accounts.setBlocked(name, 'spam'), true);
    assert.equal((await store.accounts.user(name))?.blockReason, 'spam');
    await store.accounts.setBlocked(name, '');
    assert.equal((await store.accounts.user(name))?.blockReason, '');
    await store.accounts.setBlocked(name, null);
    assert.equal((await store.accounts.user(name))?.blockReason, null);
    assert.equal(await store.accounts.setBlocked(named('nobody'), 'x'), false);
    await store.close();
  });

  it('protects and unprotects entities, idempotently', async () => {
    const store = await open();
    const [id, other] = ['Q987654321', 'Q987654322'];
    await store.accounts.setProtected(id, false);
    assert.equal(await store.accounts.isProtected(id), false);
    await store.accounts.setProtected(id, true);
    await store.accounts.setProtected(id, true);
    assert.equal(await store.accounts.isProtected(id), true);
    assert.equal(await store.accounts.isProtected(other), false);
    await store.accounts.setProtected(id, false);
    await store.accounts.setProtected(id, false);
    assert.equal(await store.accounts.isProtected(id), false);
    await store.close();
  });

  it('keeps the first server secret it is given', async () => {
    const store = await open();
    const first = await store.accounts.secret(named('first'));
    const second = await store.accounts.secret(named('second'));
    assert.equal(second, first);
    assert.notEqual(second, named('second'));
    await store.close();
  });
}
