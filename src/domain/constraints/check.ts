// Checking an entity against the constraints of the properties it uses (docs/api.md §10.18, ADR 0015). Pure: what
// needs the store (a property's constraints, another entity, who else holds a value) comes through ConstraintLookup,
// as the data policy's lookups do. Every check is bounded: regular expressions run on a linear-time engine (RE2),
// class hierarchies are walked to at most MAX_CLASSES classes, distinct values read at most a few holders.
import type { Entity, Snak, Statement } from '../entity.js';
import { statementValueKeys } from '../statement-values.js';
import type { Constraint, Place } from './model.js';
import type { ConstraintType, ConstraintVocabulary } from './vocabulary.js';
import { bounded, format, integer, itemValue, list, magnitude, oneOf, range, units, type Problem } from './value-checks.js';
import { kindByName, parseEntityId } from '../kinds.js';

export interface ConstraintLookup {
  /** The constraints a property states (none when it states none or does not exist). */
  constraints(property: string): Promise<readonly Constraint[]>;
  /** What the checks read of another entity (a value's, a class's): its links, or null when it does not exist. */
  links(id: string): Promise<Links | null>;
  /** Up to `limit` entities other than `except` with a statement of `property` whose value has this lookup key. */
  holders(property: string, key: string, except: string, limit: number): Promise<string[]>;
  /**
   * Class closures (the classes a set of classes is, walked up subclass of) kept beyond one check, where the caller
   * accepts them a little old (enforce); absent, each check walks again.
   */
  closures?: { get(key: string): Promise<Set<string> | null> | undefined; set(key: string, closure: Promise<Set<string> | null>): void };
}

/**
 * An entity's non-deprecated main values by property: the item or property id each names, a time's timestamp, or
 * '' for a value of another kind. Small, so that a long run can keep many of them (the whole-store report).
 */
export type Links = Readonly<Record<string, readonly string[]>>;

export function linksOf(entity: Entity): Links {
  const out: Record<string, string[]> = {};
  for (const [property, group] of Object.entries(entity.statements)) {
    const kept = group.filter((s) => s.rank !== 'deprecated').map((s) => itemValue(s) ?? timeValue(s) ?? '');
    if (kept.length) out[property] = kept;
  }
  return out;
}

function timeValue(snak: Pick<Snak, 'value'>): string | null {
  const time = snak.value.type === 'value' ? (snak.value.content as { time?: unknown } | null)?.time : undefined;
  return typeof time === 'string' ? time : null;
}

export type ResultStatus = 'violation' | 'warning' | 'suggestion' | 'bad-parameters';

export interface Violation {
  constraint: Constraint;
  /** The statement whose main value, qualifier or reference broke the constraint (with the constraint's property). */
  statement: string;
  place: Place;
  /** Where in the statement: [] for its main value, [i] for its i-th qualifier, [r, p] for part p of reference r. */
  at: number[];
  status: ResultStatus;
  message: string;
}

/** Classes read while walking up a class hierarchy (subclass of), at most: a deeper hierarchy is not judged. */
export const MAX_CLASSES = 1000;
/** Other holders of a value named in a distinct-values violation. */
const HOLDERS_SHOWN = 5;

/** Types checked once per statement (main values); the rest are value checks, wherever the property is used. */
const STATEMENT_TYPES = new Set<ConstraintType>(['single-value', 'single-best-value', 'multi-value', 'distinct-values',
  'conflicts-with', 'item-requires-statement', 'value-requires-statement', 'type', 'inverse', 'symmetric', 'allowed-qualifiers',
  'mandatory-qualifier', 'difference-within-range', 'citation-needed', 'allowed-entity-types', 'label-in-language',
  'description-in-language', 'contemporary']);

interface Use {
  statement: Statement;
  snak: Pick<Snak, 'property' | 'value'>;
  place: Place;
  at: number[];
}

/**
 * What an edit changed, so that only the checks it can affect run (enforce mode): the properties whose statements
 * differ, and whether labels or descriptions do.
 */
export interface CheckFocus {
  properties: ReadonlySet<string>;
  terms: boolean;
}

/** Every constraint the entity's non-deprecated statements break, in statement order; with `focus`, only those an edit can have changed. */
export async function checkEntity(entity: Entity, lookup: ConstraintLookup, vocab: ConstraintVocabulary, focus?: CheckFocus): Promise<Violation[]> {
  const run = new Run(entity, lookup, vocab);
  const out: Violation[] = [];
  for (const use of usesOf(entity)) {
    for (const constraint of await lookup.constraints(use.snak.property.id)) {
      if (constraint.exceptions.has(entity.id) || !applies(constraint, use.place)) continue;
      if (focus && !concerns(focus, constraint, use, vocab)) continue;
      const problem = await run.check(constraint, use);
      if (problem) out.push(violation(constraint, use, problem));
    }
  }
  return out;
}

