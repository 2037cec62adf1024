// Property constraints against the store (docs/api.md §10.18): the domain's checker (domain/constraints/) with its
// lookups answered by the store, for every place that checks: the REST route, wbcheckconstraints, the web
// interface, `entia check-constraints`, and commitEdit in enforce mode.
import { sameJson, type Entity } from '../domain/entity.js';
import { EntiaError } from '../domain/errors.js';
import { checkEntity, linksOf, type CheckFocus, type ConstraintLookup, type Links, type Violation } from '../domain/constraints/check.js';
import { constraintsOf, type Constraint } from '../domain/constraints/model.js';
import type { ConstraintVocabulary } from '../domain/constraints/vocabulary.js';
import { kindByName, parseEntityId } from '../domain/kinds.js';
import type { EntityStore, SearchIndex } from '../store/store.js';

export type { Violation };

/** The store parts a check reads: entities (properties for their constraints) and the statement-value index. */
export type ConstraintStore = Pick<EntityStore, 'readEntity'> & Pick<SearchIndex, 'statementValues'>;

/**
 * Lookups for one or more checks; a property's constraints are read once per lookup. `keep`: entities kept between
 * checks (most recently used first), for a run that checks many entities whose values and classes recur (the
 * whole-store report); a single check keeps what it reads anyway.
 */
export function constraintLookup(store: ConstraintStore, vocab: ConstraintVocabulary, keep = 0): ConstraintLookup & { remember(entity: Entity): void } {
  const constraints = new Map<string, Promise<readonly Constraint[]>>();
  const kept = new Map<string, Promise<Links | null>>();
  const entity = async (id: string): Promise<Entity | null> => {
    const found = await store.readEntity(id);
    return found.status === 'found' ? found.entity : null;
  };
  const links = (id: string): Promise<Links | null> => {
    if (keep === 0) return entity(id).then((e) => e && linksOf(e));
    let found = kept.get(id);
    if (found) kept.delete(id);
    else found = entity(id).then((e) => e && linksOf(e));
    kept.set(id, found);
    if (kept.size > keep) kept.delete(kept.keys().next().value!);
    return found;
  };
  return {
    constraints(property) {
      let found = constraints.get(property);
      if (!found) {
        constraints.set(property, found = entity(property).then((p) => (p?.type === 'property' ? constraintsOf(p, vocab) : [])));
      }
      return found;
    },
    links,
    remember(e: Entity) {
      if (keep === 0) return;
      kept.delete(e.id);
      kept.set(e.id, Promise.resolve(linksOf(e)));
      if (kept.size > keep) kept.delete(kept.keys().next().value!);
    },
    async holders(property, key, except, limit) {
      const kind = parseEntityId(except)?.kind ?? kindByName('item');
      const ids = await store.statementValues.find({ kind: kind.name, conditions: [{ property, key }], after: null, limit: limit + 1 });
      return ids.map((n) => `${kind.prefix}${n}`).filter((id) => id !== except).slice(0, limit);
    },
  };
}

/** Every constraint the entity breaks. */
export function violationsOf(store: ConstraintStore, vocab: ConstraintVocabulary, entity: Entity): Promise<Violation[]> {
  return checkEntity(entity, constraintLookup(store, vocab), vocab);
}

/** A violation as the REST API and the web interface show it. */
export function renderViolation(v: Violation): Record<string, unknown> {
  return {
    statement_id: v.statement, property_id: v.property, place: v.place, status: v.status, message: v.message,
    constraint: { id: v.constraint.id, type: v.constraint.type, type_item: v.constraint.typeItem, property_id: v.constraint.property },
  };
}

const violationKey = (v: Violation) => `${v.constraint.id}\u0000${v.statement}\u0000${v.place}\u0000${v.property}`;

/**
 * ENTIA_CONSTRAINTS=enforce: refuses an edit whose result breaks a mandatory constraint the entity did not break
 * before (422 constraint-violation, naming the constraint). Suggestions and warnings never refuse, and what was
 * broken already stays editable.
 */
export async function enforceConstraints(store: ConstraintStore, vocab: ConstraintVocabulary, before: Entity | null, next: Entity): Promise<void> {
  const lookup = constraintLookup(store, vocab);
  // Only the checks the edit can have changed run (an edit of one statement checks that property's group).
  const focus = before ? changesBetween(before, next) : undefined;
  const mandatory = async (e: Entity) => (await checkEntity(e, lookup, vocab, focus)).filter((v) => v.status === 'violation');
  const added = await mandatory(next);
  if (added.length === 0) return;
  const had = new Set((before ? await mandatory(before) : []).map(violationKey));
  const first = added.find((v) => !had.has(violationKey(v)));
  if (!first) return;
  throw new EntiaError('constraint-violation', {
    constraint_id: first.constraint.id, constraint_type: first.constraint.type,
    statement_id: before ? first.statement : null, property_id: first.property,
  }, { message: first.message });
}

/** The properties whose statements differ between two versions of an entity, and whether its terms do. */
function changesBetween(before: Entity, next: Entity): CheckFocus {
  const properties = new Set<string>();
  for (const p of new Set([...Object.keys(before.statements), ...Object.keys(next.statements)])) {
    if (before.statements[p] !== next.statements[p] && !sameJson(before.statements[p], next.statements[p])) properties.add(p);
  }
  return { properties, terms: !sameJson(before.labels, next.labels) || !sameJson(before.descriptions, next.descriptions) };
}
