// What a stored revision holds, for both backends: an entity document, or `{id, redirect}` for the revision
// that made an item a redirect (src/store/*/index.ts redirectEntity).
import { freezeJson, type Entity } from '../domain/entity.js';
import type { Head, RevisionContent } from './store.js';

export function revisionContent(json: string, head: Head): RevisionContent {
  const doc = JSON.parse(json) as Entity & { redirect?: string };
  if (typeof doc.redirect === 'string') return { kind: 'redirect', target: doc.redirect, head };
  return { kind: 'entity', entity: freezeJson(doc), head };
}
