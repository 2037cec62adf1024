// Validators report a Problem: what is wrong and where (a JSON Pointer). The same check answers with a
// different public code depending on where the data came from (docs/api.md §7.3, §7.4, D7/D8):
//   'body'   → invalid-value, missing-field, value-too-long, … with the pointer into the request body;
//   'patch'  → patch-result-invalid-value, patch-result-missing-field, … with the pointer into the patched document;
// `raise` is the one place that makes that translation.
import { EntiaError } from './errors.js';

export type Problem =
  | { type: 'invalid'; path: string; value: unknown }
  | { type: 'missing'; path: string; field: string }
  | { type: 'too-long'; path: string; limit: number; value?: unknown }
  | { type: 'invalid-key'; path: string; key: string }
  | { type: 'not-found'; path: string; value: unknown }
  | { type: 'read-only'; path: string }
  | { type: 'group-mismatch'; path: string; groupPropertyId: string; statementPropertyId: string };

export type Mode = { type: 'body' } | { type: 'patch' };

export const BODY: Mode = { type: 'body' };
export const PATCH: Mode = { type: 'patch' };

export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.type);
  }
}

/** Validators throw this; the caller translates it with `raise` for its mode. */
export function problem(p: Problem): never {
  throw new ProblemError(p);
}

export function raise(p: Problem, mode: Mode): never {
  throw problemError(p, mode.type === 'patch');
}

/** The public error of a problem: from a request body, or from a patch's result. */
function problemError(p: Problem, patch: boolean): EntiaError {
  switch (p.type) {
    case 'invalid':
      return patch ? new EntiaError('patch-result-invalid-value', { path: p.path, value: p.value }) : new EntiaError('invalid-value', { path: p.path });
    case 'missing':
      return patch ? new EntiaError('patch-result-missing-field', { path: p.path, field: p.field })
        : new EntiaError('missing-field', { path: p.path, field: p.field });
    case 'too-long':
      return patch ? new EntiaError('patch-result-value-too-long', { path: p.path, limit: p.limit })
        : new EntiaError('value-too-long', { path: p.path, limit: p.limit });
    case 'invalid-key':
      return patch ? new EntiaError('patch-result-invalid-key', { path: p.path, key: p.key })
        : new EntiaError('invalid-key', { path: p.path, key: p.key });
    case 'not-found':
      return patch ? new EntiaError('patch-result-referenced-resource-not-found', { path: p.path, value: p.value })
        : new EntiaError('referenced-resource-not-found', { path: p.path });
    case 'read-only':
      return patch ? new EntiaError('patch-result-modified-read-only-value', { path: p.path })
        : new EntiaError('cannot-modify-read-only-value', { path: p.path });
    case 'group-mismatch': {
      const context = { path: p.path, statement_group_property_id: p.groupPropertyId, statement_property_id: p.statementPropertyId };
      return patch ? new EntiaError('patched-statement-group-property-id-mismatch', context) : new EntiaError('statement-group-property-id-mismatch', context);
    }
  }
}

/** Runs a validator and translates any Problem it reports for the given mode. */
export function inMode<T>(mode: Mode, validate: () => T): T {
  try {
    return validate();
  } catch (e) {
    if (e instanceof ProblemError) raise(e.problem, mode);
    throw e;
  }
}

/** Appends a key to a JSON Pointer, escaping per RFC 6901. */
export function pointer(base: string, key: string | number): string {
  return `${base}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
