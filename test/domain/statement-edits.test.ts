// One statement at a time (docs/api.md §4.4, §9.2, §10.4): lookup by id, add, replace in place, remove.
import assert from 'node:assert/strict';
import { problemOf } from '../helpers/problems.js';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type Statement } from '../../src/domain/entity.js';
import {
  checkReplacement, findStatement, statementIdIgnoringCase, withoutStatement, withReplacedStatement, withStatement,
} from '../../src/domain/statement-edits.js';
import type { ReferenceLookup } from '../../src/domain/statements.js';

const statement = (id: string, property: string, content = 'x'): Statement => ({
  id, rank: 'normal', qualifiers: [], references: [],
  property: { id: property, 'data-type': 'string' }, value: { type: 'value', content },
});

const A = statement('Q1$AAAAAAAA-0000-4000-8000-000000000001', 'P1');
const B = statement('Q1$BBBBBBBB-0000-4000-8000-000000000002', 'P2');
const C = statement('q1$cccccccc-0000-4000-8000-000000000003', 'P1');

function entity(...statements: Statement[]): Entity {
  return statements.reduce(withStatement, emptyEntity('Q1', 'item'));
}

const lookup: ReferenceLookup = { dataTypeOf: (id) => (id === 'P1' ? 'string' : undefined), exists: (id) => id === 'P1' };

describe('statement edits', () => {
  it('appends to the group, new groups last', () => {
    const e = entity(A, B, C);
    assert.deepEqual(Object.keys(e.statements), ['P1', 'P2']);
    assert.deepEqual(e.statements.P1, [A, C]);
  });

  it('finds a statement by exact id, and by id ignoring case for the §9.2 redirect', () => {
    const e = entity(A, B, C);
    assert.deepEqual(findStatement(e, B.id), { statement: B, group: 'P2', index: 0 });
    assert.equal(findStatement(e, C.id.toUpperCase()), null);
    assert.equal(statementIdIgnoringCase(e, C.id.toUpperCase()), C.id);
    assert.equal(statementIdIgnoringCase(e, 'Q1$DDDDDDDD-0000-4000-8000-000000000004'), null);
  });

  it('replaces in place without touching the input entity', () => {
    const e = entity(A, B, C);
    const changed = { ...A, rank: 'preferred' as const };
    const next = withReplacedStatement(e, changed);
    assert.deepEqual(next.statements.P1, [changed, C]);
    assert.deepEqual(e.statements.P1, [A, C]);
    assert.throws(() => withReplacedStatement(e, statement('Q1$DDDDDDDD-0000-4000-8000-000000000004', 'P1')));
  });

  it('removes, dropping a group left empty', () => {
    const e = entity(A, B, C);
    assert.deepEqual(withoutStatement(e, B.id).statements, { P1: [A, C] });
    assert.deepEqual(withoutStatement(withoutStatement(e, A.id), C.id).statements, { P2: [B] });
    assert.deepEqual(e.statements.P2, [B]);
  });

  it('checks a PUT body: the id may repeat the requested one in any case, but not name another', () => {
    const body = (id?: unknown) => ({ ...(id === undefined ? {} : { id }), property: { id: 'P1' }, value: { type: 'novalue' } });
    checkReplacement(body(), '/statement', lookup, A.id);
    checkReplacement(body(A.id.toLowerCase()), '/statement', lookup, A.id);
    assert.deepEqual(problemOf(() => checkReplacement(body(B.id), '/statement', lookup, A.id)), { type: 'read-only', path: '/statement/id' });
    assert.deepEqual(problemOf(() => checkReplacement(body(null), '/statement', lookup, A.id)), { type: 'read-only', path: '/statement/id' });
    assert.equal(problemOf(() => checkReplacement({ property: { id: 'P9' }, value: { type: 'novalue' } }, '/statement', lookup, A.id)).type,
      'not-found');
  });
});
