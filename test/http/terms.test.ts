// Labels and descriptions of items and properties over real HTTP (docs/api.md §10.2, §9.3, §6.1): every route
// for both kinds and both fields, success and each error, and the guarantee that a rejected edit changes
// nothing. Aliases are in aliases.test.ts; cross-cutting term behaviour in term-protocol.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { assertError, createEntity, KIND_CASES, snapshot, uniq } from '../helpers/term-kinds.js';

let s: TestServer;
before(async () => { s = await startServer({ config: { allowedTags: ['mobile'] } }); });
after(async () => { await s.close(); });

interface FieldCase {
  field: 'labels' | 'descriptions';
  one: 'label' | 'description';
  other: 'labels' | 'descriptions';
  notDefined: string;
  deleted: string;
}

const FIELDS: readonly FieldCase[] = [
  { field: 'labels', one: 'label', other: 'descriptions', notDefined: 'label-not-defined', deleted: 'Label deleted' },
  { field: 'descriptions', one: 'description', other: 'labels', notDefined: 'description-not-defined', deleted: 'Description deleted' },
];

for (const k of KIND_CASES) {
  for (const f of FIELDS) {
    const base = (id: string) => `/v1/entities/${k.segment}/${id}/${f.field}`;
    const notDefinedMessage = (id: string, lang: string) =>
      `${k.noun} with the ID ${id} does not have a ${f.one} in the language: ${lang}`;

    describe(`${f.field} of ${k.segment}: reads`, () => {
      it('GET the map and one language, with the entity\'s ETag and Last-Modified', async () => {
        const en = uniq();
        const de = uniq();
        const id = await createEntity(s, k, { [f.field]: { en, de } });
        const entity = await s.get(`/v1/entities/${k.segment}/${id}`);
        let res = await s.get(base(id));
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { en, de });
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.equal(res.headers.get('etag'), entity.headers.get('etag'));
        assert.equal(res.headers.get('last-modified'), entity.headers.get('last-modified'));
        res = await s.get(`${base(id)}/de`);
        assert.equal(res.status, 200);
        assert.equal(res.text, JSON.stringify(de));
        assert.equal(res.headers.get('etag'), entity.headers.get('etag'));
        assert.ok(res.headers.get('last-modified'));
        res = await s.get(base(id).replace(id, id.toLowerCase()));
        assert.deepEqual(res.body, { en, de });
      });

      it('GET the map of an entity without any answers {}', async () => {
        const id = await createEntity(s, k);
        const res = await s.get(base(id));
        assert.equal(res.status, 200);
        assert.equal(res.text, '{}');
      });

      it(`GET one language: 404 ${f.notDefined} naming the kind, 400 invalid-language-code`, async () => {
        const id = await createEntity(s, k, { [f.field]: { en: uniq() } });
        assertError(await s.get(`${base(id)}/fr`), 404, f.notDefined, undefined, notDefinedMessage(id, 'fr'));
        for (const bad of ['xyz', 'en-GB', '1e', 'EN']) {
          assertError(await s.get(`${base(id)}/${bad}`), 400, 'invalid-language-code', undefined, `Not a valid language code: ${bad}`);
        }
        const mul = await s.get(`${base(id)}/mul`);
        if (f.field === 'labels') assertError(mul, 404, f.notDefined, undefined, notDefinedMessage(id, 'mul'));
        else assertError(mul, 400, 'invalid-language-code', undefined, 'Not a valid language code: mul');
      });

      it('answers the kind\'s id errors on every route of the field', async () => {
        const routes = (id: string): [string, string, unknown][] => [
          ['GET', base(id), undefined],
          ['GET', `${base(id)}/en`, undefined],
          ['GET', `/v1/entities/${k.segment}/${id}/${f.field}_with_language_fallback/en`, undefined],
          ['PUT', `${base(id)}/en`, { [f.one]: uniq() }],
          ['PATCH', base(id), { patch: [] }],
          ['DELETE', `${base(id)}/en`, undefined],
        ];
        for (const [method, path, body] of routes(k.missingId)) {
          assertError(await s.request(method, path, { body }), 404, k.notFound, undefined, k.notFoundMessage(k.missingId));
        }
        for (const [method, path, body] of routes(k.wrongKindId)) {
          assertError(await s.request(method, path, { body }), 400, k.invalidId, undefined, k.invalidIdMessage(k.wrongKindId));
        }
      });
    });

    describe(`${f.field} of ${k.segment}: PUT`, () => {
      it('adds and replaces a term: 200 with the stored (trimmed, NFC) string, one revision each', async () => {
        const id = await createEntity(s, k, { [f.field]: { en: uniq() } });
        const created = await snapshot(s, k, id);
        const text = uniq('Ka\u0308se');
        let res = await s.put(`${base(id)}/de`, { [f.one]: `  ${text}\t`, comment: 'set it' });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body, text.normalize('NFC'));
        assert.equal(res.headers.get('content-type'), 'application/json');
        const etag = res.headers.get('etag');
        assert.notEqual(etag, created.etag);
        assert.ok(res.headers.get('last-modified'));
        const [rev] = await s.store.revisions(id, 1);
        assert.equal(`"${rev.revision}"`, etag);
        assert.equal(rev.comment, 'set it');
        const replaced = uniq();
        res = await s.put(`${base(id)}/en`, { [f.one]: replaced, tags: ['mobile'], bot: true });
        assert.equal(res.status, 200);
        assert.equal(res.body, replaced);
        const after = await s.get(base(id));
        assert.deepEqual(Object.keys(after.body), ['en', 'de'], 'a replaced language keeps its place');
        assert.equal(after.body.en, replaced);
        assert.equal(after.headers.get('etag'), res.headers.get('etag'));
        assert.equal((await s.store.revisions(id, 10)).length, 3);
      });

      it('treats setting the current value again as a no-op: same ETag and Last-Modified, no revision', async () => {
        const text = uniq();
        const id = await createEntity(s, k, { [f.field]: { en: text } });
        const before = await snapshot(s, k, id);
        const res = await s.put(`${base(id)}/en`, { [f.one]: ` ${text} ` });
        assert.equal(res.status, 200);
        assert.equal(res.body, text);
        assert.equal(res.headers.get('etag'), before.etag);
        assert.deepEqual(await snapshot(s, k, id), before);
      });

      it('rejects bad bodies and language codes with the exact errors, changing nothing', async () => {
        const id = await createEntity(s, k, { [f.field]: { en: uniq() } });
        const before = await snapshot(s, k, id);
        const path = `/${f.one}`;
        const cases: [string, unknown, number, string, unknown][] = [
          ['en', {}, 400, 'missing-field', { path: '', field: f.one }],
          ['en', { [f.other.slice(0, -1)]: 'x' }, 400, 'missing-field', { path: '', field: f.one }],
          ['en', { [f.one]: 42 }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: null }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: ['x'] }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: '' }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: ' \t\n ' }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: 'tab\tinside' }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: 'line\u2028break' }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: '\u00a0nbsp' }, 400, 'invalid-value', { path }],
          ['en', { [f.one]: 'x'.repeat(251) }, 400, 'value-too-long', { path, limit: 250 }],
          ['en', { [f.one]: 'ok', comment: 'é'.repeat(251) }, 400, 'value-too-long', { path: '/comment', limit: 500 }],
          ['en', { [f.one]: 'ok', tags: ['mobile', 'nope'] }, 400, 'invalid-value', { path: '/tags/1' }],
          ['en', { [f.one]: 'ok', bot: 'yes' }, 400, 'invalid-value', { path: '/bot' }],
          ['xyz', { [f.one]: 'ok' }, 400, 'invalid-language-code', undefined],
          ['en-GB', { [f.one]: 'ok' }, 400, 'invalid-language-code', undefined],
        ];
        if (f.field === 'descriptions') cases.push(['mul', { [f.one]: 'ok' }, 400, 'invalid-language-code', undefined]);
        for (const [lang, body, status, code, context] of cases) {
          assertError(await s.put(`${base(id)}/${lang}`, body), status, code, context);
        }
        assert.deepEqual(await snapshot(s, k, id), before);
      });

      it('accepts exactly 250 code points (not UTF-16 units)', async () => {
        const id = await createEntity(s, k);
        const text = '\u{1F600}'.repeat(249) + String(Date.now() % 10);
        const res = await s.put(`${base(id)}/en`, { [f.one]: text });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body, text);
      });

      it(`refuses a ${f.one} equal to the ${f.other.slice(0, -1)} in the same language (422), changing nothing`, async () => {
        const same = uniq();
        const id = await createEntity(s, k, { [f.other]: { en: same, de: uniq() } });
        const before = await snapshot(s, k, id);
        assertError(await s.put(`${base(id)}/en`, { [f.one]: ` ${same} ` }), 422, 'data-policy-violation',
          { violation: 'label-description-same-value', violation_context: { language: 'en' } }, 'Edit violates data policy');
        assert.deepEqual(await snapshot(s, k, id), before);
        // Another language is fine.
        assert.equal((await s.put(`${base(id)}/fr`, { [f.one]: same })).status, 200);
      });
    });

    describe(`${f.field} of ${k.segment}: PATCH`, () => {
      it('applies a JSON Patch to the map and answers the whole map', async () => {
        const en = uniq();
        const id = await createEntity(s, k, { [f.field]: { en, de: uniq() } });
        const fr = uniq();
        const res = await s.request('PATCH', base(id), {
          body: {
            patch: [
              { op: 'add', path: '/fr', value: `  ${fr} ` },
              { op: 'remove', path: '/de' },
              { op: 'test', path: '/en', value: en },
            ],
            comment: 'patched',
          },
          headers: { 'content-type': 'application/json-patch+json' },
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { en, fr });
        const [rev] = await s.store.revisions(id, 1);
        assert.equal(rev.comment, 'patched');
        assert.equal(res.headers.get('etag'), `"${rev.revision}"`);
        assert.deepEqual((await s.get(base(id))).body, { en, fr });
      });

      it('treats an empty or unchanged patch as a no-op', async () => {
        const en = uniq();
        const id = await createEntity(s, k, { [f.field]: { en } });
        const before = await snapshot(s, k, id);
        for (const patch of [[], [{ op: 'replace', path: '/en', value: ` ${en}` }]]) {
          const res = await s.patch(base(id), { patch });
          assert.equal(res.status, 200);
          assert.deepEqual(res.body, { en });
          assert.equal(res.headers.get('etag'), before.etag);
        }
        assert.deepEqual(await snapshot(s, k, id), before);
      });

      it('answers the patch errors with paths relative to the map, changing nothing', async () => {
        const en = uniq();
        const same = uniq();
        const id = await createEntity(s, k, { [f.field]: { en }, [f.other]: { de: same } });
        const before = await snapshot(s, k, id);
        const cases: [unknown, number, string, unknown][] = [
          [{}, 400, 'missing-field', { path: '', field: 'patch' }],
          [{ patch: {} }, 400, 'invalid-value', { path: '/patch' }],
          [{ patch: [{ op: 'nope', path: '/en' }] }, 400, 'invalid-value', { path: '/patch/0/op' }],
          [{ patch: [{ op: 'add', path: '/fr' }] }, 400, 'missing-field', { path: '/patch/0', field: 'value' }],
          [{ patch: [], tags: ['nope'] }, 400, 'invalid-value', { path: '/tags/0' }],
          [{ patch: [{ op: 'remove', path: '/fr' }] }, 409, 'patch-target-not-found', { path: '/patch/0/path' }],
          [{ patch: [{ op: 'test', path: '/en', value: 'other' }] }, 409, 'patch-test-failed', { path: '/patch/0', actual_value: en }],
          [{ patch: [{ op: 'replace', path: '', value: 42 }] }, 422, 'patch-result-invalid-value', { path: '', value: 42 }],
          [{ patch: [{ op: 'replace', path: '', value: ['x'] }] }, 422, 'patch-result-invalid-value', { path: '', value: ['x'] }],
          [{ patch: [{ op: 'add', path: '/xyz', value: 'a' }] }, 422, 'patch-result-invalid-key', { path: '', key: 'xyz' }],
          [{ patch: [{ op: 'add', path: '/en-GB', value: 'a' }] }, 422, 'patch-result-invalid-key', { path: '', key: 'en-GB' }],
          [{ patch: [{ op: 'replace', path: '/en', value: '  ' }] }, 422, 'patch-result-invalid-value', { path: '/en', value: '' }],
          [{ patch: [{ op: 'replace', path: '/en', value: 7 }] }, 422, 'patch-result-invalid-value', { path: '/en', value: 7 }],
          [{ patch: [{ op: 'replace', path: '/en', value: 'x'.repeat(251) }] }, 422, 'patch-result-value-too-long', { path: '/en', limit: 250 }],
          [{ patch: [{ op: 'add', path: '/de', value: same }] }, 422, 'data-policy-violation',
            { violation: 'label-description-same-value', violation_context: { language: 'de' } }],
        ];
        if (f.field === 'descriptions') {
          cases.push([{ patch: [{ op: 'add', path: '/mul', value: 'a' }] }, 422, 'patch-result-invalid-key', { path: '', key: 'mul' }]);
        }
        if (k.name === 'property' && f.field === 'labels') {
          cases.push([{ patch: [{ op: 'add', path: '/fr', value: 'P5' }] }, 422, 'patch-result-invalid-value', { path: '/fr', value: 'P5' }]);
        }
        for (const [body, status, code, context] of cases) {
          assertError(await s.patch(base(id), body), status, code, context);
        }
        assert.deepEqual(await snapshot(s, k, id), before);
      });
    });

    describe(`${f.field} of ${k.segment}: DELETE`, () => {
      it(`removes the term without a body: 200 "${f.deleted}" with Content-Language: en`, async () => {
        const en = uniq();
        const id = await createEntity(s, k, { [f.field]: { en, de: uniq() } });
        const res = await s.delete(`${base(id)}/de`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.text, JSON.stringify(f.deleted));
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.equal(res.headers.get('content-language'), 'en');
        assert.deepEqual((await s.get(base(id))).body, { en });
        assertError(await s.get(`${base(id)}/de`), 404, f.notDefined);
        assert.equal((await s.store.revisions(id, 10)).length, 2);
      });

      it('takes edit metadata from an optional body', async () => {
        const id = await createEntity(s, k, { [f.field]: { en: uniq() } });
        const res = await s.delete(`${base(id)}/en`, { comment: 'gone', tags: ['mobile'] });
        assert.equal(res.status, 200);
        const [rev] = await s.store.revisions(id, 1);
        assert.equal(rev.comment, 'gone');
        assert.deepEqual(rev.tags, ['mobile']);
        assert.deepEqual((await s.get(base(id))).body, {});
      });

      it(`answers 404 ${f.notDefined}, 400 invalid-language-code and bad metadata, changing nothing`, async () => {
        const id = await createEntity(s, k, { [f.field]: { en: uniq() } });
        const before = await snapshot(s, k, id);
        assertError(await s.delete(`${base(id)}/fr`), 404, f.notDefined, undefined, notDefinedMessage(id, 'fr'));
        assertError(await s.delete(`${base(id)}/xyz`), 400, 'invalid-language-code', undefined, 'Not a valid language code: xyz');
        assertError(await s.delete(`${base(id)}/en`, { tags: ['nope'] }), 400, 'invalid-value', { path: '/tags/0' });
        assertError(await s.delete(`${base(id)}/en`, { bot: 1 }), 400, 'invalid-value', { path: '/bot' });
        if (f.field === 'descriptions') assertError(await s.delete(`${base(id)}/mul`), 400, 'invalid-language-code');
        assert.deepEqual(await snapshot(s, k, id), before);
      });
    });
  }
}

