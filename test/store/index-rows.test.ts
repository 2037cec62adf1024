// Index-row diffs (src/store/index-rows.ts): skipping the parts an edit shares with the entity before it
// must give the same rows as comparing everything.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type Statement } from '../../src/domain/entity.js';
import { diffIndexRows, diffSearchRows, type SearchRow } from '../../src/store/index-rows.js';

const statement = (id: string, property = 'P1'): Statement => ({
  id, rank: 'normal', qualifiers: [], references: [], property: { id: property, 'data-type': 'string' },
  value: { type: 'value', content: id },
});

const before: Entity = {
  ...emptyEntity('Q1', 'item'),
  labels: { en: 'one', de: 'eins' },
  descriptions: { en: 'number' },
  aliases: { en: ['1', 'I'] },
  statements: { P1: [statement('Q1$A')], P2: [statement('Q1$B', 'P2'), statement('Q1$C', 'P2')] },
  sitelinks: { enwiki: { title: 'One', badges: [] } },
};

/** The diff with nothing shared: every part compared. */
const fullDiff = (a: Entity, b: Entity) => diffIndexRows(structuredClone(a), structuredClone(b));

const edits: Record<string, Entity> = {
  'a statement added to a group': { ...before, statements: { ...before.statements, P1: [...before.statements.P1, statement('Q1$D')] } },
  'a group removed': { ...before, statements: { P1: before.statements.P1 } },
  'a label changed': { ...before, labels: { ...before.labels, en: 'uno' } },
  'an alias added': { ...before, aliases: { en: [...before.aliases.en, 'i'] } },
  'a sitelink replaced': { ...before, sitelinks: { dewiki: { title: 'Eins', badges: [] } } },
  'an alias list replaced, a label added': { ...before, labels: { ...before.labels, fr: 'un' }, aliases: { en: ['1'] } },
  'a statement added that changes the rank': { ...before, statements: { ...before.statements, P3: [statement('Q1$E', 'P3')] } },
  'everything rebuilt, nothing shared': { ...structuredClone(before), labels: { en: 'one' } },
};

describe('index-row diff', () => {
  for (const [name, after] of Object.entries(edits)) {
    it(`matches the full comparison: ${name}`, () => {
      assert.deepEqual(diffIndexRows(before, after), fullDiff(before, after));
    });
  }

  for (const [name, after] of Object.entries(edits)) {
    it(`gives the search rows of the full comparison: ${name}`, () => {
      const key = (r: SearchRow) => JSON.stringify(r);
      const all = (e: Entity) => new Map(diffSearchRows(null, e).added.map((r) => [key(r), r]));
      const [a, b] = [all(before), all(after)];
      const d = diffSearchRows(before, after);
      assert.deepEqual(d.removed.map(key).sort(), [...a.keys()].filter((k) => !b.has(k)).sort());
      assert.deepEqual(d.added.map(key).sort(), [...b.keys()].filter((k) => !a.has(k)).sort());
    });
  }

  it('adds every row of a new entity', () => {
    const d = diffIndexRows(null, before);
    assert.equal(d.terms.added.length, 5);
    assert.deepEqual(d.sitelinks.added, [{ site: 'enwiki', title: 'One' }]);
  });
});
