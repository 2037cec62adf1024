// Routes about the service itself.
import { DATA_TYPES } from '../../../domain/values/index.js';
import type { Ctx, Result } from '../../context.js';
import type { StoreLifecycle } from '../../../store/store.js';

export async function propertyDataTypes(): Promise<Result> {
  return { body: DATA_TYPES }; // upstream shape: {"<data type>": "<value type>"}
}

/** docs/api.md §10.8: the store's counts (on PostgreSQL at most 30 s old). */
export async function statistics(ctx: Ctx<StoreLifecycle>): Promise<Result> {
  const { entities, redirects } = await ctx.store.statistics();
  return { body: { entities, redirects } };
}
