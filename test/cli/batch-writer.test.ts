// entia import hands batches over without waiting for each to be written (src/cli/import.ts BatchWriter), but
// never two at once, and nothing after a batch that failed.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { emptyEntity, type Entity } from '../../src/domain/entity.js';
import { BatchWriter } from '../../src/cli/import.js';

const batch = (id: string): Entity[] => [emptyEntity(id, 'item')];

it('returns before a batch is written, and starts the next one only once it is', async () => {
  const log: string[] = [];
  const pending: (() => void)[] = [];
  const writer = new BatchWriter((b) => {
    log.push(`start ${b[0].id}`);
    return new Promise((resolve) => pending.push(() => { log.push(`done ${b[0].id}`); resolve(); }));
  });
  await writer.add(batch('Q1'));
  assert.deepEqual(log, ['start Q1']); // handed over, not yet written
  const second = writer.add(batch('Q2'));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log, ['start Q1']); // Q2 waits for Q1
  pending.shift()!();
  await second;
  pending.shift()!();
  await writer.finish();
  assert.deepEqual(log, ['start Q1', 'done Q1', 'start Q2', 'done Q2']);
});

it('stops at the first batch that fails: the next add() rejects and writes nothing', async () => {
  const written: string[] = [];
  const writer = new BatchWriter(async (b) => {
    if (b[0].id === 'Q2') throw new Error('taken');
    written.push(b[0].id);
  });
  await writer.add(batch('Q1'));
  await writer.add(batch('Q2'));
  await assert.rejects(writer.add(batch('Q3')), /taken/);
  await assert.rejects(writer.finish(), /taken/);
  assert.deepEqual(written, ['Q1']);
});
