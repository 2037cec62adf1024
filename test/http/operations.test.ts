// The operators' endpoints: liveness, readiness (and its failure), and Prometheus metrics scraped as a
// Prometheus server would, after real traffic.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { testBackend } from '../helpers/store.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

/** Prometheus text format: `name{labels} value` lines, comments skipped. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`${s.url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
  return samples(await res.text());
}

describe('health and readiness', () => {
  it('GET /health answers while the process runs', async () => {
    const res = await s.get('/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('GET /ready answers 200 when the database answers, 503 when it does not', async () => {
    const res = await s.get('/ready');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ready', store: testBackend });
    const probe = s.store.probe.bind(s.store);
    s.store.probe = async () => { throw new Error('connection refused'); };
    try {
      const down = await s.get('/ready');
      assert.equal(down.status, 503);
      assert.equal(down.body.status, 'unavailable');
      assert.equal((await s.get('/health')).status, 200);
    } finally {
      s.store.probe = probe;
    }
  });
});

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, with latency, edits and caches', async () => {
    const before = await scrape();
    const created = await s.post('/v1/entities/items', { item: { labels: { en: 'metered' } } });
    const id = created.body.id;
    for (let i = 0; i < 3; i++) assert.equal((await s.get(`/v1/entities/items/${id}`)).status, 200);
    await s.get('/v1/entities/items/Q999999999');
    const same = await s.patch(`/v1/entities/items/${id}`, { patch: [{ op: 'replace', path: '/labels/en', value: 'metered' }] });
    assert.equal(same.status, 200); // unchanged: no revision
    const after = await scrape();
    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    assert.equal(delta('entia_http_requests_total{method="GET",route="/v1/entities/items/:item_id",status="200"}'), 3);
    assert.equal(delta('entia_http_requests_total{method="GET",route="/v1/entities/items/:item_id",status="404"}'), 1);
    assert.equal(delta('entia_http_requests_total{method="POST",route="/v1/entities/items",status="201"}'), 1);
    assert.equal(delta('entia_http_request_duration_seconds_count{method="GET",route="/v1/entities/items/:item_id"}'), 4);
    assert.equal(delta('entia_edits_total{kind="item",creation="true"}'), 1);
    assert.equal(delta('entia_edits_unchanged_total'), 1);
    assert.ok((after.get('entia_cache_hits{cache="rendered_documents"}') ?? 0) >= 2, 'repeated reads are served from memory');
    assert.ok(after.has('entia_process_cpu_seconds_total'));
    if (testBackend === 'postgres') {
      assert.ok((after.get('entia_db_pool_connections{state="total"}') ?? 0) >= 1);
      // The second and third GET: the head is read, the document is the one the process holds.
      assert.ok(delta('entia_cache_hits{cache="entities"}') >= 2, 'repeated reads do not fetch the document again');
    }
  });

  it('reports what the store holds, unfinished imports and change-stream followers', async () => {
    const fresh = await startServer();
    const text = async () => samples(await (await fetch(`${fresh.url}/metrics`)).text());
    try {
      const items = [];
      for (const label of ['one', 'two', 'three']) items.push((await fresh.post('/v1/entities/items', { item: { labels: { en: label } } })).body.id);
      await fresh.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'counted' } } });
      await fresh.store.redirectEntity(items[2], items[0], { user: 'test', comment: null, tags: [], bot: false });
      await fresh.store.importEntities([], { user: 'import', comment: null, tags: [], bot: true },
        { checkpoint: { key: 'import:/data/latest-all.json', value: '{}' } });
      const controller = new AbortController();
      const stream = await fetch(`${fresh.url}/v1/changes/stream`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
      await stream.body!.getReader().read(); // the first heartbeat: the follower is registered
      const m = await text();
      assert.equal(m.get('entia_entities{kind="item"}'), 2);
      assert.equal(m.get('entia_entities{kind="property"}'), 1);
      assert.equal(m.get('entia_redirects{kind="item"}'), 1);
      assert.equal(m.get('entia_imports_unfinished'), 1);
      assert.equal(m.get('entia_import_unindexed_entities'), 0);
      assert.equal(m.get('entia_change_stream_followers'), 1);
      controller.abort();
      for (let i = 0; i < 100 && (await text()).get('entia_change_stream_followers') !== 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await text()).get('entia_change_stream_followers'), 0);
    } finally {
      await fresh.close();
    }
  });

  it('labels unknown paths as unmatched, so the label set stays bounded', async () => {
    await s.get('/no/such/path/12345');
    const after = await scrape();
    assert.ok((after.get('entia_http_requests_total{method="GET",route="unmatched",status="404"}') ?? 0) >= 1);
    assert.ok(![...after.keys()].some((k) => k.includes('12345')));
  });

  it('can be turned off', async () => {
    const quiet = await startServer({ config: { metrics: false } });
    try {
      assert.equal((await quiet.get('/metrics')).status, 404);
    } finally {
      await quiet.close();
    }
  });
});