/** Main values first, then each statement's qualifiers and references. */
function* usesOf(entity: Entity): Generator<Use> {
  for (const group of Object.values(entity.statements)) {
    for (const statement of group) {
      if (statement.rank === 'deprecated') continue;
      yield { statement, snak: statement, place: 'main', at: [] };
      for (const [i, q] of statement.qualifiers.entries()) yield { statement, snak: q, place: 'qualifier', at: [i] };
      for (const [r, reference] of statement.references.entries()) {
        for (const [p, part] of reference.parts.entries()) yield { statement, snak: part, place: 'reference', at: [r, p] };
      }
    }
  }
}

/**
 * Whether an edit that changed `focus` can change this check's outcome: the statement's own property changed, or
 * a property the constraint reads on the same entity, or the entity's classes (type), or its terms.
 */
function concerns(focus: CheckFocus, c: Constraint, use: Use, vocab: ConstraintVocabulary): boolean {
  if (focus.properties.has(use.statement.property.id)) return true;
  if (c.properties.some((p) => focus.properties.has(p))) return true;
  if (c.type === 'type') return focus.properties.has(vocab.properties.instanceOf) || focus.properties.has(vocab.properties.subclassOf);
  if (c.type === 'contemporary') return [...vocab.times.start, ...vocab.times.end].some((p) => focus.properties.has(p));
  return focus.terms && (c.type === 'label-in-language' || c.type === 'description-in-language');
}

function applies(constraint: Constraint, place: Place): boolean {
  if (constraint.type === 'property-scope') return true;
  if (constraint.scope) return constraint.scope.has(place) && (place === 'main' || !STATEMENT_TYPES.has(constraint.type));
  return place === 'main' || !STATEMENT_TYPES.has(constraint.type);
}


function violation(constraint: Constraint, use: Use, problem: Problem): Violation {
  const bad = typeof problem === 'object';
  return {
    constraint, statement: use.statement.id, place: use.place, at: use.at,
    status: bad ? 'bad-parameters' : constraint.status === 'mandatory' ? 'violation' : constraint.status === 'suggestion' ? 'suggestion' : 'warning',
    message: bad ? problem.badParameters : problem,
  };
}



/** One entity's check: the entities and class closures it reads, kept for its other constraints. */
class Run {
  private readonly entities = new Map<string, Promise<Links | null>>();
  private ownLinks: Links | null = null;
  private readonly closures = new Map<string, Promise<Set<string> | null>>();
  private readonly groups = new Map<string, { all: Statement[]; best: Statement[] }>();
  private readonly separatorCounts = new Map<Statement[], Map<string, Map<string, number>>>();
  constructor(private readonly entity: Entity, private readonly lookup: ConstraintLookup, private readonly vocab: ConstraintVocabulary) {}

  private read(id: string): Promise<Links | null> {
    if (id === this.entity.id) return Promise.resolve(this.ownLinks ??= linksOf(this.entity));
    let read = this.entities.get(id);
    if (!read) this.entities.set(id, read = this.lookup.links(id));
    return read;
  }

  /** The entity's non-deprecated statements of a property, and of those its best-ranked ones. */
  private groupOf(property: string): { all: Statement[]; best: Statement[] } {
    let group = this.groups.get(property);
    if (!group) {
      const all = (this.entity.statements[property] ?? []).filter((x) => x.rank !== 'deprecated');
      const preferred = all.filter((x) => x.rank === 'preferred');
      this.groups.set(property, group = { all, best: preferred.length ? preferred : all });
    }
    return group;
  }

  /** How many statements of the group share `s`'s separator values (P4155), counted once per constraint and group. */
  private sharing(c: Constraint, group: Statement[], s: Statement): number {
    let counts = this.separatorCounts.get(group)?.get(c.id);
    if (!counts) {
      counts = new Map();
      for (const x of group) counts.set(separatorKey(c, x), (counts.get(separatorKey(c, x)) ?? 0) + 1);
      if (!this.separatorCounts.has(group)) this.separatorCounts.set(group, new Map());
      this.separatorCounts.get(group)!.set(c.id, counts);
    }
    return counts.get(separatorKey(c, s)) ?? 0;
  }

