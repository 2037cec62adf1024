// Items and properties as data: everything that differs between the two kinds lives in this table,
// so that terms, statements and routes are written once and parameterised by a Kind.
import type { ErrorCode } from './errors.js';

/** The kinds of entity this store holds. */
export type KindName = 'item' | 'property';

export interface Kind {
  name: KindName;
  /** Id letter: Q for items, P for properties. */
  prefix: 'Q' | 'P';
  /** URL path segment under /v1/entities, and the plural in messages ("properties have no sitelinks"). */
  segment: 'items' | 'properties';
  /** The REST routes' path parameter that carries an id of the kind. */
  pathParameter: 'item_id' | 'property_id';
  /** The number that stands for the kind in the stores' index rows and in page ids (0, 1, …; never reused). */
  code: number;
  /** An id of the kind, for documentation (OpenAPI's parameter descriptions) and the interface's placeholders. */
  example: string;
  /** The data type whose values are ids of the kind (Wikibase's names). */
  dataType: 'wikibase-item' | 'wikibase-property';
  /** The wiki namespace of the kind's pages, as Wikidata numbers them (dump `ns`; a page title of another namespace than 0 is `Noun:Id`). */
  namespace: number;
  /** Capitalised noun used in messages ("Item with the ID Q1 ..."). */
  noun: 'Item' | 'Property';
  /** Field of the creation body that carries the new entity ({"item": …} / {"property": …}). */
  createField: 'item' | 'property';
  hasSitelinks: boolean;
  hasDataType: boolean;
  /** Whether a label may not be an id of the kind (a property labelled "P31" would be ambiguous, docs/api.md §6.1). */
  labelRefusesOwnIds: boolean;
  /** Whether an entity of the kind can become a redirect to another (a merge of items, docs/api.md §9.1). */
  redirects: boolean;
  /**
   * Data policy (docs/api.md §6.1): what no two entities of the kind may share (a property's label, an item's
   * label and description together), and whether label = description is refused before that check (items) or
   * after it (properties).
   */
  policy: { unique: 'label' | 'label-and-description'; sameValueFirst: boolean };
  codes: { invalidId: ErrorCode; notFound: ErrorCode; invalidData: ErrorCode };
  /**
   * The PHP class of the kind's ids in Wikibase's data model, which Wikibase serialises into the hash of an
   * entity-id value (wikibase-hash.ts). For properties the class's name before NumericPropertyId: Wikidata's
   * hashes keep it (4,044 property values of the samples agree; none would with the new name).
   */
  phpIdClass: string;
  /**
   * The kind's words in the web interface, in English (the interface's catalogues translate them, ui/messages/):
   * `one`, its noun in a form's label; `pick`, what an id input of the kind suggests typing.
   */
  words: { plural: string; one: string; pick: string; create: string; newOne: string; noMatch: string };
  /** The members of the kind's REST form besides `id`, in the order served: what `_fields` may choose (docs/api.md §4.1). */
  members: readonly string[];
  /** The item of the constraint vocabulary that stands for the kind in allowed-entity-types constraints. */
  constraintEntityType: 'wikibaseItem' | 'wikibaseProperty';
}

export const ITEM: Kind = {
  name: 'item', prefix: 'Q', segment: 'items', pathParameter: 'item_id', code: 0, example: 'Q42', dataType: 'wikibase-item', namespace: 0, noun: 'Item', createField: 'item',
  hasSitelinks: true, hasDataType: false, labelRefusesOwnIds: false, redirects: true,
  policy: { unique: 'label-and-description', sameValueFirst: true },
  codes: { invalidId: 'invalid-item-id', notFound: 'item-not-found', invalidData: 'invalid-item-data' },
  phpIdClass: 'Wikibase\\DataModel\\Entity\\ItemId', constraintEntityType: 'wikibaseItem',
  members: ['type', 'labels', 'descriptions', 'aliases', 'statements', 'sitelinks'],
  words: { plural: 'Items', one: 'Item', pick: 'Q42 or a name', create: 'Create a new item', newOne: 'New item', noMatch: 'No items match “{0}”.' },
};

