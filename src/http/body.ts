// Request bodies: JSON only (REFERENCE §2.1). `application/json` on every write route, also
// `application/json-patch+json` on PATCH routes, anything else 415. Strings and keys are NFC-normalised.
import type { FastifyRequest } from 'fastify';
import { EntiaError } from '../domain/errors.js';
import { MalformedBody } from './reply-error.js';

/** REFERENCE §7.7 / issue #7: bodies nest no deeper than this. */
export const MAX_JSON_DEPTH = 64;

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

export function parseJsonBody(req: FastifyRequest, text: string, done: (err: Error | null, body?: unknown) => void): void {
  const type = mediaType(req.headers['content-type']);
  const accepted = type === '' || type === 'application/json' || (type === 'application/json-patch+json' && req.method === 'PATCH');
  if (!accepted) {
    done(new EntiaError('rest-unsupported-content-type', undefined, { type: String(req.headers['content-type']) }));
    return;
  }
  if (text.trim() === '') {
    done(null, undefined);
    return;
  }
  try {
    if (nestingDepth(text) > MAX_JSON_DEPTH) throw new MalformedBody('too deep');
    done(null, JSON.parse(text, nfc));
  } catch (e) {
    done(e instanceof MalformedBody ? e : new MalformedBody('invalid JSON'));
  }
}

/** Bracket nesting of a JSON text, outside strings; checked before parsing so that depth is bounded. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** JSON.parse reviver: NFC for every string value and object key (upstream: "Ka\u0308se" is stored "Käse"). */
function nfc(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFC');
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      const n = k.normalize('NFC');
      if (n !== k) {
        Object.defineProperty(obj, n, { value: obj[k], enumerable: true, writable: true, configurable: true });
        delete obj[k];
      }
    }
  }
  return value;
}
