// A search's haswbstatement: conditions as the ranking module's per-entity filter, answered by the store's
// statement-value index: one definition for both backends.
import type { EntityFilter } from '../search/rank.js';
import type { SearchQuery, StatementValueIndex } from './store.js';

export function searchFilter(query: SearchQuery, values: StatementValueIndex): EntityFilter | undefined {
  const filter = query.statements;
  if (!filter || (filter.all.length === 0 && filter.none.length === 0)) return undefined;
  return (entity) => values.holds(query.kind, entity, filter);
}
