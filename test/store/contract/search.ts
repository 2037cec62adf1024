// Store contract, Search: labels and aliases found and ranked as edits and imports change them (SearchIndex).
// Run unchanged against every backend by ../contract.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type SitelinkMap } from '../../../src/domain/entity.js';
import { parseText } from '../../../src/search/query.js';
import type { SearchQuery, Store } from '../../../src/store/store.js';
import { create, META } from './helpers.js';

export function searchContract(open: () => Promise<Store>): void {
  describe('search', () => {
    it('searches labels and aliases, updated with each edit and import (issue #6)', async () => {
      const store = await open();
      const find = async (q: string, mode: SearchQuery['mode'], extra: Partial<SearchQuery> = {}) =>
        (await store.search({ kind: 'item', mode, text: parseText(q), entityId: null, languages: ['de', 'mul', 'en'],
          limit: 10, offset: 0, ...extra })).map((h) => `${h.id}:${h.match.type}:${h.match.text}`);
      const a = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'Zürich Airport' }, descriptions: { de: 'Flughafen' } });
      const b = await create(store, { ...emptyEntity('', 'item'), aliases: { de: ['Zurich'] } });
      assert.deepEqual(await find('zurich', 'search'), [`${b.id}:alias:Zurich`, `${a.id}:label:Zürich Airport`]);
      assert.deepEqual(await find('zur', 'suggest', { offset: 1 }), [`${a.id}:label:Zürich Airport`]);
      assert.deepEqual(await find('zur', 'search'), []);
      const [hit] = await store.search({ kind: 'item', mode: 'search', text: parseText(a.id), entityId: Number(a.id.slice(1)),
        languages: ['de', 'mul', 'en'], limit: 1, offset: 0 });
      assert.deepEqual(hit, { id: a.id, displayLabel: { language: 'en', value: 'Zürich Airport' },
        description: { language: 'de', value: 'Flughafen' }, match: { type: 'entityId', text: a.id } });

      const read = await store.readEntity(a.id);
      if (read.status !== 'found') throw new Error('missing');
      await store.applyEdit({ entity: { ...a, labels: { en: 'Kloten' } }, previous: read, meta: META, checks: {} });
      assert.deepEqual(await find('zurich', 'search'), [`${b.id}:alias:Zurich`]);
      assert.deepEqual(await find('KLOTEN', 'suggest'), [`${a.id}:label:Kloten`]);

      // More sitelinks rank first among equal matches.
      await store.importEntities([{ ...emptyEntity('Q900', 'item'), labels: { en: 'Kloten' },
        sitelinks: { enwiki: { title: 'Kloten', badges: [] } } }], META);
      assert.deepEqual(await find('kloten', 'search'), ['Q900:label:Kloten', `${a.id}:label:Kloten`]);

      // A redirect is no candidate (docs/api.md §10.7), by text or by id.
      await store.redirectEntity('Q900', a.id, META);
      assert.deepEqual(await find('kloten', 'search'), [`${a.id}:label:Kloten`]);
      assert.deepEqual(await find('Q900', 'search', { entityId: 900 }), []);
      await store.close();
    });

    it('ranks a prefix with thousands of matches the same way as a rare one (issue #6)', async () => {
      const store = await open();
      const entities: Entity[] = [];
      for (let n = 10001; n <= 13100; n++) {
        const sitelinks: SitelinkMap = n % 500 === 0 ? { enwiki: { title: `Manyprefix ${n}`, badges: [] } } : {};
        entities.push({ ...emptyEntity(`Q${n}`, 'item'), labels: { en: `Manyprefix ${n}` }, sitelinks });
      }
      await store.importEntities(entities, META);
      const linked = entities.filter((e) => Object.keys(e.sitelinks!).length > 0).map((e) => e.id);
      const expected = [...linked, ...entities.map((e) => e.id).filter((id) => !linked.includes(id))];
      const page = async (q: string, offset: number, limit: number) => (await store.search({ kind: 'item', mode: 'suggest',
        text: parseText(q), entityId: null, languages: ['en'], limit, offset })).map((h) => h.id);
      // One prefix per strategy: the prefix index, rank-order reading (thousands), range and sort (a hundred).
      for (const q of ['man', 'manyprefix 1', 'manyprefix 123']) {
        const all = expected.filter((id) => `manyprefix ${id.slice(1)}`.startsWith(q));
        assert.deepEqual(await page(q, 0, 20), all.slice(0, 20), q);
        assert.deepEqual(await page(q, 1000, 30), all.slice(1000, 1030), q);
        assert.deepEqual(await page(q, 90, 30), all.slice(90, 120), q);
      }
      await store.close();
    });
  });
}
