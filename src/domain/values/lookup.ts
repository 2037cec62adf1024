// The read-only port through which validation asks the store about other entities (docs/api.md §7.7,
// step 5). It lives here, not in statements.ts, so that values/ does not import its own caller.

export interface ReferenceLookup {
  /** The property's data type, or undefined when the property does not exist. */
  dataTypeOf(propertyId: string): string | undefined;
  /** Whether an entity (item or property) with this upper-case id exists. */
  exists(entityId: string): boolean;
}

/** One data type: the value type it reports (docs/api.md §5 table) and how its content is checked. */
export interface DataType {
  valueType: string;
  /** Returns the normalised content or throws problem() with `path` pointing at the content. */
  normalise(content: unknown, path: string, lookup: ReferenceLookup): unknown;
}
