// The parts of an entity an edit can change on its own: each term of each language, each sitelink, each statement
// (by id), a property's data type. Two edits conflict when they change a part in common (issue #35: Wikibase
// applies an edit made against an older revision when the edits made since do not touch what it changes). Pure.
import type { Entity } from './entity.js';

/** Every part of `entity` with its value as JSON text, keyed `labels/en`, `sitelinks/enwiki`, `statements/<id>`, …. */
function parts(entity: Entity): Map<string, string> {
  const out = new Map<string, string>();
  for (const field of ['labels', 'descriptions', 'aliases'] as const) {
    for (const [language, value] of Object.entries(entity[field])) out.set(`${field}/${language}`, JSON.stringify(value));
  }
  for (const [site, link] of Object.entries(entity.sitelinks ?? {})) out.set(`sitelinks/${site}`, JSON.stringify(link));
  for (const statements of Object.values(entity.statements)) {
    statements.forEach((s, position) => out.set(`statements/${s.id}`, JSON.stringify({ s, position })));
  }
  if (entity.data_type !== undefined) out.set('data_type', entity.data_type);
  return out;
}

/** The parts that differ between two versions of one entity (added, removed or changed). */
export function changedParts(before: Entity, after: Entity): Set<string> {
  const a = parts(before);
  const b = parts(after);
  const changed = new Set<string>();
  for (const [key, value] of a) if (b.get(key) !== value) changed.add(key);
  for (const key of b.keys()) if (!a.has(key)) changed.add(key);
  return changed;
}
