// Every supported data type, one entry each (docs/api.md §5). GET /v1/property-data-types serves DATA_TYPES;
// statements, qualifiers and reference parts validate their content through normaliseContent.
// entity-schema and the lexeme types are left out: there is no store for the entities they name.
import type { DataType, ReferenceLookup } from './lookup.js';
import { ENTITY_ID_TYPES } from './entity-ids.js';
import { GLOBE_COORDINATE_TYPES } from './globe-coordinate.js';
import { MONOLINGUAL_TEXT_TYPES } from './monolingual-text.js';
import { QUANTITY_TYPES } from './quantity.js';
import { STRING_TYPES } from './strings.js';
import { TIME_TYPES } from './time.js';

export type { ReferenceLookup } from './lookup.js';

const TYPES: ReadonlyMap<string, DataType> = new Map(Object.entries({
  ...STRING_TYPES,
  ...ENTITY_ID_TYPES,
  ...TIME_TYPES,
  ...QUANTITY_TYPES,
  ...GLOBE_COORDINATE_TYPES,
  ...MONOLINGUAL_TEXT_TYPES,
}));

/** Data type → value type. */
export const DATA_TYPES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries([...TYPES].map(([name, type]) => [name, type.valueType])),
);

export function isDataType(name: unknown): boolean {
  return typeof name === 'string' && TYPES.has(name);
}

/**
 * Validates content for the data type and returns the normalised content (e.g. quantity amounts signed, time
 * year padded to 4 digits, globe defaulted). `path` points at the content. Throws problem() on failure.
 */
export function normaliseContent(dataType: string, content: unknown, path: string, lookup: ReferenceLookup): unknown {
  const type = TYPES.get(dataType);
  // A stored property always has a supported data type (§6.2), so this is a programming error.
  if (!type) throw new Error(`unsupported data type: ${dataType}`);
  return type.normalise(content, path, lookup);
}
