// Response headers every request gets (issue #7): security headers fit for a JSON API, and CORS
// (docs/api.md §2.6) that opens reads to every origin and writes only to configured ones.
import type { IncomingHttpHeaders } from 'node:http';
import type { onRequestHookHandler } from 'fastify';

/**
 * The headers that matter for a JSON API: nosniff, no framing, no referrer, HSTS, and a CSP that allows
 * nothing, since no response is meant to be rendered as a page. The resource policy is cross-origin because
 * the data is public. They are what @fastify/helmet sends with the options in
 * test/http/security-headers.test.ts, set once per request by app.ts. The plugin rebuilds its
 * middleware from the options on every request (about 9% of the server's time on a GET of an item, issue
 * #8); the headers never vary, so they are written out here. test/http/security-headers.test.ts keeps this
 * table equal to the plugin's output.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'cross-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/** Headers a browser script may read (docs/api.md §2.6). */
export const EXPOSED_HEADERS = ['ETag', 'Last-Modified', 'Location', 'Content-Language', 'X-Authenticated-User', 'Retry-After',
  'Entia-Revert'];

const READ_METHODS = new Set(['GET', 'HEAD']);
const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const CORS_MAX_AGE = '600';

/** What CORS adds to one request's answer: headers, and whether it is a preflight, answered at once with 204. */
export interface CorsAnswer {
  headers: Record<string, string>;
  preflight: boolean;
}

/**
 * CORS (docs/api.md §2.6). Reads: `Access-Control-Allow-Origin: *`. Writes: only the origins in
 * ENTIA_CORS_ORIGINS (`*`: any; none by default), so that a page on another site cannot make its visitors'
 * browsers edit anonymously. Tokens travel in the Authorization header, never in cookies, so no response allows
 * credentials. A preflight is judged by the method it asks for.
 *
 * These are the headers @fastify/cors sends with the options test/http/cors-headers.test.ts gives it, written
 * out as SECURITY_HEADERS are: the plugin copies and completes its options on every request, which on this
 * Node makes a hidden class per request (ADR 0021: 15–25% of a GET of an item, and the serving peak RSS). That
 * test keeps the two equal over every method, origin and preflight.
 */
export function corsPolicy(writeOrigins: readonly string[]): (method: string, headers: IncomingHttpHeaders) => CorsAnswer {
  const writes: '*' | readonly string[] | false = writeOrigins.includes('*') ? '*' : writeOrigins.length > 0 ? [...writeOrigins] : false;
  const exposed = EXPOSED_HEADERS.join(', ');
  const originOnly: CorsAnswer = Object.freeze({ headers: Object.freeze({ vary: 'Origin' }), preflight: false }) as CorsAnswer;
  return (method, headers) => {
    const requested = headers['access-control-request-method'];
    const origin = headers.origin;
    // Not a preflight: app.ts answers a plain OPTIONS with 204 and Allow.
    if (method === 'OPTIONS' && (!origin || typeof requested !== 'string')) return originOnly;
    const allowed = READ_METHODS.has(method === 'OPTIONS' ? String(requested).toUpperCase() : method) ? '*' : writes;
    if (allowed === false) return originOnly;
    const out: Record<string, string> = { vary: 'Origin' };
    const allowOrigin = allowed === '*' ? '*' : typeof origin === 'string' && allowed.includes(origin) ? origin : null;
    if (allowOrigin !== null) out['access-control-allow-origin'] = allowOrigin;
    out['access-control-expose-headers'] = exposed;
    if (method !== 'OPTIONS') return { headers: out, preflight: false };
    out['access-control-allow-methods'] = CORS_METHODS;
    out.vary = 'Origin, Access-Control-Request-Headers';
    const requestedHeaders = headers['access-control-request-headers'];
    if (requestedHeaders !== undefined) out['access-control-allow-headers'] = String(requestedHeaders);
    out['access-control-max-age'] = CORS_MAX_AGE;
    return { headers: out, preflight: true };
  };
}

/** The onRequest hook that applies corsPolicy: its headers on every answer; a preflight answered 204 at once. */
export function corsHook(writeOrigins: readonly string[]): onRequestHookHandler {
  const cors = corsPolicy(writeOrigins);
  return (req, reply, done) => {
    const answer = cors(req.method, req.headers);
    reply.headers(answer.headers);
    if (!answer.preflight) {
      done();
      return;
    }
    void reply.code(204).header('content-length', '0').send();
  };
}
