// A property's constraints as Wikidata states them (docs/api.md §10.18): each "property constraint" statement
// of the property is one constraint, its value the constraint's type and its qualifiers the parameters.
import type { Entity, Snak, Statement } from '../entity.js';
import { parseIdOfKind, PROPERTY } from '../kinds.js';
import { CONSTRAINT_TYPES, type ConstraintType, type ConstraintVocabulary } from './vocabulary.js';

export type Place = 'main' | 'qualifier' | 'reference';
/** An item a parameter names, or a `somevalue`/`novalue` snak where the type allows one (one-of, allowed units). */
export type ItemParameter = string | 'somevalue' | 'novalue';

export interface Constraint {
  /** The constraint statement's id, on the property. */
  id: string;
  /** The property constrained. */
  property: string;
  type: ConstraintType;
  /** The item that is the constraint's type (`Q19474404` for single value). */
  typeItem: string;
  /** P2316: mandatory constraints are violations, suggestions are suggestions, the rest warnings. */
  status: 'mandatory' | 'suggestion' | null;
  /** Entities the constraint does not apply to (P2303). */
  exceptions: ReadonlySet<string>;
  /** Where it applies (P4680); null: the type's own default. */
  scope: ReadonlySet<Place> | null;
  items: ItemParameter[];
  properties: string[];
  format: string | null;
  classes: string[];
  relation: 'instance' | 'subclass' | 'instance-or-subclass';
  minimum: unknown;
  maximum: unknown;
  /** Where the property may be used (P5314, property scope). */
  propertyScopes: Place[];
  separators: string[];
  languages: string[];
}

/** The constraints a property states; statements of unknown types or deprecated rank are left out. */
export function constraintsOf(property: Entity, vocab: ConstraintVocabulary): Constraint[] {
  const byItem = new Map(CONSTRAINT_TYPES.map((t) => [vocab.types[t], t]));
  const out: Constraint[] = [];
  for (const statement of property.statements[vocab.properties.constraint] ?? []) {
    if (statement.rank === 'deprecated' || statement.value.type !== 'value') continue;
    const typeItem = String(statement.value.content);
    const type = byItem.get(typeItem);
    if (type) out.push(constraint(property.id, statement, type, typeItem, vocab));
  }
  return out;
}

function constraint(property: string, statement: Statement, type: ConstraintType, typeItem: string, vocab: ConstraintVocabulary): Constraint {
  const p = vocab.properties;
  const i = vocab.items;
  const of = (pid: string) => statement.qualifiers.filter((q) => q.property.id === pid);
  const ids = (pid: string) => of(pid).map(itemOf).filter((v): v is ItemParameter => v !== null);
  const strings = (pid: string) => of(pid).map(contentOf).filter((v): v is string => typeof v === 'string');
  const status = ids(p.status)[0];
  const relation = ids(p.relation)[0];
  const scopes = ids(p.scope).map((s) => ({ [i.scopeMainValue]: 'main', [i.scopeQualifiers]: 'qualifier', [i.scopeReferences]: 'reference' } as Record<string, Place>)[s])
    .filter(Boolean);
  const quantity = (pid: string) => contentOf(of(pid)[0]);
  return {
    id: statement.id, property, type, typeItem,
    status: status === i.mandatory ? 'mandatory' : status === i.suggestion ? 'suggestion' : null,
    exceptions: new Set(ids(p.exception)),
    scope: scopes.length ? new Set(scopes) : null,
    items: ids(p.item),
    properties: ids(p.property).filter(isPropertyId),
    format: strings(p.format)[0] ?? null,
    classes: ids(p.class),
    relation: relation === i.subclassOf ? 'subclass' : relation === i.instanceOrSubclassOf ? 'instance-or-subclass' : 'instance',
    minimum: quantity(p.minimumQuantity) ?? quantity(p.minimumDate) ?? null,
    maximum: quantity(p.maximumQuantity) ?? quantity(p.maximumDate) ?? null,
    propertyScopes: ids(p.propertyScope)
      .map((s) => ({ [i.asMainValue]: 'main', [i.asQualifier]: 'qualifier', [i.asReference]: 'reference' } as Record<string, Place>)[s])
      .filter(Boolean),
    separators: ids(p.separator).filter(isPropertyId),
    languages: strings(p.language),
  };
}

/** Whether a parameter's entity id names a property (the `property` and `separator` parameters take only those). */
const isPropertyId = (id: string) => parseIdOfKind(PROPERTY, id) !== null;

function contentOf(snak: Snak | undefined): unknown {
  return snak?.value.type === 'value' ? snak.value.content : undefined;
}

/** An item or property id a snak names, or its somevalue/novalue. */
function itemOf(snak: Snak): ItemParameter | null {
  if (snak.value.type !== 'value') return snak.value.type;
  return typeof snak.value.content === 'string' ? snak.value.content : null;
}
