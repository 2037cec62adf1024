// The keys of the statement-value index: what a client's value text means, and what a stored value is found under.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { canonicalAmount, statementValueKeys, valueKeyOf } from '../../src/domain/statement-values.js';

it('compares amounts as numbers: sign, leading and trailing zeros do not matter', () => {
  for (const [a, b] of [['+1.80', '1.8'], ['+00012.000', '12'], ['-0.0', '0'], ['10.50', '10.5']]) {
    assert.equal(canonicalAmount(a), canonicalAmount(b), `${a} ~ ${b}`);
  }
  assert.notEqual(canonicalAmount('-3'), canonicalAmount('3'));
  for (const bad of ['abc', '', '.', '+', '1e3']) assert.equal(canonicalAmount(bad), null, bad);
});

it('reads a date at its precision, item ids in any case, * as any value', () => {
  assert.equal(valueKeyOf('1952', 'time'), '+1952-00-00T00:00:00Z');
  assert.equal(valueKeyOf('1952-03', 'time'), '+1952-03-00T00:00:00Z');
  assert.equal(valueKeyOf('-0500-01-02', 'time'), '-0500-01-02T00:00:00Z');
  assert.equal(valueKeyOf('52', 'time'), null, 'a year has at least four digits');
  assert.equal(valueKeyOf('q5', 'wikibase-item'), 'Q5');
  assert.equal(valueKeyOf('*', 'string'), '');
  assert.equal(valueKeyOf('x'.repeat(401), 'string'), null);
});

it('finds a statement under its value and its property, a deprecated one under neither', () => {
  const statement = (content: unknown, rank: 'normal' | 'deprecated' = 'normal') => ({ id: 'Q1$x', rank, qualifiers: [], references: [],
    property: { id: 'P1', 'data-type': 'string' }, value: { type: 'value' as const, content } });
  assert.deepEqual(statementValueKeys({ statements: { P1: [statement('a'), statement('a'), statement('b')] } }),
    [{ property: 'P1', key: '' }, { property: 'P1', key: 'a' }, { property: 'P1', key: 'b' }]);
  assert.deepEqual(statementValueKeys({ statements: { P1: [statement('a', 'deprecated')] } }), []);
});
