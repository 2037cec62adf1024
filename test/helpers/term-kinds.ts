// The two entity kinds as a client sees them, so term tests loop over kinds instead of copying tests.
// Codes and messages are written out literally: the tests check the contract, not the kind table.
import assert from 'node:assert/strict';
import type { TestServer } from './server.js';

export interface KindCase {
  name: 'item' | 'property';
  segment: 'items' | 'properties';
  noun: 'Item' | 'Property';
  invalidId: string;
  notFound: string;
  /** Well-formed ids that do not exist / that are of the other kind. */
  missingId: string;
  wrongKindId: string;
  notFoundMessage: (id: string) => string;
  invalidIdMessage: (id: string) => string;
}

export const KIND_CASES: readonly KindCase[] = [
  {
    name: 'item', segment: 'items', noun: 'Item', invalidId: 'invalid-item-id', notFound: 'item-not-found',
    missingId: 'Q99999999', wrongKindId: 'P1',
    notFoundMessage: (id) => `Could not find an item with the ID: ${id}`,
    invalidIdMessage: (id) => `Not a valid item ID: ${id}`,
  },
  {
    name: 'property', segment: 'properties', noun: 'Property', invalidId: 'invalid-property-id', notFound: 'property-not-found',
    missingId: 'P99999999', wrongKindId: 'Q1',
    notFoundMessage: (id) => `Could not find a property with the ID: ${id}`,
    invalidIdMessage: (id) => `Not a valid property ID: ${id}`,
  },
];

let counter = 0;
/** A fresh text, so that uniqueness rules (property labels, item label+description) never collide by accident. */
export const uniq = (prefix = 'term'): string => `${prefix} ${++counter} ${process.pid}`;

/** Creates an entity of the kind with the given terms; returns its id. */
export async function createEntity(s: TestServer, k: KindCase, terms: Record<string, unknown> = {}): Promise<string> {
  const body = k.name === 'item' ? { item: terms } : { property: { data_type: 'string', ...terms } };
  const res = await s.post(`/v1/entities/${k.segment}`, body);
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** The entity as GET returns it, with its ETag and revision count: what a rejected edit must leave untouched. */
export async function snapshot(s: TestServer, k: KindCase, id: string) {
  const res = await s.get(`/v1/entities/${k.segment}/${id}`);
  assert.equal(res.status, 200, res.text);
  return { body: res.body, etag: res.headers.get('etag'), revisions: (await s.store.revisions(id, 1000)).length };
}

/** Asserts an error answer: status, code, message (when given) and exact context (absent when undefined). */
export function assertError(
  res: { status: number; body: any; headers: Headers; text: string },
  status: number, code: string, context?: unknown, message?: string,
): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.deepEqual(res.body.context, context, res.text);
  if (message !== undefined) assert.equal(res.body.message, message);
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.equal(res.headers.get('content-language'), 'en');
}
