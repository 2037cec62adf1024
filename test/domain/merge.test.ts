// Merging items by Wikibase's rules (src/domain/merge.ts): what moves, what becomes an alias, what conflicts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type Statement } from '../../src/domain/entity.js';
import { isEntiaError } from '../../src/domain/errors.js';
import { isEmptyEntity, mergeItems } from '../../src/domain/merge.js';

const item = (id: string, parts: Partial<Entity>): Entity => ({ ...emptyEntity(id, 'item'), ...parts });
const statement = (id: string, content: unknown, extra: Partial<Statement> = {}): Statement => ({
  id, rank: 'normal', property: { id: 'P1', 'data-type': 'string' }, value: { type: 'value', content },
  qualifiers: [], references: [], ...extra,
});
const reference = (hash: string, url: string) => ({ hash, parts: [{ property: { id: 'P2', 'data-type': 'url' }, value: { type: 'value' as const, content: url } }] });

function conflictOf(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    if (isEntiaError(e)) return { code: e.code, context: e.context };
    throw e;
  }
  return null;
}

describe('merging one item into another', () => {
  it('moves terms: a label the target has otherwise becomes its alias, aliases join without repeats', () => {
    const source = item('Q1', { labels: { en: 'Berlin', de: 'Berlin' }, descriptions: { fr: 'ville' }, aliases: { en: ['Berlin city', 'B'] } });
    const target = item('Q2', { labels: { en: 'Berlin (city)' }, descriptions: { en: 'capital' }, aliases: { en: ['B'] } });
    const { source: left, target: merged } = mergeItems(source, target);
    assert.deepEqual(merged.labels, { en: 'Berlin (city)', de: 'Berlin' });
    assert.deepEqual(merged.descriptions, { en: 'capital', fr: 'ville' });
    assert.deepEqual(merged.aliases, { en: ['B', 'Berlin', 'Berlin city'] });
    assert.ok(isEmptyEntity(left));
    assert.deepEqual(target.labels, { en: 'Berlin (city)' }, 'the inputs are left as they were');
  });

  it('stops at a different description or sitelink unless that conflict is ignored, which leaves it on the source', () => {
    const source = item('Q1', { descriptions: { en: 'a river' }, sitelinks: { enwiki: { title: 'Spree', badges: [] }, dewiki: { title: 'Spree', badges: ['Q17437796'] } } });
    const target = item('Q2', { descriptions: { en: 'a city' }, sitelinks: { enwiki: { title: 'Spree (river)', badges: [] }, dewiki: { title: 'Spree', badges: ['Q17437798'] } } });
    assert.deepEqual(conflictOf(() => mergeItems(source, target)),
      { code: 'merge-conflict', context: { conflict: 'description', conflict_context: { language: 'en', source: 'a river', target: 'a city' } } });
    assert.deepEqual(conflictOf(() => mergeItems(source, target, new Set(['description']))),
      { code: 'merge-conflict', context: { conflict: 'sitelink', conflict_context: { site_id: 'enwiki', source: 'Spree', target: 'Spree (river)' } } });
    const { source: left, target: merged } = mergeItems(source, target, new Set(['description', 'sitelink']));
    assert.deepEqual(left.descriptions, { en: 'a river' });
    assert.deepEqual(left.sitelinks, { enwiki: { title: 'Spree', badges: [] } });
    assert.ok(!isEmptyEntity(left));
    assert.deepEqual(merged.sitelinks!.dewiki, { title: 'Spree', badges: ['Q17437798', 'Q17437796'] }, 'same title: badges merged');
  });

  it('moves statements under new ids; an equivalent one gives the target only the references it lacks', () => {
    const source = item('Q1', { statements: { P1: [
      statement('Q1$11111111-1111-1111-1111-111111111111', 'x', { references: [reference('r1', 'https://a'), reference('r2', 'https://b')] }),
      statement('Q1$22222222-2222-2222-2222-222222222222', 'y'),
    ] } });
    const target = item('Q2', { statements: { P1: [statement('Q2$33333333-3333-3333-3333-333333333333', 'x', { references: [reference('r1', 'https://a')] })] } });
    const { target: merged } = mergeItems(source, target);
    const group = merged.statements.P1;
    assert.equal(group.length, 2);
    assert.deepEqual(group[0].references.map((r) => r.hash), ['r1', 'r2']);
    assert.equal(group[0].id, 'Q2$33333333-3333-3333-3333-333333333333');
    assert.match(group[1].id, /^Q2\$[0-9A-F-]{36}$/);
    assert.equal(group[1].value.type === 'value' && group[1].value.content, 'y');
  });

  it('refuses items that link to each other, unless statement conflicts are ignored', () => {
    const source = item('Q1', { statements: { P1: [statement('Q1$11111111-1111-1111-1111-111111111111', 'Q2')] } });
    assert.deepEqual(conflictOf(() => mergeItems(source, item('Q2', {}))),
      { code: 'merge-conflict', context: { conflict: 'statement-link', conflict_context: { property_id: 'P1', linked_id: 'Q2' } } });
    assert.equal(mergeItems(source, item('Q2', {}), new Set(['statement'])).target.statements.P1.length, 1);
    assert.deepEqual(conflictOf(() => mergeItems(source, source)), { code: 'merge-into-self', context: undefined });
  });
});
