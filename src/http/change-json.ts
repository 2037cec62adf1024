// A change of the feed as JSON, for both ways of reading the feed (docs/api.md §10.10): the REST route's pages and
// the Server-Sent Events stream; and the `format` they both take.
import { fail } from '../domain/errors.js';
import type { Change } from '../store/store.js';

/** One change: its cursor, the entity, what kind of change, the revision, when and by whom, the comment. */
export function renderChange(c: Change): Record<string, unknown> {
  return { cursor: c.cursor, entity: c.entity, type: c.type, revision: c.revision,
    timestamp: c.timestamp.toISOString().replace('.000Z', 'Z'), user: c.user, comment: c.comment };
}

/** `format=rdf`: each change as an rdf_change event (Wikidata's Query Service updater's stream); json: the default. */
export function changeFormat(value: unknown): 'json' | 'rdf' {
  if (value === undefined || value === 'json') return 'json';
  if (value === 'rdf') return 'rdf';
  return fail('invalid-query-parameter', { parameter: 'format' });
}
