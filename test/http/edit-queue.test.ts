// Edits of one entity take turns within a process (src/http/write/turns.ts); edits of different entities don't wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EditQueue, editedEntity } from '../../src/http/write/turns.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('tasks of one entity run one at a time, in arrival order, failures included', async () => {
  const queue = new EditQueue();
  const log: string[] = [];
  let running = 0;
  const task = (name: string, fail = false) => queue.run('Q1', async () => {
    running++;
    assert.equal(running, 1, `${name} overlapped another edit of Q1`);
    log.push(`start ${name}`);
    await tick();
    await tick();
    log.push(`end ${name}`);
    running--;
    if (fail) throw new Error(name);
    return name;
  });
  const results = await Promise.allSettled([task('a'), task('b', true), task('c')]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});

test('tasks of different entities run side by side', async () => {
  const queue = new EditQueue();
  let release!: () => void;
  const blocked = queue.run('Q1', () => new Promise<void>((resolve) => { release = resolve; }));
  assert.equal(await queue.run('Q2', async () => 'not waiting for Q1'), 'not waiting for Q1');
  release();
  await blocked;
});

test('the edited entity comes from the path: entity ids and statement subjects, case-insensitively', () => {
  assert.equal(editedEntity({ item_id: 'q42' }), 'Q42');
  assert.equal(editedEntity({ property_id: 'P31', statement_id: 'P31$abc' }), 'P31');
  assert.equal(editedEntity({ statement_id: 'q42$5627445f-43cb-ed6d-3adb-760e85bd17ee' }), 'Q42');
  assert.equal(editedEntity({}), null);
});

test('an entity counts as contended for a moment after one of its edits lost a race', () => {
  const queue = new EditQueue();
  assert.equal(queue.isContended('Q1', 1_000), false);
  queue.lostRace('Q1', 1_000);
  assert.equal(queue.isContended('Q1', 1_001), true);
  assert.equal(queue.isContended('Q2', 1_001), false);
  assert.equal(queue.isContended('Q1', 6_001), false, 'five seconds later it is forgotten');
});
