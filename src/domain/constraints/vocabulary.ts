// The ids property constraints are written with (docs/api.md §10.18): Wikidata's by default, every one
// replaceable, so that a knowledge base with its own property and item ids states constraints the same way.
// The names are WikibaseQualityConstraints' (its extension.json settings), the ids Wikidata's.
import { isIdOfKind, ITEM, PROPERTY } from '../kinds.js';

export const CONSTRAINT_TYPES = [
  'single-value', 'single-best-value', 'multi-value', 'distinct-values', 'format', 'one-of', 'none-of',
  'conflicts-with', 'item-requires-statement', 'value-requires-statement', 'type', 'value-type', 'inverse', 'symmetric',
  'allowed-qualifiers', 'mandatory-qualifier', 'range', 'difference-within-range', 'allowed-units', 'integer',
  'no-bounds', 'allowed-entity-types', 'property-scope', 'citation-needed', 'label-in-language', 'description-in-language',
  'contemporary',
] as const;
export type ConstraintType = (typeof CONSTRAINT_TYPES)[number];

export interface ConstraintVocabulary {
  /** Properties: the constraint statement's own and its parameters' (qualifiers of it). */
  properties: {
    constraint: string; exception: string; status: string; item: string; property: string; format: string;
    class: string; relation: string; minimumQuantity: string; maximumQuantity: string; minimumDate: string;
    maximumDate: string; scope: string; propertyScope: string; separator: string; language: string;
    instanceOf: string; subclassOf: string;
  };
  /** The item each constraint type is. */
  types: Record<ConstraintType, string>;
  /** Items parameters take as values. */
  items: {
    mandatory: string; suggestion: string;
    instanceOf: string; subclassOf: string; instanceOrSubclassOf: string;
    asMainValue: string; asQualifier: string; asReference: string;
    scopeMainValue: string; scopeQualifiers: string; scopeReferences: string;
    wikibaseItem: string; wikibaseProperty: string;
  };
  /** The properties that say when an entity began and ended to exist (contemporary), in WikibaseQualityConstraints' order. */
  times: { start: string[]; end: string[] };
}

export const WIKIDATA_CONSTRAINTS: ConstraintVocabulary = {
  properties: {
    constraint: 'P2302', exception: 'P2303', status: 'P2316', item: 'P2305', property: 'P2306', format: 'P1793',
    class: 'P2308', relation: 'P2309', minimumQuantity: 'P2313', maximumQuantity: 'P2312', minimumDate: 'P2310',
    maximumDate: 'P2311', scope: 'P4680', propertyScope: 'P5314', separator: 'P4155', language: 'P424',
    instanceOf: 'P31', subclassOf: 'P279',
  },
  types: {
    'single-value': 'Q19474404', 'single-best-value': 'Q52060874', 'multi-value': 'Q21510857',
    'distinct-values': 'Q21502410', format: 'Q21502404', 'one-of': 'Q21510859', 'none-of': 'Q52558054',
    'conflicts-with': 'Q21502838', 'item-requires-statement': 'Q21503247', 'value-requires-statement': 'Q21510864',
    type: 'Q21503250', 'value-type': 'Q21510865', inverse: 'Q21510855', symmetric: 'Q21510862',
    'allowed-qualifiers': 'Q21510851', 'mandatory-qualifier': 'Q21510856', range: 'Q21510860',
    'difference-within-range': 'Q21510854', 'allowed-units': 'Q21514353', integer: 'Q52848401', 'no-bounds': 'Q51723761',
    'allowed-entity-types': 'Q52004125', 'property-scope': 'Q53869507', 'citation-needed': 'Q54554025',
    'label-in-language': 'Q108139345', 'description-in-language': 'Q111204896', contemporary: 'Q25796498',
  },
  items: {
    mandatory: 'Q21502408', suggestion: 'Q62026391',
    instanceOf: 'Q21503252', subclassOf: 'Q21514624', instanceOrSubclassOf: 'Q30208840',
    asMainValue: 'Q54828448', asQualifier: 'Q54828449', asReference: 'Q54828450',
    scopeMainValue: 'Q46466787', scopeQualifiers: 'Q46466783', scopeReferences: 'Q46466805',
    wikibaseItem: 'Q29934200', wikibaseProperty: 'Q29934218',
  },
  times: { start: ['P569', 'P571', 'P580', 'P585'], end: ['P570', 'P576', 'P582', 'P585'] },
};

/**
 * Wikidata's vocabulary with `override`'s entries in its place (a JSON file's content: the same three groups,
 * any subset of their keys). Throws with the offending key when an id is malformed or a key unknown.
 */
export function constraintVocabulary(override: unknown): ConstraintVocabulary {
  if (override === undefined || override === null) return WIKIDATA_CONSTRAINTS;
  if (typeof override !== 'object' || Array.isArray(override)) throw new Error('must be a JSON object with properties, types, items and times');
  const out = structuredClone(WIKIDATA_CONSTRAINTS);
  for (const [group, entries] of Object.entries(override as Record<string, unknown>)) {
    if (!(group in out)) throw new Error(`unknown group "${group}" (properties, types, items, times)`);
    const target = out[group as keyof ConstraintVocabulary] as Record<string, string | string[]>;
    const properties = group === 'properties' || group === 'times';
    const kind = properties ? PROPERTY : ITEM;
    for (const [key, id] of Object.entries(entries as Record<string, unknown>)) {
      if (!(key in target)) throw new Error(`unknown ${group} key "${key}"`);
      const ids = group === 'times' ? id : [id];
      if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string' && isIdOfKind(kind, x))) {
        throw new Error(`${group}.${key} must be ${group === 'times' ? 'a list of property ids' : `an id such as ${properties ? 'P2302' : 'Q21502410'}`}`);
      }
      target[key] = group === 'times' ? ids as string[] : ids[0] as string;
    }
  }
  return out;
}
