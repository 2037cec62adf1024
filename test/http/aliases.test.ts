// Aliases of items and properties over real HTTP (docs/api.md §10.3, §6.1): reads, POST (append, 201/200),
// PATCH, the 405 for PUT and DELETE, for both kinds; a rejected edit changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { assertError, createEntity, KIND_CASES, snapshot, uniq } from '../helpers/term-kinds.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

for (const k of KIND_CASES) {
  const base = (id: string) => `/v1/entities/${k.segment}/${id}/aliases`;

  describe(`aliases of ${k.segment}: reads`, () => {
    it('GET the map and one language, with the entity\'s validators; {} when there are none', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['spud', 'tater', 'spud'], de: ['Erdapfel'] } });
      const entity = await s.get(`/v1/entities/${k.segment}/${id}`);
      let res = await s.get(base(id));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { en: ['spud', 'tater'], de: ['Erdapfel'] });
      assert.equal(res.headers.get('etag'), entity.headers.get('etag'));
      assert.equal(res.headers.get('last-modified'), entity.headers.get('last-modified'));
      res = await s.get(`${base(id)}/en`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, ['spud', 'tater']);
      assert.equal(res.headers.get('etag'), entity.headers.get('etag'));
      const empty = await createEntity(s, k);
      assert.equal((await s.get(base(empty))).text, '{}');
    });

    it('answers 404 aliases-not-defined naming the kind, 400 invalid-language-code, the kind\'s id errors', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['x'] } });
      assertError(await s.get(`${base(id)}/fr`), 404, 'aliases-not-defined', undefined,
        `${k.noun} with the ID ${id} does not have aliases in the language: fr`);
      assertError(await s.get(`${base(id)}/mul`), 404, 'aliases-not-defined');
      assertError(await s.get(`${base(id)}/xyz`), 400, 'invalid-language-code', undefined, 'Not a valid language code: xyz');
      for (const path of [base(k.missingId), `${base(k.missingId)}/en`]) {
        assertError(await s.get(path), 404, k.notFound, undefined, k.notFoundMessage(k.missingId));
      }
      for (const path of [base(k.wrongKindId), `${base(k.wrongKindId)}/en`]) {
        assertError(await s.get(path), 400, k.invalidId, undefined, k.invalidIdMessage(k.wrongKindId));
      }
    });
  });

  describe(`aliases of ${k.segment}: POST`, () => {
    it('answers 201 with the list when the language had no aliases, trimming and dropping duplicates', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['existing'] } });
      const res = await s.post(`${base(id)}/de`, { aliases: [' eins ', 'zwei', 'eins', 'Ka\u0308se'], comment: 'new language' });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body, ['eins', 'zwei', 'Käse']);
      assert.equal(res.headers.get('content-type'), 'application/json');
      const [rev] = await s.store.revisions(id, 1);
      assert.equal(res.headers.get('etag'), `"${rev.revision}"`);
      assert.ok(res.headers.get('last-modified'));
      assert.equal(rev.comment, 'new language');
      assert.deepEqual((await s.get(base(id))).body, { en: ['existing'], de: ['eins', 'zwei', 'Käse'] });
    });

    it('answers 200 when the language had aliases, appending only the new ones (docs/api.md §11)', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['existing'] } });
      const res = await s.post(`${base(id)}/en`, { aliases: ['next', 'existing'] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, ['existing', 'next']);
      assert.equal((await s.store.revisions(id, 10)).length, 2);
    });

    it('is a no-op when every alias already exists: 200, same ETag, no revision', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['a', 'b'] } });
      const before = await snapshot(s, k, id);
      const res = await s.post(`${base(id)}/en`, { aliases: ['b', ' a '] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, ['a', 'b']);
      assert.equal(res.headers.get('etag'), before.etag);
      assert.deepEqual(await snapshot(s, k, id), before);
    });

    it('accepts mul for aliases', async () => {
      const id = await createEntity(s, k);
      const res = await s.post(`${base(id)}/mul`, { aliases: ['multi'] });
      assert.equal(res.status, 201);
      assert.deepEqual(res.body, ['multi']);
    });

    it('ignores data policy: aliases may equal labels, descriptions and other entities\' aliases', async () => {
      const label = uniq();
      const other = await createEntity(s, k, { labels: { en: label }, aliases: { en: [label] } });
      const id = await createEntity(s, k, { labels: { en: uniq() } });
      assert.equal((await s.post(`${base(id)}/en`, { aliases: [label] })).status, 201);
      assert.deepEqual((await s.get(`${base(other)}/en`)).body, [label]);
    });

    it('rejects bad bodies and language codes with the exact errors, changing nothing', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['keep'] } });
      const before = await snapshot(s, k, id);
      const cases: [string, unknown, string, unknown][] = [
        ['en', {}, 'missing-field', { path: '', field: 'aliases' }],
        ['en', { alias: ['x'] }, 'missing-field', { path: '', field: 'aliases' }],
        ['en', { aliases: 'x' }, 'invalid-value', { path: '/aliases' }],
        ['en', { aliases: { 0: 'x' } }, 'invalid-value', { path: '/aliases' }],
        ['en', { aliases: [] }, 'invalid-value', { path: '/aliases' }],
        ['en', { aliases: [42] }, 'invalid-value', { path: '/aliases/0' }],
        ['en', { aliases: ['ok', '  '] }, 'invalid-value', { path: '/aliases/1' }],
        ['en', { aliases: ['ok', 'tab\there'] }, 'invalid-value', { path: '/aliases/1' }],
        ['en', { aliases: ['x'.repeat(251)] }, 'value-too-long', { path: '/aliases/0', limit: 250 }],
        ['en', { aliases: ['ok'], comment: 'x'.repeat(501) }, 'value-too-long', { path: '/comment', limit: 500 }],
        ['en', { aliases: ['ok'], tags: ['nope'] }, 'invalid-value', { path: '/tags/0' }],
        ['xyz', { aliases: ['ok'] }, 'invalid-language-code', undefined],
      ];
      for (const [lang, body, code, context] of cases) {
        assertError(await s.post(`${base(id)}/${lang}`, body), 400, code, context);
      }
      assert.deepEqual(await snapshot(s, k, id), before);
    });

    it('answers the kind\'s id errors', async () => {
      assertError(await s.post(`${base(k.missingId)}/en`, { aliases: ['x'] }), 404, k.notFound, undefined, k.notFoundMessage(k.missingId));
      assertError(await s.post(`${base(k.wrongKindId)}/en`, { aliases: ['x'] }), 400, k.invalidId);
    });
  });

  describe(`aliases of ${k.segment}: PATCH`, () => {
    it('applies a JSON Patch to the map and answers the whole map', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['a', 'b'], de: ['c'] } });
      const res = await s.patch(base(id), {
        patch: [
          { op: 'add', path: '/en/-', value: ' d ' },
          { op: 'add', path: '/en/-', value: 'a' },
          { op: 'remove', path: '/de' },
          { op: 'add', path: '/fr', value: ['e'] },
        ],
        comment: 'aliases patched',
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { en: ['a', 'b', 'd'], fr: ['e'] });
      const [rev] = await s.store.revisions(id, 1);
      assert.equal(rev.comment, 'aliases patched');
      assert.equal(res.headers.get('etag'), `"${rev.revision}"`);
      assert.deepEqual((await s.get(base(id))).body, { en: ['a', 'b', 'd'], fr: ['e'] });
    });

    it('treats an empty patch as a no-op', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['a'] } });
      const before = await snapshot(s, k, id);
      const res = await s.patch(base(id), { patch: [] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { en: ['a'] });
      assert.deepEqual(await snapshot(s, k, id), before);
    });

    it('answers the patch errors with paths relative to the map, changing nothing', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['a', 'b'] } });
      const before = await snapshot(s, k, id);
      const cases: [unknown, number, string, unknown][] = [
        [{}, 400, 'missing-field', { path: '', field: 'patch' }],
        [{ patch: 'x' }, 400, 'invalid-value', { path: '/patch' }],
        [{ patch: [{ op: 'remove', path: '/en/5' }] }, 409, 'patch-target-not-found', { path: '/patch/0/path' }],
        [{ patch: [{ op: 'test', path: '/en/0', value: 'z' }] }, 409, 'patch-test-failed', { path: '/patch/0', actual_value: 'a' }],
        [{ patch: [{ op: 'replace', path: '', value: 'x' }] }, 422, 'patch-result-invalid-value', { path: '', value: 'x' }],
        [{ patch: [{ op: 'add', path: '/xyz', value: ['a'] }] }, 422, 'patch-result-invalid-key', { path: '', key: 'xyz' }],
        [{ patch: [{ op: 'replace', path: '/en', value: 'a' }] }, 422, 'patch-result-invalid-value', { path: '/en', value: 'a' }],
        [{ patch: [{ op: 'replace', path: '/en', value: [] }] }, 422, 'patch-result-invalid-value', { path: '/en', value: [] }],
        [{ patch: [{ op: 'replace', path: '/en/1', value: ' ' }] }, 422, 'patch-result-invalid-value', { path: '/en/1', value: '' }],
        [{ patch: [{ op: 'replace', path: '/en/0', value: 3 }] }, 422, 'patch-result-invalid-value', { path: '/en/0', value: 3 }],
        [{ patch: [{ op: 'add', path: '/en/-', value: 'x'.repeat(251) }] }, 422, 'patch-result-value-too-long', { path: '/en/2', limit: 250 }],
      ];
      for (const [body, status, code, context] of cases) {
        assertError(await s.patch(base(id), body), status, code, context);
      }
      assert.deepEqual(await snapshot(s, k, id), before);
    });
  });

  describe(`aliases of ${k.segment}: no PUT, no DELETE`, () => {
    it('answers PUT and DELETE with 405 rest-wrong-method as JSON, with Allow', async () => {
      const id = await createEntity(s, k, { aliases: { en: ['a'] } });
      const before = await snapshot(s, k, id);
      for (const [method, path, allowed] of [
        ['PUT', `${base(id)}/en`, ['GET', 'HEAD', 'POST']],
        ['DELETE', `${base(id)}/en`, ['GET', 'HEAD', 'POST']],
        ['PUT', base(id), ['GET', 'HEAD', 'PATCH']],
        ['DELETE', base(id), ['GET', 'HEAD', 'PATCH']],
      ] as const) {
        const res = await s.request(method, path, { body: { aliases: ['b'] } });
        assert.equal(res.status, 405, `${method} ${path}`);
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.equal(res.body.code, 'rest-wrong-method');
        assert.equal(res.body.httpCode, 405);
        assert.deepEqual(res.headers.get('allow')!.split(', ').sort(), [...allowed].sort());
      }
      assert.deepEqual(await snapshot(s, k, id), before);
    });
  });
}
