// Language fallback reads of labels and descriptions (docs/api.md §9.3) for both kinds, plus the behaviour every
// term route shares with entity routes: conditional requests (§8), item redirects (§9.1), the order of
// checks (§7.7) and the permission hook.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fail } from '../../src/domain/errors.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { assertError, createEntity, KIND_CASES, snapshot, uniq } from '../helpers/term-kinds.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

/** A 307 has an empty body and an absolute Location on this server. */
function assertRedirect(res: { status: number; text: string; headers: Headers }, status: number, pathname: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.text, '');
  const location = new URL(res.headers.get('location')!);
  assert.equal(location.origin, s.url);
  assert.equal(location.pathname, pathname);
}

for (const k of KIND_CASES) {
  describe(`labels_with_language_fallback of ${k.segment}`, () => {
    const fallback = (id: string, lang: string) => `/v1/entities/${k.segment}/${id}/labels_with_language_fallback/${lang}`;

    it('answers 200 with the label in the requested language itself, with validators', async () => {
      const de = uniq();
      const id = await createEntity(s, k, { labels: { de, en: uniq() } });
      const res = await s.get(fallback(id, 'de'));
      assert.equal(res.status, 200);
      assert.equal(res.body, de);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.ok(res.headers.get('etag'));
      assert.ok(res.headers.get('last-modified'));
    });

    it('answers 307 one step down the chain (de-ch → de)', async () => {
      const id = await createEntity(s, k, { labels: { de: uniq(), en: uniq() } });
      assertRedirect(await s.get(fallback(id, 'de-ch')), 307, `/v1/entities/${k.segment}/${id}/labels/de`);
      assertRedirect(await s.get(fallback(id.toLowerCase(), 'de-ch')), 307, `/v1/entities/${k.segment}/${id}/labels/de`);
    });

    it('answers 307 two steps down the chain, through mul (de-ch → de → mul)', async () => {
      // docs/api.md §9.3's example: labels {ar, mul}: arz → ar, en → mul.
      const id = await createEntity(s, k, { labels: { ar: uniq(), mul: uniq() } });
      assertRedirect(await s.get(fallback(id, 'de-ch')), 307, `/v1/entities/${k.segment}/${id}/labels/mul`);
      assertRedirect(await s.get(fallback(id, 'en')), 307, `/v1/entities/${k.segment}/${id}/labels/mul`);
      assertRedirect(await s.get(fallback(id, 'arz')), 307, `/v1/entities/${k.segment}/${id}/labels/ar`);
    });

    it('follows variants (zh-tw → zh-hant → zh-hans)', async () => {
      const id = await createEntity(s, k, { labels: { 'zh-hans': uniq() } });
      assertRedirect(await s.get(fallback(id, 'zh-tw')), 307, `/v1/entities/${k.segment}/${id}/labels/zh-hans`);
    });

    it('sends any language to en when the entity only has an English label', async () => {
      const id = await createEntity(s, k, { labels: { en: uniq() } });
      for (const lang of ['de-ch', 'ko', 'mul', 'zh-tw']) {
        assertRedirect(await s.get(fallback(id, lang)), 307, `/v1/entities/${k.segment}/${id}/labels/en`);
      }
    });

    it('answers 404 label-not-defined for the requested language when the chain has nothing', async () => {
      const id = await createEntity(s, k, { labels: { ar: uniq() }, descriptions: { de: uniq() } });
      assertError(await s.get(fallback(id, 'de-ch')), 404, 'label-not-defined', undefined,
        `${k.noun} with the ID ${id} does not have a label in the language: de-ch`);
      const empty = await createEntity(s, k);
      assertError(await s.get(fallback(empty, 'en')), 404, 'label-not-defined');
    });

    it('answers 400 invalid-language-code and the kind\'s id errors', async () => {
      const id = await createEntity(s, k, { labels: { en: uniq() } });
      assertError(await s.get(fallback(id, 'xyz')), 400, 'invalid-language-code', undefined, 'Not a valid language code: xyz');
      assertError(await s.get(fallback(k.missingId, 'en')), 404, k.notFound);
      assertError(await s.get(fallback(k.wrongKindId, 'en')), 400, k.invalidId);
    });
  });

  describe(`descriptions_with_language_fallback of ${k.segment}`, () => {
    const fallback = (id: string, lang: string) => `/v1/entities/${k.segment}/${id}/descriptions_with_language_fallback/${lang}`;

    it('answers 200 in the language itself, 307 to /descriptions/{fallback}, 404 when nothing is found', async () => {
      const de = uniq();
      const id = await createEntity(s, k, { descriptions: { de }, labels: { ko: uniq() } });
      assert.equal((await s.get(fallback(id, 'de'))).body, de);
      assertRedirect(await s.get(fallback(id, 'bar')), 307, `/v1/entities/${k.segment}/${id}/descriptions/de`);
      assertError(await s.get(fallback(id, 'ko')), 404, 'description-not-defined', undefined,
        `${k.noun} with the ID ${id} does not have a description in the language: ko`);
    });

    it('never tries mul, and refuses it as the requested language', async () => {
      const id = await createEntity(s, k, { labels: { mul: uniq() }, descriptions: { en: uniq() } });
      assertRedirect(await s.get(fallback(id, 'de-ch')), 307, `/v1/entities/${k.segment}/${id}/descriptions/en`);
      assertError(await s.get(fallback(id, 'mul')), 400, 'invalid-language-code', undefined, 'Not a valid language code: mul');
    });
  });
}

