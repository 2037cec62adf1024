// The SQLite backend's cache of parsed documents (src/store/entity-cache.ts): keyed by revision, bounded,
// and handing out frozen entities that readers share.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { emptyEntity } from '../../src/domain/entity.js';
import { EntityCache } from '../../src/store/entity-cache.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const item = (id: string) => ({ ...emptyEntity(id, 'item'), labels: { en: id } });

describe('entity cache', () => {
  it('answers only for the revision it holds', () => {
    const cache = new EntityCache(1000);
    cache.put('Q1', 5, item('Q1'), 10);
    assert.equal(cache.get('Q1', 5)?.id, 'Q1');
    assert.equal(cache.get('Q1', 6), undefined);
    assert.equal(cache.get('Q2', 5), undefined);
  });

  it('drops the least recently used documents beyond its budget', () => {
    const cache = new EntityCache(100);
    cache.put('Q1', 1, item('Q1'), 20);
    cache.put('Q2', 1, item('Q2'), 20);
    cache.get('Q1', 1);
    cache.put('Q3', 1, item('Q3'), 20);
    cache.put('Q4', 1, item('Q4'), 20);
    cache.put('Q5', 1, item('Q5'), 20);
    cache.put('Q6', 1, item('Q6'), 20);
    assert.equal(cache.get('Q2', 1), undefined, 'least recently used');
    assert.equal(cache.get('Q1', 1)?.id, 'Q1', 'read since, so kept');
    assert.equal(cache.get('Q6', 1)?.id, 'Q6');
  });

  it('freezes what it hands out, and keeps no document larger than a quarter of its budget', () => {
    const cache = new EntityCache(100);
    const big = cache.put('Q1', 1, item('Q1'), 30);
    assert.ok(Object.isFrozen(big) && Object.isFrozen(big.labels));
    assert.throws(() => { (big.labels as Record<string, string>).en = 'changed'; }, TypeError);
    assert.equal(cache.get('Q1', 1), undefined);
  });

  it('lets the SQLite store hand the same frozen document to every reader of a revision', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'entia-cache-'));
    const store = openSqliteStore({ path: join(dir, 'store.db') });
    try {
      await store.importEntities([item('Q1')], { user: 'u', comment: null, tags: [], bot: false });
      const a = await store.readEntity('Q1');
      const b = await store.readEntity('Q1');
      assert.ok(a.status === 'found' && b.status === 'found');
      assert.equal(a.entity, b.entity);
      assert.ok(Object.isFrozen(a.entity.labels));
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
