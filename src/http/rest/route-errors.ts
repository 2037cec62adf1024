// The error codes each route can answer: those its shape implies (path parameters, a write body, a patch,
// creation, query parameters, the read budget) plus the route's own (routes.ts `errors`). The OpenAPI document
// lists them per route, and the fuzz test checks every error it provokes against this list.
import { ERRORS, type ErrorCode } from '../../domain/errors.js';
import { KINDS, type Kind } from '../../domain/kinds.js';
import type { Route } from './route.js';

/** A path parameter's 400 for a malformed value and 404 for a missing resource. */
const PARAMETER_ERRORS: Record<string, readonly ErrorCode[]> = {
  ...Object.fromEntries(KINDS.map((k) => [k.pathParameter, [k.codes.invalidId, k.codes.notFound]])),
  statement_id: ['invalid-statement-id', 'statement-not-found'],
  language_code: ['invalid-language-code'],
  site_id: ['invalid-site-id'],
  revision_id: ['invalid-revision-id', 'revision-not-found'],
};

/** Any request: an internal failure, and the User-Agent rule when it is switched on. */
const ANY: readonly ErrorCode[] = ['unexpected-error', 'missing-user-agent'];

/** A request with a body: media type, size, JSON, permission, budget, the stored size. */
const WRITE: readonly ErrorCode[] = ['rest-unsupported-content-type', 'request-body-too-large', 'permission-denied',
  'request-limit-reached', 'resource-too-large'];
/** Body problems, reported precisely except on creation routes (which collapse them into invalid-*-data). */
const BODY: readonly ErrorCode[] = ['invalid-value', 'missing-field', 'value-too-long', 'invalid-key', 'invalid-request-body'];
const PATCH: readonly ErrorCode[] = ['patch-test-failed', 'patch-target-not-found', 'patch-result-invalid-value',
  'patch-result-missing-field', 'patch-result-invalid-key', 'patch-result-value-too-long'];

export function routeErrors(route: Route, kind: Kind | null, path: string): ErrorCode[] {
  const codes = new Set<ErrorCode>(ANY);
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) for (const code of PARAMETER_ERRORS[name] ?? []) codes.add(code);
  if (route.query) codes.add('invalid-query-parameter');
  if (route.method === 'GET') codes.add('request-limit-reached');
  else if (route.readOnly) {
    for (const code of ['rest-unsupported-content-type', 'request-body-too-large', ...BODY] as const) codes.add(code);
  } else {
    for (const code of WRITE) codes.add(code);
    if (route.creation && kind) codes.add(kind.codes.invalidData as ErrorCode);
    else for (const code of BODY) codes.add(code);
    if (route.method === 'PATCH') for (const code of PATCH) codes.add(code);
    // An edit naming a redirect; long statement routes answer statement-not-found instead.
    if (namesRedirectableEntity(path) && !path.includes('{statement_id}')) codes.add('redirected-item');
  }
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes].sort((a, b) => ERRORS[a].status - ERRORS[b].status || a.localeCompare(b));
}

/** Whether a path names an entity of a kind that can be a redirect (its reads may answer 308, its edits 409). */
export function namesRedirectableEntity(path: string): boolean {
  return KINDS.some((k) => k.redirects && path.includes(`{${k.pathParameter}}`));
}
