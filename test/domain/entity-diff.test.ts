// The difference between two revisions (src/domain/entity-diff.ts), as the history's diff page shows it: only
// what changed, part by part, each side as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type Statement } from '../../src/domain/entity.js';
import { diffEntities, undoRevision } from '../../src/domain/entity-diff.js';

const item = (parts: Partial<Entity>): Entity => ({ ...emptyEntity('Q1', 'item'), ...parts });
const statement = (id: string, property: string, content: unknown, extra: Partial<Statement> = {}): Statement => ({
  id, rank: 'normal', property: { id: property, 'data-type': 'string' }, value: { type: 'value', content },
  qualifiers: [], references: [], ...extra,
});

describe('diff of two revisions', () => {
  it('names each changed term, statement and sitelink with both sides, and leaves out what stayed', () => {
    const kept = statement('Q1$a', 'P1', 'kept');
    const changed = statement('Q1$b', 'P1', 'old');
    const before = item({
      labels: { en: 'one', de: 'eins' }, descriptions: { en: 'a number' }, aliases: { en: ['1'], fr: ['un'] },
      statements: { P1: [kept, changed], P2: [statement('Q1$c', 'P2', 'removed')] },
      sitelinks: { enwiki: { title: 'One', badges: [] }, dewiki: { title: 'Eins', badges: [] } },
    });
    const qualified = { ...changed, qualifiers: [statement('', 'P3', 'note')].map(({ property, value }) => ({ property, value })) };
    const after = item({
      labels: { en: 'one', fr: 'un' }, descriptions: { en: 'the number one' }, aliases: { en: ['1', 'I'], fr: ['un'] },
      statements: { P1: [kept, qualified, statement('Q1$d', 'P1', 'added')] },
      sitelinks: { enwiki: { title: 'One', badges: ['Q17437796'] }, dewiki: { title: 'Eins', badges: [] } },
    });
    const rows = diffEntities(before, after);
    assert.deepEqual(rows.map((r) => [r.part, 'language' in r ? r.language : 'site' in r ? r.site : r.id,
      r.before === undefined ? 'added' : r.after === undefined ? 'removed' : 'changed']), [
      ['label', 'de', 'removed'], ['label', 'fr', 'added'],
      ['description', 'en', 'changed'],
      ['aliases', 'en', 'changed'],
      ['statement', 'Q1$b', 'changed'], ['statement', 'Q1$d', 'added'], ['statement', 'Q1$c', 'removed'],
      ['sitelink', 'enwiki', 'changed'],
    ]);
    const description = rows.find((r) => r.part === 'description')!;
    assert.deepEqual([description.before, description.after], ['a number', 'the number one']);
    const qualifierChange = rows.find((r) => r.part === 'statement' && r.id === 'Q1$b')!;
    assert.deepEqual([qualifierChange.before, qualifierChange.after], [changed, qualified]);
  });

  it('is empty for the same content, and lists everything against an empty entity', () => {
    const entity = item({ labels: { en: 'x' }, statements: { P1: [statement('Q1$a', 'P1', 'v')] } });
    assert.deepEqual(diffEntities(entity, structuredClone(entity)), []);
    assert.deepEqual(diffEntities(item({}), entity).map((r) => r.part), ['label', 'statement']);
  });
});

describe('undo of one revision', () => {
  const a = statement('Q1$a', 'P1', 'a');
  const b = statement('Q1$b', 'P1', 'b');
  it('puts back each part the revision changed, where it is still as the revision left it', () => {
    const before = item({ labels: { en: 'one' }, statements: { P1: [a, b] }, sitelinks: { enwiki: { title: 'One', badges: [] } } });
    const after = item({ labels: { en: 'uno' }, statements: { P1: [a] }, sitelinks: {} });
    const now = item({ labels: { en: 'uno', de: 'eins' }, statements: { P1: [a, statement('Q1$c', 'P1', 'c')] }, sitelinks: {} });
    const undone = undoRevision(now, before, after);
    assert.ok('entity' in undone);
    assert.deepEqual(undone.entity.labels, { en: 'one', de: 'eins' });
    assert.deepEqual(undone.entity.statements.P1.map((s) => s.id), ['Q1$a', 'Q1$c', 'Q1$b'], 'a removed statement comes back at the end');
    assert.deepEqual(undone.entity.sitelinks, { enwiki: { title: 'One', badges: [] } });
  });

  it('names the parts changed since, and undoes nothing', () => {
    const before = item({ labels: { en: 'one' }, statements: { P1: [a] } });
    const after = item({ labels: { en: 'uno' }, statements: { P1: [{ ...a, rank: 'preferred' }] } });
    const now = item({ labels: { en: 'un' }, statements: { P1: [{ ...a, rank: 'preferred' }] } });
    const undone = undoRevision(now, before, after);
    assert.ok('conflicts' in undone);
    assert.deepEqual(undone.conflicts.map((r) => r.part), ['label']);
  });

  it('removes a group left empty by taking a statement back', () => {
    const after = item({ statements: { P1: [a] } });
    const undone = undoRevision(after, item({}), after);
    assert.ok('entity' in undone);
    assert.deepEqual(undone.entity.statements, {});
  });
});