  async check(c: Constraint, use: Use): Promise<Problem | null> {
    const e = this.entity;
    const s = use.statement;
    switch (c.type) {
      case 'single-value': return this.sharing(c, this.groupOf(c.property).all, s) > 1 ? 'This property should only contain a single value.' : null;
      case 'single-best-value': {
        const { best } = this.groupOf(c.property);
        return best.includes(s) && this.sharing(c, best, s) > 1 ? 'This property should have a single best value: mark one as preferred.' : null;
      }
      case 'multi-value': return this.groupOf(c.property).all.length === 1 ? 'This property should contain more than one value.' : null;
      case 'distinct-values': return this.distinct(c, s);
      case 'format': return format(c, use.snak);
      case 'one-of': return oneOf(c, use.snak, true);
      case 'none-of': return oneOf(c, use.snak, false);
      case 'conflicts-with': return this.conflicts(c);
      case 'item-requires-statement': return requires(c, 'This entity', (p) => this.groupOf(p).all.map((x) => itemValue(x) ?? ''));
      case 'value-requires-statement': {
        const value = itemValue(use.snak);
        const target = value ? await this.read(value) : null;
        return target ? requires(c, `The value ${value}`, (p) => target[p] ?? []) : null;
      }
      case 'type': return this.typed(e.id, await this.read(e.id), c, `${e.id}`);
      case 'value-type': {
        const value = itemValue(use.snak);
        const target = value ? await this.read(value) : null;
        return target ? this.typed(value!, target, c, `The value ${value}`) : null;
      }
      case 'inverse':
      case 'symmetric': {
        const value = itemValue(use.snak);
        const back = c.type === 'inverse' ? c.properties[0] : c.property;
        if (!value || !back) return c.type === 'inverse' && !back ? { badParameters: 'An inverse constraint needs its property (P2306).' } : null;
        const target = await this.read(value);
        return target && !(target[back] ?? []).includes(e.id) ? `${value} should have a ${back} statement with the value ${e.id}.` : null;
      }
      case 'allowed-qualifiers': {
        const other = s.qualifiers.map((q) => q.property.id).filter((p) => !c.properties.includes(p));
        return other.length ? `The qualifier ${[...new Set(other)].join(', ')} is not allowed here (allowed: ${list(c.properties) || 'none'}).` : null;
      }
      case 'mandatory-qualifier': {
        const missing = c.properties.filter((p) => !s.qualifiers.some((q) => q.property.id === p));
        return missing.length ? `This statement needs a qualifier ${missing.join(', ')}.` : null;
      }
      case 'range': return range(c, use.snak);
      case 'difference-within-range': return this.difference(c, s);
      case 'allowed-units': return units(c, use.snak);
      case 'integer': return integer(use.snak);
      case 'no-bounds': return bounded(use.snak) ? 'This quantity should not have bounds.' : null;
      case 'allowed-entity-types': {
        const kind = kindByName(e.type);
        return c.items.includes(this.vocab.items[kind.constraintEntityType]) ? null : `This property should not be used on ${kind.segment}.`;
      }
      case 'property-scope':
        return c.propertyScopes.includes(use.place) ? null
          : `This property should not be used ${use.place === 'main' ? 'for statements' : `as a ${use.place}`} (only ${c.propertyScopes.map(placeName).join(', ') || 'nowhere'}).`;
      case 'citation-needed': return s.references.length === 0 ? 'This statement should have at least one reference.' : null;
      case 'contemporary': {
        const value = itemValue(use.snak);
        const target = value ? await this.read(value) : null;
        if (!target) return null;
        const own = lifetime(await this.read(e.id), this.vocab);
        const theirs = lifetime(target, this.vocab);
        const apart = (own.end !== null && theirs.start !== null && own.end < theirs.start)
          || (theirs.end !== null && own.start !== null && theirs.end < own.start);
        return apart ? `${e.id} and ${value} should have existed at the same time.` : null;
      }
      case 'label-in-language':
      case 'description-in-language': {
        const terms = c.type === 'label-in-language' ? e.labels : e.descriptions;
        const missing = c.languages.filter((l) => terms[l] === undefined && !(c.type === 'label-in-language' && terms.mul !== undefined));
        return missing.length ? `This entity should have a ${c.type === 'label-in-language' ? 'label' : 'description'} in ${missing.join(', ')}.` : null;
      }
    }
  }

  private async distinct(c: Constraint, s: Statement): Promise<Problem | null> {
    const key = statementValueKeys({ statements: { [c.property]: [s] } }).map((k) => k.key).find((k) => k !== '');
    if (key === undefined) return null;
    const others = await this.lookup.holders(c.property, key, this.entity.id, HOLDERS_SHOWN);
    return others.length ? `This value should be unique, but ${others.join(', ')} ${others.length === 1 ? 'has' : 'have'} it too.` : null;
  }

