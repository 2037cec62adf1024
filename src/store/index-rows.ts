// The secondary rows every backend keeps beside an entity's document: terms (uniqueness, search),
// statement values (lookup by value, docs/api.md §10.12) and sitelinks (one item per page). Derived here once so that
// both backends index the same things, and diffed so that an edit touches only the rows it changes.
import { forEachName, type Entity, type KindName } from '../domain/entity.js';
import { statementValueKeys, type ValueKey } from '../domain/statement-values.js';
import { rankOf, searchKeys, TYPE_CODE } from '../search/index-keys.js';
import { KINDS, perKind } from '../domain/kinds.js';

export type TermType = 'label' | 'description' | 'alias';

export interface TermRow {
  type: TermType;
  lang: string;
  text: string;
}

export interface SitelinkRow {
  site: string;
  title: string;
}

/**
 * The rows an entity adds to the term, statement-value and sitelink tables. A statement id has no row: it
 * names its entity (`Q42$…`), so the entity's document is where a statement is found (ADR 0005).
 */
export interface IndexRows {
  terms: TermRow[];
  /** Keys of the statement-value index (ADR 0007): one per (property, value), and one per property. */
  values: ValueKey[];
  sitelinks: SitelinkRow[];
}

export function indexRows(entity: Entity | null): IndexRows {
  if (!entity) return { terms: [], values: [], sitelinks: [] };
  const terms: TermRow[] = [];
  // Each name once (the table holds each (type, lang, text) once), then the descriptions.
  forEachName(entity, (lang, type, text) => terms.push({ type, lang, text }));
  for (const [lang, text] of Object.entries(entity.descriptions)) terms.push({ type: 'description', lang, text });
  const sitelinks = Object.entries(entity.sitelinks ?? {}).map(([site, link]) => ({ site, title: link.title }));
  return { terms, values: statementValueKeys(entity), sitelinks };
}

/** How every index table writes an entity's kind. */
export const KIND_CODE: Record<KindName, number> = perKind((k) => k.code);
/** The kind a code of the index tables stands for. */
export const KIND_OF_CODE = Object.fromEntries(Object.entries(KIND_CODE).map(([name, code]) => [code, name])) as Record<number, KindName>;

/** Any kind's id letter, as a character class: `[QP]`. */
const ID_LETTERS = `[${KINDS.map((k) => k.prefix).join('')}]`;
/**
 * Values the index finds an entity's incoming links by (each backend's partial index `statement_values_by_entity_value`
 * holds these rows only): what an entity id of any kind looks like. The query repeats the same condition so that
 * it may use the index, and a store opened by a version that knows another kind builds the index again with the
 * new condition (`entityValueIndex` in each backend's migrations.ts).
 */
export const ENTITY_VALUE_GLOB = `'${ID_LETTERS}[1-9]*'`;
export const ENTITY_VALUE_REGEX = `'^${ID_LETTERS}[1-9][0-9]*$'`;

/** The number of an id (`Q42` → 42), as the index tables store entities and properties. */
export const idNumber = (id: string): number => Number(id.slice(1));

/** A statement-value index row as its columns (ADR 0007): property number, value key, kind code, entity number. */
export type ValueRow = [property: number, value: string, kind: number, entity: number];

export function valueRows(entity: Pick<Entity, 'id' | 'type'>, keys: readonly ValueKey[]): ValueRow[] {
  const kind = KIND_CODE[entity.type];
  const number = idNumber(entity.id);
  return keys.map((k) => [idNumber(k.property), k.key, kind, number]);
}

export interface RowDiff<T> {
  removed: T[];
  added: T[];
}

function diff<T>(before: T[], after: T[], key: (row: T) => string): RowDiff<T> {
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  return {
    removed: before.filter((r) => !afterKeys.has(key(r))),
    added: after.filter((r) => !beforeKeys.has(key(r))),
  };
}

export interface IndexDiff {
  terms: RowDiff<TermRow>;
  values: RowDiff<ValueKey>;
  sitelinks: RowDiff<SitelinkRow>;
}

