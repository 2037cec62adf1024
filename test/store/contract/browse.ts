// Store contract, browsing: entities of a kind in number order, and what links to an entity (the partial
// indexes of migration 16). Run unchanged against every backend by ../contract.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type Statement } from '../../../src/domain/entity.js';
import type { Store } from '../../../src/store/store.js';
import { create, META } from './helpers.js';

function statement(holder: string, n: number, property: string, content: string, rank: Statement['rank'] = 'normal'): Statement {
  return { id: `${holder}$00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, rank,
    property: { id: property, 'data-type': 'wikibase-item' }, value: { type: 'value', content }, qualifiers: [], references: [] };
}

/** Creates an item, then gives it statements (its id is known only once created). */
async function itemWith(store: Store, claims: [property: string, value: string, rank?: Statement['rank']][]): Promise<Entity> {
  const item = await create(store, emptyEntity('', 'item'));
  const statements: Entity['statements'] = {};
  claims.forEach(([property, value, rank], i) => (statements[property] ??= []).push(statement(item.id, i + 1, property, value, rank)));
  const read = await store.readEntity(item.id);
  assert.ok(read.status === 'found');
  const next = { ...item, statements };
  await store.applyEdit({ entity: next, previous: read, meta: META, checks: {} });
  return next;
}

export function browseContract(open: () => Promise<Store>): void {
  describe('browsing', () => {
    it('lists the entities of a kind in the order of their numbers, without redirects', async () => {
      const store = await open();
      const made: string[] = [];
      for (let i = 0; i < 12; i++) made.push((await create(store, emptyEntity('', 'item'))).id);
      const property = await create(store, emptyEntity('', 'property'));
      await store.redirectEntity(made[3], made[4], META);
      const first = Number(made[0].slice(1));
      const listed = (await store.entityNumbers('item', first - 1, 20)).filter((n) => n <= Number(made[11].slice(1)));
      assert.deepEqual(listed, made.filter((_, i) => i !== 3).map((id) => Number(id.slice(1))),
        'ascending by number (Q10 after Q9), the redirect left out');
      assert.deepEqual(await store.entityNumbers('item', first + 4, 2), [first + 5, first + 6], 'a page after a cursor');
      assert.ok((await store.entityNumbers('property', Number(property.id.slice(1)) - 1, 5)).includes(Number(property.id.slice(1))));
      for (const n of await store.entityNumbers('property', 0, 1000)) {
        assert.equal((await store.readEntity(`P${n}`)).status, 'found', 'properties only, when asked for properties');
      }
      await store.close();
    });

    it('finds what links to an entity, by any property, in id order with a cursor', async () => {
      const store = await open();
      const target = await create(store, emptyEntity('', 'item'));
      const a = await itemWith(store, [['P31', target.id], ['P279', target.id], ['P31', 'Q999999']]);
      const b = await itemWith(store, [['P361', target.id]]);
      await itemWith(store, [['P31', target.id, 'deprecated']]);
      await itemWith(store, [['P31', 'Q999999']]);
      const links = await store.statementValues.linksTo(target.id, null, 10);
      assert.deepEqual(links, [
        { kind: 'item', entity: Number(a.id.slice(1)), properties: [31, 279] },
        { kind: 'item', entity: Number(b.id.slice(1)), properties: [361] },
      ], 'each linking entity once with its properties; a deprecated statement does not count');
      assert.deepEqual(await store.statementValues.linksTo(target.id, { kind: 'item', entity: Number(a.id.slice(1)) }, 10), [links[1]]);
      // The link goes when the statement does.
      const read = await store.readEntity(b.id);
      assert.ok(read.status === 'found');
      await store.applyEdit({ entity: { ...b, statements: {} }, previous: read, meta: META, checks: {} });
      assert.deepEqual(await store.statementValues.linksTo(target.id, null, 10), [links[0]]);
      await store.close();
    });
  });
}
