// JSON Patch (RFC 6902) over JSON Pointers (RFC 6901), raising the error codes of docs/api.md §10.6: 400 for a malformed
// patch document (§10.6 "Document validation"), 409 when an operation cannot be applied (§10.6 "Application",
// §7.4). Written directly rather than over fast-json-patch: its errors do not say whether `path` or `from`
// failed, and its object writes go through `obj[key] = value`, which lets a `__proto__` key reach a prototype.

import { fail } from './errors.js';

export type PatchOperation = {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
};

type Op = PatchOperation['op'];
type JsonObject = Record<string, unknown>;

const VALUE_OPS: readonly Op[] = ['add', 'replace', 'test'];
const FROM_OPS: readonly Op[] = ['move', 'copy'];
const OPS: readonly Op[] = [...VALUE_OPS, 'remove', ...FROM_OPS];

// RFC 6901 §4: an array index is `0` or a number without leading zeros.
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * §10.6 "Document validation" (400). For each operation in order, the first failure wins: `op` present, `path`
 * present, `op` a known string, `path` a string, then `value` (add/replace/test) or `from` present and a string
 * (move/copy). Members other than op/path/value/from are ignored.
 */
export function parsePatch(patch: unknown): PatchOperation[] {
  if (!Array.isArray(patch)) fail('invalid-value', { path: '/patch' });
  const operations: PatchOperation[] = [];
  for (let i = 0; i < patch.length; i++) operations.push(parseOperation(patch[i], `/patch/${i}`));
  return operations;
}

function parseOperation(raw: unknown, at: string): PatchOperation {
  if (!isObject(raw)) fail('invalid-value', { path: '/patch' });
  for (const field of ['op', 'path']) {
    if (!has(raw, field)) fail('missing-field', { path: at, field });
  }
  const { op, path } = raw;
  if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op)) fail('invalid-value', { path: `${at}/op` });
  if (typeof path !== 'string') fail('invalid-value', { path: `${at}/path` });
  const known = op as Op;
  if (VALUE_OPS.includes(known)) {
    if (!has(raw, 'value')) fail('missing-field', { path: at, field: 'value' });
    return { op: known, path, value: raw.value };
  }
  if (FROM_OPS.includes(known)) {
    if (!has(raw, 'from')) fail('missing-field', { path: at, field: 'from' });
    if (typeof raw.from !== 'string') fail('invalid-value', { path: `${at}/from` });
    return { op: known, path, from: raw.from };
  }
  return { op: known, path };
}

/**
 * §10.6 "Application" (409). `document` and the operations' values are never changed, whether the patch succeeds
 * or fails part-way (docs/api.md §10.6: a patch is atomic): the result is copied on write, so every array or object the
 * patch did not change, nor any above it, is the very object of `document` (an edit compares by identity to see
 * what a patch left alone).
 */
export function applyPatch(document: unknown, operations: PatchOperation[]): unknown {
  const draft = new Draft(document);
  operations.forEach((operation, i) => {
    draft.doc = applyOperation(draft, operation, `/patch/${i}`);
  });
  return draft.doc;
}

/** The document being patched: a container is copied (with those above it) the first time it is written. */
class Draft {
  /** Containers copied by this patch, which it may change. */
  private readonly owned = new WeakSet<object>();

  constructor(public doc: unknown) {}

  /** The existing array or object that holds (or will hold) the last token, made writable. */
  parentOf(tokens: readonly string[], at: string): unknown[] | JsonObject {
    parentOf(this.doc, tokens, at); // fails as a read of the same location would
    let node = this.doc = this.own(this.doc);
    for (const token of tokens.slice(0, -1)) {
      if (Array.isArray(node)) {
        node = node[Number(token)] = this.own(node[Number(token)]);
      } else {
        const child = this.own((node as JsonObject)[token]);
        setOwn(node as JsonObject, token, child);
        node = child;
      }
    }
    return node as unknown[] | JsonObject;
  }

  private own(node: unknown): unknown {
    if (typeof node !== 'object' || node === null || this.owned.has(node)) return node;
    let copy: unknown[] | JsonObject;
    if (Array.isArray(node)) {
      copy = [...node];
    } else {
      copy = {};
      for (const key of Object.keys(node)) setOwn(copy, key, (node as JsonObject)[key]);
    }
    this.owned.add(copy);
    return copy;
  }
}