describe('conditional requests on term routes (docs/api.md §8)', () => {
  for (const k of KIND_CASES) {
    it(`${k.segment}: a stale If-Match answers 412 on every term edit and changes nothing`, async () => {
      const id = await createEntity(s, k, { labels: { en: uniq() }, aliases: { en: ['a'] } });
      const before = await snapshot(s, k, id);
      const stale = { 'if-match': '"1"' };
      const base = `/v1/entities/${k.segment}/${id}`;
      for (const [method, path, body] of [
        ['PUT', `${base}/labels/de`, { label: uniq() }],
        ['PUT', `${base}/descriptions/de`, { description: uniq() }],
        ['PATCH', `${base}/labels`, { patch: [{ op: 'remove', path: '/en' }] }],
        ['PATCH', `${base}/aliases`, { patch: [{ op: 'remove', path: '/en' }] }],
        ['DELETE', `${base}/labels/en`, undefined],
        ['POST', `${base}/aliases/en`, { aliases: ['b'] }],
      ] as const) {
        const res = await s.request(method, path, { body, headers: stale });
        assert.equal(res.status, 412, `${method} ${path}: ${res.text}`);
        assert.equal(res.text, '');
        assert.equal(res.headers.get('etag'), null);
      }
      assert.deepEqual(await snapshot(s, k, id), before);
      const res = await s.put(`${base}/labels/de`, { label: uniq() }, { 'if-match': before.etag! });
      assert.equal(res.status, 200);
    });

    it(`${k.segment}: If-None-Match answers 304 on term reads, If-None-Match: * gives 412 on edits`, async () => {
      const id = await createEntity(s, k, { labels: { en: uniq() } });
      const { etag } = await snapshot(s, k, id);
      const base = `/v1/entities/${k.segment}/${id}`;
      for (const path of [`${base}/labels`, `${base}/labels/en`, `${base}/labels_with_language_fallback/de`, `${base}/aliases`]) {
        const res = await s.get(path, { 'if-none-match': etag! });
        assert.equal(res.status, 304, path);
        assert.equal(res.headers.get('etag'), etag);
      }
      assert.equal((await s.put(`${base}/labels/en`, { label: uniq() }, { 'if-none-match': '*' })).status, 412);
    });
  }
});

describe('item redirects on term routes (docs/api.md §9.1)', () => {
  it('answers 308 to the target on reads and 409 redirected-item on edits', async () => {
    const target = await createEntity(s, KIND_CASES[0], { labels: { de: uniq() } });
    // No route creates a redirect (they come from merges: `entia redirect`), so the test asks the store.
    const redirect = 'Q900100';
    await s.store.redirectEntity(redirect, target, { user: 'merge', comment: null, tags: [], bot: false });
    for (const suffix of ['labels', 'descriptions/en', 'aliases/en', 'labels_with_language_fallback/de-ch']) {
      assertRedirect(await s.get(`/v1/entities/items/${redirect}/${suffix}`), 308, `/v1/entities/items/${target}/${suffix}`);
    }
    for (const [method, suffix, body] of [
      ['PUT', 'labels/en', { label: uniq() }],
      ['PATCH', 'descriptions', { patch: [] }],
      ['DELETE', 'labels/en', undefined],
      ['POST', 'aliases/en', { aliases: ['x'] }],
    ] as const) {
      assertError(await s.request(method, `/v1/entities/items/${redirect}/${suffix}`, { body }), 409, 'redirected-item',
        { redirect_target: target }, `Item ${redirect} has been redirected to ${target}`);
    }
  });
});

