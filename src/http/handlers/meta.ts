// Routes about the service itself.
import { DATA_TYPES } from '../../domain/values/index.js';
import type { Ctx, Result } from '../context.js';

export async function propertyDataTypes(): Promise<Result> {
  return { body: DATA_TYPES }; // upstream shape: {"<data type>": "<value type>"}
}

export function openApiHandler(document: () => unknown) {
  return async (_ctx: Ctx): Promise<Result> => ({ body: document() });
}
