// CORS (src/http/headers.ts corsPolicy) is @fastify/cors's output for CORS_OPTIONS below, written out so that the
// plugin's per-request copying of its options is not paid on every request (ADR 0021). This keeps the two
// equal: every method, with and without an Origin (listed or not), every preflight, for each way
// ENTIA_CORS_ORIGINS can be set.
import assert from 'node:assert/strict';
import cors, { type FastifyCorsOptions, type FastifyCorsOptionsDelegateCallback } from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, it } from 'node:test';
import { corsHook, EXPOSED_HEADERS } from '../../src/http/headers.js';

const READS = new Set(['GET', 'HEAD']);

/** The plugin's options for ENTIA_CORS_ORIGINS: reads open to every origin, writes to the listed ones. */
function CORS_OPTIONS(writeOrigins: readonly string[]): FastifyCorsOptionsDelegateCallback {
  const writes: FastifyCorsOptions['origin'] = writeOrigins.includes('*') ? '*' : writeOrigins.length > 0 ? [...writeOrigins] : false;
  const common: FastifyCorsOptions = { methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], exposedHeaders: EXPOSED_HEADERS, maxAge: 600 };
  return (req, cb) => {
    const requested = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && (!req.headers.origin || typeof requested !== 'string')) return cb(null, { origin: false });
    const method = req.method === 'OPTIONS' ? String(requested).toUpperCase() : req.method;
    cb(null, { ...common, origin: READS.has(method) ? '*' : writes });
  };
}

/** An app with a route of each method at /x, and Entia's answer to a plain OPTIONS (app.ts: 204 with Allow). */
function app(setUp: (app: FastifyInstance) => void): FastifyInstance {
  const a = Fastify();
  setUp(a);
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) a.route({ method, url: '/x', handler: async () => 'x' });
  a.setNotFoundHandler((req, reply) => (req.method === 'OPTIONS' ? reply.code(204).header('allow', 'GET').send() : reply.code(404).send()));
  return a;
}

const CORS_HEADER = /^(access-control-|vary$)/;

describe('CORS headers', () => {
  const listed = 'https://tool.example';
  for (const writeOrigins of [[], [listed], ['*']]) {
    it(`are @fastify/cors's with ENTIA_CORS_ORIGINS=${writeOrigins.join(',') || '(none)'}`, async () => {
      const plugin = app((a) => { void a.register(cors, { delegator: CORS_OPTIONS(writeOrigins) }); });
      const ours = app((a) => a.addHook('onRequest', corsHook(writeOrigins)));
      let compared = 0;
      try {
        for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
          for (const origin of [undefined, listed, 'https://evil.example']) {
            for (const requested of [undefined, 'GET', 'patch', 'DELETE']) {
              for (const requestedHeaders of [undefined, 'authorization, content-type']) {
                const headers: Record<string, string> = {};
                if (origin) headers.origin = origin;
                if (requested) headers['access-control-request-method'] = requested;
                if (requestedHeaders) headers['access-control-request-headers'] = requestedHeaders;
                const [a, b] = await Promise.all([plugin, ours].map((x) => x.inject({ method, url: '/x', headers })));
                const pick = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => CORS_HEADER.test(k)).sort());
                const what = `${method} origin=${origin} method=${requested} headers=${requestedHeaders}`;
                assert.equal(b.statusCode, a.statusCode, what);
                assert.deepEqual(pick(b.headers), pick(a.headers), what);
                compared++;
              }
            }
          }
        }
        assert.equal(compared, 7 * 3 * 4 * 2);
      } finally {
        await Promise.all([plugin.close(), ours.close()]);
      }
    });
  }
});
