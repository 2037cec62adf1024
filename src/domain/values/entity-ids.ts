// Data types whose content names another entity (docs/api.md §5: value type `wikibase-entityid`).
import { KINDS, parseIdOfKind, type Kind } from '../kinds.js';
import { problem } from '../problems.js';
import type { DataType } from './lookup.js';

/** A valid id of the kind (normalised to upper case, docs/api.md §3) that names an existing entity. */
function entityIdType(kind: Kind): DataType {
  return {
    valueType: 'wikibase-entityid',
    normalise(content, path, lookup) {
      const id = typeof content === 'string' ? parseIdOfKind(kind, content) : null;
      if (id === null) return problem({ type: 'invalid', path, value: content });
      if (!lookup.exists(id)) problem({ type: 'not-found', path, value: id });
      return id;
    },
  };
}

/** Each kind's data type (kinds.ts): `wikibase-item`, `wikibase-property`. */
export const ENTITY_ID_TYPES: Record<string, DataType> = Object.fromEntries(KINDS.map((kind) => [kind.dataType, entityIdType(kind)]));
