// Reading QuickStatements batches (src/domain/quickstatements.ts): V1 and CSV as Wikidata's help page writes
// them, and each value syntax into the contract's value for the property's data type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contractValue, parseCsv, parseV1, parseValue } from '../../src/domain/quickstatements.js';

const BASE = 'http://www.wikidata.org/entity/';

describe('QuickStatements V1', () => {
  it('reads commands separated by TAB, by | or by ||, with qualifiers, sources and comments', () => {
    const lines = parseV1([
      'CREATE',
      'LAST\tLen\t"Douglas Adams"',
      'Q42|P31|Q5|P580|+1952-03-11T00:00:00Z/11|S143|Q328|!S854|"https://example.org" /* from the help page */',
      '-Q42\tP31\tQ6||MERGE\tQ9\tQ3',
      'Q42\tSenwiki\t"Douglas Adams"',
      '',
      'Q42\tP31',
    ].join('\n'));
    assert.deepEqual(lines.map((l) => [l.line, l.command.op]),
      [[1, 'create'], [2, 'term'], [3, 'statement'], [4, 'statement'], [4, 'merge'], [5, 'sitelink'], [7, 'invalid']]);
    const statement = lines[2].command;
    assert.ok(statement.op === 'statement');
    assert.deepEqual(statement.qualifiers, [{ property: 'P580', value: { kind: 'time', time: '+1952-03-11T00:00:00Z', precision: 11, julian: false } }]);
    assert.deepEqual(statement.references.map((r) => r.map((s) => s.property)), [['P143'], ['P854']]);
    assert.equal(lines[2].comment, 'from the help page');
    assert.deepEqual(lines[3].command, { op: 'statement', remove: true, entity: 'Q42', property: 'P31', value: { kind: 'entity', id: 'Q6' }, qualifiers: [], references: [] });
    assert.deepEqual(lines[4].command, { op: 'merge', from: 'Q9', into: 'Q3' }, 'the newer item goes into the older one');
  });

  it('reads every value syntax, and gives each data type its value', () => {
    const value = (raw: string, type: string) => contractValue(parseValue(raw), type, BASE, 'Q77');
    assert.deepEqual(value('Q5', 'wikibase-item'), { type: 'value', content: 'Q5' });
    assert.deepEqual(value('LAST', 'wikibase-item'), { type: 'value', content: 'Q77' });
    assert.deepEqual(value('"ABC-1"', 'external-id'), { type: 'value', content: 'ABC-1' });
    assert.deepEqual(value('en:"Douglas Adams"', 'monolingualtext'), { type: 'value', content: { text: 'Douglas Adams', language: 'en' } });
    assert.deepEqual(value('+1967-01-17T00:00:00Z/11', 'time'),
      { type: 'value', content: { time: '+1967-01-17T00:00:00Z', precision: 11, calendarmodel: `${BASE}Q1985727` } });
    assert.deepEqual(value('1840-00-00T00:00:00Z/9/J', 'time'),
      { type: 'value', content: { time: '+1840-00-00T00:00:00Z', precision: 9, calendarmodel: `${BASE}Q1985786` } });
    assert.deepEqual(value('@43.26193/10.92708', 'globe-coordinate'),
      { type: 'value', content: { latitude: 43.26193, longitude: 10.92708, precision: 0.000001, globe: `${BASE}Q2` } });
    assert.deepEqual(value('12U11573', 'quantity'), { type: 'value', content: { amount: '12', unit: `${BASE}Q11573` } });
    assert.deepEqual(value('1.2~0.35', 'quantity'), { type: 'value', content: { amount: '1.2', unit: '1', upperBound: '+1.55', lowerBound: '+0.85' } });
    assert.deepEqual(value('-0.5~1', 'quantity'), { type: 'value', content: { amount: '-0.5', unit: '1', upperBound: '+0.5', lowerBound: '-1.5' } });
    assert.deepEqual(value('somevalue', 'time'), { type: 'somevalue' });
    assert.throws(() => value('Q5', 'string'), /string property does not take this value/);
    assert.throws(() => parseValue('just words'), /not a value QuickStatements writes/);
  });
});

describe('QuickStatements CSV', () => {
  it('reads a header of columns and one row per item; an empty qid creates one', () => {
    const lines = parseCsv([
      'qid,Len,Den,P31,qal580,S143,s813,#,-P17,Senwiki',
      ',Ada Lovelace,mathematician,Q5,+1815-12-10T00:00:00Z/11,Q328,+2020-01-01T00:00:00Z/11,new person,,',
      'Q42,,,Q5,,,,,Q145,Douglas Adams',
    ].join('\n'));
    assert.deepEqual(lines.map((l) => [l.line, l.command.op]),
      [[2, 'create'], [2, 'term'], [2, 'term'], [2, 'statement'], [3, 'statement'], [3, 'statement'], [3, 'sitelink']]);
    const created = lines[3];
    assert.ok(created.command.op === 'statement');
    assert.equal(created.command.entity, 'LAST');
    assert.equal(created.command.qualifiers[0].property, 'P580');
    assert.deepEqual(created.command.references.map((r) => r.map((s) => s.property)), [['P143', 'P813']]);
    assert.equal(created.comment, 'new person');
    assert.ok(lines[5].command.op === 'statement' && lines[5].command.remove);
    assert.equal(parseCsv('id,Len\n,x')[0].command.op, 'invalid');
  });
});