export function diffIndexRows(before: Entity | null, after: Entity): IndexDiff {
  // Edits copy on write: a part an edit left alone is the same object before and after. Its rows would be
  // the same on both sides, so only the parts that differ are expanded and compared (an edit of one
  // statement no longer builds every term row of the entity twice).
  const a = indexRows(before && withoutShared(before, after));
  const b = indexRows(before ? withoutShared(after, before) : after);
  return {
    terms: diff(a.terms, b.terms, (t) => `${t.type}\u0000${t.lang}\u0000${t.text}`),
    values: diff(a.values, b.values, (v) => `${v.property}\u0000${v.key}`),
    sitelinks: diff(a.sitelinks, b.sitelinks, (s) => `${s.site}\u0000${s.title}`),
  };
}

/**
 * `entity` without the parts it shares, by reference, with `other`: whole parts, and inside the term, alias and
 * sitelink maps the entries whose value is the same object or string on both sides (an edit of one label keeps
 * the other languages). Statement ids are unique per entity, so statement groups are compared as a whole.
 */
function withoutShared(entity: Entity, other: Entity): Entity {
  return {
    ...entity,
    labels: changedEntries(entity.labels, other.labels),
    descriptions: changedEntries(entity.descriptions, other.descriptions),
    aliases: changedEntries(entity.aliases, other.aliases),
    statements: changedEntries(entity.statements, other.statements),
    sitelinks: changedEntries(entity.sitelinks ?? {}, other.sitelinks ?? {}),
  };
}

function changedEntries<T>(map: Record<string, T>, other: Record<string, T>): Record<string, T> {
  if (map === other) return {};
  const out: Record<string, T> = {};
  for (const key in map) if (map[key] !== other[key]) out[key] = map[key];
  return out;
}

/** Popularity signal used by search ranking (issue #6): sitelinks, then statements. */
export function popularity(entity: Entity): { sitelinks: number; statements: number } {
  return {
    sitelinks: Object.keys(entity.sitelinks ?? {}).length,
    statements: Object.values(entity.statements).reduce((n, g) => n + g.length, 0),
  };
}

/** The three search index tables (docs/adr/0003-search-index.md). */
export const SEARCH_TABLES = ['terms', 'prefixes', 'tokens'] as const;
export type SearchTable = (typeof SEARCH_TABLES)[number];

/** One search index row: kind 0 item / 1 property, type 0 label / 1 alias, entity = numeric id. */
export interface SearchRow {
  table: SearchTable;
  kind: number;
  lang: string;
  key: string;
  type: number;
  rank: number;
  entity: number;
}

/** Receives one search row as its columns (no object per row: a bulk import handles millions). */
export type SearchRowVisitor = (table: SearchTable, kind: number, lang: string, key: string, type: number, rank: number, entity: number) => void;

/**
 * Every search row of an entity, each once: searchKeys yields each (lang, type, key) of a table once. What a
 * new entity adds (bulk import writes these without a diff). `rank`: the entity's own unless given (an edit's
 * diff passes the whole entity's rank with only the languages it changed).
 */
export function visitSearchRows(entity: Entity, visit: SearchRowVisitor, rank = rankOf(popularity(entity)),
  tables: readonly SearchTable[] = SEARCH_TABLES): void {
  const kind = KIND_CODE[entity.type];
  const number = idNumber(entity.id);
  const keys = searchKeys(entity, tables.includes('prefixes'));
  for (const table of tables) for (const k of keys[table]) visit(table, kind, k.lang, k.key, TYPE_CODE[k.type], rank, number);
}

function searchRows(entity: Entity | null, rank: number): Map<string, SearchRow> {
  const rows = new Map<string, SearchRow>();
  if (!entity) return rows;
  visitSearchRows(entity, (table, kind, lang, key, type, _rank, number) =>
    rows.set(`${table}\u0000${lang}\u0000${type}\u0000${key}\u0000${rank}`, { table, kind, lang, key, type, rank, entity: number }), rank);
  return rows;
}

