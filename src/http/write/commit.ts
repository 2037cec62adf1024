// The write half of every edit route (docs/api.md §7.7, steps 8-9): data policy, no-op
// detection, size limit, rate limit, then one atomic store call that writes the entity with its revision.
import { entityJson, freezeJson, sameJson, type Entity } from '../../domain/entity.js';
import { carrySourceDetails } from '../../domain/source-details.js';
import { EntiaError } from '../../domain/errors.js';
import { kindByName } from '../../domain/kinds.js';
import { checkPolicy, policyChecks, PolicyViolation, violationError } from '../../domain/policy.js';
import type { EditMeta, Head } from '../../store/store.js';
import type { Ctx } from '../context.js';
import { enforceConstraints } from '../constraints.js';
import type { Found } from '../subject.js';

export interface EditPlan {
  /** The entity before the edit; null for a creation (the id is allocated here, after every check). */
  previous: Found | null;
  next: Entity;
  meta: EditMeta;
  /** docs/api.md §6.4: PUT of one sitelink reports the conflict without `site_id`. */
  sitelinkConflictContext?: 'full' | 'item-only';
}

export interface Committed {
  entity: Entity;
  head: Head;
  changed: boolean;
}

export async function commitEdit(ctx: Ctx, plan: EditPlan): Promise<Committed> {
  const { previous, meta } = plan;
  // Frozen from here on: the size check and the store share one serialisation (entityJson), and the
  // committed entity is as immutable as the stored ones it was derived from (store.ts ReadResult).
  // The source details (source-details.ts) of the values the edit left as they were are kept: neither dialect's
  // form carries them.
  let next = freezeJson(carrySourceDetails(previous?.entity ?? null, plan.next));
  if (previous && sameJson(previous.entity, next)) {
    ctx.services.metrics.unchanged.inc();
    return { entity: previous.entity, head: previous.head, changed: false }; // docs/api.md "Revisions": no revision
  }
  const checks = policyChecks(previous?.entity ?? null, next);
  const found = await checkPolicy(previous?.entity ?? null, next, () => ctx.store.findViolation(next, checks));
  if (found) throw violationError(found, plan.sitelinkConflictContext);
  checkSize(ctx, next, previous === null);
  await enforceConstraints(ctx.services.config, ctx.store, ctx.services.constraintCaches, previous?.entity ?? null, next);
  await ctx.services.guard.consume(ctx, previous === null);
  if (!previous) next = withId(next, await ctx.store.allocateId(next.type));
  try {
    const head = await ctx.store.applyEdit({ entity: next, previous, meta, checks });
    ctx.services.metrics.edits.inc({ kind: next.type, creation: String(previous === null) });
    return { entity: next, head, changed: true };
  } catch (e) {
    throw e instanceof PolicyViolation ? violationError(e.detail, plan.sitelinkConflictContext) : e;
  }
}

/** docs/api.md §6.2: the stored serialisation may not exceed maxEntitySizeKb; creation says so with D7/D8's code (§7.2). */
export function checkSize(ctx: Ctx, entity: Entity, creation: boolean): void {
  const limit = ctx.services.config.maxEntitySizeKb;
  if (Buffer.byteLength(entityJson(entity), 'utf8') <= limit * 1024) return;
  const tooLarge = new EntiaError('resource-too-large', { limit });
  throw creation ? new EntiaError(kindByName(entity.type).codes.invalidData as 'invalid-item-data', undefined, {}, tooLarge) : tooLarge;
}

/** Gives a new entity its allocated id, and its statements ids under that subject. */
function withId(entity: Entity, id: string): Entity {
  const statements: Entity['statements'] = {};
  for (const [pid, group] of Object.entries(entity.statements)) {
    statements[pid] = group.map((s) => ({ ...s, id: id + s.id.slice(s.id.indexOf('$')) }));
  }
  return { ...entity, id, statements };
}
