// The `quantity` data type (docs/api.md §5.2).
import type { DataType } from './lookup.js';
import { compareDecimals, parseDecimal } from './decimal.js';
import { check, contentObject, requireFields } from './fields.js';
import { WIKIDATA_CONCEPT_BASE } from './lookup.js';
import { isIdOfKind, ITEM } from '../kinds.js';

const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);


function isUnitUri(unit: string, bases: readonly string[]): boolean {
  return bases.some((base) => unit.startsWith(base) && isIdOfKind(ITEM, unit.slice(base.length)));
}

export const QUANTITY_TYPES: Record<string, DataType> = {
  quantity: {
    valueType: 'quantity',
    normalise(content, path, lookup) {
      const fields = contentObject(content, path);
      requireFields(fields, path, ['amount', 'unit']);
      const amount = parseDecimal(fields.amount);
      check(amount !== null, path, content);
      const { unit } = fields;
      // `"1"` means unitless; anything else is the concept URI of a unit item, under the instance's concept base
      // or Wikidata's, stored as given.
      check(unit === '1' || (typeof unit === 'string' && isUnitUri(unit, lookup.unitBases ?? [WIKIDATA_CONCEPT_BASE])), path, content);
      const hasUpper = has(fields, 'upperBound');
      // Bounds come both or neither.
      check(hasUpper === has(fields, 'lowerBound'), path, content);
      if (!hasUpper) return { amount, unit };
      const upperBound = parseDecimal(fields.upperBound);
      const lowerBound = parseDecimal(fields.lowerBound);
      check(upperBound !== null && lowerBound !== null
        && compareDecimals(lowerBound, amount as string) <= 0
        && compareDecimals(amount as string, upperBound) <= 0, path, content);
      return { amount, unit, upperBound, lowerBound };
    },
  },
};
