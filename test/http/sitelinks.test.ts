// Sitelinks over real HTTP (docs/api.md §4.5, §6.4, §10.1, §10.5, §10.6): every route with its successes and
// errors, one item per page (also under concurrent edits), url building per site group, the site-table
// override, badges, and sitelinks in item creation and item PATCH. A rejected edit changes nothing.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestResponse, type TestServer } from '../helpers/server.js';
import type { Ctx } from '../../src/http/context.js';

// Badge items are created first in a fresh database, so they get these ids. Q999999 is allowed but never exists.
const GOOD_ARTICLE = 'Q1';
const FEATURED = 'Q2';
const NOT_ALLOWED = 'Q3';
const MISSING_BADGE = 'Q999999';

let s: TestServer;
before(async () => {
  s = await startServer({ config: { allowedBadges: [GOOD_ARTICLE, FEATURED, MISSING_BADGE], allowedTags: ['mobile'] } });
  for (const expected of [GOOD_ARTICLE, FEATURED, NOT_ALLOWED]) assert.equal((await createItem()).id, expected);
});
after(async () => { await s.close(); });

async function createItem(item: unknown = {}, server: TestServer = s): Promise<{ id: string; sitelinks: Record<string, unknown> }> {
  const res = await server.post('/v1/entities/items', { item });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

const links = (id: string) => `/v1/entities/items/${id}/sitelinks`;

function assertError(res: TestResponse, status: number, code: string, context?: unknown, message?: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.deepEqual(res.body.context, context);
  if (message !== undefined) assert.equal(res.body.message, message);
  assert.equal(res.headers.get('content-language'), 'en');
}

/** What a rejected edit must leave alone: the document, its ETag and the revision count. */
async function snapshot(id: string) {
  const res = await s.get(`/v1/entities/items/${id}`);
  return { body: res.body, etag: res.headers.get('etag'), revisions: (await s.store.revisions(id, 100)).length };
}

describe('GET /v1/entities/items/{item_id}/sitelinks', () => {
  it('answers {} for an item without sitelinks, with ETag and Last-Modified', async () => {
    const item = await createItem();
    const res = await s.get(links(item.id));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(res.body, {});
    assert.match(res.headers.get('etag')!, /^"\d+"$/);
    assert.ok(res.headers.get('last-modified')!.endsWith(' GMT'));
  });

  it('answers the map with derived urls', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Map page one' }, dewiki: { title: 'Kartenseite', badges: [FEATURED] } } });
    const res = await s.get(links(item.id));
    assert.deepEqual(res.body, {
      enwiki: { title: 'Map page one', badges: [], url: 'https://en.wikipedia.org/wiki/Map_page_one' },
      dewiki: { title: 'Kartenseite', badges: [FEATURED], url: 'https://de.wikipedia.org/wiki/Kartenseite' },
    });
  });

  it('answers 400 / 404 for malformed and missing items', async () => {
    assertError(await s.get(links('X1')), 400, 'invalid-item-id', undefined, 'Not a valid item ID: X1');
    assertError(await s.get(links('Q88888888')), 404, 'item-not-found', undefined, 'Could not find an item with the ID: Q88888888');
  });
});

describe('GET /v1/entities/items/{item_id}/sitelinks/{site_id}', () => {
  it('answers one sitelink with ETag', async () => {
    const item = await createItem({ sitelinks: { frwiki: { title: 'Page unique' } } });
    const res = await s.get(`${links(item.id)}/frwiki`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { title: 'Page unique', badges: [], url: 'https://fr.wikipedia.org/wiki/Page_unique' });
    assert.equal(res.headers.get('etag'), (await s.get(`/v1/entities/items/${item.id}`)).headers.get('etag'));
  });

  it('answers invalid-site-id, sitelink-not-defined and the item errors, in docs/api.md §7.7 order', async () => {
    const item = await createItem();
    assertError(await s.get(`${links(item.id)}/nosuchwiki`), 400, 'invalid-site-id', undefined, 'Not a valid site ID: nosuchwiki');
    assertError(await s.get(`${links(item.id)}/ENWIKI`), 400, 'invalid-site-id', undefined, 'Not a valid site ID: ENWIKI');
    assertError(await s.get(`${links(item.id)}/enwiki`), 404, 'sitelink-not-defined', undefined,
      `No sitelink found for the ID: ${item.id} for the site enwiki`);
    assertError(await s.get(`${links('X1')}/nosuchwiki`), 400, 'invalid-item-id');
    assertError(await s.get(`${links('Q88888888')}/nosuchwiki`), 400, 'invalid-site-id', undefined, 'Not a valid site ID: nosuchwiki');
    assertError(await s.get(`${links('Q88888888')}/enwiki`), 404, 'item-not-found');
  });

  it('names the item with its upper-case id in sitelink-not-defined', async () => {
    const item = await createItem();
    const res = await s.get(`${links(item.id.toLowerCase())}/enwiki`);
    assert.equal(res.body.message, `No sitelink found for the ID: ${item.id} for the site enwiki`);
  });
});

