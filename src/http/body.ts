// Request bodies: JSON only (docs/api.md "Requests"). `application/json` on every write route, also
// `application/json-patch+json` on PATCH routes, anything else 415, and so is a body without Content-Type:
// a cross-origin form post needs no CORS preflight, so parsing such a body as JSON would let any web page
// edit through its visitors' browsers. Strings and keys are NFC-normalised.
import type { FastifyRequest } from 'fastify';
import { EntiaError } from '../domain/errors.js';
import { pointer } from '../domain/problems.js';
import { hasControlCharacter } from '../domain/text.js';
import { MalformedBody } from './reply-error.js';

/** docs/api.md §7.7 / issue #7: bodies nest no deeper than this. */
export const MAX_JSON_DEPTH = 64;

/**
 * Issue #7: bounds on what one request body may hold, far above anything a valid edit needs (terms are
 * at most 250 code points, statement strings 400, comments 500 bytes), so that validation cost stays
 * proportional to a sane request. Documented in docs/api.md ("Security").
 */
export const INPUT_LIMITS = {
  /**
   * UTF-16 code units in one object key. String values have no generic cap: each field's own rule reports its
   * own limit (250 for a term), and checking a string is linear in its length, which the body limit bounds.
   */
  keyLength: 65_536,
  /** Elements of one array or members of one object: statements per property, aliases per language, patch operations… */
  members: 10_000,
  /** JSON values in the whole body. */
  values: 250_000,
} as const;

/** With the u flag a surrogate pair is one code point, so this matches only unpaired surrogates. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** Bytes that are not UTF-8 are refused, not silently replaced with U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function parseJsonBody(req: FastifyRequest, bytes: Buffer, done: (err: Error | null, body?: unknown) => void): void {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    done(req.is404 ? null : new MalformedBody('invalid UTF-8'));
    return;
  }
  // Route matching comes first (404 before 405 before 415): a request no route takes has its body ignored.
  if (req.is404 || text.trim() === '') {
    done(null, undefined);
    return;
  }
  const type = mediaType(req.headers['content-type']);
  const accepted = type === 'application/json' || (type === 'application/json-patch+json' && req.method === 'PATCH');
  if (!accepted) {
    done(new EntiaError('rest-unsupported-content-type', undefined, { type: String(req.headers['content-type'] ?? '') }));
    return;
  }
  try {
    done(null, parseJsonText(text));
  } catch (e) {
    done(e as MalformedBody);
  }
}

/**
 * A JSON text as every dialect reads it (a REST body, an Action API `data` parameter): depth bounded before
 * parsing, strings and keys NFC-normalised, then INPUT_LIMITS and the text rules (checkInputLimits). Throws
 * MalformedBody.
 */
export function parseJsonText(text: string): unknown {
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw new MalformedBody('too deep');
  let body: unknown;
  try {
    body = JSON.parse(text, nfc);
  } catch {
    throw new MalformedBody('invalid JSON');
  }
  checkInputLimits(body);
  return body;
}

/**
 * An `application/x-www-form-urlencoded` body (the Action API's), strictly: bytes that are not UTF-8 and
 * percent-escapes that are broken or decode to something that is not UTF-8 are refused (MalformedBody), never
 * replaced with U+FFFD or kept as sent. Later values of a repeated name win, as in PHP.
 */
export function parseFormBody(bytes: Buffer): Record<string, string> {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new MalformedBody('invalid UTF-8');
  }
  const out: Record<string, string> = Object.create(null);
  if (text === '') return out;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new MalformedBody('invalid percent-encoding');
    }
  };
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    out[decode(at < 0 ? pair : pair.slice(0, at))] = at < 0 ? '' : decode(pair.slice(at + 1));
  }
  return out;
}

/**
 * Throws MalformedBody carrying the precise error (non-creation routes report it; creation routes collapse
 * it into invalid-item-data / invalid-property-data) when the body breaks INPUT_LIMITS or holds a string
 * with an unpaired surrogate (which no storage encoding can keep as sent) or a control character (domain/text.ts).
 */
export function checkInputLimits(body: unknown): void {
  let values = 0;
  const reject = (error: EntiaError) => {
    throw new MalformedBody(error.code, error);
  };
  const walk = (v: unknown, path: string): void => {
    if (++values > INPUT_LIMITS.values) reject(new EntiaError('invalid-value', { path: '' }));
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v) || hasControlCharacter(v)) reject(new EntiaError('invalid-value', { path }));
    } else if (Array.isArray(v)) {
      if (v.length > INPUT_LIMITS.members) reject(new EntiaError('invalid-value', { path }));
      v.forEach((item, i) => walk(item, pointer(path, i)));
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length > INPUT_LIMITS.members) reject(new EntiaError('invalid-value', { path }));
      for (const key of keys) {
        if (key.length > INPUT_LIMITS.keyLength || LONE_SURROGATE.test(key) || hasControlCharacter(key)) {
          const shown = key.slice(0, 100).replace(/[\uD800-\uDFFF]/gu, '\uFFFD').replace(/[\u0000-\u001F\u007F]/g, '\uFFFD');
          reject(new EntiaError('invalid-key', { path, key: shown }));
        }
        walk((v as Record<string, unknown>)[key], pointer(path, key));
      }
    }
  };
  walk(body, '');
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
