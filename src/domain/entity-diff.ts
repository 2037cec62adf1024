// What changed between two revisions of an entity, part by part, as a reader compares them: each label,
// description and alias list by language, each statement by id (its value, rank, qualifiers and references as
// one), each sitelink by site. Parts that did not change are left out; and undoing one revision's changes on the
// entity as it is now, where they still apply. Pure.
import { sameJson, type Entity, type Statement } from './entity.js';

interface Sides<T> {
  /** Absent: the part is new. */
  before?: T;
  /** Absent: the part was removed. */
  after?: T;
}

export type DiffRow =
  | ({ part: 'label' | 'description'; language: string } & Sides<string>)
  | ({ part: 'aliases'; language: string } & Sides<readonly string[]>)
  | ({ part: 'statement'; property: string; id: string } & Sides<Statement>)
  | ({ part: 'sitelink'; site: string } & Sides<{ title: string; badges: readonly string[] }>);

/** Each key of either map, `after`'s order first, then what only `before` had. */
function keysOf(before: object, after: object): string[] {
  return [...new Set([...Object.keys(after), ...Object.keys(before)])];
}

function sides<T>(before: T | undefined, after: T | undefined): Sides<T> {
  return { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) };
}

export function diffEntities(before: Entity, after: Entity): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const part of ['label', 'description'] as const) {
    const [from, to] = part === 'label' ? [before.labels, after.labels] : [before.descriptions, after.descriptions];
    for (const language of keysOf(from, to).sort()) {
      if (from[language] !== to[language]) rows.push({ part, language, ...sides(from[language], to[language]) });
    }
  }
  for (const language of keysOf(before.aliases, after.aliases).sort()) {
    const [from, to] = [before.aliases[language], after.aliases[language]];
    if (!sameJson(from ?? [], to ?? [])) rows.push({ part: 'aliases', language, ...sides(from, to) });
  }
  rows.push(...statementRows(before, after));
  const [fromLinks, toLinks] = [before.sitelinks ?? {}, after.sitelinks ?? {}];
  for (const site of keysOf(fromLinks, toLinks).sort()) {
    const [from, to] = [fromLinks[site], toLinks[site]];
    if (!sameJson(from, to)) rows.push({ part: 'sitelink', site, ...sides(from, to) });
  }
  return rows;
}

/** Statements by id, in the order of the later revision's properties; removed ones under their property. */
function statementRows(before: Entity, after: Entity): DiffRow[] {
  const old = new Map<string, Statement>();
  for (const group of Object.values(before.statements)) for (const s of group) old.set(s.id, s);
  const rows: DiffRow[] = [];
  const seen = new Set<string>();
  for (const property of keysOf(before.statements, after.statements)) {
    for (const statement of after.statements[property] ?? []) {
      seen.add(statement.id);
      const was = old.get(statement.id);
      if (!was || !sameJson(was, statement)) rows.push({ part: 'statement', property, id: statement.id, ...sides(was, statement) });
    }
    for (const statement of before.statements[property] ?? []) {
      // A statement keeps its property: one not under it any more is gone.
      if (!seen.has(statement.id)) rows.push({ part: 'statement', property, id: statement.id, before: statement });
    }
  }
  return rows;
}

/** The part of `entity` a diff row is about, as the row's sides hold it (undefined: the entity has none). */
function partOf(entity: Entity, row: DiffRow): unknown {
  switch (row.part) {
    case 'label': return entity.labels[row.language];
    case 'description': return entity.descriptions[row.language];
    case 'aliases': return entity.aliases[row.language];
    case 'statement': return Object.values(entity.statements).flat().find((s) => s.id === row.id);
    case 'sitelink': return entity.sitelinks?.[row.site];
  }
}

/** `entity` with the row's part set to `value` (undefined: removed); a statement keeps its place. */
function withPart(entity: Entity, row: DiffRow, value: unknown): Entity {
  const put = <T>(map: Record<string, T>, key: string): Record<string, T> => {
    const next = { ...map };
    if (value === undefined) delete next[key];
    else next[key] = value as T;
    return next;
  };
  switch (row.part) {
    case 'label': return { ...entity, labels: put(entity.labels, row.language) };
    case 'description': return { ...entity, descriptions: put(entity.descriptions, row.language) };
    case 'aliases': return { ...entity, aliases: put(entity.aliases, row.language) };
    case 'sitelink': return { ...entity, sitelinks: put(entity.sitelinks ?? {}, row.site) };
    case 'statement': {
      const group = entity.statements[row.property] ?? [];
      const at = group.findIndex((s) => s.id === row.id);
      const next = value === undefined ? group.filter((s) => s.id !== row.id)
        : at >= 0 ? group.map((s, i) => (i === at ? value as Statement : s)) : [...group, value as Statement];
      const statements = { ...entity.statements, [row.property]: next };
      if (next.length === 0) delete statements[row.property];
      return { ...entity, statements };
    }
  }
}

/**
 * Undoes what one revision changed (`before` → `after`) on the entity as it is now (Wikibase's undo): each part
 * the revision changed goes back to what it was, provided it is still as the revision left it. Otherwise the
 * parts changed since are returned as conflicts, and nothing is undone.
 */
export function undoRevision(current: Entity, before: Entity, after: Entity): { entity: Entity } | { conflicts: DiffRow[] } {
  const rows = diffEntities(before, after);
  const conflicts = rows.filter((row) => !sameJson(partOf(current, row) ?? null, row.after ?? null));
  if (conflicts.length) return { conflicts };
  return { entity: rows.reduce((entity, row) => withPart(entity, row, row.before), current) };
}