export const PROPERTY: Kind = {
  name: 'property', prefix: 'P', segment: 'properties', pathParameter: 'property_id', code: 1, example: 'P31', dataType: 'wikibase-property', namespace: 120, noun: 'Property', createField: 'property',
  hasSitelinks: false, hasDataType: true, labelRefusesOwnIds: true, redirects: false,
  policy: { unique: 'label', sameValueFirst: false },
  codes: { invalidId: 'invalid-property-id', notFound: 'property-not-found', invalidData: 'invalid-property-data' },
  phpIdClass: 'Wikibase\\DataModel\\Entity\\PropertyId', constraintEntityType: 'wikibaseProperty',
  members: ['type', 'data_type', 'labels', 'descriptions', 'aliases', 'statements'],
  words: { plural: 'Properties', one: 'Property', pick: 'P31 or a name', create: 'Create a new property', newOne: 'New property', noMatch: 'No properties match “{0}”.' },
};

export const KINDS: readonly Kind[] = [ITEM, PROPERTY];

/** An entity's wiki page: its namespace and title (`Q42`, `Property:P31`), as MediaWiki and the dumps name it. */
export function pageOf(kind: Kind, id: string): { ns: number; title: string } {
  return { ns: kind.namespace, title: kind.namespace === 0 ? id : `${kind.noun}:${id}` };
}

export function kindByName(name: KindName): Kind {
  return KINDS.find((k) => k.name === name)!;
}

/** The kind whose path segment this is (`items`, `properties`), or null. */
export function kindBySegment(segment: unknown): Kind | null {
  return KINDS.find((k) => k.segment === segment) ?? null;
}

/** The kind a request or a file names (`item`, `property`), or null for any other text. */
export function kindNamed(name: unknown): Kind | null {
  return KINDS.find((k) => k.name === name) ?? null;
}

/** The kind whose ids a data type's values are (`wikibase-item`: items), or null for other data types. */
export function kindOfDataType(dataType: unknown): Kind | null {
  return KINDS.find((k) => k.dataType === dataType) ?? null;
}

/** The kind a code of the index rows or of a page id stands for. */
export function kindOfCode(code: number): Kind | null {
  return KINDS.find((k) => k.code === code) ?? null;
}

/** A value for each kind, keyed by its name (counters, id ranges). */
export function perKind<T>(value: (kind: Kind) => T): Record<KindName, T> {
  return Object.fromEntries(KINDS.map((k) => [k.name, value(k)])) as Record<KindName, T>;
}

/** docs/api.md §3: numeric part 1..2147483647, no leading zero. */
const MAX_NUMERIC_ID = 2147483647;
/** An entity id of any kind, upper case, as a pattern to embed in others (routes, URIs, titles). */
export const ENTITY_ID_PATTERN = `[${KINDS.map((k) => k.prefix).join('')}][1-9][0-9]{0,9}`;
const ID_SHAPE = new RegExp(`^([${KINDS.map((k) => k.prefix + k.prefix.toLowerCase()).join('')}])([1-9][0-9]{0,9})$`);

/**
 * Parses an entity id of any kind, case-insensitively (`q42` ≡ `Q42`), and returns it upper-cased,
 * or null when it is not a valid id.
 */
export function parseEntityId(raw: string): { kind: Kind; id: string } | null {
  const m = ID_SHAPE.exec(raw);
  if (!m || Number(m[2]) > MAX_NUMERIC_ID) return null;
  const kind = KINDS.find((k) => k.prefix === m[1].toUpperCase())!;
  return { kind, id: kind.prefix + m[2] };
}

/** Whether a text is an id of the kind exactly as written: upper case, no leading zero (`Q42`, not `q42`). */
export function isIdOfKind(kind: Kind, text: string): boolean {
  return parseIdOfKind(kind, text) === text;
}

/** Parses an id that must be of the given kind; null otherwise. */
export function parseIdOfKind(kind: Kind, raw: string): string | null {
  const parsed = parseEntityId(raw);
  return parsed && parsed.kind === kind ? parsed.id : null;
}

export function numericPart(id: string): number {
  return Number(id.slice(1));
}

/**
 * The id of a dump's entity-id value (`{"entity-type": "item", "numeric-id": 42}`, `id` optional), as Wikibase
 * reads it; null when the entity type is not a kind of this store.
 */
export function entityIdValueId(value: { id?: unknown; 'entity-type'?: unknown; 'numeric-id'?: unknown }): string | null {
  if (typeof value.id === 'string') return value.id;
  const kind = kindNamed(value['entity-type']);
  return kind ? `${kind.prefix}${String(value['numeric-id'])}` : null;
}