describe('PUT /v1/entities/items/{item_id}/sitelinks/{site_id}', () => {
  it('stores a normalised title, ignores a client url and answers 200 with the sitelink', async () => {
    const item = await createItem();
    const res = await s.put(`${links(item.id)}/enwiki`, {
      sitelink: { title: '  put_page   one ', badges: [GOOD_ARTICLE], url: 'https://evil.example/x' }, comment: 'link it',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(res.body, { title: 'Put page one', badges: [GOOD_ARTICLE], url: 'https://en.wikipedia.org/wiki/Put_page_one' });
    const current = await s.get(`/v1/entities/items/${item.id}`);
    assert.equal(res.headers.get('etag'), current.headers.get('etag'));
    assert.equal(res.headers.get('last-modified'), current.headers.get('last-modified'));
    assert.deepEqual(current.body.sitelinks.enwiki, res.body);
    const [rev] = await s.store.revisions(item.id, 1);
    assert.equal(rev.comment, 'link it');
  });

  it('replaces an existing sitelink in place and appends a new site (200 either way, D11)', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Order A' }, dewiki: { title: 'Order B' } } });
    let res = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Order A2' } });
    assert.equal(res.status, 200);
    res = await s.put(`${links(item.id)}/frwiki`, { sitelink: { title: 'Order C' } });
    assert.equal(res.status, 200);
    const map = (await s.get(links(item.id))).body;
    assert.deepEqual(Object.keys(map), ['enwiki', 'dewiki', 'frwiki']);
    assert.equal(map.enwiki.title, 'Order A2');
    assert.equal((await s.store.revisions(item.id, 10)).length, 3);
  });

  it('treats identical title and badges as a no-op: same ETag, no revision', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Noop page', badges: [FEATURED] } } });
    const before = await snapshot(item.id);
    // Same after normalisation: underscores, spacing, a duplicated badge, a lower-case badge id.
    const res = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'noop_page ', badges: ['q2', FEATURED] } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { title: 'Noop page', badges: [FEATURED], url: 'https://en.wikipedia.org/wiki/Noop_page' });
    assert.equal(res.headers.get('etag'), before.etag);
    assert.deepEqual(await snapshot(item.id), before);
    // Changing only the badges is an edit.
    const changed = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Noop page' } });
    assert.notEqual(changed.headers.get('etag'), before.etag);
    assert.deepEqual(changed.body.badges, []);
  });

  it('answers each body error with its exact code and context, and changes nothing', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Body errors' } } });
    const before = await snapshot(item.id);
    const cases: Array<[unknown, string, unknown]> = [
      [{}, 'missing-field', { path: '', field: 'sitelink' }],
      [{ comment: 'only metadata' }, 'missing-field', { path: '', field: 'sitelink' }],
      [{ sitelink: 'Body errors' }, 'invalid-value', { path: '/sitelink' }],
      [{ sitelink: ['Body errors'] }, 'invalid-value', { path: '/sitelink' }],
      [{ sitelink: null }, 'invalid-value', { path: '/sitelink' }],
      [{ sitelink: {} }, 'missing-field', { path: '/sitelink', field: 'title' }],
      [{ sitelink: { badges: [] } }, 'missing-field', { path: '/sitelink', field: 'title' }],
      [{ sitelink: { title: '' } }, 'invalid-value', { path: '/sitelink/title' }],
      [{ sitelink: { title: '   ' } }, 'invalid-value', { path: '/sitelink/title' }],
      [{ sitelink: { title: 42 } }, 'invalid-value', { path: '/sitelink/title' }],
      [{ sitelink: { title: 'a|b' } }, 'invalid-value', { path: '/sitelink/title' }],
      [{ sitelink: { title: 'a%20b' } }, 'invalid-value', { path: '/sitelink/title' }],
      [{ sitelink: { title: 'a&amp;b' } }, 'invalid-value', { path: '/sitelink/title' }],
      [{ sitelink: { title: 'Body errors', badges: GOOD_ARTICLE } }, 'invalid-value', { path: '/sitelink/badges' }],
      [{ sitelink: { title: 'Body errors', badges: ['not an id'] } }, 'invalid-value', { path: '/sitelink/badges/0' }],
      [{ sitelink: { title: 'Body errors', badges: ['P1'] } }, 'invalid-value', { path: '/sitelink/badges/0' }],
      [{ sitelink: { title: 'Body errors', badges: [GOOD_ARTICLE, 7] } }, 'invalid-value', { path: '/sitelink/badges/1' }],
      [{ sitelink: { title: 'Body errors', badges: [NOT_ALLOWED] } }, 'invalid-value', { path: '/sitelink/badges/0' }],
      [{ sitelink: { title: 'Body errors', badges: [GOOD_ARTICLE, MISSING_BADGE] } }, 'invalid-value', { path: '/sitelink/badges/1' }],
      [{ sitelink: { title: 'Other' }, tags: 'mobile' }, 'invalid-value', { path: '/tags' }],
      [{ sitelink: { title: 'Other' }, tags: ['nope'] }, 'invalid-value', { path: '/tags/0' }],
      [{ sitelink: { title: 'Other' }, bot: 'yes' }, 'invalid-value', { path: '/bot' }],
      [{ sitelink: { title: 'Other' }, comment: 'x'.repeat(501) }, 'value-too-long', { path: '/comment', limit: 500 }],
    ];
    for (const [body, code, context] of cases) {
      const res = await s.put(`${links(item.id)}/enwiki`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, code, JSON.stringify(body));
      assert.deepEqual(res.body.context, context, JSON.stringify(body));
    }
    const res = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'a#b' } });
    assert.deepEqual(res.body, { code: 'invalid-value', message: "Invalid value at '/sitelink/title'", context: { path: '/sitelink/title' } });
    const missing = await s.put(`${links(item.id)}/enwiki`, {});
    assert.equal(missing.body.message, 'Required field missing');
    assert.deepEqual(await snapshot(item.id), before);
  });

  it('answers the path errors in docs/api.md §7.7 order', async () => {
    const item = await createItem();
    const body = { sitelink: { title: 'Path errors' } };
    assertError(await s.put(`${links(item.id)}/nosuchwiki`, body), 400, 'invalid-site-id', undefined, 'Not a valid site ID: nosuchwiki');
    assertError(await s.put(`${links('X1')}/nosuchwiki`, body), 400, 'invalid-item-id', undefined, 'Not a valid item ID: X1');
    assertError(await s.put(`${links('Q88888888')}/enwiki`, body), 404, 'item-not-found');
    // A missing payload is reported before anything else, even a bad id (§7.7 step 2).
    assertError(await s.put(`${links('X1')}/nosuchwiki`, {}), 400, 'missing-field', { path: '', field: 'sitelink' });
    // Site id before the body, the body before existence.
    assertError(await s.put(`${links('Q88888888')}/nosuchwiki`, { sitelink: {} }), 400, 'invalid-site-id');
    assertError(await s.put(`${links('Q88888888')}/enwiki`, { sitelink: {} }), 400, 'missing-field', { path: '/sitelink', field: 'title' });
    assert.deepEqual(await s.get(links(item.id)).then((r) => r.body), {});
  });

  it('honours If-Match: a stale one answers 412 and writes nothing', async () => {
    const item = await createItem();
    const before = await snapshot(item.id);
    const res = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Precondition' } }, { 'if-match': '"1"' });
    assert.equal(res.status, 412);
    assert.deepEqual(await snapshot(item.id), before);
    const ok = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Precondition' } }, { 'if-match': before.etag! });
    assert.equal(ok.status, 200);
  });
});

