import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { EntiaError } from '../../src/domain/errors.js';
import { applyPatch, parsePatch, type PatchOperation } from '../../src/domain/patch.js';

function throwsTableError(fn: () => unknown, code: string, context: unknown): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof EntiaError, `expected an EntiaError, got ${String(e)}`);
    assert.equal(e.code, code);
    assert.deepEqual(e.context, context);
    return true;
  });
}

/** Applies `patch` (parsed first) and checks the input was left untouched. */
function patched(doc: unknown, patch: unknown): unknown {
  const before = structuredClone(doc);
  const result = applyPatch(doc, parsePatch(patch));
  assert.deepEqual(doc, before);
  return result;
}

function rejects(doc: unknown, patch: unknown, code: string, context: unknown): void {
  const before = structuredClone(doc);
  throwsTableError(() => applyPatch(doc, parsePatch(patch)), code, context);
  assert.deepEqual(doc, before, 'a failed patch leaves the input unchanged');
}

const notFound = (path: string) => ({ path });

describe('parsePatch: document validation (400)', () => {
  it('accepts every operation and keeps only op, path, value and from', () => {
    const ops = parsePatch([
      { op: 'add', path: '/a', value: 1, from: '/ignored' },
      { op: 'remove', path: '/a', extra: true },
      { op: 'replace', path: '/a', value: null },
      { op: 'move', from: '/a', path: '/b' },
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'test', path: '/a', value: { x: [1] } },
    ]);
    assert.deepEqual(ops, [
      { op: 'add', path: '/a', value: 1 },
      { op: 'remove', path: '/a' },
      { op: 'replace', path: '/a', value: null },
      { op: 'move', path: '/b', from: '/a' },
      { op: 'copy', path: '/b', from: '/a' },
      { op: 'test', path: '/a', value: { x: [1] } },
    ]);
  });

  it('accepts an empty patch', () => {
    assert.deepEqual(parsePatch([]), []);
  });

  for (const patch of [{ op: 'add' }, 'add', 42, null, true]) {
    it(`rejects a patch that is not an array: ${JSON.stringify(patch)}`, () => {
      throwsTableError(() => parsePatch(patch), 'invalid-value', { path: '/patch' });
    });
  }

  for (const op of ['add', 'x', 1, null, [], ['add']]) {
    it(`rejects an operation that is not an object: ${JSON.stringify(op)}`, () => {
      throwsTableError(() => parsePatch([{ op: 'remove', path: '/a' }, op]), 'invalid-value', { path: '/patch' });
    });
  }

  const cases: [string, unknown, string, Record<string, unknown>][] = [
    ['missing op', { path: '/a', value: 1 }, 'missing-field', { path: '/patch/1', field: 'op' }],
    ['missing path', { op: 'add', value: 1 }, 'missing-field', { path: '/patch/1', field: 'path' }],
    ['missing op and path', {}, 'missing-field', { path: '/patch/1', field: 'op' }],
    ['add without value', { op: 'add', path: '/a' }, 'missing-field', { path: '/patch/1', field: 'value' }],
    ['replace without value', { op: 'replace', path: '/a' }, 'missing-field', { path: '/patch/1', field: 'value' }],
    ['test without value', { op: 'test', path: '/a' }, 'missing-field', { path: '/patch/1', field: 'value' }],
    ['move without from', { op: 'move', path: '/a' }, 'missing-field', { path: '/patch/1', field: 'from' }],
    ['copy without from', { op: 'copy', path: '/a' }, 'missing-field', { path: '/patch/1', field: 'from' }],
    ['unknown op', { op: 'increment', path: '/a' }, 'invalid-value', { path: '/patch/1/op' }],
    ['op in the wrong case', { op: 'ADD', path: '/a', value: 1 }, 'invalid-value', { path: '/patch/1/op' }],
    ['non-string op', { op: 1, path: '/a' }, 'invalid-value', { path: '/patch/1/op' }],
    ['null op', { op: null, path: '/a' }, 'invalid-value', { path: '/patch/1/op' }],
    ['non-string path', { op: 'remove', path: 3 }, 'invalid-value', { path: '/patch/1/path' }],
    ['array path', { op: 'add', path: ['a'], value: 1 }, 'invalid-value', { path: '/patch/1/path' }],
    ['non-string from', { op: 'move', path: '/a', from: {} }, 'invalid-value', { path: '/patch/1/from' }],
    ['null from', { op: 'copy', path: '/a', from: null }, 'invalid-value', { path: '/patch/1/from' }],
    ['unknown op checked before a non-string path', { op: 'nope', path: 1 }, 'invalid-value', { path: '/patch/1/op' }],
    ['non-string path checked before a missing value', { op: 'add', path: 1 }, 'invalid-value', { path: '/patch/1/path' }],
  ];
  for (const [name, op, code, context] of cases) {
    it(`rejects ${name}`, () => {
      throwsTableError(() => parsePatch([{ op: 'test', path: '', value: {} }, op]), code, context);
    });
  }

  it('reports the first failing operation', () => {
    throwsTableError(() => parsePatch([{ op: 'add', path: '/a', value: 1 }, { op: 'move', path: '/b' }, { path: '/c' }]),
      'missing-field', { path: '/patch/1', field: 'from' });
  });

  it('accepts null as a value', () => {
    assert.deepEqual(parsePatch([{ op: 'add', path: '/a', value: null }]), [{ op: 'add', path: '/a', value: null }]);
  });
});

