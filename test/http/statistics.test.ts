// GET /v1/statistics and the front page that shows it, over real HTTP on a fresh store of the test backend:
// what the store holds, by kind, with redirects apart; and the latest changes, labelled and linked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

describe('what the store holds', () => {
  it('counts items and properties, redirects apart, and the front page says so with the latest changes', async () => {
    const ids: string[] = [];
    for (const label of ['first counted', 'second counted', 'third <counted>']) {
      ids.push((await s.post('/v1/entities/items', { item: { labels: { en: label } } })).body.id);
    }
    assert.equal((await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'counted property' } } })).status, 201);
    await s.store.redirectEntity(ids[0], ids[1], { user: 'test', comment: null, tags: [], bot: false });
    const res = await s.get('/v1/statistics');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { entities: { item: 2, property: 1 }, redirects: { item: 1, property: 0 } });

    // On PostgreSQL the feed hands a change out once every transaction begun before it has ended (ADR 0006):
    // another test file's transaction can hold the latest changes back for a moment.
    const latestOf = (text: string) => /<ol class="latest-changes">([\s\S]*?)<\/ol>/.exec(text)?.[1] ?? '';
    let home = await s.get('/');
    for (const deadline = Date.now() + 30_000; (latestOf(home.text).match(/<li>/g) ?? []).length < 5 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      home = await s.get('/');
    }
    assert.match(home.text, /It holds <strong>2 items<\/strong> and\s*<strong>1 property<\/strong>, and 1 redirect from merged items\./);
    const latest = latestOf(home.text);
    assert.match(latest, new RegExp(`href="/${ids[0]}"[^>]*>.*?redirect`), 'the redirect first, newest first');
    assert.match(latest, /third &lt;counted>/, 'labels escaped');
    assert.equal((latest.match(/<li>/g) ?? []).length, 5);
  });
});