describe('one item per page (docs/api.md §6.4)', () => {
  it('refuses on PUT a page another item links, naming only the other item', async () => {
    const owner = await createItem({ sitelinks: { enwiki: { title: 'Shared page' } } });
    const other = await createItem();
    const before = await snapshot(other.id);
    // The title is normalised before the comparison, so another spelling of the same page conflicts too.
    for (const title of ['Shared page', 'shared_page']) {
      const res = await s.put(`${links(other.id)}/enwiki`, { sitelink: { title } });
      assert.equal(res.status, 422);
      assert.deepEqual(res.body, {
        code: 'data-policy-violation', message: 'Edit violates data policy',
        context: { violation: 'sitelink-conflict', violation_context: { conflicting_item_id: owner.id } },
      });
    }
    assert.deepEqual(await snapshot(other.id), before);
    // The same title on another site, or another title on the same site, is fine.
    assert.equal((await s.put(`${links(other.id)}/dewiki`, { sitelink: { title: 'Shared page' } })).status, 200);
    assert.equal((await s.put(`${links(other.id)}/enwiki`, { sitelink: { title: 'Shared page (2)' } })).status, 200);
  });

  it('does not count re-linking the same title to the same item as a conflict', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Relinked page' } } });
    let res = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Relinked page', badges: [GOOD_ARTICLE] } });
    assert.equal(res.status, 200);
    res = await s.patch(`/v1/entities/items/${item.id}`, { patch: [{ op: 'replace', path: '/sitelinks/enwiki/title', value: 'relinked_page' }] });
    assert.equal(res.status, 200);
  });

  it('frees a page when its sitelink is deleted or retitled', async () => {
    const first = await createItem({ sitelinks: { enwiki: { title: 'Freed page' }, dewiki: { title: 'Umbenannt' } } });
    const second = await createItem();
    assert.equal((await s.put(`${links(second.id)}/enwiki`, { sitelink: { title: 'Freed page' } })).status, 422);
    assert.equal((await s.delete(`${links(first.id)}/enwiki`)).status, 200);
    assert.equal((await s.put(`${links(second.id)}/enwiki`, { sitelink: { title: 'Freed page' } })).status, 200);
    assert.equal((await s.put(`${links(first.id)}/dewiki`, { sitelink: { title: 'Neuer Titel' } })).status, 200);
    assert.equal((await s.put(`${links(second.id)}/dewiki`, { sitelink: { title: 'Umbenannt' } })).status, 200);
  });

  it('lets exactly one of several concurrent PUTs of the same page win; the others get 422', async () => {
    for (let round = 0; round < 3; round++) {
      const items = await Promise.all([createItem(), createItem(), createItem()]);
      const title = `Race page ${round}`;
      const results = await Promise.all(items.map((item) => s.put(`${links(item.id)}/enwiki`, { sitelink: { title } })));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 422, 422], results.map((r) => r.text).join('\n'));
      const winner = items[results.findIndex((r) => r.status === 200)];
      for (const [i, res] of results.entries()) {
        if (res.status === 200) continue;
        assert.deepEqual(res.body.context, { violation: 'sitelink-conflict', violation_context: { conflicting_item_id: winner.id } });
        assert.deepEqual((await s.get(links(items[i].id))).body, {});
        assert.equal((await s.store.revisions(items[i].id, 10)).length, 1);
      }
      assert.equal((await s.get(`${links(winner.id)}/enwiki`)).body.title, title);
    }
  });

  it('holds when both edits pass the pre-check before either commits: the store transaction decides', async () => {
    // The rate-limit hook runs after commitEdit's read-only policy check and before the store write; holding
    // both requests there makes them race for the page inside the store, which must let only one through.
    let waiting = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const racing = new Set<string>();
    const r = await startServer({
      guard: {
        async authorize() {},
        async consume(client) {
          // The edit's Ctx is the client the pipeline passes: its path names the item.
          if (!racing.has((client as Ctx).params.item_id)) return;
          if (++waiting === racing.size) release();
          await gate;
        },
      },
    });
    try {
      const items = [await createItem({}, r), await createItem({}, r)];
      for (const item of items) racing.add(item.id);
      const results = await Promise.all(items.map((item) => r.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Raced in the store' } })));
      assert.equal(waiting, 2, 'both requests passed the pre-check');
      assert.deepEqual(results.map((res) => res.status).sort(), [200, 422], results.map((res) => res.text).join('\n'));
      const winner = items[results.findIndex((res) => res.status === 200)];
      const loser = items[results.findIndex((res) => res.status === 422)];
      assert.deepEqual(results.find((res) => res.status === 422)!.body.context,
        { violation: 'sitelink-conflict', violation_context: { conflicting_item_id: winner.id } });
      assert.deepEqual((await r.get(links(loser.id))).body, {});
      assert.equal((await r.store.revisions(loser.id, 10)).length, 1);
    } finally {
      await r.close();
    }
  });

  it('lets exactly one of two concurrent creations with the same page win', async () => {
    const item = { sitelinks: { itwiki: { title: 'Pagina contesa' } } };
    const results = await Promise.all([1, 2].map(() => s.post('/v1/entities/items', { item })));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 422]);
    const winner = results.find((r) => r.status === 201)!;
    const loser = results.find((r) => r.status === 422)!;
    assert.deepEqual(loser.body.context, {
      violation: 'sitelink-conflict', violation_context: { site_id: 'itwiki', conflicting_item_id: winner.body.id },
    });
  });
});

