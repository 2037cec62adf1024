// Store contract, Rate counters shared by every process using the store (Counters).
// Run unchanged against every backend by ../contract.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../../src/store/store.js';

export function countersContract(open: () => Promise<Store>): void {
  describe('counters', () => {
    it('counts hits in fixed windows shared through the store', async () => {
      const store = await open();
      const key = `test:${Math.random()}`;
      const first = await store.countHit(key, 1);
      assert.equal(first.count, 1);
      assert.ok(first.resetAt.getTime() > Date.now() && first.resetAt.getTime() <= Date.now() + 1500);
      assert.equal((await store.countHit(key, 1)).count, 2);
      assert.deepEqual((await Promise.all([1, 2, 3].map(() => store.countHit(key, 1)))).map((h) => h.count).sort(), [3, 4, 5]);
      assert.equal((await store.countHit(`${key}:other`, 1)).count, 1);
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await store.countHit(key, 1)).count, 1); // a new window
      await store.close();
    });
  });
}