describe('applyPatch: operations', () => {
  const doc = { labels: { en: 'potato', de: 'Kartoffel' }, aliases: ['spud', 'tater'] };

  it('returns the document itself for an empty patch', () => {
    assert.equal(patched(doc, []), doc);
  });

  it('copies only what it changes: the parts a patch leaves alone are the same objects', () => {
    const nested = { labels: { en: 'potato' }, statements: { P1: [{ id: 'a' }, { id: 'b' }], P2: [{ id: 'c' }] } };
    const result = patched(nested, [{ op: 'replace', path: '/statements/P1/1/id', value: 'B' }]) as typeof nested;
    assert.equal(result.labels, nested.labels);
    assert.equal(result.statements.P2, nested.statements.P2);
    assert.equal(result.statements.P1[0], nested.statements.P1[0]);
    assert.notEqual(result.statements.P1, nested.statements.P1);
    assert.deepEqual(result.statements.P1, [{ id: 'a' }, { id: 'B' }]);
  });

  it('patches a frozen document without changing it', () => {
    const frozen = Object.freeze({ labels: Object.freeze({ en: 'potato' }), list: Object.freeze([Object.freeze({ a: 1 })]) });
    const result = patched(frozen, [
      { op: 'add', path: '/labels/de', value: 'Kartoffel' },
      { op: 'move', from: '/list/0', path: '/moved' },
      { op: 'add', path: '/moved/b', value: 2 },
    ]);
    assert.deepEqual(result, { labels: { en: 'potato', de: 'Kartoffel' }, list: [], moved: { a: 1, b: 2 } });
  });

  it('add: new member, replaced member, array insert, append with -', () => {
    assert.deepEqual(patched(doc, [
      { op: 'add', path: '/labels/fr', value: 'pomme de terre' },
      { op: 'add', path: '/labels/en', value: 'Potato' },
      { op: 'add', path: '/aliases/0', value: 'first' },
      { op: 'add', path: '/aliases/-', value: 'last' },
      { op: 'add', path: '/aliases/4', value: 'end' },
    ]), {
      labels: { en: 'Potato', de: 'Kartoffel', fr: 'pomme de terre' },
      aliases: ['first', 'spud', 'tater', 'last', 'end'],
    });
  });

  it('add at the root replaces the document', () => {
    assert.deepEqual(patched(doc, [{ op: 'add', path: '', value: { x: 1 } }]), { x: 1 });
  });

  it('add does not share the value with the patch', () => {
    const value = { nested: [1] };
    const ops = parsePatch([{ op: 'add', path: '/v', value }]);
    const result = applyPatch({}, ops) as { v: { nested: number[] } };
    result.v.nested.push(2);
    assert.deepEqual(value, { nested: [1] });
  });

  it('remove: object member and array element', () => {
    assert.deepEqual(patched(doc, [
      { op: 'remove', path: '/labels/de' },
      { op: 'remove', path: '/aliases/0' },
    ]), { labels: { en: 'potato' }, aliases: ['tater'] });
  });

  it('replace: object member, array element and the root', () => {
    assert.deepEqual(patched(doc, [
      { op: 'replace', path: '/labels/en', value: 'Spud' },
      { op: 'replace', path: '/aliases/1', value: { a: null } },
    ]), { labels: { en: 'Spud', de: 'Kartoffel' }, aliases: ['spud', { a: null }] });
    assert.deepEqual(patched(doc, [{ op: 'replace', path: '', value: [] }]), []);
  });

  it('move: between members, within an array, onto itself', () => {
    assert.deepEqual(patched(doc, [
      { op: 'move', from: '/labels/de', path: '/labels/nl' },
      { op: 'move', from: '/aliases/0', path: '/aliases/1' },
      { op: 'move', from: '/labels/en', path: '/labels/en' },
    ]), { labels: { en: 'potato', nl: 'Kartoffel' }, aliases: ['tater', 'spud'] });
    assert.deepEqual(patched(doc, [{ op: 'move', from: '/labels', path: '' }]), { en: 'potato', de: 'Kartoffel' });
  });

  it('copy: deep, so the copies are independent', () => {
    const result = patched(doc, [
      { op: 'copy', from: '/labels', path: '/descriptions' },
      { op: 'replace', path: '/descriptions/en', value: 'a tuber' },
      { op: 'copy', from: '/aliases/1', path: '/aliases/-' },
      { op: 'copy', from: '', path: '/self' },
    ]) as Record<string, unknown>;
    assert.deepEqual(result.labels, doc.labels);
    assert.deepEqual(result.descriptions, { en: 'a tuber', de: 'Kartoffel' });
    assert.deepEqual(result.aliases, ['spud', 'tater', 'tater']);
    assert.deepEqual(result.self, {
      labels: doc.labels, descriptions: { en: 'a tuber', de: 'Kartoffel' }, aliases: ['spud', 'tater', 'tater'],
    });
  });

  it('test: passes on structurally equal JSON, key order ignored', () => {
    const nested = { a: { x: 1, y: [1, { p: null, q: 'z' }] } };
    assert.deepEqual(patched(nested, [
      { op: 'test', path: '/a', value: { y: [1, { q: 'z', p: null }], x: 1 } },
      { op: 'test', path: '/a/y/0', value: 1 },
      { op: 'test', path: '', value: nested },
    ]), nested);
  });

  it('~0 and ~1 escape ~ and / in keys', () => {
    const escaped = { 'a/b': 1, 'm~n': 2, '~1': 3, '': 4 };
    assert.deepEqual(patched(escaped, [
      { op: 'test', path: '/a~1b', value: 1 },
      { op: 'replace', path: '/m~0n', value: 20 },
      { op: 'remove', path: '/~01' },
      { op: 'add', path: '/x~1y~0z', value: 5 },
      { op: 'replace', path: '/', value: 40 },
    ]), { 'a/b': 1, 'm~n': 20, '': 40, 'x/y~z': 5 });
  });

  it('operations see the result of the earlier ones', () => {
    assert.deepEqual(patched({}, [
      { op: 'add', path: '/a', value: {} },
      { op: 'add', path: '/a/b', value: [] },
      { op: 'add', path: '/a/b/-', value: 1 },
      { op: 'test', path: '/a', value: { b: [1] } },
    ]), { a: { b: [1] } });
  });
});