const rankOfEntity = (entity: Entity | null) => (entity ? rankOf(popularity(entity)) : 0);

/** Search rows to delete and to insert when an entity goes from `before` to `after` (either may be null). */
export function diffSearchRows(before: Entity | null, after: Entity | null): RowDiff<SearchRow> {
  const rankBefore = rankOfEntity(before);
  const rankAfter = rankOfEntity(after);
  let old: Map<string, SearchRow>;
  let next: Map<string, SearchRow>;
  if (before && after && before.type === after.type && before.id === after.id && rankBefore === rankAfter) {
    // Same rank: a language's rows come from its label and aliases alone, so only the languages whose label or
    // aliases changed are derived (an edit of one label folds two terms, not every term of the entity twice).
    old = searchRows(withoutShared(before, after), rankBefore);
    next = searchRows(withoutShared(after, before), rankAfter);
  } else {
    old = searchRows(before, rankBefore);
    next = searchRows(after, rankAfter);
  }
  return {
    removed: [...old].filter(([key]) => !next.has(key)).map(([, row]) => row),
    added: [...next].filter(([key]) => !old.has(key)).map(([, row]) => row),
  };
}

/**
 * The search tables whose rows a bulk import derives and stages. Prefix rows are not among them: the build
 * makes them in SQL from the folded terms, for the languages large enough to need them (prefix-languages.ts).
 */
export const STAGED_SEARCH_TABLES = ['terms', 'tokens'] as const satisfies readonly SearchTable[];
type StagedSearchTable = (typeof STAGED_SEARCH_TABLES)[number];

/**
 * The rows a bulk import leaves to its end (ADR 0008), as their tables' columns in order: both backends stage
 * these and insert them sorted by key. Sitelinks are never deferred: they decide conflicts as batches go in.
 */
export interface DeferredRows {
  /** Per staged search table: kind, lang, key, type, rank, entity. */
  search: Record<StagedSearchTable, unknown[][]>;
  /** entity_id, kind, type, lang, text */
  terms: unknown[][];
  /** property, value, kind, entity */
  values: unknown[][];
}

export const emptyDeferredRows = (): DeferredRows => ({ search: { terms: [], tokens: [] }, terms: [], values: [] });

/** Appends an entity's deferred rows; `index`: its indexRows, when the caller has them already. */
export function appendDeferredRows(rows: DeferredRows, entity: Entity, index: IndexRows = indexRows(entity)): void {
  visitSearchRows(entity, (table, kind, lang, key, type, rank, number) =>
    rows.search[table as StagedSearchTable].push([kind, lang, key, type, rank, number]), undefined, STAGED_SEARCH_TABLES);
  for (const t of index.terms) rows.terms.push([entity.id, entity.type, t.type, t.lang, t.text]);
  rows.values.push(...valueRows(entity, index.values));
}

/** A table whose rows an import defers, with the columns of its primary key in key order. */
export interface DeferredTable {
  table: string;
  columns: readonly string[];
  key: readonly string[];
  rows: (staged: DeferredRows) => unknown[][];
}

/** The tables both backends fill through their staging, the same names and columns in both schemas. */
export const DEFERRED_TABLES: readonly DeferredTable[] = [
  { table: 'search_terms', columns: ['kind', 'lang', 'folded', 'type', 'rank', 'entity'], key: ['kind', 'lang', 'folded', 'type', 'rank', 'entity'], rows: (r) => r.search.terms },
  { table: 'search_tokens', columns: ['kind', 'lang', 'token', 'type', 'rank', 'entity'], key: ['kind', 'lang', 'token', 'type', 'rank', 'entity'], rows: (r) => r.search.tokens },
  { table: 'terms', columns: ['entity_id', 'kind', 'type', 'lang', 'text'], key: ['entity_id', 'type', 'lang', 'text'], rows: (r) => r.terms },
  { table: 'statement_values', columns: ['property', 'value', 'kind', 'entity'], key: ['property', 'value', 'kind', 'entity'], rows: (r) => r.values },
];
