// The accounts part of the storage contract (issue #7), run by storeContract for every backend.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Store } from '../../src/store/store.js';

export function accountsContract(open: () => Promise<Store>): void {
  it('creates users once, with their group, and lists them', async () => {
    const store = await open();
    const alice = await store.accounts.createUser('alice', 'user');
    assert.equal(alice?.name, 'alice');
    assert.equal(alice?.group, 'user');
    assert.equal(alice?.blockReason, null);
    assert.equal(alice?.hasToken, false);
    assert.equal(await store.accounts.createUser('alice', 'admin'), null);
    await store.accounts.createUser('robot', 'bot');
    assert.deepEqual((await store.accounts.listUsers()).map((u) => [u.name, u.group]), [['alice', 'user'], ['robot', 'bot']]);
    assert.equal((await store.accounts.user('robot'))?.group, 'bot');
    assert.equal(await store.accounts.user('nobody'), null);
    await store.close();
  });

  it('finds a user by token hash; a new hash replaces the old', async () => {
    const store = await open();
    await store.accounts.createUser('tok', 'user');
    assert.equal(await store.accounts.setTokenHash('tok', 'a'.repeat(64)), true);
    assert.equal(await store.accounts.setTokenHash('nobody', 'c'.repeat(64)), false);
    const found = await store.accounts.userByTokenHash('a'.repeat(64));
    assert.equal(found?.account.name, 'tok');
    assert.equal(found?.tokenHash, 'a'.repeat(64));
    assert.equal(found?.account.hasToken, true);
    await store.accounts.setTokenHash('tok', 'b'.repeat(64));
    assert.equal(await store.accounts.userByTokenHash('a'.repeat(64)), null);
    assert.equal((await store.accounts.userByTokenHash('b'.repeat(64)))?.account.name, 'tok');
    await store.close();
  });

  it('blocks with a reason and unblocks', async () => {
    const store = await open();
    await store.accounts.createUser('vandal', 'user');
    assert.equal(await store.accounts.setBlocked('vandal', 'spam'), true);
    assert.equal((await store.accounts.user('vandal'))?.blockReason, 'spam');
    await store.accounts.setBlocked('vandal', '');
    assert.equal((await store.accounts.user('vandal'))?.blockReason, '');
    await store.accounts.setBlocked('vandal', null);
    assert.equal((await store.accounts.user('vandal'))?.blockReason, null);
    assert.equal(await store.accounts.setBlocked('nobody', 'x'), false);
    await store.close();
  });

  it('protects and unprotects entities, idempotently', async () => {
    const store = await open();
    assert.equal(await store.accounts.isProtected('Q1'), false);
    await store.accounts.setProtected('Q1', true);
    await store.accounts.setProtected('Q1', true);
    assert.equal(await store.accounts.isProtected('Q1'), true);
    assert.equal(await store.accounts.isProtected('Q2'), false);
    await store.accounts.setProtected('Q1', false);
    await store.accounts.setProtected('Q1', false);
    assert.equal(await store.accounts.isProtected('Q1'), false);
    await store.close();
  });

  it('keeps the first server secret it is given', async () => {
    const store = await open();
    assert.equal(await store.accounts.secret('first'), 'first');
    assert.equal(await store.accounts.secret('second'), 'first');
    await store.close();
  });
}
