// Four real `entia serve` processes over one PostgreSQL schema (ENTIA_TEST_POSTGRES): concurrent edits sent
// to different processes keep every guarantee one process gives — one winner per If-Match, no lost update,
// distinct ids, one item per page, no duplicate label+description. Unset: one named skip.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { call, startServerProcess, type Reply, type ServerProcess } from '../helpers/process.js';
import { createTestDb, openTestStore, postgresSkipReason, postgresUrl, type TestDb } from '../helpers/store.js';

if (!postgresUrl) {
  it('several server processes over one PostgreSQL database', { skip: postgresSkipReason! }, () => {});
} else {
  describe('several server processes over one PostgreSQL database', clusterTests);
}

function clusterTests(): void {
  let db: TestDb;
  let servers: ServerProcess[] = [];
  let store: Store;

  before(async () => {
    db = await createTestDb('postgres');
    servers = await Promise.all([0, 1, 2, 3].map(() => startServerProcess({ ENTIA_DB: db.location, ENTIA_PG_POOL: '4' })));
    store = await openTestStore(db.location);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store?.close();
    await db?.drop();
  });

  /** The i-th request goes to process i mod 4. */
  const at = (i: number) => servers[i % servers.length].url;
  const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();

  async function createItem(i: number, item: unknown = {}): Promise<{ id: string; etag: string }> {
    const res = await call(at(i), 'POST', '/v1/entities/items', { item });
    assert.equal(res.status, 201, res.text);
    return { id: res.body.id, etag: res.headers.get('etag')! };
  }

  it('lets exactly one of concurrent edits with the same If-Match through', async () => {
    const item = await createItem(0, { labels: { en: 'contested' } });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => call(at(i), 'PATCH', `/v1/entities/items/${item.id}`,
      { patch: [{ op: 'replace', path: '/labels/en', value: `attempt ${i}` }] }, { 'if-match': item.etag })));
    assert.deepEqual(statuses(replies), [200, 412, 412, 412, 412, 412]);
    const winner = replies.find((r) => r.status === 200)!;
    for (const i of [0, 1, 2]) {
      const read = await call(at(i), 'GET', `/v1/entities/items/${item.id}`);
      assert.equal(read.body.labels.en, winner.body.labels.en);
      assert.equal(read.headers.get('etag'), winner.headers.get('etag'));
    }
    assert.equal((await store.revisions(item.id, 10)).length, 2);
  });

  it('never makes a redirect cycle: Q→R and R→Q sent at once to two processes, 30 pairs', async () => {
    const form = (from: string, to: string) => new URLSearchParams({ action: 'wbcreateredirect', from, to, token: '+\\', format: 'json' }).toString();
    const post = async (i: number, from: string, to: string) => {
      const res = await fetch(`${at(i)}/w/api.php`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(from, to) });
      return res.json() as Promise<any>;
    };
    for (let pair = 0; pair < 30; pair++) {
      const a = (await createItem(pair)).id;
      const b = (await createItem(pair + 1)).id;
      const answers = await Promise.all([post(pair, a, b), post(pair + 1, b, a)]);
      const succeeded = answers.filter((x) => x.success === 1);
      assert.equal(succeeded.length, 1, JSON.stringify(answers));
      assert.deepEqual(answers.filter((x) => x.error).map((x) => x.error.code), ['target-is-redirect'], JSON.stringify(answers));
      const [ra, rb] = [await store.readEntity(a), await store.readEntity(b)];
      assert.equal([ra.status, rb.status].sort().join(), 'found,redirect', `${a}, ${b}`);
    }
  });

  it("serves another process's edit at once, though it holds the revision before in memory", async () => {
    const item = await createItem(0, { labels: { en: 'remembered' } });
    for (let round = 1; round <= 3; round++) {
      const held = await call(at(0), 'GET', `/v1/entities/items/${item.id}`);
      const edit = await call(at(1), 'PUT', `/v1/entities/items/${item.id}/labels/en`, { label: `changed ${round}` });
      assert.equal(edit.status, 200, edit.text);
      const read = await call(at(0), 'GET', `/v1/entities/items/${item.id}`);
      assert.notEqual(read.headers.get('etag'), held.headers.get('etag'));
      assert.equal(read.headers.get('etag'), edit.headers.get('etag'));
      assert.equal(read.body.labels.en, `changed ${round}`);
      assert.equal((await call(at(0), 'GET', `/v1/entities/items/${item.id}/labels/en`)).body, `changed ${round}`);
    }
  });

  it('loses no update among concurrent edits without If-Match', async () => {
    const item = await createItem(1);
    const langs = ['de', 'fr', 'es', 'it', 'nl', 'pl', 'sv', 'fi', 'da'];
    const replies = await Promise.all(langs.map((lang, i) => call(at(i), 'PATCH', `/v1/entities/items/${item.id}`,
      { patch: [{ op: 'add', path: `/labels/${lang}`, value: `label ${lang}` }] })));
    assert.deepEqual(statuses(replies), langs.map(() => 200), replies.map((r) => r.text).join('\n'));
    const labels = (await call(at(2), 'GET', `/v1/entities/items/${item.id}`)).body.labels;
    assert.deepEqual(Object.keys(labels).sort(), [...langs].sort());
    const revisions = await store.revisions(item.id, 20);
    assert.equal(revisions.length, langs.length + 1);
    const ids = revisions.map((r) => r.revision);
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'revision ids strictly increase');
    assert.equal(new Set(ids).size, ids.length);
  });

  it('answers 100 clients editing one entity over 4 processes with 200 (or 412 for a stale If-Match), never 5xx', async () => {
    const item = await createItem(3, { labels: { en: 'crowded' } });
    const crowd = await Promise.all(Array.from({ length: 100 }, (_, i) => call(at(i), 'PUT',
      `/v1/entities/items/${item.id}/labels/en`, { label: `crowd ${i}` })));
    assert.deepEqual([...new Set(statuses(crowd))], [200], crowd.filter((r) => r.status !== 200).map((r) => r.text).join('\n'));
    assert.equal((await store.revisions(item.id, 500)).length, 101, 'every edit wrote its revision');
    const etag = (await call(at(0), 'GET', `/v1/entities/items/${item.id}`)).headers.get('etag')!;
    const stale = await Promise.all(Array.from({ length: 100 }, (_, i) => call(at(i), 'PUT',
      `/v1/entities/items/${item.id}/labels/en`, { label: `if-match ${i}` }, { 'if-match': etag })));
    const counts = statuses(stale).reduce<Record<number, number>>((n, st) => ({ ...n, [st]: (n[st] ?? 0) + 1 }), {});
    assert.deepEqual(counts, { 200: 1, 412: 99 });
  });

  it('hands out distinct ids to concurrent creations', async () => {
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => call(at(i), 'POST', '/v1/entities/items', { item: {} })));
    assert.ok(replies.every((r) => r.status === 201), replies.map((r) => r.text).join('\n'));
    const ids = replies.map((r) => r.body.id as string);
    assert.equal(new Set(ids).size, ids.length);
    for (const [i, id] of ids.slice(0, 3).entries()) {
      assert.equal((await call(at(i + 1), 'GET', `/v1/entities/items/${id}`)).status, 200);
    }
  });

  it('gives a page to exactly one of two items claiming it from two processes', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([createItem(0), createItem(1)]);
      const title = `Contested page ${round}`;
      const replies = await Promise.all([a, b].map((item, i) => call(at(i), 'PATCH', `/v1/entities/items/${item.id}`,
        { patch: [{ op: 'add', path: '/sitelinks/enwiki', value: { title, badges: [] } }] })));
      assert.deepEqual(statuses(replies), [200, 422], replies.map((r) => r.text).join('\n'));
      const winner = replies[0].status === 200 ? a : b;
      const loser = replies.find((r) => r.status === 422)!;
      assert.equal(loser.body.code, 'data-policy-violation');
      assert.deepEqual(loser.body.context, {
        violation: 'sitelink-conflict', violation_context: { site_id: 'enwiki', conflicting_item_id: winner.id },
      });
      const loserId = winner === a ? b.id : a.id;
      assert.deepEqual((await call(at(2), 'GET', `/v1/entities/items/${loserId}`)).body.sitelinks, {});
    }
  });

  it('lets one of concurrent creations with the same label and description through', async () => {
    const item = { labels: { en: 'Springfield' }, descriptions: { en: 'cluster test town' } };
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => call(at(i), 'POST', '/v1/entities/items', { item })));
    assert.deepEqual(statuses(replies), [201, 422, 422, 422, 422, 422], replies.map((r) => r.text).join('\n'));
    const winner = replies.find((r) => r.status === 201)!.body.id;
    for (const r of replies.filter((x) => x.status === 422)) {
      assert.deepEqual(r.body.context, {
        violation: 'item-label-description-duplicate', violation_context: { language: 'en', conflicting_item_id: winner },
      });
    }
  });
}
