// Helpers for contents that are JSON objects with named fields (time, quantity, globe-coordinate,
// monolingualtext). docs/api.md §5.1 Decision: a missing field is reported with the content as parent path;
// any other failure is an invalid value at the content path, carrying the whole content.
import { isPlainObject, problem } from '../problems.js';

export function contentObject(content: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(content)) return problem({ type: 'invalid', path, value: content });
  return content;
}

export function requireFields(content: Record<string, unknown>, path: string, fields: readonly string[]): void {
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(content, field)) problem({ type: 'missing', path, field });
  }
}

/** Throws the invalid-content problem unless `ok`. */
export function check(ok: boolean, path: string, content: unknown): void {
  if (!ok) problem({ type: 'invalid', path, value: content });
}

// docs/api.md §5.1–5.3: calendar models, units and globes are concept URIs of items.
// Decision (§5.2): the concept base URI is fixed to Wikidata's, as upstream's default.
export const CONCEPT_URI = /^http:\/\/www\.wikidata\.org\/entity\/Q[1-9]\d*$/;
