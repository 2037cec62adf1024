// Store contract, Entities: ids, edits with their revision, reads, the policy lookups, redirects (EntityStore).
// Run unchanged against every backend by ../contract.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity } from '../../../src/domain/entity.js';
import { EditConflict, PolicyViolation, type Store } from '../../../src/store/store.js';
import { create, META } from './helpers.js';

export function entitiesContract(open: () => Promise<Store>): void {
  describe('entities', () => {
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

    it('answers many single reads made at once each with its own entity, as when they come one by one', async () => {
      // PostgreSQL sends the single reads of one turn as one query (ADR 0002): each must get its own answer back.
      const store = await open();
      const items = [];
      for (let i = 0; i < 12; i++) items.push(await create(store, { ...emptyEntity('', 'item'), labels: { en: `item ${i}` } }));
      const [gone, target] = items.slice(-2);
      await store.redirectEntity(gone.id, target.id, META);
      const read = await store.readEntity(items[0].id);
      assert.ok(read.status === 'found');
      const edited = { ...items[0], labels: { en: 'edited' } };
      await store.applyEdit({ entity: edited, previous: read, meta: META, checks: {} });
      const asked = [...items.map((item) => item.id), 'Q999999', items[3].id, items[0].id, gone.id];
      const oneByOne = [];
      for (const id of asked) oneByOne.push(await store.readDocument(id));
      const atOnce = await Promise.all(asked.map((id) => store.readDocument(id)));
      const shown = (read: Awaited<ReturnType<Store['readDocument']>>) =>
        read.status === 'found' ? { head: read.head, json: read.json() } : read;
      assert.deepEqual(atOnce.map(shown), oneByOne.map(shown));
      assert.equal(JSON.parse((atOnce[0] as { json(): string }).json()).labels.en, 'edited');
      assert.deepEqual(atOnce[asked.indexOf('Q999999')], { status: 'missing' });
      assert.deepEqual(atOnce.at(-1), { status: 'redirect', target: target.id });
      // And again, each entity's document now held by the process: only heads travel.
      const again = await Promise.all(asked.map((id) => store.readEntity(id)));
      assert.deepEqual(again.map((r) => (r.status === 'found' ? r.entity.labels.en : r.status)),
        [...items.slice(0, 10).map((item, i) => (i === 0 ? 'edited' : item.labels.en)), 'redirect', 'item 11', 'missing', 'item 3', 'edited', 'redirect']);
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

    it('names the newest committed change, which the feed hands out once nothing older is running', async () => {
      const store = await open();
      const item = await create(store, emptyEntity('', 'item'));
      const committed = await store.changesCommitted();
      // Nothing else writes to this store, so the change is its last; PostgreSQL hands it out once the
      // transactions of other tests on the same server that began before it have ended.
      let all = await store.changes({ since: null, limit: 10_000 });
      for (let i = 0; i < 100 && all.at(-1)?.cursor !== committed; i++) {
        await new Promise((r) => setTimeout(r, 100));
        all = await store.changes({ since: null, limit: 10_000 });
      }
      assert.equal(all.at(-1)!.cursor, committed);
      assert.equal(all.at(-1)!.entity, item.id);
      assert.deepEqual(await store.changes({ since: committed, limit: 10 }), []);
      await store.close();
    });

    it('gives each change the revision of its entity before it, null for a creation', async () => {
      const store = await open();
      const item = await create(store, emptyEntity('', 'item'));
      const [created] = await store.revisions(item.id, 1);
      const read = await store.readEntity(item.id);
      assert.ok(read.status === 'found');
      await store.applyEdit({ entity: { ...item, labels: { en: 'two' } }, previous: read, meta: META, checks: {} });
      const [edited] = await store.revisions(item.id, 1);
      let feed = await store.changes({ since: null, limit: 10_000, entities: [item.id] });
      for (let i = 0; i < 100 && feed.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        feed = await store.changes({ since: null, limit: 10_000, entities: [item.id] });
      }
      assert.deepEqual(feed.map((c) => [c.type, c.revision, c.previous]),
        [['create', created.revision, null], ['edit', edited.revision, created.revision]]);
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
      // Exports list redirects apart from entities: the source is in one list, not the other (the store may hold
      // other tests' redirects), and paging goes on after the id given.
      const redirects = await store.redirects(null, 1000);
      assert.deepEqual(redirects.filter((r) => r.id === source.id), [{ id: source.id, target: target.id }]);
      assert.ok(!(await store.redirects(source.id, 1000)).some((r) => r.id === source.id));
      const ids = new Set(await store.entityIds(null, 10_000));
      assert.ok(redirects.every((r) => !ids.has(r.id)));
      await store.close();
    });

    it('writes both halves of a merge or neither: the source a redirect, its sitelink free for the target', async () => {
      const store = await open();
      const link = { dewiki: { title: 'Merge contract', badges: [] } };
      const source = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'from' }, sitelinks: link });
      const target = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'to' } });
      const read = async (id: string) => {
        const r = await store.readEntity(id);
        assert.equal(r.status, 'found');
        return r as { entity: typeof source; head: { revision: number; modified: Date } };
      };
      const [from, to] = [await read(source.id), await read(target.id)];
      const merged = { ...to.entity, labels: { en: 'to' }, aliases: { en: ['from'] }, sitelinks: link };
      const merge = (previousTarget: typeof to) => store.applyMerge({
        source: { entity: emptyEntity(source.id, 'item'), previous: from, meta: { ...META, action: 'redirect' }, checks: {}, redirect: true },
        target: { entity: merged, previous: previousTarget, meta: META, checks: { sitelinkSites: ['dewiki'] } },
      });
      // The target moved since it was read: nothing of the merge is written.
      const edited = { ...to.entity, descriptions: { en: 'edited meanwhile' } };
      await store.applyEdit({ entity: edited, previous: to, meta: META, checks: {} });
      await assert.rejects(merge(to), EditConflict);
      assert.deepEqual((await read(source.id)).entity, source);
      assert.equal((await store.revisions(source.id, 10)).length, 1);
      const heads = await merge(await read(target.id));
      assert.deepEqual(await store.readEntity(source.id), { status: 'redirect', target: target.id });
      const now = await read(target.id);
      assert.deepEqual(now.entity.sitelinks, link);
      assert.equal(now.head.revision, heads.target.revision);
      assert.equal((await store.revisions(source.id, 10))[0].revision, heads.source.revision);
      // PostgreSQL hands a change out once the transactions begun before it have ended (other tests' too).
      const lastTwo = async () => (await store.changes({ since: null, limit: 10_000, entities: [source.id, target.id] }))
        .slice(-2).map((c) => [c.entity, c.type]);
      const expected = [[source.id, 'redirect'], [target.id, 'edit']];
      let feed = await lastTwo();
      for (let i = 0; i < 100 && JSON.stringify(feed) !== JSON.stringify(expected); i++) {
        await new Promise((r) => setTimeout(r, 100));
        feed = await lastTwo();
      }
      assert.deepEqual(feed, expected);
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

    it('reads a revision just written as it was written, and tells watchers of each commit, not of a refused edit', async () => {
      const store = await open();
      let heard = 0;
      const stop = store.watchCommits(() => heard++);
      const item = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'one' } });
      const target = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'target' } });
      const first = await store.readEntity(item.id);
      assert.ok(first.status === 'found');
      const edited = { ...item, labels: { en: 'two' }, descriptions: { fr: 'deux' } };
      const head = await store.applyEdit({ entity: edited, previous: first, meta: META, checks: {} });
      assert.equal(heard, 3);
      const content = await store.readRevision(item.id, head.revision);
      assert.deepEqual(content, { kind: 'entity', entity: edited, head });
      const read = await store.readEntity(item.id);
      assert.deepEqual(read.status === 'found' && [read.entity, read.head], [edited, head]);
      assert.deepEqual(await store.readRevision(item.id, first.head.revision), { kind: 'entity', entity: item, head: first.head });
      assert.equal(await store.revisionBefore(item.id, head.revision), first.head.revision);
      assert.equal(await store.revisionBefore(item.id, first.head.revision), null);
      await assert.rejects(store.applyEdit({ entity: { ...item, labels: { en: 'stale' } }, previous: first, meta: META, checks: {} }), EditConflict);
      assert.equal(heard, 3, 'a refused edit commits nothing');
      await store.redirectEntity(item.id, target.id, META);
      assert.equal(heard, 4);
      stop();
      await create(store, { ...emptyEntity('', 'item'), labels: { en: 'unheard' } });
      assert.equal(heard, 4);
      await store.close();
    });

    it('gives a revision it just wrote with the entity the edit started from, sharing what the edit left alone', async () => {
      const store = await open();
      const item = await create(store, { ...emptyEntity('', 'item'), labels: { en: 'one' }, descriptions: { en: 'kept' } });
      const first = await store.readEntity(item.id);
      assert.ok(first.status === 'found');
      const created = store.writtenRevision(item.id, first.head.revision);
      assert.equal(created?.base, null, 'a creation starts from nothing');
      const edited = { ...first.entity, labels: { en: 'two' } };
      const head = await store.applyEdit({ entity: edited, previous: first, meta: META, checks: {} });
      const written = store.writtenRevision(item.id, head.revision);
      assert.ok(written);
      assert.deepEqual([written.entity, written.head], [edited, head]);
      assert.deepEqual(written.base?.head, first.head, 'the revision it started from, and its time');
      assert.equal(written.base?.entity, first.entity, 'the entity the edit read, the same object');
      assert.equal(written.entity.descriptions, written.base?.entity.descriptions, 'what the edit left alone is shared');
      assert.notEqual(written.entity.labels, written.base?.entity.labels);
      assert.equal(store.writtenRevision(item.id, head.revision + 1000), undefined, 'a revision this process did not write');
      await store.close();
    });
  });
}
