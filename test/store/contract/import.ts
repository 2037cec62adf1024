// Store contract, Bulk import: entities with their ids, their index rows, the bookkeeping of resumable imports (BulkImport).
// Run unchanged against every backend by ../contract.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity } from '../../../src/domain/entity.js';
import { PolicyViolation, type Store } from '../../../src/store/store.js';
import { META } from './helpers.js';

export function importContract(open: () => Promise<Store>): void {
  describe('import', () => {
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
  });
}
