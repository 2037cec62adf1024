// What a Wikibase source says of an entity that the contract's form does not show (issue #33, ADR 0012):
// the source's own revision and time, and a time value's `timezone`, `before` and `after` where one is not 0.
// Kept in the stored document beside the entity (`source`, never rendered by the REST API) so that the dump
// export, the Action API and Special:EntityData give them back and hash each snak as Wikidata does. Pure.
import type { Entity, SourceDetails, Statement, TimeDetails } from './entity.js';

type Json = Record<string, any>;

/** Where a time value stands: its statement, its snak's property and the value itself (the REST content). */
export function timeKey(statementId: string, property: string, content: unknown): string {
  const c = (content ?? {}) as Json;
  return `${statementId}|${property}|${c.time}|${c.precision}|${c.calendarmodel}`;
}

/** A dump time value's details, or null when they are all 0 (the REST form then says everything). */
export function timeDetailsOf(value: Json | undefined): TimeDetails | null {
  const n = (x: unknown) => (Number.isInteger(x) ? (x as number) : 0);
  const details = { timezone: n(value?.timezone), before: n(value?.before), after: n(value?.after) };
  return details.timezone || details.before || details.after ? details : null;
}

/** Every time value of a statement: its main snak, qualifiers and reference parts, with their property. */
function timeValues(statement: Statement): { property: string; content: unknown }[] {
  return [statement, ...statement.qualifiers, ...statement.references.flatMap((r) => r.parts)]
    .filter((s) => s.value.type === 'value' && typeof (s.value as Json).content === 'object' && (s.value as Json).content?.time !== undefined)
    .map((s) => ({ property: s.property.id, content: (s.value as Json).content }));
}

/**
 * `next` with the source details of `previous` that still apply: an edit through the REST API or the Action API
 * works on the contract's form, which does not carry them, so the details of every time value the edit left as
 * it was are kept, and those of a changed or removed value are dropped with it.
 */
export function carrySourceDetails(previous: Entity | null, next: Entity): Entity {
  const held = previous?.source;
  if (!held || next.source !== undefined) return next;
  const source: SourceDetails = { ...held };
  if (held.times) {
    const present = new Set(Object.values(next.statements).flat()
      .flatMap((s) => timeValues(s).map((v) => timeKey(s.id, v.property, v.content))));
    const times = Object.fromEntries(Object.entries(held.times).filter(([key]) => present.has(key)));
    if (Object.keys(times).length) source.times = times;
    else delete source.times;
  }
  return Object.keys(source).length ? { ...next, source } : next;
}
