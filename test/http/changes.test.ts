// The change feed over real HTTP: types, paging by cursor, filters, bad input; and on PostgreSQL, concurrent
// writers on three server processes with one follower that must see every revision exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EventSource } from 'eventsource';
import net from 'node:net';
import { call, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser, startSecureServer } from '../helpers/secure.js';
import { createTestDb, postgresSkipReason, postgresUrl, testBackend, type TestDb } from '../helpers/store.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

const rev = (res: { headers: Headers }) => Number(res.headers.get('etag')!.replaceAll('"', ''));

async function follow(get: (path: string) => Promise<{ status: number; body: any }>, since: string, query = ''): Promise<{ changes: any[]; next: string }> {
  const changes: any[] = [];
  let next = since;
  for (;;) {
    const page = await get(`/v1/changes?since=${next}&limit=7${query}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    changes.push(...page.body.changes);
    if (page.body.changes.length === 0) return { changes, next };
    next = page.body.next;
  }
}

/**
 * `follow` once the feed shows `revision`: on PostgreSQL a transaction still running anywhere in the database
 * (another test's import batch) holds back what committed after it started (docs/api.md §10.10, ADR 0006).
 */
async function followTo(get: (path: string) => Promise<{ status: number; body: any }>, since: string, revision: number): Promise<{ changes: any[]; next: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = await follow(get, since);
    if (page.changes.some((c) => c.revision === revision) || Date.now() > deadline) return page;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /v1/changes', () => {
  it('lists creations, edits and reverts in commit order, paged by cursor, with nothing missing or repeated', async () => {
    const start = (await follow((p) => s.get(p), '0')).next;
    const created = await s.post('/v1/entities/items', { item: { labels: { en: 'followed' } }, comment: 'new' });
    const id = created.body.id;
    const edited = await s.put(`/v1/entities/items/${id}/labels/en`, { label: 'followed twice' });
    const reverted = await s.post(`/v1/entities/items/${id}/revert`, { revision: rev(created) });
    const property = await s.post('/v1/entities/properties', { property: { data_type: 'string' } });
    const { changes, next } = await followTo((p) => s.get(p), start, rev(property));
    assert.deepEqual(changes.map((c) => [c.entity, c.type, c.revision]), [
      [id, 'create', rev(created)], [id, 'edit', rev(edited)], [id, 'revert', rev(reverted)], [property.body.id, 'create', rev(property)],
    ]);
    assert.equal(changes[0].comment, 'new');
    assert.equal(changes[0].user, '127.0.0.1');
    assert.match(changes[0].timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // An empty page keeps the position.
    assert.deepEqual((await s.get(`/v1/changes?since=${next}`)).body, { changes: [], next });
    // Filters.
    const items = await follow((p) => s.get(p), start, '&types=item');
    assert.deepEqual(items.changes.map((c) => c.entity), [id, id, id]);
    const one = await follow((p) => s.get(p), start, `&entity=${property.body.id}`);
    assert.deepEqual(one.changes.map((c) => c.entity), [property.body.id]);
  });

  it('reads backwards with order=newest: the latest first, paged towards the oldest, next null at the end', async () => {
    const created = await s.post('/v1/entities/items', { item: { labels: { en: 'read backwards' } } });
    const id = created.body.id;
    const edits = [rev(created)];
    for (const label of ['second', 'third', 'fourth']) edits.push(rev(await s.put(`/v1/entities/items/${id}/labels/en`, { label })));
    // On PostgreSQL the feed hands a change out once every transaction begun before it has ended (ADR 0006):
    // another test file's transaction can hold the newest edit back for a moment.
    let latest = await s.get(`/v1/changes?order=newest&limit=2&entity=${id}`);
    for (let i = 0; i < 100 && latest.body.changes[0]?.revision !== edits[3]; i++) {
      await new Promise((r) => setTimeout(r, 100));
      latest = await s.get(`/v1/changes?order=newest&limit=2&entity=${id}`);
    }
    assert.deepEqual(latest.body.changes.map((c: any) => c.revision), [edits[3], edits[2]]);
    const older = await s.get(`/v1/changes?order=newest&limit=2&entity=${id}&since=${latest.body.next}`);
    assert.deepEqual(older.body.changes.map((c: any) => [c.revision, c.type]), [[edits[1], 'edit'], [edits[0], 'create']]);
    const oldest = await s.get(`/v1/changes?order=newest&limit=2&entity=${id}&since=${older.body.next}`);
    assert.deepEqual(oldest.body, { changes: [], next: null });
    // Unfiltered, the newest change of the whole store comes first.
    const other = await s.post('/v1/entities/properties', { property: { data_type: 'string' } });
    let head = await s.get('/v1/changes?order=newest&limit=1');
    for (let i = 0; i < 100 && head.body.changes[0]?.entity !== other.body.id; i++) {
      await new Promise((r) => setTimeout(r, 100));
      head = await s.get('/v1/changes?order=newest&limit=1');
    }
    assert.equal(head.body.changes[0].entity, other.body.id);
    // A short page is the last one.
    assert.equal((await s.get(`/v1/changes?order=newest&limit=10&entity=${id}`)).body.next, null);
  });

  it('answers 400 for a cursor it never handed out and bad parameters', async () => {
    for (const q of ['since=abc', 'since=-1', 'limit=0', 'limit=1001', 'entity=X1', 'types=lexeme', 'since=', 'order=desc', 'order=',
      'bot=yes', 'user=', `user=${'a,'.repeat(50)}a`]) {
      const res = await s.get(`/v1/changes?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.code, 'invalid-query-parameter', q);
    }
  });

  it('filters by user and leaves bot edits out, or keeps only them', async () => {
    const secured = await startSecureServer({ editMode: 'token' });
    try {
      const alice = await addUser(secured.store, 'Alice');
      const robot = await addUser(secured.store, 'Robot', 'bot');
      const a = (await secured.post('/v1/entities/items', { item: { labels: { en: 'by alice' } } }, alice)).body.id;
      const r = (await secured.post('/v1/entities/items', { item: { labels: { en: 'by robot' } }, bot: true }, robot)).body.id;
      await secured.put(`/v1/entities/items/${a}/labels/de`, { label: 'von Alice' }, alice);
      const entities = async (q: string) => {
        // On PostgreSQL another file's transaction may hold the newest changes back for a moment (ADR 0006).
        let found: string[] = [];
        for (let i = 0; i < 100; i++) {
          found = (await secured.get(`/v1/changes?order=newest${q}`)).body.changes.map((c: any) => c.entity);
          if (found.length >= (q.includes('Robot') || q.includes('bot=1') ? 1 : 2)) break;
          await new Promise((res) => setTimeout(res, 100));
        }
        return found;
      };
      assert.deepEqual(await entities('&user=Alice'), [a, a]);
      assert.deepEqual(await entities('&bot=1'), [r]);
      assert.deepEqual(await entities('&bot=0'), [a, a]);
      assert.deepEqual(await entities('&user=Robot&bot=0'), []);
    } finally {
      await secured.close();
    }
  });
});

