// The only place that turns a failure into an HTTP answer: {code, message, context?} with
// Content-Language: en (docs/api.md §2.2). Anything unexpected is logged and becomes a bare 500.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, EntiaError, isEntiaError, type ErrorCode } from '../domain/errors.js';
import { kindByName } from '../domain/kinds.js';
import type { KindName } from '../domain/entity.js';
import { RequestLimitReached } from './rate-limit.js';

const REASONS: Record<number, string> = { 404: 'Not Found', 405: 'Method Not Allowed', 415: 'Unsupported Media Type' };

export function errorBody(error: EntiaError): Record<string, unknown> {
  const row = ERRORS[error.code];
  const body: Record<string, unknown> = { code: error.code, message: error.text };
  if (row.context.length > 0 && error.context) body.context = error.context;
  if (row.framework) {
    body.errorKey = error.code;
    body.httpCode = row.status;
    body.httpReason = REASONS[row.status];
  }
  return body;
}

/** JSON of frozen values: entities and their parts from the store, shared until their revision changes. */
const serialised = new WeakMap<object, Buffer>();

/**
 * A Buffer, because Fastify appends `; charset=utf-8` to string payloads and docs/api.md §2.1 forbids it.
 * A frozen object is deeply frozen (store.ts ReadResult, domain/render.ts), so its bytes are computed once.
 */
export function jsonBuffer(value: unknown): Buffer {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return Buffer.from(JSON.stringify(value), 'utf8');
  let bytes = serialised.get(value);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(value), 'utf8');
    serialised.set(value, bytes);
  }
  return bytes;
}

/** Sends an error in the contract's shape, or in another dialect's when `render` is given (rest/dialect.ts). */
export function sendError(reply: FastifyReply, error: EntiaError, render?: ErrorRendering): FastifyReply {
  if (error instanceof RequestLimitReached) reply.header('retry-after', String(error.retryAfterSeconds));
  const { status, body } = render ? render(error) : { status: error.status, body: errorBody(error) };
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .header('content-language', 'en')
    .send(jsonBuffer(body));
}

/** How a dialect other than the contract's says an error (upstream Wikibase's: rest/dialect.ts). */
export type ErrorRendering = (error: EntiaError) => { status: number; body: Record<string, unknown> };

/** The route's config, set where the route is registered: which kind it serves, whether it creates, its dialect. */
export interface RouteConfig {
  kind?: KindName;
  creation?: boolean;
  /** Errors said in another dialect's spelling (routes under ENTIA_WIKIBASE_PREFIX). */
  errorDialect?: ErrorRendering;
}

/**
 * Marks a body that is not JSON or breaks the input limits; how it is reported depends on the route
 * (docs/api.md §2.6): creation routes collapse it into their invalid-*-data code, others answer `precise`
 * or invalid-value at "".
 */
export class MalformedBody extends Error {
  constructor(message: string, readonly precise?: EntiaError) {
    super(message);
  }
}

/** Maps framework and validation failures to table errors. */
export function toEntiaError(error: unknown, request: FastifyRequest): EntiaError {
  if (isEntiaError(error)) return error;
  const config = (request.routeOptions?.config ?? {}) as RouteConfig;
  const creationCode = config.creation && config.kind ? kindByName(config.kind).codes.invalidData : null;
  const fe = error as FastifyError & { validation?: Array<{ keyword: string; instancePath: string; params: Record<string, unknown> }> };
  // Creation routes collapse body problems into their code (D7/D8), keeping the precise one for dialects.
  const collapsed = (precise: EntiaError) => creationCode
    ? new EntiaError(creationCode as 'invalid-item-data', undefined, {}, precise) : precise;
  if (fe.validation && fe.validation.length > 0) {
    const first = fe.validation[0];
    if (first.keyword === 'required') {
      return collapsed(new EntiaError('missing-field', { path: first.instancePath, field: String(first.params.missingProperty) }));
    }
    return collapsed(new EntiaError('invalid-value', { path: first.instancePath }));
  }
  if (error instanceof MalformedBody) {
    return collapsed(error.precise ?? new EntiaError('invalid-value', { path: '' }));
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new EntiaError('request-body-too-large', { limit: request.routeOptions?.bodyLimit ?? 0 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new EntiaError('rest-unsupported-content-type', undefined, { type: String(request.headers['content-type'] ?? '') });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new EntiaError('invalid-request-body', undefined);
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new EntiaError('invalid-request-body', undefined);
  }
  request.log.error({ err: error }, 'unexpected error');
  return new EntiaError('unexpected-error' as ErrorCode as 'unexpected-error', undefined);
}
