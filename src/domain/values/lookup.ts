// The read-only port through which validation asks the store about other entities (docs/api.md §7.7,
// step 5). It lives here, not in statements.ts, so that values/ does not import its own caller.

export interface ReferenceLookup {
  /** The property's data type, or undefined when the property does not exist. */
  dataTypeOf(propertyId: string): string | undefined;
  /** Whether an entity (item or property) with this upper-case id exists. */
  exists(entityId: string): boolean;
  /**
   * The concept URI bases a quantity's unit item may be named under (`<base>Q<n>`): the instance's own
   * (ENTIA_CONCEPT_URI) and Wikidata's, which clients such as wikibase-edit and WikibaseIntegrator use. Unset:
   * Wikidata's alone.
   */
  unitBases?: readonly string[];
}

/** Wikidata's concept URI base, which units, calendars and globes are named under by default. */
export const WIKIDATA_CONCEPT_BASE = 'http://www.wikidata.org/entity/';

/** One data type: the value type it reports (docs/api.md §5 table) and how its content is checked. */
export interface DataType {
  valueType: string;
  /** Returns the normalised content or throws problem() with `path` pointing at the content. */
  normalise(content: unknown, path: string, lookup: ReferenceLookup): unknown;
}
