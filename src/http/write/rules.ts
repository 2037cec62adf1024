// What the domain's entity parsers need from the store, for a write of any dialect (a REST body or patch, an Action
// API document, a QuickStatements command): the entities statements refer to and the badge items (docs/api.md §6.4).
import type { EntityRules } from '../../domain/entity-input.js';
import type { Entity } from '../../domain/entity.js';
import { keepingStoredReferences } from '../../domain/statements.js';
import { isPlainObject } from '../../domain/problems.js';
import { badgePolicyFor, lookupFor } from '../lookup.js';
import type { Ctx } from '../context.js';

/**
 * What the pure entity validators need from the store: statement references and badge items (§6.4). For a
 * PATCH (`original` given), the stored statements the patch left alone are kept without validation
 * (domain/statements.ts parseStatementMap), so their references are not looked up.
 */
export async function rulesFor(ctx: Ctx, input: unknown, original?: Entity): Promise<EntityRules> {
  const fields = isPlainObject(input) ? input : {};
  const sitelinks = isPlainObject(fields.sitelinks) ? Object.values(fields.sitelinks) : [];
  const lookup = await lookupFor(ctx.store, ctx.services.config, original ? withoutStored(fields.statements, original) : fields.statements);
  return {
    // A patch may change a statement whose values point at entities this store does not hold (§6.2).
    lookup: original ? keepingStoredReferences(lookup, Object.values(original.statements).flat()) : lookup,
    sites: ctx.services.sites,
    badges: await badgePolicyFor(ctx.store, ctx.services.badges, sitelinks),
  };
}

/** A patched statements map without the stored statement objects themselves (copy-on-write patches keep them). */
function withoutStored(statements: unknown, original: Entity): unknown {
  if (!isPlainObject(statements)) return statements;
  const stored = new Set<unknown>(Object.values(original.statements).flat());
  const out: Record<string, unknown> = {};
  for (const [key, group] of Object.entries(statements)) out[key] = Array.isArray(group) ? group.filter((s) => !stored.has(s)) : group;
  return out;
}