function applyOperation(draft: Draft, operation: PatchOperation, at: string): unknown {
  const pathAt = `${at}/path`;
  switch (operation.op) {
    case 'add':
      return addAt(draft, parsePointer(operation.path, pathAt), cloneJson(operation.value), pathAt);
    case 'remove':
      return removeAt(draft, parsePointer(operation.path, pathAt), pathAt);
    case 'replace':
      return replaceAt(draft, parsePointer(operation.path, pathAt), cloneJson(operation.value), pathAt);
    case 'test': {
      const actual = valueAt(draft.doc, parsePointer(operation.path, pathAt), pathAt);
      if (!jsonEqual(actual, operation.value)) fail('patch-test-failed', { path: at, actual_value: cloneJson(actual) });
      return draft.doc;
    }
    case 'move':
    case 'copy':
      return moveOrCopy(draft, operation, at);
  }
}

function moveOrCopy(draft: Draft, operation: PatchOperation, at: string): unknown {
  const fromAt = `${at}/from`;
  const pathAt = `${at}/path`;
  if (operation.from === undefined) fail('patch-target-not-found', { path: fromAt });
  const from = parsePointer(operation.from, fromAt);
  const value = valueAt(draft.doc, from, fromAt);
  const path = parsePointer(operation.path, pathAt);
  if (operation.op === 'copy') return addAt(draft, path, cloneJson(value), pathAt);
  // RFC 6902 §4.4: a location cannot be moved into one of its children.
  if (path.length > from.length && from.every((token, k) => token === path[k])) {
    fail('patch-target-not-found', { path: fromAt });
  }
  if (path.length === from.length && from.every((token, k) => token === path[k])) return draft.doc;
  draft.doc = removeAt(draft, from, fromAt);
  return addAt(draft, path, value, pathAt);
}

/** RFC 6901 §3–4; a pointer that is not `""` or `/...`, or has a `~` not followed by 0 or 1, resolves nowhere. */
function parsePointer(pointer: string, at: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) fail('patch-target-not-found', { path: at });
  return pointer.slice(1).split('/').map((token) => {
    if (/~(?![01])/.test(token)) fail('patch-target-not-found', { path: at });
    return token.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

/** The value an existing location holds; `-` and out-of-range indexes do not exist. */
function valueAt(doc: unknown, tokens: readonly string[], at: string): unknown {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[arrayIndex(token, node.length - 1, at)];
    else if (isObject(node) && has(node, token)) node = node[token];
    else fail('patch-target-not-found', { path: at });
  }
  return node;
}

/** The existing array or object that holds (or will hold) the last token. */
function parentOf(doc: unknown, tokens: readonly string[], at: string): unknown[] | JsonObject {
  const parent = valueAt(doc, tokens.slice(0, -1), at);
  if (!Array.isArray(parent) && !isObject(parent)) fail('patch-target-not-found', { path: at });
  return parent;
}

function addAt(draft: Draft, tokens: readonly string[], value: unknown, at: string): unknown {
  if (tokens.length === 0) return value;
  const parent = draft.parentOf(tokens, at);
  const key = tokens[tokens.length - 1];
  if (!Array.isArray(parent)) setOwn(parent, key, value);
  else parent.splice(key === '-' ? parent.length : arrayIndex(key, parent.length, at), 0, value);
  return draft.doc;
}

/** Removing the whole document has no parent to remove it from: the target is not found. */
function removeAt(draft: Draft, tokens: readonly string[], at: string): unknown {
  if (tokens.length === 0) fail('patch-target-not-found', { path: at });
  const parent = draft.parentOf(tokens, at);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length - 1, at), 1);
  else if (has(parent, key)) delete parent[key];
  else fail('patch-target-not-found', { path: at });
  return draft.doc;
}

function replaceAt(draft: Draft, tokens: readonly string[], value: unknown, at: string): unknown {
  if (tokens.length === 0) return value;
  const parent = draft.parentOf(tokens, at);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent[arrayIndex(key, parent.length - 1, at)] = value;
  else if (has(parent, key)) setOwn(parent, key, value);
  else fail('patch-target-not-found', { path: at });
  return draft.doc;
}

function arrayIndex(token: string, max: number, at: string): number {
  const index = ARRAY_INDEX.test(token) ? Number(token) : Infinity;
  if (index > max) fail('patch-target-not-found', { path: at });
  return index;
}

/**
 * Keys are plain data: only own members are found, and writes define an own property, so `__proto__`,
 * `constructor` and `prototype` can neither be walked into from a prototype nor reach one.
 */
function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function has(target: JsonObject, key: string): boolean {
  return Object.hasOwn(target, key) && target[key] !== undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) setOwn(copy, key, cloneJson(value[key]));
  return copy;
}

/** Structural JSON equality (RFC 6902 §4.6): key order does not matter, array order does. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, k) => jsonEqual(item, b[k]));
  if (!isObject(a)) return a === b;
  if (!isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => has(b, key) && jsonEqual(a[key], b[key]));
}