describe('order of checks on term routes (docs/api.md §7.7)', () => {
  for (const k of KIND_CASES) {
    it(`${k.segment}: body shape → id → preconditions → language → metadata → value → existence`, async () => {
      const id = await createEntity(s, k, { labels: { en: uniq() } });
      const base = `/v1/entities/${k.segment}/${id}`;
      // An empty body with a bad language code is a missing field first.
      assertError(await s.put(`${base}/labels/1e`, {}), 400, 'missing-field', { path: '', field: 'label' });
      assertError(await s.put(`/v1/entities/${k.segment}/X1/labels/1e`, { label: 1 }), 400, 'invalid-value', { path: '/label' });
      assertError(await s.put(`/v1/entities/${k.segment}/X1/labels/1e`, { label: '' }), 400, k.invalidId);
      // Preconditions of an existing entity come before the language code.
      assert.equal((await s.put(`${base}/labels/1e`, { label: '' }, { 'if-match': '"1"' })).status, 412);
      assertError(await s.put(`${base}/labels/1e`, { label: '', tags: ['nope'] }), 400, 'invalid-language-code');
      assertError(await s.put(`${base}/labels/en`, { label: '', tags: ['nope'] }), 400, 'invalid-value', { path: '/tags/0' });
      // The value is checked before existence; a missing entity is 404 only for a valid request.
      assertError(await s.put(`/v1/entities/${k.segment}/${k.missingId}/labels/en`, { label: '' }), 400, 'invalid-value', { path: '/label' });
      assertError(await s.post(`/v1/entities/${k.segment}/${k.missingId}/aliases/en`, { aliases: [] }), 400, 'invalid-value', { path: '/aliases' });
      assertError(await s.put(`/v1/entities/${k.segment}/${k.missingId}/labels/en`, { label: 'fine' }), 404, k.notFound);
      // Patch documents before existence, patch results after it.
      assertError(await s.patch(`/v1/entities/${k.segment}/${k.missingId}/labels`, { patch: [{}] }), 400, 'missing-field',
        { path: '/patch/0', field: 'op' });
      assertError(await s.patch(`/v1/entities/${k.segment}/${k.missingId}/labels`, { patch: [{ op: 'remove', path: '/x' }] }), 404, k.notFound);
    });
  }
});

describe('permission hook on term routes', () => {
  it('answers 403 on every term edit after existence checks, and changes nothing', async () => {
    const denied = await startServer({
      guard: {
        async authorize(ctx, entityId) {
          if (entityId !== null) fail('permission-denied', { denial_reason: 'resource-protected', denial_context: '' });
        },
        async consume() {},
      },
    });
    try {
      for (const k of KIND_CASES) {
        const id = await createEntity(denied, k, { labels: { en: uniq() }, descriptions: { en: uniq() } });
        const before = await snapshot(denied, k, id);
        const base = `/v1/entities/${k.segment}/${id}`;
        for (const [method, path, body] of [
          ['PUT', `${base}/labels/de`, { label: uniq() }],
          ['PATCH', `${base}/descriptions`, { patch: [] }],
          ['DELETE', `${base}/labels/en`, undefined],
          ['POST', `${base}/aliases/en`, { aliases: ['x'] }],
          ['PATCH', `${base}/aliases`, { patch: [] }],
        ] as const) {
          assertError(await denied.request(method, path, { body }), 403, 'permission-denied',
            { denial_reason: 'resource-protected', denial_context: '' });
        }
        // Existence first: a label that is not there is 404 before 403.
        assertError(await denied.delete(`${base}/labels/fr`), 404, 'label-not-defined');
        assertError(await denied.put(`/v1/entities/${k.segment}/${k.missingId}/labels/en`, { label: 'x' }), 404, k.notFound);
        assert.deepEqual(await snapshot(denied, k, id), before);
      }
    } finally {
      await denied.close();
    }
  });
});

describe('term routes in the OpenAPI document and over HEAD', () => {
  it('lists every term path for both kinds', async () => {
    const { paths } = (await s.get('/v1/openapi.json')).body;
    for (const entity of ['items/{item_id}', 'properties/{property_id}']) {
      for (const field of ['labels', 'descriptions']) {
        assert.deepEqual(Object.keys(paths[`/v1/entities/${entity}/${field}`]).sort(), ['get', 'patch']);
        assert.deepEqual(Object.keys(paths[`/v1/entities/${entity}/${field}/{language_code}`]).sort(), ['delete', 'get', 'put']);
        assert.deepEqual(Object.keys(paths[`/v1/entities/${entity}/${field}_with_language_fallback/{language_code}`]), ['get']);
      }
      assert.deepEqual(Object.keys(paths[`/v1/entities/${entity}/aliases`]).sort(), ['get', 'patch']);
      assert.deepEqual(Object.keys(paths[`/v1/entities/${entity}/aliases/{language_code}`]).sort(), ['get', 'post']);
    }
  });

  it('answers HEAD on a term read like GET without a body', async () => {
    const id = await createEntity(s, KIND_CASES[1], { labels: { en: uniq() } });
    const res = await s.request('HEAD', `/v1/entities/properties/${id}/labels/en`);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.ok(res.headers.get('etag'));
  });
});
