// The reconciliation service's reads (index.ts): entities through the store, with the limits of one request.
import type { Statement } from '../../domain/entity.js';
import { topLevelMembers } from '../../domain/json-members.js';
import { firstInChain } from '../../search/hits.js';
import type { EntityStore, SearchIndex } from '../../store/store.js';

export const RECONCILE_PATH = '/v1/reconcile';

/** Bounds of one request (docs/api.md §10.13). */
export const RECONCILE_LIMITS = { queries: 50, candidates: 50, properties: 20, extendIds: 500, extendProperties: 50,
  proposeSample: 200 } as const;
export const DEFAULT_LIMIT = 5;
/** How far up the subclass chain a type is looked for, and how many classes one candidate may visit. */
export const TYPE_DEPTH = 5;
export const TYPE_VISITS = 100;

export type Json = Record<string, unknown>;

/**
 * What reconciliation reads of an entity: its terms, and its statements one property at a time. A candidate is
 * read for its names and one or two properties (P31, a condition's) of statements that make 90% of a typical
 * document: parsing the whole document was half the time of a read at 1,000,000 items (issue #38).
 */
export interface EntityView {
  readonly id: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly descriptions: Readonly<Record<string, string>>;
  readonly aliases: Readonly<Record<string, readonly string[]>>;
  /** The properties it has statements of, in document order. */
  properties(): string[];
  /** Its statements of one property; none: empty. */
  statements(property: string): readonly Statement[];
}

/** A view of a stored document's JSON text: the terms parsed now, each property's statements when first asked for. */
export function entityView(id: string, json: string): EntityView {
  const members = topLevelMembers(json);
  const member = <T>(key: string, none: T): T => {
    const text = members.get(key);
    return text === undefined ? none : JSON.parse(text) as T;
  };
  let groups: Map<string, string> | null = null;
  const parsed = new Map<string, readonly Statement[]>();
  const groupTexts = () => (groups ??= topLevelMembers(members.get('statements') ?? '{}'));
  return {
    id,
    labels: member('labels', {}),
    descriptions: member('descriptions', {}),
    aliases: member('aliases', {}),
    properties: () => [...groupTexts().keys()],
    statements(property) {
      let group = parsed.get(property);
      if (group === undefined) {
        const text = groupTexts().get(property);
        group = text === undefined ? [] : JSON.parse(text) as Statement[];
        parsed.set(property, group);
      }
      return group;
    },
  };
}

/** What one request reads, memoised: candidates share their types and value items. */
export class Reader {
  private readonly entities = new Map<string, Promise<EntityView | null>>();

  constructor(readonly store: EntityStore & SearchIndex, readonly languages: string[]) {}

  /** The entity, or null when it does not exist or is a redirect. */
  entity(id: string): Promise<EntityView | null> {
    let found = this.entities.get(id);
    if (!found) {
      found = this.store.readDocument(id).then((r) => (r.status === 'found' ? entityView(id, r.json()) : null));
      this.entities.set(id, found);
    }
    return found;
  }

  /** The label in the first language of the chain that has one, or null. */
  label(entity: EntityView): string | null {
    return firstInChain((l) => entity.labels[l], this.languages)?.value ?? null;
  }

  description(entity: EntityView): string | null {
    return firstInChain((l) => entity.descriptions[l], this.languages)?.value ?? null;
  }

  async name(id: string): Promise<string> {
    const entity = await this.entity(id);
    return (entity && this.label(entity)) ?? id;
  }

  /** Labels and aliases in the language chain; every label when the chain has none. */
  names(entity: EntityView): string[] {
    const names = this.languages.flatMap((l) => [entity.labels[l], ...(entity.aliases[l] ?? [])]).filter((n): n is string => !!n);
    return names.length > 0 ? names : Object.values(entity.labels);
  }
}

/** The statements of a property a reader should see: preferred ones if any, else normal (Wikidata's "best"). */
export function bestStatements(entity: EntityView, property: string): Statement[] {
  const group = entity.statements(property);
  const preferred = group.filter((s) => s.rank === 'preferred');
  return preferred.length > 0 ? preferred : group.filter((s) => s.rank === 'normal');
}

export function itemValues(entity: EntityView, property: string): string[] {
  return entity.statements(property)
    .filter((s) => s.rank !== 'deprecated' && s.value.type === 'value' && typeof s.value.content === 'string')
    .map((s) => (s.value as { content: string }).content);
}
