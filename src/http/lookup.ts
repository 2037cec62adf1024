// Builds the synchronous lookups the pure validators need (statement references, sitelink badges), each
// from one store query over the ids the input mentions.
import { badgeIds, type BadgePolicy } from '../domain/sites.js';
import { referencedIds, type ReferenceLookup } from '../domain/statements.js';
import type { EntityStore } from '../store/store.js';
import { valueKeyOf, type StatementCondition } from '../domain/statement-values.js';
import { WIKIDATA_CONCEPT_BASE } from '../domain/values/lookup.js';

/**
 * Units may be named under the instance's concept base (ENTIA_CONCEPT_URI), under its own entity URIs
 * (`<public URL>/entity/`, which wikibase-edit, wikibase-cli and WikibaseIntegrator build from the wiki's URL) and
 * under Wikidata's.
 */
export async function lookupFor(store: EntityStore, config: { conceptUri: string; publicUrl: string }, ...inputs: unknown[]): Promise<ReferenceLookup> {
  const ids = inputs.flatMap((input) => referencedIds(input));
  const found = ids.length ? await store.lookupEntities(ids) : new Map<string, string | null>();
  return {
    dataTypeOf: (id) => found.get(id) ?? undefined,
    exists: (id) => found.has(id),
    unitBases: [...new Set([config.conceptUri, `${config.publicUrl}/entity/`, WIKIDATA_CONCEPT_BASE])],
  };
}

/**
 * The badge policy for one request: the configured allow-list plus whether each allowed badge the input
 * names exists (docs/api.md §6.4), from one store query; none when the input names no allowed badge.
 */
export async function badgePolicyFor(store: EntityStore, policy: BadgePolicy, sitelinks: readonly unknown[]): Promise<BadgePolicy> {
  const ids = badgeIds(sitelinks).filter((id) => policy.allowedBadges.has(id));
  const found = ids.length ? await store.lookupEntities(ids) : new Map<string, string | null>();
  return { allowedBadges: policy.allowedBadges, exists: (id) => found.has(id) };
}

/** A condition as the client wrote it: property id and value text (`*` for any value). */
export interface WrittenCondition {
  property: string;
  value: string;
}

/**
 * The index keys of written conditions, with their properties' data types looked up at once. A value that
 * cannot be a key of its property's type (`abc` for a quantity) can match nothing: null in its place.
 */
export async function conditionKeys(store: EntityStore, written: readonly WrittenCondition[]): Promise<(StatementCondition | null)[]> {
  const types = await store.lookupEntities([...new Set(written.map((c) => c.property))]);
  return written.map((c) => {
    const key = valueKeyOf(c.value, types.get(c.property) ?? null);
    return key === null ? null : { property: c.property, key };
  });
}
