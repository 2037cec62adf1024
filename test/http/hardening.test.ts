// Hardened input and output (issue #7): security headers, CORS, bounded bodies (depth, string length,
// members, values), well-formed Unicode, the entity size limit, and error bodies without internals.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { INPUT_LIMITS, MAX_JSON_DEPTH } from '../../src/http/body.js';
import { INTERNALS } from '../helpers/secure.js';
import { startServer, type TestResponse, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(() => s.close());

async function newItem(): Promise<string> {
  const res = await s.post('/v1/entities/items', { item: {} });
  assert.equal(res.status, 201);
  return res.body.id;
}

function assertError(res: TestResponse, status: number, code: string, context?: unknown): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
  if (context !== undefined) assert.deepEqual(res.body.context, context);
  assert.doesNotMatch(res.text, INTERNALS);
}

describe('security headers', () => {
  it('sends nosniff, no framing, no referrer and a deny-all CSP on successes and errors alike', async () => {
    const id = await newItem();
    for (const res of [await s.get(`/v1/entities/items/${id}`), await s.get('/v1/entities/items/Q0'), await s.get('/nowhere')]) {
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('content-security-policy'), "default-src 'none';frame-ancestors 'none'");
      assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
      assert.equal(res.headers.get('x-powered-by'), null);
      assert.equal(res.headers.get('content-type'), 'application/json');
    }
  });
});

describe('CORS', () => {
  const origin = 'https://tool.example';
  const preflight = (method: string, from = origin) => ({
    origin: from, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type',
  });

  it('opens reads to every origin and exposes the headers clients need', async () => {
    const id = await newItem();
    const res = await s.get(`/v1/entities/items/${id}`, { origin });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    const exposed = res.headers.get('access-control-expose-headers')!.split(/,\s*/);
    for (const h of ['ETag', 'Last-Modified', 'Location', 'Content-Language', 'X-Authenticated-User']) assert.ok(exposed.includes(h), h);
    const pre = await s.request('OPTIONS', `/v1/entities/items/${id}`, { headers: preflight('GET') });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  });

  it('does not open writes to other origins by default', async () => {
    const id = await newItem();
    const pre = await s.request('OPTIONS', `/v1/entities/items/${id}`, { headers: preflight('PATCH') });
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    const res = await s.post('/v1/entities/items', { item: {} }, { origin });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('answers a plain OPTIONS with 204 and Allow', async () => {
    const res = await s.request('OPTIONS', '/v1/entities/items/Q1');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, PATCH');
  });

  it('opens writes to the origins in ENTIA_CORS_ORIGINS', async () => {
    const listed = await startServer({ config: { corsOrigins: [origin] } });
    const any = await startServer({ config: { corsOrigins: ['*'] } });
    try {
      const pre = await listed.request('OPTIONS', '/v1/entities/items', { headers: preflight('POST') });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), origin);
      assert.match(pre.headers.get('access-control-allow-methods')!, /PATCH/);
      assert.equal(pre.headers.get('access-control-allow-headers'), 'authorization, content-type');
      assert.match(pre.headers.get('vary')!, /Origin/);
      const res = await listed.post('/v1/entities/items', { item: {} }, { origin });
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      const other = await listed.post('/v1/entities/items', { item: {} }, { origin: 'https://evil.example' });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      assert.equal((await listed.get('/v1/property-data-types', { origin: 'https://evil.example' })).headers.get('access-control-allow-origin'), '*');
      const anyRes = await any.post('/v1/entities/items', { item: {} }, { origin: 'https://evil.example' });
      assert.equal(anyRes.headers.get('access-control-allow-origin'), '*');
    } finally {
      await listed.close();
      await any.close();
    }
  });
});

