// Statements from bodies, creation and patch results (docs/api.md §4.4, §6.2, §6.3, §10.1, §10.4).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { problemOf } from '../helpers/problems.js';
import type { Statement, StatementMap } from '../../src/domain/entity.js';
import type { Problem } from '../../src/domain/problems.js';
import {
  newStatementId, parseStatement, parseStatementId, parseStatementMap, patchedStatement, referencedIds,
  replaceStatement, type ReferenceLookup,
} from '../../src/domain/statements.js';

const DATA_TYPES: Record<string, string> = { P1: 'string', P2: 'wikibase-item', P3: 'time', P4: 'url' };
const lookup: ReferenceLookup = {
  dataTypeOf: (id) => DATA_TYPES[id],
  exists: (id) => id === 'Q1' || id === 'Q5' || id in DATA_TYPES,
};

const ID = 'Q1$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9';
const GREGORIAN = 'http://www.wikidata.org/entity/Q1985727';
const HEX40 = /^[0-9a-f]{40}$/;
const NEW_ID = /^Q1\$[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/;

const parse = (input: unknown, path = '/statement') => parseStatement(input, path, lookup, { id: ID });

const stringStatement = (content: unknown = 'potato') => ({ property: { id: 'P1' }, value: { type: 'value', content } });

describe('statement ids (docs/api.md §3)', () => {
  it('generates the subject id, a dollar and an upper-case UUID v4', () => {
    const id = newStatementId('Q1');
    assert.match(id, NEW_ID);
    assert.notEqual(newStatementId('Q1'), id);
  });

  it('parses ids, upper-casing only the entity prefix', () => {
    assert.deepEqual(parseStatementId('q1$f078e5b3-f9a8-480e-b7ac-d97778cbbef9'),
      { id: 'Q1$f078e5b3-f9a8-480e-b7ac-d97778cbbef9', subjectId: 'Q1' });
    assert.deepEqual(parseStatementId('P7${ZZZZZZZZ-F9A8-480E-B7AC-D97778CBBEF9}'),
      { id: 'P7${ZZZZZZZZ-F9A8-480E-B7AC-D97778CBBEF9}', subjectId: 'P7' });
  });

  it('refuses malformed ids', () => {
    for (const raw of ['not-a-valid-format', 'X123$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9',
      'L123$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9', 'Q1$$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9',
      'Q1%24F078E5B3-F9A8-480E-B7AC-D97778CBBEF9', 'Q1$F078E5B3F9A8480EB7ACD97778CBBEF9', 'Q0$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9']) {
      assert.equal(parseStatementId(raw), null, raw);
    }
  });
});

describe('referencedIds', () => {
  it('collects property ids and entity-id contents of a statement, upper-cased and deduplicated', () => {
    const statement = {
      property: { id: 'p2' }, value: { type: 'value', content: 'q5' },
      qualifiers: [{ property: { id: 'P3' }, value: { type: 'novalue' } }, { property: { id: 'P2' }, value: { type: 'value', content: 'Q5' } }],
      references: [{ parts: [{ property: { id: 'P4' }, value: { type: 'value', content: 'P9' } }] }],
    };
    assert.deepEqual(referencedIds(statement).sort(), ['P2', 'P3', 'P4', 'P9', 'Q5']);
  });

  it('reads statement maps', () => {
    assert.deepEqual(referencedIds({ P1: [stringStatement()], P2: [{ property: { id: 'P2' }, value: { type: 'value', content: 'Q7' } }] }).sort(),
      ['P1', 'P2', 'Q7']);
  });

  it('never throws on garbage', () => {
    for (const garbage of [null, 1, 'P1', [], [null], { P1: 'x' }, { P1: [1, null, { property: 5, qualifiers: 'x', references: [null, { parts: 7 }] }] },
      { property: null, value: [] }]) {
      assert.doesNotThrow(() => referencedIds(garbage));
    }
  });
});

describe('parseStatement', () => {
  it('fills defaults, sets data-type from the lookup, ignores data-type and unknown keys on input', () => {
    const statement = parse({ property: { id: 'p1', 'data-type': 'url' }, value: { type: 'value', content: 'potato' }, extra: 1 });
    assert.deepEqual(statement, {
      id: ID, rank: 'normal', qualifiers: [], references: [],
      property: { id: 'P1', 'data-type': 'string' }, value: { type: 'value', content: 'potato' },
    });
    assert.deepEqual(Object.keys(statement), ['id', 'rank', 'qualifiers', 'references', 'property', 'value']);
  });

  it('accepts any rank and ignores the given id', () => {
    for (const rank of ['preferred', 'normal', 'deprecated']) {
      assert.equal(parse({ ...stringStatement(), rank, id: 'Q9$whatever' }).rank, rank);
    }
  });

  it('omits content for somevalue and novalue', () => {
    for (const type of ['somevalue', 'novalue']) {
      assert.deepEqual(parse({ property: { id: 'P1' }, value: { type, content: 'ignored' } }).value, { type });
    }
  });

  it('normalises content', () => {
    const statement = parse({ property: { id: 'P3' }, value: { type: 'value', content: { time: '+1-00-00T00:00:00Z', precision: 9, calendarmodel: GREGORIAN } } });
    assert.deepEqual(statement.value, { type: 'value', content: { time: '+0001-00-00T00:00:00Z', precision: 9, calendarmodel: GREGORIAN } });
  });

  const cases: [string, unknown, Problem][] = [
    ['not an object', ['x'], { type: 'invalid', path: '/statement', value: ['x'] }],
    ['a string', 'x', { type: 'invalid', path: '/statement', value: 'x' }],
    ['non-string id', { ...stringStatement(), id: 5 }, { type: 'invalid', path: '/statement/id', value: 5 }],
    ['missing property', { value: { type: 'novalue' } }, { type: 'missing', path: '/statement', field: 'property' }],
    ['property not an object', { property: 'P1', value: { type: 'novalue' } }, { type: 'invalid', path: '/statement/property', value: 'P1' }],
    ['missing property id', { property: {}, value: { type: 'novalue' } }, { type: 'missing', path: '/statement/property', field: 'id' }],
    ['malformed property id', { property: { id: 'Q1' }, value: { type: 'novalue' } }, { type: 'invalid', path: '/statement/property/id', value: 'Q1' }],
    ['unknown property', { property: { id: 'p999' }, value: { type: 'novalue' } }, { type: 'not-found', path: '/statement/property/id', value: 'P999' }],
    ['missing value', { property: { id: 'P1' } }, { type: 'missing', path: '/statement', field: 'value' }],
    ['value not an object', { property: { id: 'P1' }, value: 'potato' }, { type: 'invalid', path: '/statement/value', value: 'potato' }],
    ['missing value type', { property: { id: 'P1' }, value: {} }, { type: 'missing', path: '/statement/value', field: 'type' }],
    ['unknown value type', { property: { id: 'P1' }, value: { type: 'other' } }, { type: 'invalid', path: '/statement/value/type', value: 'other' }],
    ['missing content', { property: { id: 'P1' }, value: { type: 'value' } }, { type: 'missing', path: '/statement/value', field: 'content' }],
    ['untrimmed string', stringStatement(' potato'), { type: 'invalid', path: '/statement/value/content', value: ' potato' }],
    ['missing item', { property: { id: 'P2' }, value: { type: 'value', content: 'Q404' } }, { type: 'not-found', path: '/statement/value/content', value: 'Q404' }],
    ['bad rank', { ...stringStatement(), rank: 'best' }, { type: 'invalid', path: '/statement/rank', value: 'best' }],
    ['qualifiers not an array', { ...stringStatement(), qualifiers: {} }, { type: 'invalid', path: '/statement/qualifiers', value: {} }],
    ['qualifier not an object', { ...stringStatement(), qualifiers: ['x'] }, { type: 'invalid', path: '/statement/qualifiers/0', value: 'x' }],
    ['unknown qualifier property', { ...stringStatement(), qualifiers: [{ property: { id: 'P404' }, value: { type: 'novalue' } }] },
      { type: 'not-found', path: '/statement/qualifiers/0/property/id', value: 'P404' }],
    ['bad qualifier content', { ...stringStatement(), qualifiers: [stringStatement(''), stringStatement('a\tb')] },
      { type: 'invalid', path: '/statement/qualifiers/0/value/content', value: '' }],
    ['references not an array', { ...stringStatement(), references: 'x' }, { type: 'invalid', path: '/statement/references', value: 'x' }],
    ['reference not an object', { ...stringStatement(), references: [[]] }, { type: 'invalid', path: '/statement/references/0', value: [] }],
    ['reference without parts', { ...stringStatement(), references: [{ hash: 'abc' }] }, { type: 'missing', path: '/statement/references/0', field: 'parts' }],
    ['parts not an array', { ...stringStatement(), references: [{ parts: {} }] }, { type: 'invalid', path: '/statement/references/0/parts', value: {} }],
    ['part not an object', { ...stringStatement(), references: [{ parts: [1] }] }, { type: 'invalid', path: '/statement/references/0/parts/0', value: 1 }],
    ['unknown part property', { ...stringStatement(), references: [{ parts: [{ property: { id: 'P404' }, value: { type: 'somevalue' } }] }] },
      { type: 'not-found', path: '/statement/references/0/parts/0/property/id', value: 'P404' }],
  ];
  for (const [name, input, expected] of cases) {
    it(`reports ${name}`, () => assert.deepEqual(problemOf(() => parse(input)), expected));
  }

  it('builds paths from any base, escaping keys', () => {
    assert.deepEqual(problemOf(() => parse({ property: { id: 'P1' } }, '/item/statements/P1/0')),
      { type: 'missing', path: '/item/statements/P1/0', field: 'value' });
    assert.deepEqual(problemOf(() => parse(stringStatement(' x'), '')), { type: 'invalid', path: '/value/content', value: ' x' });
  });
});

describe('qualifiers and references', () => {
  const input = {
    property: { id: 'P1' }, value: { type: 'value', content: 'potato' },
    qualifiers: [{ property: { id: 'P3', 'data-type': 'string' }, value: { type: 'value', content: { time: '+2023-06-13T00:00:00Z', precision: 11, calendarmodel: GREGORIAN } } }],
    references: [{ hash: 'ignored', parts: [{ property: { id: 'P4' }, value: { type: 'value', content: 'https://news.example.org' } }] }],
  };

  it('round-trip with data types set and a content-derived hash', () => {
    const statement = parse(input);
    assert.deepEqual(statement.qualifiers, [{ property: { id: 'P3', 'data-type': 'time' }, value: input.qualifiers[0].value }]);
    assert.equal(statement.references.length, 1);
    assert.match(statement.references[0].hash, HEX40);
    assert.deepEqual(statement.references[0].parts, [{ property: { id: 'P4', 'data-type': 'url' }, value: input.references[0].parts[0].value }]);
    // What goes out comes back in unchanged (GET → PUT).
    assert.deepEqual(parse(JSON.parse(JSON.stringify(statement))), statement);
  });

  it('hashes are stable: independent of given hashes and key order, dependent on the parts', () => {
    const hash = parse(input).references[0].hash;
    const reordered = { references: [{ parts: [{ value: { content: 'https://news.example.org', type: 'value' }, property: { id: 'p4' } }], hash: 'x' }] };
    assert.equal(parse({ ...input, ...reordered }).references[0].hash, hash);
    const other = { references: [{ parts: [{ property: { id: 'P4' }, value: { type: 'value', content: 'https://other.example.org' } }] }] };
    assert.notEqual(parse({ ...input, ...other }).references[0].hash, hash);
    const empty = { references: [{ parts: [] }, { parts: [] }] };
    const [a, b] = parse({ ...input, ...empty }).references;
    assert.equal(a.hash, b.hash);
    assert.match(a.hash, HEX40);
  });
});

describe('replaceStatement (PUT, docs/api.md §10.4)', () => {
  const existing = parse(stringStatement('old'));

  it('keeps the id, with or without the id in the body', () => {
    assert.deepEqual(replaceStatement(existing, stringStatement('new'), '/statement', lookup), { ...existing, value: { type: 'value', content: 'new' } });
    assert.equal(replaceStatement(existing, { ...stringStatement('new'), id: ID }, '/statement', lookup).id, ID);
    assert.equal(replaceStatement(existing, { ...stringStatement('new'), property: { id: 'p1' } }, '/statement', lookup).id, ID);
  });

  it('refuses another id or a non-string id', () => {
    for (const id of ['Q1$00000000-0000-0000-0000-000000000000', 5, null]) {
      assert.deepEqual(problemOf(() => replaceStatement(existing, { ...stringStatement(), id }, '/statement', lookup)),
        { type: 'read-only', path: '/statement/id' });
    }
  });

  it('refuses another property', () => {
    assert.deepEqual(problemOf(() => replaceStatement(existing, { property: { id: 'P4' }, value: { type: 'novalue' } }, '/statement', lookup)),
      { type: 'read-only', path: '/statement/property/id' });
  });

  it('validates the rest like a new statement', () => {
    assert.deepEqual(problemOf(() => replaceStatement(existing, 'x', '/statement', lookup)), { type: 'invalid', path: '/statement', value: 'x' });
    assert.deepEqual(problemOf(() => replaceStatement(existing, { property: { id: 'x' }, value: { type: 'novalue' } }, '/statement', lookup)),
      { type: 'invalid', path: '/statement/property/id', value: 'x' });
    assert.deepEqual(problemOf(() => replaceStatement(existing, { value: { type: 'novalue' } }, '/statement', lookup)),
      { type: 'missing', path: '/statement', field: 'property' });
  });
});

describe('patchedStatement (PATCH result, docs/api.md §10.4)', () => {
  const original = parse({ ...stringStatement('old'), references: [{ parts: [stringStatement('source')] }] });
  const asJson = (s: Statement) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;

  it('validates a changed statement with paths relative to it', () => {
    const patched = patchedStatement(original, { ...asJson(original), value: { type: 'value', content: 'new' } }, lookup);
    assert.deepEqual(patched, { ...original, value: { type: 'value', content: 'new' } });
    assert.deepEqual(problemOf(() => patchedStatement(original, { ...asJson(original), value: { type: 'value', content: '' } }, lookup)),
      { type: 'invalid', path: '/value/content', value: '' });
    const { value: _removed, ...withoutValue } = asJson(original);
    assert.deepEqual(problemOf(() => patchedStatement(original, withoutValue, lookup)), { type: 'missing', path: '', field: 'value' });
    assert.deepEqual(problemOf(() => patchedStatement(original, { ...asJson(original), qualifiers: [{ property: { id: 'P404' }, value: { type: 'novalue' } }] }, lookup)),
      { type: 'not-found', path: '/qualifiers/0/property/id', value: 'P404' });
  });

  it('refuses a result that is not an object', () => {
    assert.deepEqual(problemOf(() => patchedStatement(original, [], lookup)), { type: 'invalid', path: '', value: [] });
  });

  it('refuses a changed id but accepts a removed one', () => {
    assert.deepEqual(problemOf(() => patchedStatement(original, { ...asJson(original), id: 'Q1$00000000-0000-0000-0000-000000000000' }, lookup)),
      { type: 'read-only', path: '/id' });
    const { id: _removed, ...withoutId } = asJson(original);
    assert.deepEqual(patchedStatement(original, withoutId, lookup), original);
  });

  it('refuses a changed property', () => {
    assert.deepEqual(problemOf(() => patchedStatement(original, { ...asJson(original), property: { id: 'P4', 'data-type': 'url' } }, lookup)),
      { type: 'read-only', path: '/property/id' });
  });

  it('ignores changes to data-type and reference hashes', () => {
    const json = asJson(original);
    const edited = { ...json, property: { id: 'P1', 'data-type': 'url' }, references: [{ ...(json.references as object[])[0], hash: '0'.repeat(40) }] };
    assert.deepEqual(patchedStatement(original, edited, lookup), original);
  });

  it('accepts an unchanged statement whose property no longer exists', () => {
    const orphan: Statement = { ...original, property: { id: 'P404', 'data-type': null } };
    assert.equal(patchedStatement(orphan, asJson(orphan), lookup), orphan);
    assert.deepEqual(problemOf(() => patchedStatement(orphan, { ...asJson(orphan), rank: 'preferred' }, lookup)),
      { type: 'not-found', path: '/property/id', value: 'P404' });
  });
});

describe('parseStatementMap on creation', () => {
  const create = (input: unknown) => parseStatementMap(input, '/item/statements', lookup, { subjectId: 'Q1' });

  it('gives every statement a new id, ignoring ids given', () => {
    const map = create({ P1: [{ ...stringStatement('a'), id: ID }, { ...stringStatement('b'), id: 7 }], P4: [{ property: { id: 'P4' }, value: { type: 'novalue' } }] });
    assert.deepEqual(Object.keys(map), ['P1', 'P4']);
    assert.deepEqual(map.P1.map((s) => s.value), [{ type: 'value', content: 'a' }, { type: 'value', content: 'b' }]);
    for (const s of [...map.P1, ...map.P4]) assert.match(s.id, NEW_ID);
    assert.notEqual(map.P1[0].id, ID);
  });

  it('tolerates [] as {} and drops empty groups', () => {
    assert.deepEqual(create([]), {});
    assert.deepEqual(create({ P1: [] }), {});
  });

  const cases: [string, unknown, Problem][] = [
    ['a non-empty array', [1], { type: 'invalid', path: '/item/statements', value: [1] }],
    ['a string', 'x', { type: 'invalid', path: '/item/statements', value: 'x' }],
    ['a key that is not a property id', { Q1: [] }, { type: 'invalid-key', path: '/item/statements', key: 'Q1' }],
    ['a group that is not an array', { P1: {} }, { type: 'invalid', path: '/item/statements/P1', value: {} }],
    ['an element that is not an object', { P1: [stringStatement(), 'x'] }, { type: 'invalid', path: '/item/statements/P1/1', value: 'x' }],
    ['a group key mismatch', { P123: [stringStatement()] },
      { type: 'group-mismatch', path: '/item/statements/P123/0/property/id', groupPropertyId: 'P123', statementPropertyId: 'P1' }],
    ['a bad statement', { P1: [stringStatement(' x')] }, { type: 'invalid', path: '/item/statements/P1/0/value/content', value: ' x' }],
  ];
  for (const [name, input, expected] of cases) {
    it(`reports ${name}`, () => assert.deepEqual(problemOf(() => create(input)), expected));
  }
});

describe('parseStatementMap on an entity PATCH result (docs/api.md §10.1)', () => {
  const first = parse(stringStatement('a'));
  const second: Statement = { ...parse(stringStatement('b')), id: 'Q1$00000000-0000-4000-8000-000000000002' };
  const orphan: Statement = { ...parse(stringStatement('c')), id: 'Q1$00000000-0000-4000-8000-000000000003', property: { id: 'P404', 'data-type': null } };
  const existing: StatementMap = { P1: [first, second], P404: [orphan] };
  const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
  const patch = (input: unknown) => parseStatementMap(input, '/statements', lookup, { subjectId: 'Q1', existing });

  it('accepts unchanged statements as they are, even with a deleted property', () => {
    const map = patch(json(existing));
    assert.deepEqual(map, existing);
    assert.equal(map.P404[0], orphan);
  });

  it('keeps order of groups and statements, validates changed ones and gives new ones ids', () => {
    const map = patch({ P404: [json(orphan)], P1: [json(second), { ...json(first), rank: 'preferred' }, stringStatement('new')] });
    assert.deepEqual(Object.keys(map), ['P404', 'P1']);
    assert.deepEqual(map.P1.slice(0, 2), [second, { ...first, rank: 'preferred' }]);
    assert.match(map.P1[2].id, NEW_ID);
    assert.deepEqual(map.P1[2].value, { type: 'value', content: 'new' });
  });

  it('drops removed statements', () => {
    assert.deepEqual(patch({ P1: [json(second)] }), { P1: [second] });
  });

  it('refuses an unknown id, a duplicated id and another entity\'s id', () => {
    const unknown = { ...json(first), id: 'Q1$00000000-0000-4000-8000-000000000009' };
    assert.deepEqual(problemOf(() => patch({ P1: [unknown] })), { type: 'read-only', path: '/statements/P1/0/id' });
    assert.deepEqual(problemOf(() => patch({ P1: [json(first), json(first)] })), { type: 'read-only', path: '/statements/P1/1/id' });
    const foreign = { ...json(first), id: 'Q2$00000000-0000-4000-8000-000000000002' };
    assert.deepEqual(problemOf(() => patch({ P1: [foreign] })), { type: 'read-only', path: '/statements/P1/0/id' });
    assert.deepEqual(problemOf(() => patch({ P1: [{ ...json(first), id: 5 }] })), { type: 'read-only', path: '/statements/P1/0/id' });
  });

  it('refuses an existing statement moved to another property', () => {
    const moved = { ...json(first), property: { id: 'P4' }, value: { type: 'value', content: 'https://example.org' } };
    assert.deepEqual(problemOf(() => patch({ P1: [json(second)], P4: [moved] })), { type: 'read-only', path: '/statements/P4/0/property/id' });
  });

  it('reports a group key mismatch', () => {
    assert.deepEqual(problemOf(() => patch({ P123: [stringStatement()] })),
      { type: 'group-mismatch', path: '/statements/P123/0/property/id', groupPropertyId: 'P123', statementPropertyId: 'P1' });
    assert.deepEqual(problemOf(() => patch({ P4: [json(first)] })),
      { type: 'group-mismatch', path: '/statements/P4/0/property/id', groupPropertyId: 'P4', statementPropertyId: 'P1' });
  });

  it('reports groups that are not arrays and elements that are not objects', () => {
    assert.deepEqual(problemOf(() => patch({ P1: 'x' })), { type: 'invalid', path: '/statements/P1', value: 'x' });
    assert.deepEqual(problemOf(() => patch({ P1: [null] })), { type: 'invalid', path: '/statements/P1/0', value: null });
  });

  it('reports invalid changes and unknown properties of new statements', () => {
    assert.deepEqual(problemOf(() => patch({ P1: [{ ...json(first), rank: 'top' }] })), { type: 'invalid', path: '/statements/P1/0/rank', value: 'top' });
    assert.deepEqual(problemOf(() => patch({ P9999999: [{ property: { id: 'P9999999' }, value: { type: 'novalue' } }] })),
      { type: 'not-found', path: '/statements/P9999999/0/property/id', value: 'P9999999' });
    assert.deepEqual(problemOf(() => patch({ P1: [{ property: { id: 'P1' } }] })), { type: 'missing', path: '/statements/P1/0', field: 'value' });
    assert.deepEqual(problemOf(() => patch({ P404: [{ ...json(orphan), rank: 'preferred' }] })),
      { type: 'not-found', path: '/statements/P404/0/property/id', value: 'P404' });
  });

  it('tolerates [] as an empty map', () => {
    assert.deepEqual(patch([]), {});
  });
});