describe('PATCH /v1/entities/items/{item_id}/sitelinks', () => {
  it('adds, retitles and removes sitelinks and answers the full map', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Patch page' }, dewiki: { title: 'Patchseite' } } });
    const res = await s.patch(links(item.id), {
      patch: [
        { op: 'add', path: '/frwiki', value: { title: 'page_de patch', badges: [GOOD_ARTICLE], url: 'ignored for a new site' } },
        { op: 'replace', path: '/enwiki/title', value: 'Patch page 2' },
        { op: 'remove', path: '/dewiki' },
      ],
      comment: 'patched',
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      enwiki: { title: 'Patch page 2', badges: [], url: 'https://en.wikipedia.org/wiki/Patch_page_2' },
      frwiki: { title: 'Page de patch', badges: [GOOD_ARTICLE], url: 'https://fr.wikipedia.org/wiki/Page_de_patch' },
    });
    const current = await s.get(links(item.id));
    assert.deepEqual(current.body, res.body);
    assert.equal(res.headers.get('etag'), current.headers.get('etag'));
    assert.equal((await s.store.revisions(item.id, 1))[0].comment, 'patched');
  });

  it('accepts an unchanged url (the old one, even after a retitle) and treats an empty patch as a no-op', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Url kept' } } });
    const before = await snapshot(item.id);
    let res = await s.patch(links(item.id), { patch: [] });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('etag'), before.etag);
    assert.deepEqual(await snapshot(item.id), before);
    res = await s.patch(links(item.id), { patch: [{ op: 'replace', path: '/enwiki/url', value: 'https://en.wikipedia.org/wiki/Url_kept' }] });
    assert.equal(res.headers.get('etag'), before.etag);
    res = await s.patch(links(item.id), { patch: [{ op: 'replace', path: '/enwiki/title', value: 'Url kept 2' }] });
    assert.equal(res.status, 200);
    assert.equal(res.body.enwiki.url, 'https://en.wikipedia.org/wiki/Url_kept_2');
  });

  it('answers the document, application and result errors with paths relative to the map, changing nothing', async () => {
    const owner = await createItem({ sitelinks: { eswiki: { title: 'Pagina del otro' } } });
    const item = await createItem({ sitelinks: { enwiki: { title: 'Patch errors' } } });
    const before = await snapshot(item.id);
    const cases: Array<[unknown, number, string, unknown]> = [
      [{}, 400, 'missing-field', { path: '', field: 'patch' }],
      [{ patch: { op: 'add' } }, 400, 'invalid-value', { path: '/patch' }],
      [{ patch: [{ op: 'add', path: '/dewiki' }] }, 400, 'missing-field', { path: '/patch/0', field: 'value' }],
      [{ patch: [{ op: 'remove', path: '/dewiki' }] }, 409, 'patch-target-not-found', { path: '/patch/0/path' }],
      [{ patch: [{ op: 'test', path: '/enwiki/title', value: 'x' }] }, 409, 'patch-test-failed', { path: '/patch/0', actual_value: 'Patch errors' }],
      [{ patch: [{ op: 'replace', path: '', value: 'x' }] }, 422, 'patch-result-invalid-value', { path: '', value: 'x' }],
      [{ patch: [{ op: 'add', path: '/nosuchwiki', value: { title: 'X' } }] }, 422, 'patch-result-invalid-key', { path: '', key: 'nosuchwiki' }],
      [{ patch: [{ op: 'replace', path: '/enwiki', value: 'Patch errors' }] }, 422, 'patch-result-invalid-value', { path: '/enwiki', value: 'Patch errors' }],
      [{ patch: [{ op: 'remove', path: '/enwiki/title' }] }, 422, 'patch-result-missing-field', { path: '/enwiki', field: 'title' }],
      [{ patch: [{ op: 'replace', path: '/enwiki/title', value: '  ' }] }, 422, 'patch-result-invalid-value', { path: '/enwiki/title', value: '' }],
      [{ patch: [{ op: 'replace', path: '/enwiki/title', value: 'a]b' }] }, 422, 'patch-result-invalid-value', { path: '/enwiki/title', value: 'a]b' }],
      [{ patch: [{ op: 'replace', path: '/enwiki/badges', value: 'Q1' }] }, 422, 'patch-result-invalid-value', { path: '/enwiki/badges', value: 'Q1' }],
      [{ patch: [{ op: 'add', path: '/enwiki/badges/-', value: NOT_ALLOWED }] }, 422, 'patch-result-invalid-value', { path: '/enwiki/badges/0', value: NOT_ALLOWED }],
      [{ patch: [{ op: 'add', path: '/enwiki/badges/-', value: MISSING_BADGE }] }, 422, 'patch-result-invalid-value', { path: '/enwiki/badges/0', value: MISSING_BADGE }],
      [{ patch: [{ op: 'replace', path: '/enwiki/url', value: 'https://evil.example/x' }] }, 422, 'patch-result-modified-read-only-value', { path: '/enwiki/url' }],
      [{ patch: [{ op: 'add', path: '/eswiki', value: { title: 'pagina_del otro' } }] }, 422, 'data-policy-violation',
        { violation: 'sitelink-conflict', violation_context: { site_id: 'eswiki', conflicting_item_id: owner.id } }],
      [{ patch: [], tags: ['nope'] }, 400, 'invalid-value', { path: '/tags/0' }],
    ];
    for (const [body, status, code, context] of cases) {
      const res = await s.patch(links(item.id), body);
      assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.code, code, JSON.stringify(body));
      assert.deepEqual(res.body.context, context, JSON.stringify(body));
    }
    assert.deepEqual(await snapshot(item.id), before);
  });

  it('checks in docs/api.md §7.7 order: item id, metadata, patch document, then existence', async () => {
    assertError(await s.patch(links('X1'), { patch: [] }), 400, 'invalid-item-id');
    assertError(await s.patch(links('Q88888888'), { patch: [] }), 404, 'item-not-found');
    assertError(await s.patch(links('X1'), { patch: 'x' }), 400, 'invalid-item-id');
    assertError(await s.patch(links('Q88888888'), { patch: 'x', tags: ['nope'] }), 400, 'invalid-value', { path: '/tags/0' });
    assertError(await s.patch(links('Q88888888'), { patch: 'x' }), 400, 'invalid-value', { path: '/patch' });
  });

  it('accepts application/json-patch+json', async () => {
    const item = await createItem();
    const res = await s.request('PATCH', links(item.id), {
      body: { patch: [{ op: 'add', path: '/enwiki', value: { title: 'Json patch media type' } }] },
      headers: { 'content-type': 'application/json-patch+json' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.enwiki.title, 'Json patch media type');
  });
});

