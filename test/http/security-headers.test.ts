// The security headers (src/http/headers.ts SECURITY_HEADERS) are @fastify/helmet's output for
// HELMET_OPTIONS, written out so that they are not rebuilt per request (issue #8). This keeps the two equal.
import assert from 'node:assert/strict';
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { after, before, describe, it } from 'node:test';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import { SECURITY_HEADERS } from '../../src/http/headers.js';

/**
 * The headers that matter for a JSON API: nosniff, no framing, no referrer, HSTS, and a CSP that allows
 * nothing, since no response is meant to be rendered as a page. The resource policy is cross-origin
 * because the data is public. Helmet's page-only headers (COOP, Origin-Agent-Cluster, DNS prefetch,
 * X-Download-Options) are left out.
 */
const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  frameguard: { action: 'deny' },
};


import { startServer, type TestServer } from '../helpers/server.js';

describe('security headers', () => {
  let s: TestServer;
  before(async () => { s = await startServer(); });
  after(() => s.close());

  it('are what @fastify/helmet sets with the configured options', async () => {
    const app = Fastify();
    await app.register(helmet, HELMET_OPTIONS);
    app.get('/', async () => 'x');
    const res = await app.inject({ method: 'GET', url: '/' });
    const fromPlugin = Object.fromEntries(Object.keys(SECURITY_HEADERS).map((h) => [h, res.headers[h]]));
    assert.deepEqual(fromPlugin, { ...SECURITY_HEADERS });
    const others = Object.keys(res.headers).filter((h) => !(h in SECURITY_HEADERS)
      && !['content-type', 'content-length', 'date', 'connection'].includes(h));
    assert.deepEqual(others, [], 'the plugin sets no header the table lacks');
    await app.close();
  });

  it('go out with successes, errors and unknown paths alike', async () => {
    for (const path of ['/v1/property-data-types', '/v1/entities/items/Q999999', '/v1/entities/items/x', '/nowhere']) {
      const res = await s.get(path);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers.get(name), value, `${path} ${name}`);
    }
  });
});
