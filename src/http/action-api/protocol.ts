// The Action API's conventions (docs/api.md §10.15): how a parameter is read, and how a failure is answered.
// Errors are `{"error": {"code", "info"}}` with status 200 and a `MediaWiki-API-Error` header, as MediaWiki
// answers them; an error from the edit path (the contract's table) is translated here, once, by ACTION_CODES.
import { ERRORS, type EntiaError, type ErrorCode } from '../../domain/errors.js';
import { hasControlCharacter } from '../../domain/text.js';
import type { EditMeta, Store } from '../../store/store.js';
import { parseEntityId, parseIdOfKind, type Kind } from '../../domain/kinds.js';
import type { Ctx } from '../context.js';
import type { Services } from '../services.js';
import { parseJsonText } from '../body.js';
import { MalformedBody } from '../reply-error.js';

export type Json = Record<string, unknown>;

/** An Action API error: answered with status 200 and the code in a header, as MediaWiki does. */
export class ApiError extends Error {
  constructor(readonly code: string, readonly info: string, readonly extra: Json = {}) {
    super(info);
  }
}

export function refuse(code: string, info: string, extra: Json = {}): never {
  throw new ApiError(code, info, extra);
}

/** An entity id parameter (of `kind`, when given), upper-cased; anything else refused as Wikibase does. */
export function entityIdOf(raw: string, kind?: Kind): string {
  const id = kind ? parseIdOfKind(kind, raw) : parseEntityId(raw)?.id;
  return id ?? refuse('invalid-entity-id', `Invalid entity ID "${raw}".`, { id: raw });
}

/** Parameters that carry JSON documents (an entity, a claim, snaks) may be as long as a request body. */
const JSON_PARAMETERS = new Set(['data', 'claim', 'value', 'snaks', 'snaks-order']);
const MAX_PARAMETER_LENGTH = 10_000;

/** One parameter, a string, NFC-normalised as MediaWiki normalises its input; `|` lists are split by the caller. */
export function param(params: Json, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || hasControlCharacter(v) || (!JSON_PARAMETERS.has(name) && v.length > MAX_PARAMETER_LENGTH)) {
    throw new ApiError('badvalue', `Invalid value for parameter "${name}".`);
  }
  return v.normalize('NFC');
}

export function required(params: Json, name: string): string {
  const v = param(params, name);
  if (v === undefined || v === '') throw new ApiError('missingparam', `The "${name}" parameter must be set.`);
  return v;
}

export const list = (v: string | undefined) => (v === undefined || v === '' ? [] : v.split('|'));

/** MediaWiki's boolean parameters are true when present, whatever their value. */
export const flag = (params: Json, name: string) => params[name] !== undefined;

/**
 * A JSON parameter (`data`, `claim`, `value`, `snaks`), read as the REST API reads a body (parseJsonText: the
 * same depth, size and text rules, checked before any edit work); `invalid-json` as Wikibase says it.
 */
export function jsonParam(params: Json, name: string): unknown {
  const text = required(params, name);
  try {
    return parseJsonText(text);
  } catch (e) {
    const precise = e instanceof MalformedBody ? e.precise : undefined;
    if (precise) {
      const at = (precise.context as Json | undefined)?.path;
      const path = typeof at === 'string' && at !== '' ? ` at ${at}` : '';
      return refuse('invalid-json', `The "${name}" parameter breaks a limit or holds text that cannot be stored${path} (${precise.code}).`);
    }
    return refuse('invalid-json', `Could not parse the "${name}" parameter as JSON.`);
  }
}

/**
 * What each contract error is called in the Action API. Wikibase answers most failures of an edit with
 * `modification-failed` and says what in `info`; the codes below are the ones its clients act on (wikibase-edit
 * re-logs in on `assertuserfailed`, retries `failed-save` unless a validator refused the edit, and so on).
 */
const ACTION_CODES: Partial<Record<ErrorCode, string>> = {
  'invalid-item-id': 'invalid-entity-id',
  'invalid-property-id': 'invalid-entity-id',
  'invalid-statement-id': 'invalid-guid',
  'invalid-language-code': 'not-recognized-language',
  'invalid-site-id': 'not-recognized-siteid',
  'item-not-found': 'no-such-entity',
  'property-not-found': 'no-such-entity',
  'statement-not-found': 'no-such-claim',
  'redirected-item': 'unresolved-redirect',
  'permission-denied': 'permissiondenied',
  'request-limit-reached': 'ratelimited',
  'resource-too-large': 'failed-save',
  'unexpected-error': 'internal_api_error',
};

/** Wikibase's validator message names for the data policy's violations, which wikibase-edit does not retry. */
const VIOLATION_MESSAGES: Record<string, string> = {
  'item-label-description-duplicate': 'wikibase-validator-label-with-description-conflict',
  'property-label-duplicate': 'wikibase-validator-label-conflict',
  'sitelink-conflict': 'wikibase-validator-sitelink-conflict',
  'label-description-same-value': 'wikibase-validator-label-equals-description',
};

/** Wikibase's answer for an entity id that names nothing. */
export const noSuchEntity = (id: string) => new ApiError('no-such-entity', `Could not find an entity with the ID "${id}".`, { id });

/** The contract error of an edit, as the Action API says it. */
export function fromEntiaError(error: EntiaError): ApiError {
  const context = (error.context ?? {}) as Json;
  const info = describe(error, context);
  if (error.code === 'data-policy-violation') {
    const name = VIOLATION_MESSAGES[String(context.violation)] ?? 'wikibase-validator-invalid';
    return new ApiError('modification-failed', info, { messages: [{ name, parameters: [], html: { '*': info } }] });
  }
  if (error.code === 'permission-denied') {
    const reason = context.denial_reason;
    if (reason === 'blocked-user') return new ApiError('blocked', 'You have been blocked from editing.');
    if (reason === 'resource-protected') return new ApiError('protectedpage', 'This entity has been protected to prevent editing.');
  }
  const code = ACTION_CODES[error.code] ?? 'modification-failed';
  const id = String(error.params.id ?? '');
  // The entity an edit names, missing or a redirect, in Wikibase's words (clients show them).
  if (code === 'no-such-entity') return noSuchEntity(id);
  if (code === 'unresolved-redirect') return new ApiError(code, `${id} is a redirect to ${String(context.redirect_target)}.`);
  const extra: Json = code === 'modification-failed'
    ? { messages: [{ name: 'wikibase-validator-invalid', parameters: [], html: { '*': info } }] } : {};
  return new ApiError(code, info, extra);
}

/** The contract's message, with where in the entity it applies when the error says so. */
function describe(error: EntiaError, context: Json): string {
  const text = ERRORS[error.code].status === 500 ? 'An internal error occurred.' : error.text;
  const where = typeof context.path === 'string' && context.path !== '' ? ` (at ${context.path})` : '';
  const violation = typeof context.violation === 'string' ? `: ${context.violation} ${JSON.stringify(context.violation_context)}` : '';
  return text + violation + where;
}

/** One Action API request, as every module receives it. */
export interface Call {
  /** The query string's parameters and, for a POST, the body's (the body's win). */
  params: Json;
  /** formatversion=2: booleans as booleans (`missing: true`), as MediaWiki answers them. */
  v2: boolean;
  store: Store;
  services: Services;
}

/** An edit module's request: who edits (the same Ctx the REST routes build), with what metadata. */
export interface WriteCall extends Call {
  ctx: Ctx;
  meta: EditMeta;
}
