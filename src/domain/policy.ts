// The data policy of an edit (docs/api.md §6.1, §6.4): which uniqueness rules the edit triggers, in which order
// they are checked, and the error each violation answers. The store only answers three questions about other
// entities (the PolicyLookup port), inside the edit's transaction; the rules themselves live here, once.
import type { Entity } from './entity.js';
import { EntiaError } from './errors.js';
import { kindByName } from './kinds.js';
import { changedLanguages, sameLabelAndDescription } from './terms.js';

/** What an edit sets or changes, and so what the uniqueness rules must check (nothing else is re-checked). */
export interface PolicyChecks {
  /** Items: languages whose label or description the edit sets; no other item may have the same pair. */
  labelDescriptionLanguages?: string[];
  /** Properties: languages whose label the edit sets; no other property may have the same label. */
  propertyLabelLanguages?: string[];
  /** Items: sites whose sitelink the edit sets; no other item may link the same (site, title). */
  sitelinkSites?: string[];
}

/** Another entity already holds what the edit sets: what a store finds. */
export type UniquenessViolation =
  | { violation: 'item-label-description-duplicate'; language: string; conflictingId: string }
  | { violation: 'property-label-duplicate'; language: string; conflictingId: string }
  | { violation: 'sitelink-conflict'; siteId: string; conflictingId: string };

export type Violation = UniquenessViolation | { violation: 'label-description-same-value'; language: string };

/** One question to the store: which other entity already holds this value? */
export type PolicyQuery =
  | { rule: 'property-label'; language: string; label: string; exceptId: string }
  | { rule: 'item-label-description'; language: string; label: string; description: string; exceptId: string }
  | { rule: 'sitelink'; siteId: string; title: string; exceptId: string };

/** The port a store implements: the id of another entity that holds the queried value, or null. */
export type PolicyLookup = (query: PolicyQuery) => string | null;
export type AsyncPolicyLookup = (query: PolicyQuery) => Promise<string | null>;

/** The uniqueness rules apply only to what the edit sets or changes (docs/api.md §6.1, §6.4). */
export function policyChecks(before: Entity | null, after: Entity): PolicyChecks {
  const labels = changedLanguages(before?.labels ?? {}, after.labels);
  if (kindByName(after.type).policy.unique === 'label') return { propertyLabelLanguages: labels };
  const descriptions = changedLanguages(before?.descriptions ?? {}, after.descriptions);
  const sites = changedLanguages(sitelinkTitles(before), sitelinkTitles(after));
  return { labelDescriptionLanguages: [...new Set([...labels, ...descriptions])], sitelinkSites: sites };
}

function sitelinkTitles(entity: Entity | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [site, link] of Object.entries(entity?.sitelinks ?? {})) out[site] = link.title;
  return out;
}

/** The store queries the checks call for, in the order they are answered. */
export function policyQueries(entity: Entity, checks: PolicyChecks): PolicyQuery[] {
  const exceptId = entity.id;
  const out: PolicyQuery[] = [];
  for (const language of checks.propertyLabelLanguages ?? []) {
    const label = entity.labels[language];
    if (label !== undefined) out.push({ rule: 'property-label', language, label, exceptId });
  }
  for (const language of checks.labelDescriptionLanguages ?? []) {
    const label = entity.labels[language];
    const description = entity.descriptions[language];
    if (label !== undefined && description !== undefined) {
      out.push({ rule: 'item-label-description', language, label, description, exceptId });
    }
  }
  for (const siteId of checks.sitelinkSites ?? []) {
    const link = entity.sitelinks?.[siteId];
    if (link) out.push({ rule: 'sitelink', siteId, title: link.title, exceptId });
  }
  return out;
}

/** The violation a query's answer means: another entity holds the value. */
function violationOf(query: PolicyQuery, holder: string | null): UniquenessViolation | null {
  if (holder === null || holder === query.exceptId) return null;
  switch (query.rule) {
    case 'property-label': return { violation: 'property-label-duplicate', language: query.language, conflictingId: holder };
    case 'item-label-description':
      return { violation: 'item-label-description-duplicate', language: query.language, conflictingId: holder };
    case 'sitelink': return { violation: 'sitelink-conflict', siteId: query.siteId, conflictingId: holder };
  }
}

/** The first uniqueness violation, asking a synchronous store (SQLite's edit transaction). */
export function firstViolation(entity: Entity, checks: PolicyChecks, lookup: PolicyLookup): UniquenessViolation | null {
  for (const query of policyQueries(entity, checks)) {
    const found = violationOf(query, lookup(query));
    if (found) return found;
  }
  return null;
}

/** The same, asking an asynchronous one (PostgreSQL). */
export async function firstViolationAsync(entity: Entity, checks: PolicyChecks, lookup: AsyncPolicyLookup): Promise<UniquenessViolation | null> {
  for (const query of policyQueries(entity, checks)) {
    const found = violationOf(query, await lookup(query));
    if (found) return found;
  }
  return null;
}

/**
 * The whole policy of an edit, in the kind's order (docs/api.md §6.1): items check label = description before
 * the uniqueness rules, properties after. `uniqueness` asks the store; it runs only when the rest passed.
 */
export async function checkPolicy(before: Entity | null, next: Entity,
  uniqueness: () => Promise<UniquenessViolation | null>): Promise<Violation | null> {
  const changed = [...new Set([
    ...changedLanguages(before?.labels ?? {}, next.labels),
    ...changedLanguages(before?.descriptions ?? {}, next.descriptions),
  ])];
  const language = sameLabelAndDescription(next.labels, next.descriptions, changed);
  const sameValue: Violation | null = language === null ? null : { violation: 'label-description-same-value', language };
  if (kindByName(next.type).policy.sameValueFirst) return sameValue ?? uniqueness();
  return (await uniqueness()) ?? sameValue;
}

/**
 * The 422 a violation answers. `sitelinkContext: 'item-only'`: PUT of one sitelink names only the other item,
 * since the path already names the site (docs/api.md §6.4).
 */
export function violationError(v: Violation, sitelinkContext: 'full' | 'item-only' = 'full'): EntiaError {
  const error = (violation_context: Record<string, string>) =>
    new EntiaError('data-policy-violation', { violation: v.violation, violation_context });
  switch (v.violation) {
    case 'label-description-same-value': return error({ language: v.language });
    case 'item-label-description-duplicate': return error({ language: v.language, conflicting_item_id: v.conflictingId });
    case 'property-label-duplicate': return error({ language: v.language, conflicting_property_id: v.conflictingId });
    case 'sitelink-conflict':
      return error(sitelinkContext === 'item-only'
        ? { conflicting_item_id: v.conflictingId }
        : { site_id: v.siteId, conflicting_item_id: v.conflictingId });
  }
}

/** Thrown by a store whose transaction found a violation the pre-check could not see (a concurrent edit). */
export class PolicyViolation extends Error {
  constructor(readonly detail: UniquenessViolation) {
    super(detail.violation);
  }
}
