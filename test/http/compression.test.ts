// Compressed responses: negotiated from Accept-Encoding, decompressing to exactly the bytes served without
// compression, never for small bodies. Raw node:http, so nothing decompresses behind the test's back.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let id: string;
before(async () => {
  s = await startServer();
  const labels = Object.fromEntries(['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'sv', 'fi'].map((l) => [l, `label in ${l} `.repeat(15).trim()]));
  id = (await s.post('/v1/entities/items', { item: { labels, descriptions: { en: 'a large enough item' } } })).body.id;
});
after(async () => { await s.close(); });

function raw(path: string, acceptEncoding?: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    http.get(`${s.url}${path}`, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('compression', () => {
  it('compresses the web interface\'s pages too, to the identical HTML', async () => {
    const plain = await raw(`/${id}`);
    assert.equal(plain.status, 200);
    assert.match(String(plain.headers['content-type']), /^text\/html/);
    assert.equal(plain.headers['content-encoding'], undefined);
    const gz = await raw(`/${id}`, 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers.vary, 'Accept-Encoding');
    assert.ok(gz.body.length < plain.body.length / 2, `${gz.body.length} of ${plain.body.length}`);
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    const br = await raw('/', 'br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), (await raw('/')).body);
  });

  it('sends gzip or Brotli as asked, decompressing to the identical JSON', async () => {
    const plain = await raw(`/v1/entities/items/${id}`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.ok(plain.body.length >= 1024);
    const gz = await raw(`/v1/entities/items/${id}`, 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers['content-type'], 'application/json');
    assert.ok(gz.body.length < plain.body.length / 2);
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    const br = await raw(`/v1/entities/items/${id}`, 'gzip, deflate, br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    // The ETag names the revision, whatever the encoding.
    assert.equal(br.headers.etag, plain.headers.etag);
  });

  it('follows q-values and identity', async () => {
    assert.equal((await raw(`/v1/entities/items/${id}`, 'br;q=0, gzip')).headers['content-encoding'], 'gzip');
    assert.equal((await raw(`/v1/entities/items/${id}`, 'identity')).headers['content-encoding'], undefined);
    assert.equal((await raw(`/v1/entities/items/${id}`, 'compress, deflate')).headers['content-encoding'], undefined);
  });

  it('leaves small bodies alone', async () => {
    const label = await raw(`/v1/entities/items/${id}/labels/en`, 'gzip, br');
    assert.equal(label.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(label.body.toString()), 'label in en '.repeat(15).trim());
    const error = await raw('/v1/entities/items/Q999999999', 'gzip, br');
    assert.equal(error.status, 404);
    assert.equal(error.headers['content-encoding'], undefined);
  });

  it('compresses parts and search results too, and a new revision is new bytes', async () => {
    const labels = await raw(`/v1/entities/items/${id}/labels`, 'gzip');
    assert.equal(labels.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(labels.body).toString()).de, 'label in de '.repeat(15).trim());
    await s.put(`/v1/entities/items/${id}/labels/en`, { label: 'changed' });
    const after = await raw(`/v1/entities/items/${id}`, 'br');
    assert.equal(JSON.parse(brotliDecompressSync(after.body).toString()).labels.en, 'changed');
  });
});
