// The source details an edit keeps (issue #33): a time value's timezone, before and after stay with the value
// while an edit leaves it as it was, and go with it when it changes or is removed.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { emptyEntity, type Entity, type Statement } from '../../src/domain/entity.js';
import { carrySourceDetails, timeKey } from '../../src/domain/source-details.js';

const time = (t: string) => ({ time: t, precision: 11, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' });
const statement = (id: string, t: string): Statement => ({ id, rank: 'normal', property: { id: 'P585', 'data-type': 'time' },
  value: { type: 'value', content: time(t) }, qualifiers: [], references: [] } as unknown as Statement);

it('keeps the details of unchanged values through an edit, drops those of a changed one, keeps the source revision', () => {
  const before: Entity = { ...emptyEntity('Q1', 'item'), statements: { P585: [statement('Q1$a', '+2001-01-01T00:00:00Z'), statement('Q1$b', '+2002-01-01T00:00:00Z')] } };
  before.source = { lastrevid: 42, modified: '2019-01-01T00:00:00Z', times: {
    [timeKey('Q1$a', 'P585', time('+2001-01-01T00:00:00Z'))]: { timezone: 120, before: 0, after: 0 },
    [timeKey('Q1$b', 'P585', time('+2002-01-01T00:00:00Z'))]: { timezone: 60, before: 0, after: 1 },
  } };
  // The edit, made on the contract's form (no source member): a new label, statement b's date changed.
  const edited: Entity = { ...emptyEntity('Q1', 'item'), labels: { en: 'x' },
    statements: { P585: [statement('Q1$a', '+2001-01-01T00:00:00Z'), statement('Q1$b', '+2003-01-01T00:00:00Z')] } };
  const next = carrySourceDetails(before, edited);
  assert.deepEqual(next.source, { lastrevid: 42, modified: '2019-01-01T00:00:00Z', times: {
    [timeKey('Q1$a', 'P585', time('+2001-01-01T00:00:00Z'))]: { timezone: 120, before: 0, after: 0 } } });
  assert.equal(carrySourceDetails(null, edited), edited, 'a creation has no source');
});