// Several processes share a database only on PostgreSQL: this part belongs to the PostgreSQL run.
if (testBackend === 'postgres' && !postgresUrl) {
  it('change feed across server processes', { skip: postgresSkipReason! }, () => {});
} else if (testBackend === 'postgres') {
  describe('change feed across server processes (PostgreSQL)', () => {
    let db: TestDb;
    let servers: ServerProcess[] = [];
    before(async () => {
      db = await createTestDb('postgres');
      servers = await Promise.all([0, 1, 2].map(() => startServerProcess({ ENTIA_DB: db.location, ENTIA_PG_POOL: '4' })));
    });
    after(async () => {
      await Promise.all(servers.map((p) => p.stop()));
      await db?.drop();
    });

    it('N writers on three processes, one follower: every revision exactly once, each entity\'s in order', async () => {
      const get = (path: string) => call(servers[0].url, 'GET', path);
      const written: number[] = [];
      let writing = true;
      const seen: any[] = [];
      // The follower polls until every written revision has come: a transaction still running anywhere in the
      // cluster (other tests run beside this one) may hold the newest back for a while, never lose them.
      const follower = (async () => {
        let next = '0';
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline) {
          const page = await get(`/v1/changes?since=${next}&limit=50`);
          assert.equal(page.status, 200);
          seen.push(...page.body.changes);
          next = page.body.next;
          if (!writing && seen.length >= written.length) return;
          if (page.body.changes.length === 0) await new Promise((r) => setTimeout(r, 10));
        }
      })();
      const writers = Array.from({ length: 6 }, async (_, w) => {
        const server = servers[w % 3].url;
        const created = await call(server, 'POST', '/v1/entities/items', { item: { labels: { en: `writer ${w}` } } });
        written.push(Number(created.headers.get('etag')!.replaceAll('"', '')));
        for (let i = 0; i < 15; i++) {
          const res = await call(servers[(w + i) % 3].url, 'PUT', `/v1/entities/items/${created.body.id}/labels/en`, { label: `writer ${w} edit ${i}` });
          assert.equal(res.status, 200, res.text);
          written.push(Number(res.headers.get('etag')!.replaceAll('"', '')));
        }
      });
      await Promise.all(writers);
      writing = false;
      await follower;
      const revisions = seen.map((c) => c.revision);
      assert.equal(new Set(revisions).size, revisions.length, 'no change repeated');
      assert.deepEqual([...revisions].sort((a, b) => a - b), [...written].sort((a, b) => a - b), 'no change missing');
      const byEntity = new Map<string, number[]>();
      for (const c of seen) byEntity.set(c.entity, [...(byEntity.get(c.entity) ?? []), c.revision]);
      for (const [entity, list] of byEntity) assert.deepEqual(list, [...list].sort((a, b) => a - b), `${entity} in order`);
    });
  });
}

