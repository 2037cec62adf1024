// Property constraints against the store (docs/api.md §10.18): the domain's checker (domain/constraints/) with its
// lookups answered by the store, for every place that checks: the REST route, wbcheckconstraints, the web
// interface, `entia check-constraints`, and commitEdit in enforce mode.
import { sameJson, type Entity } from '../domain/entity.js';
import { EntiaError } from '../domain/errors.js';
import { checkEntity, linksOf, type CheckFocus, type ConstraintLookup, type Links, type Violation } from '../domain/constraints/check.js';
import { constraintsOf, type Constraint } from '../domain/constraints/model.js';
import type { ConstraintVocabulary } from '../domain/constraints/vocabulary.js';
import { kindByName, parseEntityId } from '../domain/kinds.js';
import type { Config } from '../config.js';
import type { EntityStore, SearchIndex } from '../store/store.js';
import { RevisionCache } from '../store/revision-cache.js';

export type { Violation };

/** The store parts a check reads: documents (properties for their constraints, values for their links) and the value index. */
export type ConstraintStore = Pick<EntityStore, 'readDocument'> & Pick<SearchIndex, 'statementValues'>;

/**
 * What checks derive from a revision, kept across requests by (id, revision): a property's constraints and an
 * entity's links. A check then reads only heads (one small indexed read each) for what it has seen before, where
 * it parsed whole documents: an edit in enforce mode reads the same properties and values again and again.
 */
export interface ConstraintCaches {
  constraints: RevisionCache<readonly Constraint[]>;
  links: RevisionCache<Links>;
  /** When each id's head was last read (ms), for lookups that trust what they read a moment ago (enforce). */
  checked: Map<string, number>;
  /** Class closures by their starting classes, with when they were walked, for the same lookups. */
  closures: Map<string, { at: number; closure: Promise<Set<string> | null> }>;
}

/**
 * How long enforce trusts a property's constraints and an entity's links it read, without reading their heads again.
 * An edit's check then reads only what it has not seen lately, as WikibaseQualityConstraints keeps its results for a
 * while: a change of a property's constraints or of a class applies to enforcement within this time, and to the
 * reports at once.
 */
export const ENFORCE_TRUST_MS = 10_000;

/** Kept constraints and links, in characters of their JSON: some 16,000 typical entities' links. */
const CACHE_BUDGET = 16 * 2 ** 20;

/** Ids whose last head read is remembered, at most; the oldest are forgotten (they are only read again). */
const CHECKED_MAX = 100_000;
/** Class closures kept for enforce, at most (each up to MAX_CLASSES ids). */
const CLOSURES_MAX = 1_000;

export function constraintCaches(budget = CACHE_BUDGET): ConstraintCaches {
  return { constraints: new RevisionCache(budget / 4), links: new RevisionCache(budget), checked: new Map(), closures: new Map() };
}

/**
 * Lookups for one or more checks; within one lookup a property's constraints and an entity's links are read once.
 * `trustMs`: what the caches hold from a head read this recent is used without reading the head (enforce).
 */
