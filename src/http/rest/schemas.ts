// Top-level body shapes, compiled once by Fastify's ajv. Failures become missing-field / invalid-value
// with ajv's instancePath as the JSON Pointer (reply-error.ts); content rules are the domain's.
import { META_SCHEMA } from '../meta.js';

/** A write body carrying one payload field of the given JSON type, plus edit metadata. */
export function payload(field: string, type: string | string[] | null): Record<string, unknown> {
  return {
    type: 'object',
    required: field ? [field] : [],
    properties: { ...(type ? { [field]: type === 'any' ? {} : { type } } : {}), ...META_SCHEMA },
  };
}

/** DELETE bodies are optional and carry edit metadata only (docs/api.md §2.1). */
export const META_ONLY = { type: 'object', properties: META_SCHEMA };

/** Every PATCH route: `{"patch": [...]}`; the patch document itself is checked by domain/patch.ts. */
export const PATCH_BODY = payload('patch', 'any');