describe('applyPatch: application errors (409)', () => {
  const doc = { labels: { en: 'potato' }, aliases: ['spud', 'tater'], n: 5 };
  const cases: [string, unknown, Record<string, unknown>][] = [
    ['remove of a missing member', { op: 'remove', path: '/labels/de' }, notFound('/patch/1/path')],
    ['replace of a missing member', { op: 'replace', path: '/labels/de', value: 'x' }, notFound('/patch/1/path')],
    ['test of a missing member', { op: 'test', path: '/labels/de', value: 'x' }, notFound('/patch/1/path')],
    ['add under a missing parent', { op: 'add', path: '/descriptions/en', value: 'x' }, notFound('/patch/1/path')],
    ['add under a scalar', { op: 'add', path: '/n/x', value: 1 }, notFound('/patch/1/path')],
    ['add under a string', { op: 'add', path: '/labels/en/0', value: 1 }, notFound('/patch/1/path')],
    ['add past the end of an array', { op: 'add', path: '/aliases/3', value: 'x' }, notFound('/patch/1/path')],
    ['add at a non-numeric array index', { op: 'add', path: '/aliases/x', value: 'x' }, notFound('/patch/1/path')],
    ['add at a leading-zero index', { op: 'add', path: '/aliases/01', value: 'x' }, notFound('/patch/1/path')],
    ['add at a negative index', { op: 'add', path: '/aliases/-1', value: 'x' }, notFound('/patch/1/path')],
    ['remove at an index out of range', { op: 'remove', path: '/aliases/2' }, notFound('/patch/1/path')],
    ['remove with -', { op: 'remove', path: '/aliases/-' }, notFound('/patch/1/path')],
    ['replace with -', { op: 'replace', path: '/aliases/-', value: 'x' }, notFound('/patch/1/path')],
    ['test with -', { op: 'test', path: '/aliases/-', value: 'x' }, notFound('/patch/1/path')],
    ['- in the middle of a path', { op: 'add', path: '/aliases/-/x', value: 1 }, notFound('/patch/1/path')],
    ['remove of the whole document', { op: 'remove', path: '' }, notFound('/patch/1/path')],
    ['pointer without a leading slash', { op: 'add', path: 'labels/de', value: 'x' }, notFound('/patch/1/path')],
    ['pointer with a bad escape', { op: 'replace', path: '/labels/~2', value: 'x' }, notFound('/patch/1/path')],
    ['pointer with a trailing ~', { op: 'test', path: '/labels/en~', value: 'x' }, notFound('/patch/1/path')],
    ['move from a missing member', { op: 'move', from: '/labels/de', path: '/labels/fr' }, notFound('/patch/1/from')],
    ['copy from a missing member', { op: 'copy', from: '/x', path: '/y' }, notFound('/patch/1/from')],
    ['copy from -', { op: 'copy', from: '/aliases/-', path: '/y' }, notFound('/patch/1/from')],
    ['move from a malformed pointer', { op: 'move', from: 'labels', path: '/y' }, notFound('/patch/1/from')],
    ['move to a missing parent', { op: 'move', from: '/n', path: '/x/y' }, notFound('/patch/1/path')],
    ['copy to a bad index', { op: 'copy', from: '/n', path: '/aliases/9' }, notFound('/patch/1/path')],
    ['move into its own child', { op: 'move', from: '/labels', path: '/labels/en' }, notFound('/patch/1/from')],
    ['move into its own grandchild', { op: 'move', from: '/labels', path: '/labels/x/y' }, notFound('/patch/1/from')],
    ['move of the root into a child', { op: 'move', from: '', path: '/x' }, notFound('/patch/1/from')],
    ['move past the end after removal', { op: 'move', from: '/aliases/0', path: '/aliases/2' }, notFound('/patch/1/path')],
    ['a key inherited from the prototype', { op: 'remove', path: '/labels/toString' }, notFound('/patch/1/path')],
  ];
  for (const [name, op, context] of cases) {
    it(`rejects ${name}`, () => {
      rejects(doc, [{ op: 'add', path: '/labels/fr', value: 'x' }, op], 'patch-target-not-found', context);
    });
  }

  it('a move to a sibling whose name starts with the source is not a move into a child', () => {
    assert.deepEqual(patched({ a: 1 }, [{ op: 'move', from: '/a', path: '/ab' }]), { ab: 1 });
  });

  it('test failure reports the operation and the value found', () => {
    rejects(doc, [
      { op: 'replace', path: '/labels/en', value: 'Spud' },
      { op: 'test', path: '/labels/en', value: 'potato' },
    ], 'patch-test-failed', { path: '/patch/1', actual_value: 'Spud' });
  });

  const testFailures: [string, unknown, unknown][] = [
    ['a different scalar type', '/n', '5'],
    ['null against a value', '/n', null],
    ['arrays in another order', '/aliases', ['tater', 'spud']],
    ['a shorter array', '/aliases', ['spud']],
    ['an object with an extra key', '/labels', { en: 'potato', de: 'x' }],
    ['an object with a missing key', '/labels', {}],
    ['an object against an array', '/labels', ['potato']],
  ];
  for (const [name, path, value] of testFailures) {
    it(`test fails on ${name}`, () => {
      const actual = path === '/n' ? doc.n : path === '/aliases' ? doc.aliases : doc.labels;
      rejects(doc, [{ op: 'test', path, value }], 'patch-test-failed', { path: '/patch/0', actual_value: actual });
    });
  }

  it('leaves nested input untouched when a later operation fails', () => {
    const input = { a: { b: [1, 2] }, c: { d: 1 } };
    rejects(input, [
      { op: 'add', path: '/a/b/-', value: 3 },
      { op: 'remove', path: '/c/d' },
      { op: 'move', from: '/a/b/0', path: '/c/e' },
      { op: 'remove', path: '/zzz' },
    ], 'patch-target-not-found', { path: '/patch/3/path' });
  });
});

