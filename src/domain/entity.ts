// The entity model, in the shape the REST API speaks (docs/api.md §4). Stored documents use the same
// shape, minus derived fields (a sitelink's `url` is built from the site table on output).
import { kindByName, type KindName } from './kinds.js';

// A kind's name is the kind table's (kinds.ts); it is also the entity's `type`.
export type { KindName } from './kinds.js';
export type Rank = 'preferred' | 'normal' | 'deprecated';

export type Value =
  | { type: 'value'; content: unknown }
  | { type: 'somevalue' }
  | { type: 'novalue' };

/** `data-type` is denormalised from the property at write time: a property's data type never changes. */
export interface PropertyRef {
  id: string;
  'data-type': string | null;
}

/** A qualifier and a reference part share this shape (docs/api.md §4.4). */
export interface Snak {
  property: PropertyRef;
  value: Value;
}

export interface Reference {
  hash: string;
  parts: Snak[];
}

export interface Statement {
  id: string;
  rank: Rank;
  property: PropertyRef;
  value: Value;
  qualifiers: Snak[];
  references: Reference[];
}

export type TermMap = Record<string, string>;
export type AliasMap = Record<string, string[]>;
export type StatementMap = Record<string, Statement[]>;

export interface Sitelink {
  title: string;
  badges: string[];
}
export type SitelinkMap = Record<string, Sitelink>;

export interface Entity {
  id: string;
  type: KindName;
  /** Properties only. */
  data_type?: string;
  labels: TermMap;
  descriptions: TermMap;
  aliases: AliasMap;
  statements: StatementMap;
  /** Items only. */
  sitelinks?: SitelinkMap;
  /** What an imported entity's source says that the contract's form does not show (source-details.ts). */
  source?: SourceDetails;
}

/** A time value's fields the REST form leaves out; stored only when one of them is not 0. */
export interface TimeDetails {
  timezone: number;
  before: number;
  after: number;
}

/** What a Wikibase source says of an entity that the contract's form does not show (source-details.ts). */
export interface SourceDetails {
  /** The source's `lastrevid` of the entity as imported (Entia's own revision is the store's). */
  lastrevid?: number;
  /** The source's `modified` of the entity as imported. */
  modified?: string;
  /** TimeDetails by timeKey: which statement, property and value they belong to. */
  times?: Record<string, TimeDetails>;
}

export const TERM_FIELDS = ['labels', 'descriptions', 'aliases'] as const;
export type TermField = (typeof TERM_FIELDS)[number];

/** The role a name of an entity plays in search: its main name in a language, or another name it is known by. */
export type NameRole = 'label' | 'alias';

/**
 * Each name an entity is found by, in every language it has one: its labels and aliases (not descriptions).
 * Search indexes these (search/index-keys.ts) and the stores keep them as term rows, from which search hits
 * take their text (store/index-rows.ts); a kind whose names live elsewhere (a lexeme's lemmas and its forms'
 * representations) says so here, with its shape, and neither follows with a change of its own.
 */
export function forEachName(entity: Entity, visit: (language: string, role: NameRole, text: string) => void): void {
  for (const [language, text] of Object.entries(entity.labels)) visit(language, 'label', text);
  // A dump may repeat an alias: each is a name once.
  for (const [language, list] of Object.entries(entity.aliases)) for (const text of new Set(list)) visit(language, 'alias', text);
}

export function emptyEntity(id: string, type: KindName, dataType?: string): Entity {
  const entity: Entity = { id, type, labels: {}, descriptions: {}, aliases: {}, statements: {} };
  if (kindByName(type).hasSitelinks) entity.sitelinks = {};
  if (dataType !== undefined) entity.data_type = dataType;
  return entity;
}

/**
 * Freezes a JSON value and everything in it. Stores hand out frozen entities that several requests share
 * (store.ts): a handler derives a new entity from one and never changes it in place.
 */
export function freezeJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  // Children are visited in place (no Object.values array per object) and strings are skipped without a call:
  // a parsed 10 KB document has hundreds of objects, and this runs on every document a read parses.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (typeof value[i] === 'object') freezeJson(value[i]);
  } else {
    for (const key in value) if (typeof value[key] === 'object') freezeJson(value[key]);
  }
  return value;
}

const serialised = new WeakMap<Entity, string>();

/**
 * The stored serialisation of an entity. A frozen entity cannot change, so its JSON is computed once: an
 * edit measures it against the size limit (docs/api.md §6.2) and the store then writes the same text.
 */
export function entityJson(entity: Entity): string {
  if (!Object.isFrozen(entity)) return JSON.stringify(entity);
  let json = serialised.get(entity);
  if (json === undefined) {
    json = JSON.stringify(entity);
    serialised.set(entity, json);
  }
  return json;
}

/** Deep structural equality of JSON values (key order ignored), for no-op detection (docs/api.md §2.3). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && sameJson((a as Record<string, unknown>)[k], ob[k]));
}
