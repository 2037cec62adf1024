// Response headers every request gets (issue #7): security headers fit for a JSON API, and CORS
// (docs/api.md §2.6) that opens reads to every origin and writes only to configured ones.
import type { FastifyCorsOptions, FastifyCorsOptionsDelegateCallback } from '@fastify/cors';

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

/**
 * Reads: `Access-Control-Allow-Origin: *`. Writes: only the origins in ENTIA_CORS_ORIGINS (`*`: any; none
 * by default), so that a page on another site cannot make its visitors' browsers edit anonymously.
 * Tokens travel in the Authorization header, never in cookies, so no response allows credentials.
 */
export function corsOptions(writeOrigins: readonly string[]): FastifyCorsOptionsDelegateCallback {
  const writes: FastifyCorsOptions['origin'] = writeOrigins.includes('*') ? '*'
    : writeOrigins.length > 0 ? [...writeOrigins] : false;
  const common: FastifyCorsOptions = {
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  };
  // Built once: the delegator runs on every request.
  const reads: FastifyCorsOptions = { ...common, origin: '*' };
  const edits: FastifyCorsOptions = { ...common, origin: writes };
  const none: FastifyCorsOptions = { origin: false };
  return (req, cb) => {
    const requested = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && (!req.headers.origin || typeof requested !== 'string')) {
      cb(null, none); // not a preflight: app.ts answers 204 with Allow
      return;
    }
    const method = req.method === 'OPTIONS' ? String(requested).toUpperCase() : req.method;
    cb(null, READ_METHODS.has(method) ? reads : edits);
  };
}
