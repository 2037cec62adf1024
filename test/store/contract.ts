// The one storage contract every backend must pass, run unchanged against each.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { emptyEntity, type Entity, type SitelinkMap } from '../../src/domain/entity.js';
import { parseText } from '../../src/search/query.js';
import { accountsContract } from './accounts-contract.js';
import { EditConflict, PolicyViolation, type EditMeta, type SearchQuery, type Store } from '../../src/store/store.js';

const META: EditMeta = { user: 'tester', comment: 'c', tags: [], bot: false };

export function storeContract(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`store contract: ${name}`, () => {
    after(cleanup);

    async function create(store: Store, entity: Entity): Promise<Entity> {
      const id = await store.allocateId(entity.type);
      const withId = { ...entity, id };
      await store.applyEdit({ entity: withId, previous: null, meta: META, checks: {} });
      return withId;
    }

    it('allocates increasing ids per kind, never twice', async () => {
      const store = await open();
      const a = await store.allocateId('item');
      const b = await store.allocateId('item');
      const p = await store.allocateId('property');
      assert.notEqual(a, b);
      assert.ok(Number(b.slice(1)) > Number(a.slice(1)));
      assert.match(p, /^P\d+$/);
      await store.close();
    });

    it('writes an entity with its revision and reads it back', async () => {
      const store = await open();
      const item = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'x' } });
      const read = await store.readEntity(item.id);
      assert.equal(read.status, 'found');
      if (read.status !== 'found') return;
      assert.deepEqual(read.entity, item);
      const [rev] = await store.revisions(item.id, 5);
      assert.equal(rev.revision, read.head.revision);
      assert.equal(rev.user, 'tester');
      assert.equal((await store.readEntity('Q999999')).status, 'missing');
      await store.close();
    });

    it('serves the stored document as text, with the same head as the parsed read', async () => {
      const store = await open();
      const item = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'say "hi" \\ 😀' } });
      const read = await store.readEntity(item.id);
      const document = await store.readDocument(item.id);
      assert.ok(read.status === 'found' && document.status === 'found');
      assert.deepEqual(document.head, read.head);
      assert.equal(document.json(), JSON.stringify(item));
      assert.deepEqual(await store.readDocument('Q999999'), { status: 'missing' });
      const target = await create(store, emptyEntity('', 'item'));
      await store.redirectEntity(item.id, target.id, META);
      assert.deepEqual(await store.readDocument(item.id), { status: 'redirect', target: target.id });
      // Many at once: the same answers in one round trip, unknown ids left out.
      const many = await store.readDocuments([item.id, target.id, 'Q999999', target.id]);
      assert.deepEqual([...many.keys()].sort(), [item.id, target.id].sort());
      assert.deepEqual(many.get(item.id), { status: 'redirect', target: target.id });
      const one = await store.readDocument(target.id);
      const fromMany = many.get(target.id)!;
      assert.ok(one.status === 'found' && fromMany.status === 'found');
      assert.deepEqual(fromMany.head, one.head);
      assert.equal(fromMany.json(), one.json());
      await store.close();
    });

    it('refuses an edit based on a stale head (compare-and-set)', async () => {
      const store = await open();
      const item = await create(store, emptyEntity('', 'item'));
      const read = await store.readEntity(item.id);
      if (read.status !== 'found') throw new Error('missing');
      const previous = { entity: read.entity, head: read.head };
      await store.applyEdit({ entity: { ...item, labels: { en: 'one' } }, previous, meta: META, checks: {} });
      await assert.rejects(store.applyEdit({ entity: { ...item, labels: { en: 'two' } }, previous, meta: META, checks: {} }), EditConflict);
      const after = await store.readEntity(item.id);
      assert.equal(after.status === 'found' && after.entity.labels.en, 'one');
      await store.close();
    });

    it('keeps each of several concurrent edits atomic on its own', async () => {
      const store = await open();
      const a = await create(store, emptyEntity('', 'item'));
      const b = await create(store, { ...emptyEntity('', 'item'), sitelinks: { enwiki: { title: 'Taken', badges: [] } } });
      const readA = await store.readEntity(a.id);
      const readB = await store.readEntity(b.id);
      if (readA.status !== 'found' || readB.status !== 'found') throw new Error('missing');
      const cId = await store.allocateId('item');
      // C's sitelink conflict shows only when its rows are written (no check asked for): what C wrote before
      // must go, and nothing of the others.
      const c = { ...emptyEntity(cId, 'item'), labels: { en: 'C label' }, descriptions: { en: 'C description' },
        sitelinks: { enwiki: { title: 'Taken', badges: [] } } };
      const results = await Promise.allSettled([
        store.applyEdit({ entity: { ...a, labels: { en: 'one' } }, previous: readA, meta: META, checks: {} }),
        store.applyEdit({ entity: c, previous: null, meta: META, checks: {} }),
        store.applyEdit({ entity: { ...a, labels: { en: 'two' } }, previous: readA, meta: META, checks: {} }),
        store.applyEdit({ entity: { ...b, labels: { en: 'bee' } }, previous: readB, meta: META, checks: {} }),
      ]);
      const [one, created, two, bee] = results;
      assert.equal(created.status === 'rejected' && created.reason instanceof PolicyViolation, true);
      // Both edits of A start from the same head: exactly one wins, the other is a conflict.
      const editsOfA = [one, two];
      assert.equal(editsOfA.filter((r) => r.status === 'fulfilled').length, 1);
      assert.equal(editsOfA.filter((r) => r.status === 'rejected' && r.reason instanceof EditConflict).length, 1);
      assert.equal(bee.status, 'fulfilled');
      const afterA = await store.readEntity(a.id);
      assert.equal(afterA.status === 'found' && afterA.entity.labels.en, one.status === 'fulfilled' ? 'one' : 'two');
      assert.equal((await store.revisions(a.id, 10)).length, 2);
      assert.equal((await store.revisions(b.id, 10)).length, 2);
      assert.equal((await store.readEntity(cId)).status, 'missing');
      assert.deepEqual(await store.revisions(cId, 10), []);
      assert.equal(await store.findViolation({ ...c, id: 'Q0' }, { labelDescriptionLanguages: ['en'] }), null);
      await store.close();
    });

    it('enforces one item per sitelink inside the transaction', async () => {
      const store = await open();
      const a = await create(store, { ...emptyEntity('', 'item'), sitelinks: { enwiki: { title: 'Page', badges: [] } } });
      const id = await store.allocateId('item');
      const b = { ...emptyEntity(id, 'item'), sitelinks: { enwiki: { title: 'Page', badges: [] } } };
      await assert.rejects(store.applyEdit({ entity: b, previous: null, meta: META, checks: { sitelinkSites: ['enwiki'] } }),
        (e: unknown) => e instanceof PolicyViolation && e.detail.conflictingId === a.id);
      // Even when the caller forgets to ask for the check, the store's constraint holds.
      await assert.rejects(store.applyEdit({ entity: b, previous: null, meta: META, checks: {} }), PolicyViolation);
      assert.equal((await store.readEntity(id)).status, 'missing');
      await store.close();
    });

    it('finds label+description and property-label duplicates', async () => {
      const store = await open();
      const a = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'L' }, descriptions: { en: 'D' } });
      const probe = { ...emptyEntity('Q0', 'item'), labels: { en: 'L' }, descriptions: { en: 'D' } };
      assert.deepEqual(await store.findViolation(probe, { labelDescriptionLanguages: ['en'] }),
        { violation: 'item-label-description-duplicate', language: 'en', conflictingId: a.id });
      assert.equal(await store.findViolation(probe, { labelDescriptionLanguages: ['de'] }), null);
      const p = await create(store, { ...emptyEntity('', 'property', 'string'), labels: { en: 'name' } });
      const probeP = { ...emptyEntity('P0', 'property', 'string'), labels: { en: 'name' } };
      assert.deepEqual(await store.findViolation(probeP, { propertyLabelLanguages: ['en'] }),
        { violation: 'property-label-duplicate', language: 'en', conflictingId: p.id });
      await store.close();
    });


    it('turns an item into a redirect that frees its sitelinks and statement ids', async () => {
      const store = await open();
      const target = await create(store, emptyEntity('', 'item'));
      const source = await create(store, { ...emptyEntity('', 'item'), sitelinks: { dewiki: { title: 'Merged', badges: [] } } });
      await store.redirectEntity(source.id, target.id, META);
      assert.deepEqual(await store.readEntity(source.id), { status: 'redirect', target: target.id });
      const probe = { ...emptyEntity('Q0', 'item'), sitelinks: { dewiki: { title: 'Merged', badges: [] } } };
      assert.equal(await store.findViolation(probe, { sitelinkSites: ['dewiki'] }), null);
      await assert.rejects(store.redirectEntity('Q424242', 'Q99999999', META));
      await store.close();
    });

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

    it('bulk-imports entities with their ids and raises the id counters past them', async () => {
      const store = await open();
      await store.importEntities([
        { ...emptyEntity('Q500', 'item'), labels: { en: 'imported' } },
        emptyEntity('P70', 'property', 'string'),
      ], META);
      const read = await store.readEntity('Q500');
      assert.equal(read.status === 'found' && read.entity.labels.en, 'imported');
      assert.ok(Number((await store.allocateId('item')).slice(1)) > 500);
      assert.ok(Number((await store.allocateId('property')).slice(1)) > 70);
      assert.deepEqual([...(await store.lookupEntities(['Q500', 'P70', 'Q1'])).entries()].sort(), [['P70', 'string'], ['Q500', null]]);
      await store.close();
    });

    it('bulk-imports index rows: statements and sitelinks found, a taken sitelink refused with nothing written', async () => {
      // Ids and titles no other test of the suite uses: the PostgreSQL run shares one schema between tests.
      const store = await open();
      const sid = 'Q9601$5F0A1C4E-6D1B-4E8A-9C1D-2B3A4C5D6E7F';
      const statement = { id: sid, rank: 'normal' as const, qualifiers: [], references: [],
        property: { id: 'P1', 'data-type': 'string' }, value: { type: 'value' as const, content: 'x' } };
      const linked = (id: string) => ({ ...emptyEntity(id, 'item'), sitelinks: { enwiki: { title: 'Bulk page', badges: [] } } });
      await store.importEntities([{ ...linked('Q9601'), statements: { P1: [statement] } }], META);
      const read = await store.readEntity('Q9601');
      assert.equal(read.status === 'found' && read.entity.statements.P1[0].id, sid);
      await assert.rejects(store.importEntities([emptyEntity('Q9602', 'item'), linked('Q9603')], META),
        (e: unknown) => e instanceof PolicyViolation && e.detail.violation === 'sitelink-conflict'
          && e.detail.conflictingId === 'Q9601');
      assert.equal((await store.readEntity('Q9602')).status, 'missing');
      await store.close();
    });

    it('reads the newest revision after an edit or an import, however often the older one was read', async () => {
      const store = await open();
      const item = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'one' } });
      const first = await store.readEntity(item.id);
      assert.equal((await store.readEntity(item.id)).status, 'found');
      if (first.status !== 'found') return;
      await store.applyEdit({ entity: { ...item, labels: { en: 'two' } }, previous: first, meta: META, checks: {} });
      const second = await store.readEntity(item.id);
      assert.equal(second.status === 'found' && second.entity.labels.en, 'two');
      await store.importEntities([{ ...item, labels: { en: 'three' } }], META);
      const third = await store.readEntity(item.id);
      assert.equal(third.status === 'found' && third.entity.labels.en, 'three');
      assert.equal(first.entity.labels.en, 'one'); // what a reader already holds does not change under it
      await store.close();
    });

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

    it('keeps an import\'s bookkeeping in the batch\'s transaction: source revisions, local edits, checkpoints', async () => {
      const store = await open();
      const base = 800_000_000 + Math.floor(Math.random() * 1_000_000);
      const [a, b] = [`Q${base}`, `Q${base + 1}`];
      const item = (id: string, title: string): Entity => ({ ...emptyEntity(id, 'item'), sitelinks: { enwiki: { title, badges: [] } } });
      await store.importEntities([item(a, `Page ${base}`), item(b, `Other ${base}`)], { ...META, user: 'import' },
        { sourceRevisions: [[a, 101], [b, 102]], checkpoint: { key: `import:test:${base}`, value: '{"line":2}' } });
      let states = await store.importStates([a, b, 'Q1999999999']);
      assert.equal(states.size, 2);
      const stateA = states.get(a)!;
      assert.equal(stateA.sourceRevision, 101);
      assert.equal(stateA.importedAs, stateA.head, 'not edited since the import');
      assert.equal(await store.importCheckpoint(`import:test:${base}`), '{"line":2}');
      // A local edit moves the head away from what the import wrote.
      const read = await store.readEntity(a, 'edit');
      assert.equal(read.status, 'found');
      if (read.status !== 'found') return;
      await store.applyEdit({ entity: { ...read.entity, labels: { en: 'edited here' } }, previous: read, meta: META, checks: {} });
      states = await store.importStates([a]);
      assert.notEqual(states.get(a)!.head, states.get(a)!.importedAs);
      const owners = await store.sitelinkOwners([['enwiki', `Page ${base}`], ['enwiki', `Nobody ${base}`]]);
      assert.deepEqual([...owners], [[`enwiki\u0000Page ${base}`, a]]);
      await store.clearImportCheckpoint(`import:test:${base}`);
      assert.equal(await store.importCheckpoint(`import:test:${base}`), null);
      await store.close();
    });

    accountsContract(open);
  });
}