describe('DELETE /v1/entities/items/{item_id}/sitelinks/{site_id}', () => {
  it('answers "Sitelink deleted" with Content-Language: en and records the edit', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Deleted page' }, dewiki: { title: 'Bleibt' } } });
    const res = await s.delete(`${links(item.id)}/enwiki`, { comment: 'unlink', tags: ['mobile'] });
    assert.equal(res.status, 200);
    assert.equal(res.body, 'Sitelink deleted');
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('content-language'), 'en');
    const map = await s.get(links(item.id));
    assert.deepEqual(Object.keys(map.body), ['dewiki']);
    assert.equal(res.headers.get('etag'), map.headers.get('etag'));
    const [rev] = await s.store.revisions(item.id, 1);
    assert.deepEqual([rev.comment, rev.tags], ['unlink', ['mobile']]);
    // Without any body, too.
    const bare = await s.request('DELETE', `${links(item.id)}/dewiki`);
    assert.equal(bare.status, 200);
    assert.deepEqual((await s.get(links(item.id))).body, {});
  });

  it('answers invalid-site-id, sitelink-not-defined, item and metadata errors, changing nothing', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Not deleted' } } });
    const before = await snapshot(item.id);
    assertError(await s.delete(`${links(item.id)}/nosuchwiki`), 400, 'invalid-site-id', undefined, 'Not a valid site ID: nosuchwiki');
    assertError(await s.delete(`${links(item.id)}/dewiki`), 404, 'sitelink-not-defined', undefined,
      `No sitelink found for the ID: ${item.id} for the site dewiki`);
    assertError(await s.delete(`${links(item.id)}/enwiki`, { bot: 1 }), 400, 'invalid-value', { path: '/bot' });
    assertError(await s.delete(`${links(item.id)}/enwiki`, { comment: 'x'.repeat(501) }), 400, 'value-too-long', { path: '/comment', limit: 500 });
    assertError(await s.delete(`${links('X1')}/enwiki`), 400, 'invalid-item-id');
    assertError(await s.delete(`${links('Q88888888')}/enwiki`), 404, 'item-not-found');
    assert.deepEqual(await snapshot(item.id), before);
  });

  it('refuses a stale If-Match with 412', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Guarded page' } } });
    const res = await s.delete(`${links(item.id)}/enwiki`, undefined, { 'if-match': '"1"' });
    assert.equal(res.status, 412);
    assert.equal((await s.get(`${links(item.id)}/enwiki`)).status, 200);
  });
});