  private conflicts(c: Constraint): Problem | null {
    const other = c.properties[0];
    if (!other) return { badParameters: 'A conflicts-with constraint needs its property (P2306).' };
    const held = this.groupOf(other).all;
    const hit = c.items.length ? held.some((x) => c.items.includes(itemValue(x) ?? '')) : held.length > 0;
    return hit ? `This entity should not have a ${other} statement${c.items.length ? ` with the value ${list(c.items)}` : ''} as well.` : null;
  }

  private async typed(id: string, target: Links | null, c: Constraint, who: string): Promise<Problem | null> {
    if (c.classes.length === 0) return { badParameters: 'A type constraint needs its classes (P2308).' };
    const { instanceOf, subclassOf } = this.vocab.properties;
    const starts = [
      ...(c.relation !== 'subclass' ? ids(target?.[instanceOf]) : []),
      ...(c.relation !== 'instance' ? [id, ...ids(target?.[subclassOf])] : []),
    ];
    const closure = await this.closure(starts);
    if (closure === null) return null; // too deep to judge (MAX_CLASSES)
    if (c.classes.some((cls) => closure.has(cls))) return null;
    const relation = c.relation === 'instance' ? 'an instance' : c.relation === 'subclass' ? 'a subclass' : 'an instance or subclass';
    return `${who} should be ${relation} of ${list(c.classes)}.`;
  }

  /** The classes `starts` are, with every class they are subclasses of; null past MAX_CLASSES. */
  private closure(starts: string[]): Promise<Set<string> | null> {
    const key = starts.join(' ');
    let found = this.closures.get(key) ?? this.lookup.closures?.get(key);
    if (!found) {
      found = this.walk(starts);
      this.lookup.closures?.set(key, found);
    }
    this.closures.set(key, found);
    return found;
  }

  private async walk(starts: string[]): Promise<Set<string> | null> {
    const seen = new Set<string>();
    let frontier = starts;
    while (frontier.length) {
      const next: string[] = [];
      for (const id of frontier) {
        if (seen.has(id)) continue;
        seen.add(id);
        if (seen.size > MAX_CLASSES) return null;
        const cls = await this.read(id);
        next.push(...ids(cls?.[this.vocab.properties.subclassOf]));
      }
      frontier = next;
    }
    return seen;
  }

  private difference(c: Constraint, s: Statement): Problem | null {
    const other = c.properties[0];
    if (!other) return { badParameters: 'A difference-within-range constraint needs its property (P2306).' };
    const base = (this.entity.statements[other] ?? []).find((x) => x.rank !== 'deprecated');
    const a = magnitude(s);
    const b = base ? magnitude(base) : null;
    if (a === null || b === null) return null;
    const diff = a - b;
    const min = magnitude({ value: { type: 'value', content: c.minimum } });
    const max = magnitude({ value: { type: 'value', content: c.maximum } });
    if ((min !== null && diff < min) || (max !== null && diff > max)) {
      return `The difference from ${other} (${diff}) should be between ${min ?? '−∞'} and ${max ?? '∞'}.`;
    }
    return null;
  }
}

/** Statements of the same property that differ in the separators' values (P4155) are different values. */
function separatorKey(c: Constraint, x: Statement): string {
  if (c.separators.length === 0) return '';
  return JSON.stringify(c.separators.map((p) => x.qualifiers.filter((q) => q.property.id === p).map((q) => q.value)));
}

/** `valuesOf`: the links (Links) of a property, of the entity that must have a statement of it. */
function requires(c: Constraint, who: string, valuesOf: (property: string) => readonly string[]): Problem | null {
  const other = c.properties[0];
  if (!other) return { badParameters: 'A requires-statement constraint needs its property (P2306).' };
  const held = valuesOf(other);
  const ok = c.items.length ? held.some((x) => c.items.includes(x)) : held.length > 0;
  return ok ? null : `${who} should also have a ${other} statement${c.items.length ? ` with the value ${list(c.items)}` : ''}.`;
}

/** The ids among a property's links (values of other kinds left out). */
function ids(links: readonly string[] | undefined): string[] {
  return (links ?? []).filter((v) => parseEntityId(v)?.id === v);
}

/** When an entity began and ended to exist, as years: the earliest start and the latest end its time properties say. */
function lifetime(links: Links | null, vocab: ConstraintVocabulary): { start: number | null; end: number | null } {
  const years = (properties: string[]) => properties.flatMap((p) => links?.[p] ?? [])
    .map((t) => magnitude({ value: { type: 'value', content: { time: t } } })).filter((y): y is number => y !== null);
  const starts = years(vocab.times.start);
  const ends = years(vocab.times.end);
  return { start: starts.length ? Math.min(...starts) : null, end: ends.length ? Math.max(...ends) : null };
}

function placeName(place: Place): string {
  return place === 'main' ? 'as a main value' : `as a ${place}`;
}
