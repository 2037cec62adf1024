// What an edit changed, as the SPARQL mirror sends it to its RDF writer (src/sparql/entity-change.ts): found by
// identity, and rebuilt on the other side into the same entity, sharing what the change did not name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity } from '../../src/domain/entity.js';
import { applyEntityChange, entityChange } from '../../src/sparql/entity-change.js';

const statement = (id: string, amount: string) => ({ id, rank: 'normal', property: { id: 'P1', 'data-type': 'quantity' },
  value: { type: 'value', content: { amount, unit: '1' } }, qualifiers: [], references: [] });

const base = {
  type: 'item', id: 'Q1', labels: { en: 'one', de: 'eins' }, descriptions: { en: 'a number' }, aliases: {},
  sitelinks: { enwiki: { title: 'One', badges: [] } },
  statements: { P1: [statement('Q1$a', '+1')], P2: [statement('Q1$b', '+2')] },
} as unknown as Entity;

/** Through JSON, as the change crosses to the writer's thread. */
const across = (entity: Entity) => applyEntityChange(base, JSON.parse(JSON.stringify(entityChange(base, entity))));

describe('an entity change', () => {
  it('names only what the edit replaced, and rebuilds the entity sharing the rest', () => {
    const relabelled = { ...base, labels: { ...base.labels, en: 'One' } };
    const change = entityChange(base, relabelled);
    assert.deepEqual(change, { set: { labels: { en: 'One', de: 'eins' } }, unset: [], statements: {}, unstated: [] });
    const rebuilt = across(relabelled);
    assert.deepEqual(rebuilt, relabelled);
    assert.equal(rebuilt.statements, base.statements, 'untouched statements are the writer\'s own objects');
    assert.equal(rebuilt.descriptions, base.descriptions);
  });

  it('carries a changed property\'s statements alone, and properties and members that are gone', () => {
    const { sitelinks: _, ...withoutSitelinks } = base as Entity & { sitelinks: unknown };
    const edited = { ...withoutSitelinks, statements: { P1: [statement('Q1$a', '+5')] } } as unknown as Entity;
    const change = entityChange(base, edited);
    assert.deepEqual(Object.keys(change.statements), ['P1']);
    assert.deepEqual(change.unstated, ['P2']);
    assert.deepEqual(change.unset, ['sitelinks']);
    const rebuilt = across(edited);
    assert.deepEqual(rebuilt, edited);
    assert.equal('sitelinks' in rebuilt, false);
  });

  it('is empty for an edit that changed nothing', () => {
    assert.deepEqual(entityChange(base, { ...base }), { set: {}, unset: [], statements: {}, unstated: [] });
    assert.equal(across({ ...base }).labels, base.labels);
  });
});