describe('data policy per kind (docs/api.md §6.1)', () => {
  const [ITEM, PROPERTY] = KIND_CASES;

  for (const f of FIELDS) {
    it(`items: setting the ${f.one} that completes another item's label+description pair is refused`, async () => {
      const label = uniq();
      const description = uniq();
      const pair = { labels: { en: label }, descriptions: { en: description } };
      const first = await createEntity(s, ITEM, pair);
      const second = await createEntity(s, ITEM, { [f.other]: pair[f.other] });
      const before = await snapshot(s, ITEM, second);
      assertError(await s.put(`/v1/entities/items/${second}/${f.field}/en`, { [f.one]: pair[f.field].en }), 422,
        'data-policy-violation', { violation: 'item-label-description-duplicate', violation_context: { language: 'en', conflicting_item_id: first } });
      assertError(await s.patch(`/v1/entities/items/${second}/${f.field}`, { patch: [{ op: 'add', path: '/en', value: pair[f.field].en }] }), 422,
        'data-policy-violation', { violation: 'item-label-description-duplicate', violation_context: { language: 'en', conflicting_item_id: first } });
      assert.deepEqual(await snapshot(s, ITEM, second), before);
      // Case-sensitive and exact: a different case is not a duplicate.
      assert.equal((await s.put(`/v1/entities/items/${second}/${f.field}/en`, { [f.one]: pair[f.field].en.toUpperCase() })).status, 200);
    });
  }

  it('items: the same label alone is not a duplicate', async () => {
    const label = uniq();
    await createEntity(s, ITEM, { labels: { en: label }, descriptions: { en: uniq() } });
    const second = await createEntity(s, ITEM);
    assert.equal((await s.put(`/v1/entities/items/${second}/labels/en`, { label })).status, 200);
  });

  it('properties: another property\'s label is refused (PUT and PATCH), a shared description is fine', async () => {
    const label = uniq();
    const first = await createEntity(s, PROPERTY, { labels: { en: label } });
    const second = await createEntity(s, PROPERTY, { labels: { de: uniq() } });
    const before = await snapshot(s, PROPERTY, second);
    const violation = { violation: 'property-label-duplicate', violation_context: { language: 'en', conflicting_property_id: first } };
    assertError(await s.put(`/v1/entities/properties/${second}/labels/en`, { label }), 422, 'data-policy-violation', violation);
    assertError(await s.patch(`/v1/entities/properties/${second}/labels`, { patch: [{ op: 'add', path: '/en', value: label }] }), 422,
      'data-policy-violation', violation);
    assert.deepEqual(await snapshot(s, PROPERTY, second), before);
    const description = uniq();
    await createEntity(s, PROPERTY, { descriptions: { en: description } });
    assert.equal((await s.put(`/v1/entities/properties/${second}/descriptions/en`, { description })).status, 200);
  });

  it('properties: a label that is a property id is invalid; items and descriptions may read like one', async () => {
    const property = await createEntity(s, PROPERTY);
    assertError(await s.put(`/v1/entities/properties/${property}/labels/en`, { label: 'P12' }), 400, 'invalid-value', { path: '/label' });
    assertError(await s.put(`/v1/entities/properties/${property}/labels/en`, { label: ' p12 ' }), 400, 'invalid-value', { path: '/label' });
    assert.equal((await s.put(`/v1/entities/properties/${property}/descriptions/en`, { description: 'P12' })).status, 200);
    const item = await createEntity(s, ITEM);
    assert.equal((await s.put(`/v1/entities/items/${item}/labels/en`, { label: 'P12' })).status, 200);
  });

  it('PUT of the current value is a no-op 200 even where the stored state breaks the policy', async () => {
    // Imported data skips the policy checks, so a stored entity can already violate them.
    const meta = { user: 'import', comment: null, tags: [], bot: false };
    const same = uniq();
    const twin = uniq();
    await s.store.importEntities([
      { id: 'Q900001', type: 'item', labels: { en: same }, descriptions: { en: same }, aliases: {}, statements: {}, sitelinks: {} },
      { id: 'P900001', type: 'property', data_type: 'string', labels: { en: twin }, descriptions: {}, aliases: {}, statements: {} },
      { id: 'P900002', type: 'property', data_type: 'string', labels: { en: twin }, descriptions: {}, aliases: {}, statements: {} },
    ], meta);
    for (const [path, body, id] of [
      ['/v1/entities/items/Q900001/labels/en', { label: same }, 'Q900001'],
      ['/v1/entities/items/Q900001/descriptions/en', { description: same }, 'Q900001'],
      ['/v1/entities/properties/P900002/labels/en', { label: twin }, 'P900002'],
    ] as const) {
      const before = (await s.store.revisions(id, 10)).length;
      const res = await s.put(path, body);
      assert.equal(res.status, 200, res.text);
      assert.equal((await s.store.revisions(id, 10)).length, before);
    }
  });
});
