// Revisions as both backends read them back: what a stored revision holds (an entity document, or `{id,
// redirect}` for the revision that made an item a redirect), and a revision as an entry of the change feed.
import { freezeJson, type Entity } from '../domain/entity.js';
import type { Change, Head, RevisionContent } from './store.js';

/** The columns a change-feed query reads, as SQLite returns them (PostgreSQL's are converted to this). */
export interface ChangeRow {
  rev_id: number; entity_id: string; timestamp: number; user: string; comment: string | null; action: string | null; previous: number | null;
}

export function changeOf(cursor: string, revision: number, entity: string, timestamp: Date, user: string,
  comment: string | null, action: string | null, previous: number | null): Change {
  const type = action === 'revert' || action === 'redirect' ? action : previous === null ? 'create' : 'edit';
  return { cursor, entity, type, revision, previous, timestamp, user, comment };
}

export function revisionContent(json: string, head: Head): RevisionContent {
  const doc = JSON.parse(json) as Entity & { redirect?: string };
  if (typeof doc.redirect === 'string') return { kind: 'redirect', target: doc.redirect, head };
  return { kind: 'entity', entity: freezeJson(doc), head };
}
