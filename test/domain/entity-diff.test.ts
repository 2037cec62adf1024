// The difference between two revisions (src/domain/entity-diff.ts), as the history's diff page shows it: only
// what changed, part by part, each side as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type Statement } from '../../src/domain/entity.js';
import { diffEntities } from '../../src/domain/entity-diff.js';

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