describe('properties have no sitelinks', () => {
  it('answers 404 rest-no-match on every sitelink path under a property', async () => {
    const prop = await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'no sitelinks here' } } });
    assert.equal(prop.status, 201);
    const base = `/v1/entities/properties/${prop.body.id}/sitelinks`;
    for (const [method, path, body] of [
      ['GET', base, undefined], ['PATCH', base, { patch: [] }],
      ['GET', `${base}/enwiki`, undefined], ['PUT', `${base}/enwiki`, { sitelink: { title: 'X' } }], ['DELETE', `${base}/enwiki`, undefined],
    ] as const) {
      const res = await s.request(method, path, { body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 'rest-no-match');
    }
  });
});

describe('sitelinks in item creation and item PATCH', () => {
  it('creates an item with normalised sitelinks and derived urls; a client url is ignored', async () => {
    const res = await s.post('/v1/entities/items', {
      item: { sitelinks: { enwiki: { title: 'created_page', badges: [FEATURED], url: 'https://evil.example' } } },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.sitelinks, {
      enwiki: { title: 'Created page', badges: [FEATURED], url: 'https://en.wikipedia.org/wiki/Created_page' },
    });
  });

  it('answers invalid-item-data for every bad sitelink, and a full-context conflict', async () => {
    const owner = await createItem({ sitelinks: { enwiki: { title: 'Creation conflict' } } });
    for (const sitelinks of [
      { nosuchwiki: { title: 'X' } }, { enwiki: 'X' }, { enwiki: {} }, { enwiki: { title: '' } }, { enwiki: { title: 'a{b' } },
      { enwiki: { title: 'X', badges: 'Q1' } }, { enwiki: { title: 'X', badges: [NOT_ALLOWED] } },
      { enwiki: { title: 'X', badges: [MISSING_BADGE] } }, ['x'],
    ]) {
      const res = await s.post('/v1/entities/items', { item: { sitelinks } });
      assert.deepEqual([res.status, res.body], [400, { code: 'invalid-item-data', message: 'The provided item data is invalid' }],
        JSON.stringify(sitelinks));
    }
    const res = await s.post('/v1/entities/items', { item: { sitelinks: { dewiki: { title: 'Frei' }, enwiki: { title: 'creation conflict' } } } });
    assertError(res, 422, 'data-policy-violation',
      { violation: 'sitelink-conflict', violation_context: { site_id: 'enwiki', conflicting_item_id: owner.id } });
    // Nothing was created: the page is still free on dewiki.
    assert.equal((await s.post('/v1/entities/items', { item: { sitelinks: { dewiki: { title: 'Frei' } } } })).status, 201);
  });

  it('edits sitelinks through the item PATCH with paths under /sitelinks', async () => {
    const owner = await createItem({ sitelinks: { enwiki: { title: 'Item patch owner' } } });
    const item = await createItem({ sitelinks: { enwiki: { title: 'Item patch page' } } });
    const path = `/v1/entities/items/${item.id}`;
    const before = await snapshot(item.id);
    const cases: Array<[unknown[], string, unknown]> = [
      [[{ op: 'add', path: '/sitelinks/nosuchwiki', value: { title: 'X' } }], 'patch-result-invalid-key', { path: '/sitelinks', key: 'nosuchwiki' }],
      [[{ op: 'replace', path: '/sitelinks', value: 'x' }], 'patch-result-invalid-value', { path: '/sitelinks', value: 'x' }],
      [[{ op: 'replace', path: '/sitelinks/enwiki', value: 5 }], 'patch-result-invalid-value', { path: '/sitelinks/enwiki', value: 5 }],
      [[{ op: 'remove', path: '/sitelinks/enwiki/title' }], 'patch-result-missing-field', { path: '/sitelinks/enwiki', field: 'title' }],
      [[{ op: 'replace', path: '/sitelinks/enwiki/title', value: '' }], 'patch-result-invalid-value', { path: '/sitelinks/enwiki/title', value: '' }],
      [[{ op: 'replace', path: '/sitelinks/enwiki/badges', value: [MISSING_BADGE] }], 'patch-result-invalid-value',
        { path: '/sitelinks/enwiki/badges/0', value: MISSING_BADGE }],
      [[{ op: 'replace', path: '/sitelinks/enwiki/url', value: 'https://x.example' }], 'patch-result-modified-read-only-value',
        { path: '/sitelinks/enwiki/url' }],
      [[{ op: 'replace', path: '/sitelinks/enwiki/title', value: 'Item patch owner' }], 'data-policy-violation',
        { violation: 'sitelink-conflict', violation_context: { site_id: 'enwiki', conflicting_item_id: owner.id } }],
    ];
    for (const [patch, code, context] of cases) {
      const res = await s.patch(path, { patch });
      assert.equal(res.status, 422, JSON.stringify(patch));
      assert.equal(res.body.code, code, JSON.stringify(patch));
      assert.deepEqual(res.body.context, context, JSON.stringify(patch));
    }
    assert.deepEqual(await snapshot(item.id), before);
    const res = await s.patch(path, { patch: [
      { op: 'add', path: '/sitelinks/dewiki', value: { title: 'Seite', badges: [GOOD_ARTICLE] } },
      { op: 'remove', path: '/sitelinks/enwiki' },
    ] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.sitelinks, { dewiki: { title: 'Seite', badges: [GOOD_ARTICLE], url: 'https://de.wikipedia.org/wiki/Seite' } });
  });
});

describe('urls per site group', () => {
  it('builds each url from its site pattern; Wiktionary keeps the first letter', async () => {
    const item = await createItem();
    const expected: Array<[string, string, string, string]> = [
      ['enwiki', "don't stop? (song)", "Don't stop? (song)", 'https://en.wikipedia.org/wiki/Don%27t_stop%3F_(song)'],
      ['zh_min_nanwiki', 'Tâi-oân', 'Tâi-oân', 'https://zh-min-nan.wikipedia.org/wiki/T%C3%A2i-o%C3%A2n'],
      ['dewikisource', 'faust_I', 'Faust I', 'https://de.wikisource.org/wiki/Faust_I'],
      ['enwiktionary', 'potato', 'potato', 'https://en.wiktionary.org/wiki/potato'],
      ['commonswiki', 'Category:Jane Doe', 'Category:Jane Doe', 'https://commons.wikimedia.org/wiki/Category:Jane_Doe'],
      ['wikidatawiki', 'Wikidata:Main Page', 'Wikidata:Main Page', 'https://www.wikidata.org/wiki/Wikidata:Main_Page'],
      ['enwikivoyage', 'AC/DC: 100% & more', 'AC/DC: 100% & more', 'https://en.wikivoyage.org/wiki/AC/DC:_100%25_%26_more'],
    ];
    for (const [site, title, stored, url] of expected) {
      const res = await s.put(`${links(item.id)}/${site}`, { sitelink: { title } });
      assert.equal(res.status, 200, `${site}: ${res.text}`);
      assert.deepEqual(res.body, { title: stored, badges: [], url }, site);
    }
    const map = (await s.get(links(item.id))).body;
    for (const [site, , stored, url] of expected) assert.deepEqual(map[site], { title: stored, badges: [], url });
  });
});

describe('site table override (ENTIA_SITES)', () => {
  it('adds a site with its own url pattern and removes another', async () => {
    const o = await startServer({
      sites: { sites: { examplewiki: { group: 'example', language: 'en', url: 'https://wiki.example.org/page/$1' }, enwiki: null } },
    });
    try {
      const item = await createItem({}, o);
      const res = await o.put(`${links(item.id)}/examplewiki`, { sitelink: { title: 'jane doe' } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { title: 'Jane doe', badges: [], url: 'https://wiki.example.org/page/Jane_doe' });
      assert.deepEqual((await o.get(`${links(item.id)}/examplewiki`)).body.url, 'https://wiki.example.org/page/Jane_doe');
      assertError(await o.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'X' } }), 400, 'invalid-site-id', undefined,
        'Not a valid site ID: enwiki');
      assertError(await o.get(`${links(item.id)}/enwiki`), 400, 'invalid-site-id');
      assert.equal((await o.post('/v1/entities/items', { item: { sitelinks: { enwiki: { title: 'X' } } } })).body.code, 'invalid-item-data');
      const patched = await o.patch(links(item.id), { patch: [{ op: 'add', path: '/enwiki', value: { title: 'X' } }] });
      assertError(patched, 422, 'patch-result-invalid-key', { path: '', key: 'enwiki' });
      assert.equal((await o.put(`${links(item.id)}/dewiki`, { sitelink: { title: 'Andere bleiben' } })).status, 200);
    } finally {
      await o.close();
    }
  });

  it('keeps stored sitelinks and badges the configuration no longer has, and patches around them', async () => {
    const first = await startServer({ config: { allowedBadges: [GOOD_ARTICLE] } });
    const badge = await createItem({}, first);
    assert.equal(badge.id, GOOD_ARTICLE);
    const item = await createItem({
      sitelinks: { enwiki: { title: 'Removed site' }, dewiki: { title: 'Bleibt da', badges: [GOOD_ARTICLE] } },
    }, first);
    await first.close({ keepFiles: true });
    // Restart without enwiki in the site table and without any allowed badge.
    const o = await startServer({ dbPath: first.dbPath, sites: { sites: { enwiki: null } } });
    try {
      assert.deepEqual((await o.get(links(item.id))).body.enwiki, { title: 'Removed site', badges: [], url: '' });
      assertError(await o.get(`${links(item.id)}/enwiki`), 400, 'invalid-site-id');
      const etag = (await o.get(links(item.id))).headers.get('etag');
      // Unchanged stored sitelinks are not validated again: an empty patch stays a no-op (§10.6) ...
      let res = await o.patch(links(item.id), { patch: [] });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('etag'), etag);
      res = await o.patch(`/v1/entities/items/${item.id}`, { patch: [{ op: 'add', path: '/labels/en', value: 'Still editable' }] });
      assert.equal(res.status, 200, res.text);
      // ... but a changed one is.
      res = await o.patch(links(item.id), { patch: [{ op: 'replace', path: '/dewiki/title', value: 'Neu' }] });
      assertError(res, 422, 'patch-result-invalid-value', { path: '/dewiki/badges/0', value: GOOD_ARTICLE });
      res = await o.patch(links(item.id), { patch: [{ op: 'replace', path: '/enwiki/title', value: 'Other' }] });
      assertError(res, 422, 'patch-result-invalid-key', { path: '', key: 'enwiki' });
      res = await o.patch(links(item.id), { patch: [{ op: 'remove', path: '/enwiki' }, { op: 'replace', path: '/dewiki/badges', value: [] }] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { dewiki: { title: 'Bleibt da', badges: [], url: 'https://de.wikipedia.org/wiki/Bleibt_da' } });
    } finally {
      await o.close();
      rmSync(dirname(first.dbPath), { recursive: true, force: true });
    }
  });
});