describe('applyPatch: prototype pollution', () => {
  const clean = () => {
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
    assert.equal(Object.prototype.hasOwnProperty.call(Array.prototype, 'polluted'), false);
  };

  const walks: [string, PatchOperation][] = [
    ['add through __proto__', { op: 'add', path: '/__proto__/polluted', value: true }],
    ['add through constructor/prototype', { op: 'add', path: '/constructor/prototype/polluted', value: true }],
    ['replace through __proto__', { op: 'replace', path: '/__proto__/toString', value: 1 }],
    ['copy into __proto__', { op: 'copy', from: '/a', path: '/__proto__/polluted' }],
    ['move into constructor/prototype', { op: 'move', from: '/a', path: '/constructor/prototype/polluted' }],
    ['add through an array __proto__', { op: 'add', path: '/list/__proto__/polluted', value: true }],
    ['remove an inherited constructor', { op: 'remove', path: '/constructor' }],
  ];
  for (const [name, op] of walks) {
    it(`rejects ${name} as target-not-found`, () => {
      rejects({ a: true, list: [] }, [op], 'patch-target-not-found', { path: '/patch/0/path' });
      clean();
    });
  }

  it('treats __proto__, constructor and prototype as plain keys when written', () => {
    const result = patched({}, [
      { op: 'add', path: '/__proto__', value: { polluted: true } },
      { op: 'add', path: '/constructor', value: { prototype: { polluted: true } } },
      { op: 'add', path: '/prototype', value: 1 },
      { op: 'add', path: '/__proto__/more', value: true },
      { op: 'copy', from: '/__proto__', path: '/copied' },
      { op: 'test', path: '/__proto__', value: { polluted: true, more: true } },
    ]) as Record<string, unknown>;
    clean();
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ['__proto__', 'constructor', 'prototype', 'copied']);
    assert.equal(JSON.stringify(result),
      '{"__proto__":{"polluted":true,"more":true},"constructor":{"prototype":{"polluted":true}},"prototype":1,'
      + '"copied":{"polluted":true,"more":true}}');
  });

  it('keeps an own __proto__ key from parsed JSON as data', () => {
    const input: unknown = JSON.parse('{"__proto__": {"x": 1}}');
    const result = patched(input, [
      { op: 'add', path: '/__proto__/polluted', value: true },
      { op: 'replace', path: '/__proto__/x', value: 2 },
    ]);
    clean();
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal(JSON.stringify(result), '{"__proto__":{"x":2,"polluted":true}}');
    assert.equal(JSON.stringify(input), '{"__proto__":{"x":1}}');
  });

  it('a patch value carrying __proto__ does not change the prototype of the result', () => {
    const value: unknown = JSON.parse('{"__proto__": {"polluted": true}}');
    const result = patched({}, [{ op: 'add', path: '/v', value }]) as Record<string, Record<string, unknown>>;
    clean();
    assert.equal(Object.getPrototypeOf(result.v), Object.prototype);
    assert.equal(result.v.polluted, undefined);
  });
});
