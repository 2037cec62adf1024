// Merging one item into another, by Wikibase's rules (its ChangeOpsMerge): what moves, what conflicts, what is
// left behind. Pure: the caller loads both items and writes the result (http/write/merge.ts, one atomic store call).
//
//   labels        moved where the target has none in the language or the same one; a different one becomes an
//                 alias of the target (a label never stops a merge)
//   descriptions  moved likewise; a different one is a conflict
//   aliases       all added to the target's
//   sitelinks     moved where the target has none for the site; the same title merges the badges; a different
//                 title is a conflict
//   statements    moved with new ids under the target; one with the same property, value and qualifiers as a
//                 target statement adds its references to that one instead; a statement of either item whose
//                 value is the other item is a conflict
//
// A conflict stops the merge unless its kind is ignored; an ignored conflict's part stays on the source, which
// then is not empty and does not become a redirect.
import type { Entity, Snak, Statement, StatementMap } from './entity.js';
import { EntiaError } from './errors.js';
import { canonical, newStatementId } from './statements.js';

export const MERGE_CONFLICTS = ['description', 'sitelink', 'statement'] as const;
export type MergeConflict = (typeof MERGE_CONFLICTS)[number];

export interface Merged {
  /** What is left of the source: empty unless an ignored conflict kept something there. */
  source: Entity;
  /** The target with the source's content added. */
  target: Entity;
}

/** Merges `source` into `target`. Throws `merge-conflict` for the first conflict whose kind is not ignored. */
export function mergeItems(source: Entity, target: Entity, ignore: ReadonlySet<MergeConflict> = new Set()): Merged {
  if (source.id === target.id) throw new EntiaError('merge-into-self', undefined, { id: source.id });
  const left = copy(source);
  const into = copy(target);
  mergeLabels(left, into);
  mergeDescriptions(left, into, ignore.has('description'));
  mergeAliases(left, into);
  mergeSitelinks(left, into, ignore.has('sitelink'));
  mergeStatements(left, into, ignore.has('statement'));
  return { source: left, target: into };
}

/** Whether nothing is left of an entity: an item merged away completely becomes a redirect. */
export function isEmptyEntity(entity: Entity): boolean {
  return [entity.labels, entity.descriptions, entity.aliases, entity.statements, entity.sitelinks ?? {}]
    .every((part) => Object.keys(part).length === 0);
}

function conflict(kind: 'description' | 'sitelink' | 'statement-link', context: Record<string, string>): never {
  throw new EntiaError('merge-conflict', { conflict: kind, conflict_context: context });
}

/** Shallow copies of the maps a merge changes; statements and sitelinks themselves are replaced, never edited. */
function copy(entity: Entity): Entity {
  const out: Entity = {
    ...entity, labels: { ...entity.labels }, descriptions: { ...entity.descriptions },
    aliases: Object.fromEntries(Object.entries(entity.aliases).map(([lang, list]) => [lang, [...list]])),
    statements: Object.fromEntries(Object.entries(entity.statements).map(([pid, group]) => [pid, [...group]])),
  };
  if (entity.sitelinks) out.sitelinks = { ...entity.sitelinks };
  return out;
}

function addAliases(entity: Entity, language: string, texts: readonly string[]): void {
  const held = entity.aliases[language] ?? [];
  const seen = new Set(held);
  const added = texts.filter((t) => !seen.has(t) && seen.add(t));
  if (added.length) entity.aliases[language] = [...held, ...added];
}

function mergeLabels(source: Entity, target: Entity): void {
  for (const [language, label] of Object.entries(source.labels)) {
    const held = target.labels[language];
    if (held === undefined) target.labels[language] = label;
    else if (held !== label) addAliases(target, language, [label]);
    delete source.labels[language];
  }
}

function mergeDescriptions(source: Entity, target: Entity, ignored: boolean): void {
  for (const [language, description] of Object.entries(source.descriptions)) {
    const held = target.descriptions[language];
    if (held !== undefined && held !== description) {
      if (!ignored) conflict('description', { language, source: description, target: held });
      continue;
    }
    target.descriptions[language] = description;
    delete source.descriptions[language];
  }
}

function mergeAliases(source: Entity, target: Entity): void {
  for (const [language, aliases] of Object.entries(source.aliases)) addAliases(target, language, aliases);
  source.aliases = {};
}

function mergeSitelinks(source: Entity, target: Entity, ignored: boolean): void {
  for (const [site, link] of Object.entries(source.sitelinks ?? {})) {
    const held = target.sitelinks![site];
    if (held && held.title !== link.title) {
      if (!ignored) conflict('sitelink', { site_id: site, source: link.title, target: held.title });
      continue;
    }
    target.sitelinks![site] = held ? { title: held.title, badges: [...new Set([...held.badges, ...link.badges])] } : link;
    delete source.sitelinks![site];
  }
}

function mergeStatements(source: Entity, target: Entity, ignored: boolean): void {
  if (!ignored) {
    refuseLinksTo(target.statements, source.id);
    refuseLinksTo(source.statements, target.id);
  }
  for (const [property, group] of Object.entries(source.statements)) {
    const into = target.statements[property] ?? [];
    for (const statement of group) {
      const at = into.findIndex((held) => sameClaim(held, statement));
      if (at >= 0) into[at] = withReferencesOf(into[at], statement);
      else into.push({ ...statement, id: newStatementId(target.id) });
    }
    target.statements[property] = into;
  }
  source.statements = {};
}

/** Wikibase refuses to merge items of which one links to the other: the merged item would link to itself. */
function refuseLinksTo(statements: StatementMap, id: string): void {
  for (const [property, group] of Object.entries(statements)) {
    for (const s of group) {
      const content = s.value.type === 'value' ? s.value.content : undefined;
      if (content === id) conflict('statement-link', { property_id: property, linked_id: id });
    }
  }
}

/** Same main value and the same qualifiers (in any order): Wikibase's main-snak hash plus qualifiers hash. */
function sameClaim(a: Statement, b: Statement): boolean {
  return a.property.id === b.property.id && claimKey(a) === claimKey(b);
}

function claimKey(s: Statement): string {
  return JSON.stringify([snakKey(s), s.qualifiers.map(snakKey).sort()]);
}

function snakKey(s: Pick<Snak, 'property' | 'value'>): string {
  return `${s.property.id} ${canonical(s.value)}`;
}

/** The target's statement with the source statement's references it does not hold yet. */
function withReferencesOf(held: Statement, from: Statement): Statement {
  const hashes = new Set(held.references.map((r) => r.hash));
  const added = from.references.filter((r) => !hashes.has(r.hash));
  return added.length ? { ...held, references: [...held.references, ...added] } : held;
}
