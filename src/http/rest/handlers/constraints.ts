// GET /v1/entities/{entity}/constraint-violations (docs/api.md §10.18): what the entity's statements break of the
// constraints their properties state, checked now against the store (no cache: the answer depends on other
// entities too, so it carries no ETag).
import { fail } from '../../../domain/errors.js';
import { renderViolation, violationsOf } from '../../constraints.js';
import type { Ctx, Result } from '../../context.js';
import { findEntity } from '../../subject.js';
import type { EntityStore } from '../../../store/store.js';
import type { ConstraintStore } from '../../constraints.js';

export async function getConstraintViolations(ctx: Ctx<EntityStore & ConstraintStore>): Promise<Result> {
  if (ctx.services.config.constraints === 'off') fail('constraint-checks-off');
  const { entity } = await findEntity(ctx, true);
  const violations = await violationsOf(ctx.store, ctx.services.config.constraintVocabulary, entity, ctx.services.constraintCaches);
  return { body: { violations: violations.map(renderViolation) } };
}
