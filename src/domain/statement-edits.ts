// One statement of an entity at a time (docs/api.md §4.4, §10.4): finding it by id, and the entity with one
// statement added, replaced or removed. Pure; the statement routes validate with statements.ts and commit
// the entity these functions return.
import type { Entity, Statement, StatementMap } from './entity.js';
import { isPlainObject, pointer, problem } from './problems.js';
import { parseStatement, type ReferenceLookup } from './statements.js';

export interface Located {
  statement: Statement;
  /** The key of the group holding it. */
  group: string;
  index: number;
}

function locate(entity: Entity, match: (id: string) => boolean): Located | null {
  for (const [group, statements] of Object.entries(entity.statements)) {
    const index = statements.findIndex((s) => match(s.id));
    if (index >= 0) return { statement: statements[index], group, index };
  }
  return null;
}

/** The statement with exactly this id. Stored ids are kept as written (imported ones may read `q31$…`). */
export function findStatement(entity: Entity, id: string): Located | null {
  return locate(entity, (candidate) => candidate === id);
}

/** docs/api.md §9.2: the stored id that equals `id` but for letter case, for a 308 to it; null if none. */
export function statementIdIgnoringCase(entity: Entity, id: string): string | null {
  const wanted = id.toUpperCase();
  return locate(entity, (candidate) => candidate.toUpperCase() === wanted)?.statement.id ?? null;
}

function withGroups(entity: Entity, statements: StatementMap): Entity {
  return { ...entity, statements };
}

/** §10.4 POST: appended to its property's group; a new group goes after the existing ones. */
export function withStatement(entity: Entity, statement: Statement): Entity {
  const group = statement.property.id;
  return withGroups(entity, { ...entity.statements, [group]: [...(entity.statements[group] ?? []), statement] });
}

/** §4.4: a replaced statement keeps its position (its property, and so its group, cannot change). */
export function withReplacedStatement(entity: Entity, statement: Statement): Entity {
  const found = findStatement(entity, statement.id);
  if (!found) throw new Error(`no statement ${statement.id} in ${entity.id}`); // callers replace what they found
  const group = [...entity.statements[found.group]];
  group[found.index] = statement;
  return withGroups(entity, { ...entity.statements, [found.group]: group });
}

/** §10.4 DELETE: a group left empty disappears, as an empty group says nothing. */
export function withoutStatement(entity: Entity, id: string): Entity {
  const statements: StatementMap = {};
  for (const [group, list] of Object.entries(entity.statements)) {
    const kept = list.filter((s) => s.id !== id);
    if (kept.length > 0) statements[group] = kept;
  }
  return withGroups(entity, statements);
}

/**
 * The PUT body checks that need no stored statement, so that they come before the 404 (docs/api.md §7.7: the
 * statement body is validated before existence). An `id` may repeat the requested one (its case is settled
 * by the §9.2 redirect) but not name another; the stored property is compared later by replaceStatement.
 */
export function checkReplacement(input: unknown, path: string, lookup: ReferenceLookup, requestedId: string): void {
  if (isPlainObject(input) && Object.prototype.hasOwnProperty.call(input, 'id')) {
    const { id } = input;
    const isRequested = typeof id === 'string' && id.toUpperCase() === requestedId.toUpperCase();
    if (!isRequested) problem({ type: 'read-only', path: pointer(path, 'id') });
  }
  parseStatement(input, path, lookup, { id: requestedId });
}
