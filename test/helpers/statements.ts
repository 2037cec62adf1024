// Fixtures for the statement tests: entities to hang statements on, and the three scopes a statement can be
// addressed in (docs/api.md §10.4).
import assert from 'node:assert/strict';
import type { TestServer } from './server.js';

export const GREGORIAN = 'http://www.wikidata.org/entity/Q1985727';

export async function createItem(s: TestServer, item: unknown = {}): Promise<string> {
  const res = await s.post('/v1/entities/items', { item });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

export async function createProperty(s: TestServer, dataType: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await s.post('/v1/entities/properties', { property: { data_type: dataType, ...extra } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** `items/Q1` or `properties/P1`. */
export const entityPath = (id: string): string => `/v1/entities/${id.startsWith('P') ? 'properties' : 'items'}/${id}`;

export const valueSnak = (property: string, content: unknown) => ({ property: { id: property }, value: { type: 'value', content } });

export async function addStatement(s: TestServer, subject: string, statement: unknown) {
  const res = await s.post(`${entityPath(subject)}/statements`, { statement });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** The three ways to name one statement; `long` is the route under the statement's own subject. */
export interface Scope {
  name: string;
  path(subject: string, statementId: string): string;
}

export const SCOPES: readonly Scope[] = [
  { name: 'entity route', path: (subject, id) => `${entityPath(subject)}/statements/${id}` },
  { name: 'global route', path: (_subject, id) => `/v1/statements/${id}` },
];

/** The entity's document and how many revisions it has: a rejected edit must change neither. */
export async function snapshot(s: TestServer, id: string) {
  const res = await s.get(entityPath(id));
  return { body: res.body, etag: res.headers.get('etag'), revisions: (await s.store.revisions(id, 1000)).length };
}