describe('GET /v1/changes/stream (Server-Sent Events, through the eventsource client package)', () => {
  /**
   * Opens a stream and collects its change events until `count` arrived (with `until`: until an event passes it,
   * collecting everything before too).
   */
  function collect(url: string, count: number, init?: { lastEventId?: string; until?: (event: any) => boolean }): Promise<{ events: any[]; ids: string[] }> {
    return new Promise((resolve, reject) => {
      const events: any[] = [];
      const ids: string[] = [];
      const source = new EventSource(url, init?.lastEventId ? {
        fetch: (input, options) => fetch(input, { ...options, headers: { ...options?.headers, 'last-event-id': init.lastEventId! } }),
      } : undefined);
      const timer = setTimeout(() => { source.close(); reject(new Error(`only ${events.length} of ${count} events`)); }, 10_000);
      source.addEventListener('change', (e) => {
        events.push(JSON.parse(e.data));
        ids.push(e.lastEventId);
        const done = init?.until ? init.until(events[events.length - 1]) : events.length >= count;
        if (done) { clearTimeout(timer); source.close(); resolve({ events, ids }); }
      });
      source.onerror = () => {};
    });
  }

  it('without a position, streams what commits from now on; each event id is its cursor', async () => {
    const before = await s.post('/v1/entities/items', { item: { labels: { en: 'before the stream' } } });
    // Until the edit of the item created below: its id is known before the edit is even sent (waiting for the
    // edit's revision instead raced with its event, which can arrive before the edit's own response).
    let created = '';
    const streamed = collect(`${s.url}/v1/changes/stream`, 0, { until: (e) => e.entity === created && e.type === 'edit' });
    await new Promise((r) => setTimeout(r, 400)); // the stream is open and positioned
    const a = await s.post('/v1/entities/items', { item: { labels: { en: 'streamed one' } } });
    created = a.body.id;
    const b = await s.put(`/v1/entities/items/${a.body.id}/labels/en`, { label: 'streamed two' });
    const { events, ids } = await streamed;
    // The two new changes, in order, once. On SQLite nothing else comes; on PostgreSQL, "now" is the position
    // below the oldest transaction then running (other tests' included), so a change committed just before may
    // come first (docs/api.md §10.10): never one missed.
    const mine = events.filter((e) => e.entity === a.body.id);
    assert.deepEqual(mine.map((e) => [e.type, e.revision]), [['create', rev(a)], ['edit', rev(b)]]);
    if (testBackend === 'sqlite') assert.equal(events.length, 2);
    if (testBackend === 'sqlite') assert.ok(!events.some((e) => e.revision === rev(before)));
    assert.deepEqual(ids, events.map((e) => e.cursor));
  });

  it('resumes after Last-Event-ID (or since) without losing a change', async () => {
    const first = await s.post('/v1/entities/items', { item: { labels: { en: 'resume from here' } } });
    // On PostgreSQL a transaction running elsewhere may hold the newest change back for a moment.
    let cursor: string | undefined;
    for (let tries = 0; cursor === undefined && tries < 300; tries++) {
      const all = await follow((p) => s.get(p), '0');
      cursor = all.changes.find((c: any) => c.revision === rev(first))?.cursor;
      if (cursor === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(cursor, 'the change appears in the feed');
    const later = [await s.post('/v1/entities/items', { item: {} }), await s.post('/v1/entities/items', { item: {} })];
    const { events } = await collect(`${s.url}/v1/changes/stream`, 2, { lastEventId: cursor });
    assert.deepEqual(events.map((e) => e.revision), later.map(rev));
    const bySince = await collect(`${s.url}/v1/changes/stream?since=${cursor}`, 2);
    assert.deepEqual(bySince.events.map((e) => e.revision), later.map(rev));
  });

  it('opens with a heartbeat comment, the kind that keeps idle connections open through proxies', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${s.url}/v1/changes/stream`, { headers: { accept: 'text/event-stream' }, signal: ctrl.signal });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
    const { value } = await res.body!.getReader().read();
    assert.match(new TextDecoder().decode(value), /^: heartbeat\n\n/);
    ctrl.abort();
  });

  it('disconnects a follower that stops reading, instead of buffering for it without bound', async () => {
    const small = await startServer({ config: { streamBufferBytes: 64 << 10 } });
    try {
      const { port } = new URL(small.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write('GET /v1/changes/stream?since=0 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
      await new Promise<void>((resolve) => socket.once('data', () => resolve())); // the stream is open
      socket.pause(); // and no more read: the kernel's buffers fill, then the server's write waits
      socket.on('error', () => {}); // the reset it will meet
      // Enough changes to fill both sides' socket buffers (some 10 MB on loopback): long comments make each event
      // about 700 bytes, 17 MB in all. Then the follower is dropped STALL_MS after its last write stopped moving.
      const comment = 'x'.repeat(490);
      for (let i = 0; i < 24; i++) {
        const batch = Array.from({ length: 1000 }, (_, j) => ({ id: `Q${500_000 + i * 1000 + j}`, type: 'item' as const,
          labels: {}, descriptions: {}, aliases: {}, statements: {}, sitelinks: {} }));
        await small.store.importEntities(batch, { user: 'import', comment, tags: [], bot: true });
      }
      const followers = async () => Number(/^entia_change_stream_followers (\d+)$/m.exec(await (await fetch(`${small.url}/metrics`)).text())?.[1]);
      assert.equal(await followers(), 1);
      const deadline = Date.now() + 40_000;
      while (await followers() !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      assert.equal(await followers(), 0, 'the server let go of the follower that stopped reading');
      // The follower, reading again, finds its stream ended (it would resume with Last-Event-ID).
      const closed = new Promise<boolean>((resolve) => {
        socket.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 10_000);
      });
      socket.resume();
      assert.equal(await closed, true, 'the stream of the follower that stopped reading is closed');
      // The server itself is fine, and a follower that reads gets the changes.
      assert.equal((await small.get('/v1/changes?since=0&limit=1')).status, 200);
    } finally {
      await small.close();
    }
  });

  it('lets the server stop on SIGTERM while followers are connected, each told by the stream\'s end', async () => {
    const db = await createTestDb();
    const server = await startServerProcess({ ENTIA_DB: db.location, ENTIA_SPARQL: 'off' });
    try {
      const streams = await Promise.all(['', '?format=rdf'].map((query) => fetch(`${server.url}/v1/changes/stream${query}`, { headers: { accept: 'text/event-stream' } })));
      const readers = streams.map((res) => res.body!.getReader());
      await Promise.all(readers.map((r) => r.read())); // the opening heartbeats: both followers are in
      await call(server.url, 'POST', '/v1/entities/items', { item: { labels: { en: 'seen before the stop' } } });
      // Each follower reads until its event for the creation arrives: a change has been sent to both.
      const deadline = Date.now() + 20_000;
      await Promise.all(readers.map(async (reader) => {
        let text = '';
        while (!/\ndata: .*"Q1"/.test(text)) {
          assert.ok(Date.now() < deadline, `no event for Q1 within 20 s: ${text.slice(-200)}`);
          const { value, done } = await reader.read();
          assert.ok(!done, 'the stream stays open until the server stops');
          text += new TextDecoder().decode(value);
        }
      }));
      const started = Date.now();
      const code = await server.stop(); // SIGKILL, and exit code null, after 15 s
      assert.equal(code, 0, `entia serve exited with ${code} after ${Date.now() - started} ms:\n${server.output()}`);
      for (const reader of readers) {
        const ended = await reader.read().then(({ done }) => done, () => true);
        assert.equal(ended, true, 'the follower sees its stream end');
      }
    } finally {
      await server.stop();
      await db.drop();
    }
  });

  it('paces a follower by its connection: rdf_change events larger than ENTIA_STREAM_BUFFER all arrive', async () => {
    // Before, the whole page of events (megabytes) was written at once, and a follower was disconnected as soon as
    // its socket held more than the buffer: one that resumed met the same page again, and never got past it.
    const paced = await startServer({ config: { streamBufferBytes: 64 << 10 } });
    try {
      const p = (await paced.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id;
      const statements = { [p]: Array.from({ length: 200 }, (_, k) => ({ property: { id: p }, value: { type: 'value', content: `value number ${k}` } })) };
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await paced.post('/v1/entities/items', { item: { labels: { en: `large ${i}` }, statements } })).body.id);
      const res = await fetch(`${paced.url}/v1/changes/stream?format=rdf&since=0`, { headers: { accept: 'text/event-stream' } });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const frames: string[] = [];
      const deadline = Date.now() + 20_000;
      while (!frames.some((frame) => frame.includes(`"entity_id":"${ids[ids.length - 1]}"`)) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const whole = text.split('\n\n');
        text = whole.pop()!; // the frame still arriving
        frames.push(...whole.filter((frame) => frame.includes('event: rdf_change')));
      }
      await reader.cancel();
      const largest = Math.max(...frames.map((frame) => frame.length));
      const events = frames.map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)));
      assert.ok(largest > 64 << 10, `each creation's event is larger than the buffer (${largest} characters)`);
      assert.deepEqual(events.map((e) => e.entity_id), [p, ...ids]);
      assert.ok(events.every((e) => e.operation === 'import'));
    } finally {
      await paced.close();
    }
  });

  it('refuses a position it never handed out with a JSON 400', async () => {
    const res = await fetch(`${s.url}/v1/changes/stream?since=nonsense`, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, 'invalid-query-parameter');
  });
});
