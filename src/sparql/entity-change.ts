// What an edit changed of an entity, found by identity: an edit derives its entity from the one it read, so
// every member and every property's statements it left alone are the same objects in both
// (store/recent-writes.ts). The SPARQL mirror sends its RDF writer only this, and the writer rebuilds the
// revision from the one it holds, sharing the untouched parts, which it then skips by identity too
// (rdf-diff.ts): neither thread parses or compares the whole document of an edit of one label. Pure.
import type { Entity } from '../domain/entity.js';
import type { EntityChange } from './engine-protocol.js';

type Members = Record<string, unknown>;

/** The members and statement groups `entity` holds in place of `base`'s, and those it dropped. */
export function entityChange(base: Entity, entity: Entity): EntityChange {
  const change: EntityChange = { set: {}, unset: [], statements: {}, unstated: [] };
  const [from, to] = [base as unknown as Members, entity as unknown as Members];
  for (const key of Object.keys(to)) if (key !== 'statements' && to[key] !== from[key]) change.set[key] = to[key];
  for (const key of Object.keys(from)) if (!(key in to)) change.unset.push(key);
  if (entity.statements !== base.statements) {
    for (const [property, group] of Object.entries(entity.statements)) {
      if (group !== base.statements[property]) change.statements[property] = group;
    }
    for (const property of Object.keys(base.statements)) if (!(property in entity.statements)) change.unstated.push(property);
  }
  return change;
}

/** `base` with `change` applied: what the change does not name is `base`'s own object. */
export function applyEntityChange(base: Entity, change: EntityChange): Entity {
  const out: Members = { ...(base as unknown as Members), ...change.set };
  for (const key of change.unset) delete out[key];
  if (Object.keys(change.statements).length > 0 || change.unstated.length > 0) {
    const statements: Members = { ...base.statements, ...change.statements };
    for (const property of change.unstated) delete statements[property];
    out.statements = statements;
  }
  return out as unknown as Entity;
}
