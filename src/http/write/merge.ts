// The write half of a merge, for every dialect (REST's POST …/merge, the Action API's wbmergeitems, the web
// interface): the domain's merge (domain/merge.ts), then what commitEdit does for one edit, done for both items,
// and one store call that writes both revisions or neither (store.applyMerge).
import { freezeJson, type Entity } from '../../domain/entity.js';
import { checkPolicy, policyChecks, PolicyViolation, violationError } from '../../domain/policy.js';
import { isEmptyEntity, mergeItems, type MergeConflict } from '../../domain/merge.js';
import type { EditMeta, Head } from '../../store/store.js';
import { checkSize } from './commit.js';
import { enforceConstraints } from '../constraints.js';
import type { Ctx } from '../context.js';
import type { Found } from '../subject.js';

export interface MergePlan {
  source: Found;
  target: Found;
  ignore: ReadonlySet<MergeConflict>;
  meta: EditMeta;
}

export interface MergeCommitted {
  source: { entity: Entity; head: Head; redirected: boolean };
  target: { entity: Entity; head: Head };
}

/**
 * Both items are authorised (a protected target refuses the merge as it would refuse an edit), the merged target
 * is held to the data policy's same-value rule and the size limit here; its uniqueness rules are checked where
 * the store writes it, after the source gave up what moves. Spends one edit of the rate budget.
 */
export async function commitMerge(ctx: Ctx, plan: MergePlan): Promise<MergeCommitted> {
  const { source, target, meta } = plan;
  await ctx.services.guard.authorize(ctx, source.entity.id);
  await ctx.services.guard.authorize(ctx, target.entity.id);
  const merged = mergeItems(source.entity, target.entity, plan.ignore);
  const left = freezeJson(merged.source);
  const into = freezeJson(merged.target);
  const redirect = isEmptyEntity(left);
  const sameValue = await checkPolicy(target.entity, into, async () => null);
  if (sameValue) throw violationError(sameValue);
  checkSize(ctx, into, false);
  await enforceConstraints(ctx.services.config, ctx.store, ctx.services.constraintCaches, target.entity, into);
  await ctx.services.guard.consume(ctx, false);
  // Without a comment, each revision says what it was in Wikibase's own words, which tools read in histories.
  const said = (autocomment: string): EditMeta => ({ ...meta, comment: meta.comment ?? `/* ${autocomment} */` });
  try {
    const sourceMeta = said(`wbmergeitems-to:0||${target.entity.id}`);
    const heads = await ctx.store.applyMerge({
      source: { entity: left, previous: source, meta: redirect ? { ...sourceMeta, action: 'redirect' } : sourceMeta, checks: {}, redirect },
      target: { entity: into, previous: target, meta: said(`wbmergeitems-from:0||${source.entity.id}`), checks: policyChecks(target.entity, into) },
    });
    ctx.services.metrics.edits.inc({ kind: 'item', creation: 'false' });
    return { source: { entity: left, head: heads.source, redirected: redirect }, target: { entity: into, head: heads.target } };
  } catch (e) {
    throw e instanceof PolicyViolation ? violationError(e.detail) : e;
  }
}