describe('badges', () => {
  it('accepts only existing items from the configured list, deduplicated and upper-cased', async () => {
    const item = await createItem();
    let res = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Badged page', badges: [FEATURED, 'q1', FEATURED] } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.badges, [FEATURED, GOOD_ARTICLE]);
    // Not in the allow-list; allowed but no such item; not an item id.
    for (const badge of [NOT_ALLOWED, MISSING_BADGE, 'P1']) {
      res = await s.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'Badged page', badges: [badge] } });
      assertError(res, 400, 'invalid-value', { path: '/sitelink/badges/0' }, "Invalid value at '/sitelink/badges/0'");
    }
    assert.deepEqual((await s.get(`${links(item.id)}/enwiki`)).body.badges, [FEATURED, GOOD_ARTICLE]);
  });

  it('refuses every badge by default (empty allow-list)', async () => {
    const d = await startServer();
    try {
      const badge = await createItem({}, d);
      const item = await createItem({}, d);
      const res = await d.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'No badges', badges: [badge.id] } });
      assertError(res, 400, 'invalid-value', { path: '/sitelink/badges/0' });
      assert.equal((await d.put(`${links(item.id)}/enwiki`, { sitelink: { title: 'No badges', badges: [] } })).status, 200);
    } finally {
      await d.close();
    }
  });
});

