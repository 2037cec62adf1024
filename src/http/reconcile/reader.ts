// The reconciliation service's reads (index.ts): entities through the store, with the limits of one request.
import type { Entity, Statement } from '../../domain/entity.js';
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

/** What one request reads, memoised: candidates share their types and value items. */
export class Reader {
  private readonly entities = new Map<string, Promise<Entity | null>>();

  constructor(readonly store: EntityStore & SearchIndex, readonly languages: string[]) {}

  entity(id: string): Promise<Entity | null> {
    let found = this.entities.get(id);
    if (!found) {
      found = this.store.readEntity(id).then((r) => (r.status === 'found' ? r.entity : null));
      this.entities.set(id, found);
    }
    return found;
  }

  /** The label in the first language of the chain that has one, or null. */
  label(entity: Entity): string | null {
    return firstInChain((l) => entity.labels[l], this.languages)?.value ?? null;
  }

  description(entity: Entity): string | null {
    return firstInChain((l) => entity.descriptions[l], this.languages)?.value ?? null;
  }

  async name(id: string): Promise<string> {
    const entity = await this.entity(id);
    return (entity && this.label(entity)) ?? id;
  }

  /** Labels and aliases in the language chain; every label when the chain has none. */
  names(entity: Entity): string[] {
    const names = this.languages.flatMap((l) => [entity.labels[l], ...(entity.aliases[l] ?? [])]).filter((n): n is string => !!n);
    return names.length > 0 ? names : Object.values(entity.labels);
  }
}

/** The statements of a property a reader should see: preferred ones if any, else normal (Wikidata's "best"). */
export function bestStatements(entity: Entity, property: string): Statement[] {
  const group = entity.statements[property] ?? [];
  const preferred = group.filter((s) => s.rank === 'preferred');
  return preferred.length > 0 ? preferred : group.filter((s) => s.rank === 'normal');
}

export function itemValues(entity: Entity, property: string): string[] {
  return (entity.statements[property] ?? [])
    .filter((s) => s.rank !== 'deprecated' && s.value.type === 'value' && typeof s.value.content === 'string')
    .map((s) => (s.value as { content: string }).content);
}