export function constraintLookup(store: ConstraintStore, vocab: ConstraintVocabulary, caches: ConstraintCaches = constraintCaches(0), trustMs = 0)
  : ConstraintLookup & { remember(entity: Entity, revision: number): void } {
  const derived = <V>(cache: RevisionCache<V>, derive: (e: Entity) => V, size: (v: V) => number) => {
    const seen = new Map<string, Promise<V | null>>();
    const fresh = (id: string): V | undefined => {
      const at = caches.checked.get(id);
      const revision = cache.revisionOf(id);
      return at !== undefined && revision !== undefined && Date.now() - at < trustMs ? cache.get(id, revision) : undefined;
    };
    return (id: string): Promise<V | null> => {
      let found = seen.get(id);
      if (!found) {
        const trusted = trustMs > 0 ? fresh(id) : undefined;
        seen.set(id, found = trusted !== undefined ? Promise.resolve(trusted) : store.readDocument(id).then((read) => {
          if (read.status !== 'found') return null;
          checked(caches, id);
          const kept = cache.get(id, read.head.revision);
          if (kept !== undefined) return kept;
          const value = derive(JSON.parse(read.json()) as Entity);
          return cache.put(id, read.head.revision, value, size(value));
        }));
      }
      return found;
    };
  };
  const constraints = derived(caches.constraints, (p) => (kindByName(p.type).hasDataType ? constraintsOf(p, vocab) : []), (c) => 200 * c.length + 10);
  const links = derived(caches.links, linksOf, linksSize);
  const closures = trustMs > 0 ? {
    get(key: string) {
      const kept = caches.closures.get(key);
      return kept && Date.now() - kept.at < trustMs ? kept.closure : undefined;
    },
    set(key: string, closure: Promise<Set<string> | null>) {
      caches.closures.delete(key);
      caches.closures.set(key, { at: Date.now(), closure });
      if (caches.closures.size > CLOSURES_MAX) caches.closures.delete(caches.closures.keys().next().value!);
    },
  } : undefined;
  return {
    constraints: async (property) => (await constraints(property)) ?? [],
    links,
    closures,
    remember(e: Entity, revision: number) {
      const value = linksOf(e);
      caches.links.put(e.id, revision, value, linksSize(value));
    },
    async holders(property, key, except, limit) {
      const kind = parseEntityId(except)?.kind ?? kindByName('item');
      const ids = await store.statementValues.find({ kind: kind.name, conditions: [{ property, key }], after: null, limit: limit + 1 });
      return ids.map((n) => `${kind.prefix}${n}`).filter((id) => id !== except).slice(0, limit);
    },
  };
}

function checked(caches: ConstraintCaches, id: string): void {
  caches.checked.delete(id);
  caches.checked.set(id, Date.now());
  if (caches.checked.size > CHECKED_MAX) caches.checked.delete(caches.checked.keys().next().value!);
}

function linksSize(links: Links): number {
  let n = 10;
  for (const [p, ids] of Object.entries(links)) n += p.length + 4 + ids.reduce((m, id) => m + id.length + 3, 0);
  return n;
}

/** Every constraint the entity breaks. */
export function violationsOf(store: ConstraintStore, vocab: ConstraintVocabulary, entity: Entity, caches?: ConstraintCaches): Promise<Violation[]> {
  return checkEntity(entity, constraintLookup(store, vocab, caches), vocab);
}

/** A violation as the REST API and the web interface show it. */
export function renderViolation(v: Violation): Record<string, unknown> {
  return {
    statement_id: v.statement, property_id: v.constraint.property, place: v.place, status: v.status, message: v.message,
    constraint: { id: v.constraint.id, type: v.constraint.type, type_item: v.constraint.typeItem, property_id: v.constraint.property },
  };
}

const violationKey = (v: Violation) => `${v.constraint.id}\u0000${v.statement}\u0000${v.place}`;

/**
 * ENTIA_CONSTRAINTS=enforce: refuses an edit whose result breaks a mandatory constraint the entity did not break
 * before (422 constraint-violation, naming the constraint). Suggestions and warnings never refuse, and what was
 * broken already stays editable. In the other modes it does nothing: every commit (commitEdit, the merge) calls it.
 */
export async function enforceConstraints(config: Pick<Config, 'constraints' | 'constraintVocabulary'>, store: ConstraintStore,
  caches: ConstraintCaches | undefined, before: Entity | null, next: Entity): Promise<void> {
  if (config.constraints !== 'enforce') return;
  const vocab = config.constraintVocabulary;
  const lookup = constraintLookup(store, vocab, caches, ENFORCE_TRUST_MS);
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
    statement_id: before ? first.statement : null, property_id: first.constraint.property,
  }, { message: first.message });
}

/** The properties whose statements differ between two versions of an entity, and whether its terms do. */
function changesBetween(before: Entity, next: Entity): CheckFocus {
  const properties = new Set<string>();
  // An edit keeps the statements it leaves alone as the same objects (patchedEntity), so most compare by identity.
  const same = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) =>
    a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((s, i) => s === b[i] || sameJson(s, b[i])));
  for (const p of new Set([...Object.keys(before.statements), ...Object.keys(next.statements)])) {
    if (!same(before.statements[p], next.statements[p])) properties.add(p);
  }
  return { properties, terms: !sameJson(before.labels, next.labels) || !sameJson(before.descriptions, next.descriptions) };
}