describe('redirected items (docs/api.md §9.1)', () => {
  it('answers 308 on sitelink reads and 409 redirected-item on sitelink edits', async () => {
    const target = await createItem({ sitelinks: { enwiki: { title: 'Redirect target' } } });
    const source = await createItem();
    // No route creates a redirect (a merge does, outside this API).
    await s.store.redirectEntity(source.id, target.id, { user: 'merge', comment: null, tags: [], bot: false });
    for (const path of [links(source.id), `${links(source.id)}/enwiki`]) {
      const res = await s.get(path);
      assert.equal(res.status, 308, path);
      assert.equal(new URL(res.headers.get('location')!).pathname, path.replace(source.id, target.id));
    }
    const edits = [
      s.put(`${links(source.id)}/dewiki`, { sitelink: { title: 'Umgeleitet' } }),
      s.patch(links(source.id), { patch: [] }),
      s.delete(`${links(source.id)}/enwiki`),
    ];
    for (const res of await Promise.all(edits)) {
      assertError(res, 409, 'redirected-item', { redirect_target: target.id }, `Item ${source.id} has been redirected to ${target.id}`);
    }
  });
});

describe('conditional reads', () => {
  it('answers 304 to a matching If-None-Match on both read routes', async () => {
    const item = await createItem({ sitelinks: { enwiki: { title: 'Conditional page' } } });
    const etag = (await s.get(links(item.id))).headers.get('etag')!;
    for (const path of [links(item.id), `${links(item.id)}/enwiki`]) {
      const res = await s.get(path, { 'if-none-match': etag });
      assert.equal(res.status, 304, path);
      assert.equal(res.text, '');
    }
  });
});