describe('bounded request bodies', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH}`, async () => {
    const id = await newItem();
    const json = { 'content-type': 'application/json' };
    // {"patch": …} adds one level.
    let res = await s.request('PATCH', `/v1/entities/items/${id}`, { raw: `{"patch":${nested(MAX_JSON_DEPTH)}}`, headers: json });
    assertError(res, 400, 'invalid-value', { path: '' });
    res = await s.request('PATCH', `/v1/entities/items/${id}`, { raw: `{"patch":${nested(MAX_JSON_DEPTH - 1)}}`, headers: json });
    assert.equal(res.status, 400);
    assert.notDeepEqual(res.body.context, { path: '' }); // parsed, then refused by the patch rules
    res = await s.request('POST', '/v1/entities/items', { raw: `{"item":{"labels":${nested(MAX_JSON_DEPTH)}}}`, headers: json });
    assertError(res, 400, 'invalid-item-data');
    // Brackets inside strings do not count.
    res = await s.request('POST', '/v1/entities/items', { raw: JSON.stringify({ item: {}, comment: '['.repeat(200) }), headers: json });
    assert.equal(res.status, 201);
  });

  it('reports the limit of the field for a very long string, and bounds keys', async () => {
    const id = await newItem();
    const huge = 'x'.repeat(70_000);
    assertError(await s.patch(`/v1/entities/items/${id}`, { patch: [{ op: 'add', path: '/labels/en', value: huge }] }),
      422, 'patch-result-value-too-long', { path: '/labels/en', limit: 250 });
    assertError(await s.put(`/v1/entities/items/${id}/labels/en`, { label: huge }), 400, 'value-too-long', { path: '/label', limit: 250 });
    assertError(await s.post('/v1/entities/items', { item: { labels: { en: huge } } }), 400, 'invalid-item-data');
    const longKey = 'k'.repeat(INPUT_LIMITS.keyLength + 1);
    assertError(await s.patch(`/v1/entities/items/${id}`, { patch: [], [longKey]: 1 }), 400, 'invalid-key');
    assert.equal((await s.store.revisions(id, 10)).length, 1);
  });

  it('refuses NUL and other control characters in every string, on both backends alike', async () => {
    const id = await newItem();
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id;
    const cases: [string, string, unknown, number, string, Record<string, unknown>?][] = [
      ['PUT', `/v1/entities/items/${id}/labels/en`, { label: 'a\u0000b' }, 400, 'invalid-value', { path: '/label' }],
      ['PUT', `/v1/entities/items/${id}/descriptions/en`, { description: 'a\u0007b' }, 400, 'invalid-value', { path: '/description' }],
      ['POST', `/v1/entities/items/${id}/aliases/en`, { aliases: ['ok', 'x\u0000'] }, 400, 'invalid-value', { path: '/aliases/1' }],
      ['POST', `/v1/entities/items/${id}/statements`,
        { statement: { property: { id: property }, value: { type: 'value', content: 'v\u0000' } } },
        400, 'invalid-value', { path: '/statement/value/content' }],
      ['PUT', `/v1/entities/items/${id}/labels/en`, { label: 'fine', comment: 'why\u0000' }, 400, 'invalid-value', { path: '/comment' }],
      ['PATCH', `/v1/entities/items/${id}`, { patch: [{ op: 'add', path: '/labels/de', value: '\u001f' }] },
        400, 'invalid-value', { path: '/patch/0/value' }],
      ['PATCH', `/v1/entities/items/${id}`, { patch: [], 'k\u0000': 1 }, 400, 'invalid-key', { path: '', key: 'k\ufffd' }],
      ['POST', '/v1/entities/items', { item: { labels: { en: 'nul\u0000' } } }, 400, 'invalid-item-data'],
    ];
    for (const [method, path, body, status, code, context] of cases) {
      const res = await s.request(method, path, { raw: JSON.stringify(body),
        headers: { 'content-type': 'application/json' } });
      assertError(res, status, code, context);
    }
    assert.equal((await s.store.revisions(id, 10)).length, 1);
    assertError(await s.get('/v0/search/items?lang=en&q=a%00b'), 400, 'invalid-query-parameter', { parameter: 'q' });
  });

  it('refuses a body that is not UTF-8 instead of replacing its bytes', async () => {
    const id = await newItem();
    const bytes = Buffer.concat([Buffer.from('{"label":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const res = await fetch(`${s.url}/v1/entities/items/${id}/labels/en`, {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: bytes,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { code: 'invalid-value', message: "Invalid value at ''", context: { path: '' } });
    const created = await fetch(`${s.url}/v1/entities/items`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"item":{"labels":{"en":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}}')]),
    });
    assert.equal(created.status, 400);
    assert.equal((await created.json()).code, 'invalid-item-data');
    assert.equal((await s.store.revisions(id, 10)).length, 1);
  });

  it(`refuses arrays and objects with more than ${INPUT_LIMITS.members} members, and bodies of more than ${INPUT_LIMITS.values} values`, async () => {
    const id = await newItem();
    const many = Array(INPUT_LIMITS.members + 1).fill(0);
    assertError(await s.patch(`/v1/entities/items/${id}`, { patch: many }), 400, 'invalid-value', { path: '/patch' });
    const keys = Object.fromEntries(many.map((_, i) => [`k${i}`, 0]));
    assertError(await s.patch(`/v1/entities/items/${id}`, { patch: [], extra: keys }), 400, 'invalid-value', { path: '/extra' });
    assertError(await s.post('/v1/entities/items', { item: { aliases: { en: many.map((_, i) => `a${i}`) } } }), 400, 'invalid-item-data');
    const chunks = Array(Math.ceil(INPUT_LIMITS.values / INPUT_LIMITS.members) + 1).fill(Array(INPUT_LIMITS.members).fill(0));
    assertError(await s.patch(`/v1/entities/items/${id}`, { patch: chunks }), 400, 'invalid-value', { path: '' });
    assert.equal((await s.store.revisions(id, 10)).length, 1);
  });

  it('refuses strings and keys with unpaired surrogates', async () => {
    const id = await newItem();
    const json = { 'content-type': 'application/json' };
    let res = await s.request('PATCH', `/v1/entities/items/${id}`,
      { raw: '{"patch":[{"op":"add","path":"/labels/en","value":"a\\ud800b"}]}', headers: json });
    assertError(res, 400, 'invalid-value', { path: '/patch/0/value' });
    res = await s.request('POST', '/v1/entities/items', { raw: '{"item":{"labels":{"en":"\\udc00"}}}', headers: json });
    assertError(res, 400, 'invalid-item-data');
    res = await s.request('PATCH', `/v1/entities/items/${id}`, { raw: '{"patch":[],"\\ud800":1}', headers: json });
    assertError(res, 400, 'invalid-key', { path: '', key: '\ufffd' });
    // A proper pair is fine.
    res = await s.request('PATCH', `/v1/entities/items/${id}`,
      { raw: '{"patch":[{"op":"add","path":"/labels/en","value":"\\ud83e\\udd54"}]}', headers: json });
    assert.equal(res.status, 200);
    assert.equal(res.body.labels.en, '🥔');
  });
});

describe('entity size limit (docs/api.md §6.2)', () => {
  it('answers resource-too-large on edits and invalid-item-data on creation, writing nothing', async () => {
    const small = await startServer({ config: { maxEntitySizeKb: 1 } });
    try {
      const id = (await small.post('/v1/entities/items', { item: {} })).body.id;
      const labels = Object.fromEntries(['en', 'de', 'fr', 'es', 'it', 'nl'].map((l) => [l, `${l} `.padEnd(240, 'x')]));
      const patch = Object.entries(labels).map(([l, v]) => ({ op: 'add', path: `/labels/${l}`, value: v }));
      const res = await small.patch(`/v1/entities/items/${id}`, { patch });
      assertError(res, 400, 'resource-too-large', { limit: 1 });
      assert.equal(res.body.message, 'Edit resulted in a resource that exceeds the size limit of 1 kB');
      assert.equal((await small.store.revisions(id, 10)).length, 1);
      assertError(await small.post('/v1/entities/items', { item: { labels } }), 400, 'invalid-item-data');
      assertError(await small.post('/v1/entities/properties', { property: { data_type: 'string', labels } }), 400, 'invalid-property-data');
    } finally {
      await small.close();
    }
  });
});

describe('path parameters', () => {
  it('are refused with the resource\'s own 400 before any lookup, whatever they hold', async () => {
    for (const raw of ['Q' + '9'.repeat(30), 'Q01', '%ZZ', '%ED%A0%80', '%00', 'x'.repeat(400), '%F0%9F%A5%94', 'Q'.repeat(600), '%E0%A4%A']) {
      for (const method of ['GET', 'PATCH'] as const) {
        const res = await s.request(method, `/v1/entities/items/${raw}`, method === 'PATCH' ? { body: { patch: [] } } : {});
        assertError(res, 400, 'invalid-item-id');
        assert.doesNotMatch(res.text, INTERNALS);
        assert.equal(res.headers.get('x-frame-options'), 'DENY');
      }
    }
    // An undecodable segment is echoed as sent, and each parameter answers with its own code.
    const id = await newItem();
    const lang = await s.get(`/v1/entities/items/${id}/labels/%E0%A4%A`);
    assertError(lang, 400, 'invalid-language-code');
    assert.equal(lang.body.message, 'Not a valid language code: %E0%A4%A');
    assertError(await s.get(`/v1/entities/items/${id}/sitelinks/${'w'.repeat(700)}`), 400, 'invalid-site-id');
    assertError(await s.get(`/v1/statements/${'S'.repeat(900)}`), 400, 'invalid-statement-id');
    // A path that names no route stays a 404, whatever its encoding.
    assertError(await s.get('/v1/nothing/%E0%A4%A'), 404, 'rest-no-match');
  });
});

describe('requests the HTTP parser refuses', () => {
  async function raw(text: string): Promise<string> {
    const { port } = new URL(s.url);
    return new Promise((resolve, reject) => {
      let data = '';
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
      socket.on('data', (chunk) => { data += chunk; });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
  }

  it('answers malformed HTTP and oversized headers with the JSON error shape', async () => {
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    assert.match(garbage, /^HTTP\/1\.1 400 /);
    assert.match(garbage, /content-type: application\/json\r\n/i);
    assert.ok(garbage.endsWith('{"code":"malformed-request","message":"The request is not well-formed HTTP"}'), garbage);
    const big = await s.get(`/v1/entities/items/Q1?x=${'y'.repeat(70_000)}`);
    assertError(big, 431, 'request-header-too-large');
    assert.equal(big.headers.get('content-language'), 'en');
    assert.equal(big.headers.get('x-frame-options'), 'DENY');
  });

  it('answers a request without Host and an unknown Expect as JSON errors with the usual headers', async () => {
    const noHost = await raw('GET /v1/entities/items/Q1 HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.match(noHost, /^HTTP\/1\.1 400 /);
    assert.match(noHost, /content-type: application\/json\r\n/i);
    assert.match(noHost, /x-frame-options: DENY\r\n/i);
    assert.ok(noHost.endsWith('{"code":"malformed-request","message":"The request is not well-formed HTTP"}'), noHost);
    const expect = await raw('GET /v1/entities/items/Q1 HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n');
    assert.match(expect, /^HTTP\/1\.1 417 /);
    assert.match(expect, /content-language: en\r\n/i);
    assert.match(expect, /x-content-type-options: nosniff\r\n/i);
    const body = JSON.parse(expect.slice(expect.indexOf('\r\n\r\n') + 4));
    assert.deepEqual(body, { code: 'expectation-failed',
      message: 'The Expect header names an expectation this server does not meet: teapot' });
  });
});

describe('slow and piled-up clients', () => {
  it('answers 408 to a request whose body never finishes, and frees its connection', async () => {
    const quick = await startServer({ config: { requestTimeoutSeconds: 1 } });
    try {
      const { port } = new URL(quick.url);
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        let data = '';
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(
          'POST /v1/entities/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"item":'));
        socket.on('data', (chunk) => { data += chunk; });
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 408 /);
      assert.ok(answer.endsWith('{"code":"request-timeout","message":"The request was not received in time"}'), answer);
      assert.ok(Date.now() - started < 10_000);
    } finally {
      await quick.close();
    }
  });

  it('closes connections past ENTIA_MAX_CONNECTIONS at once, and serves again when they go', async () => {
    const capped = await startServer({ config: { maxConnections: 2 } });
    const { port } = new URL(capped.url);
    const open = () => new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });
    const held = [await open(), await open()];
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const third = await open();
      const closed = await new Promise<boolean>((resolve) => {
        third.on('close', () => resolve(true));
        third.on('error', () => resolve(true));
        third.write('GET /v1/property-data-types HTTP/1.1\r\nHost: x\r\n\r\n');
        setTimeout(() => resolve(false), 3000);
      });
      assert.equal(closed, true);
    } finally {
      held.forEach((socket) => socket.destroy());
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await capped.get('/v1/property-data-types')).status, 200);
    await capped.close();
  });
});
