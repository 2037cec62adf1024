// Data policy (422 data-policy-violation, docs/api.md §6.1, §6.4) on every route that can break it today:
// creation and PATCH of items and properties. commitEdit (src/http/write/commit.ts) is the one place the rules
// run, so routes added later get them by calling it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { emptyEntity } from '../../src/domain/entity.js';
import { startServer, type TestResponse, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(() => s.close());

let unique = 0;
const fresh = (text: string) => `${text} ${++unique}`;

function assertViolation(res: TestResponse, violation: string, context: Record<string, string>): void {
  assert.equal(res.status, 422, res.text);
  assert.deepEqual(res.body, {
    code: 'data-policy-violation', message: 'Edit violates data policy', context: { violation, violation_context: context },
  });
}

async function create(segment: 'items' | 'properties', entity: Record<string, unknown>): Promise<string> {
  const field = segment === 'items' ? 'item' : 'property';
  const res = await s.post(`/v1/entities/${segment}`, { [field]: segment === 'items' ? entity : { data_type: 'string', ...entity } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** Either route, given the entity's terms/sitelinks to set: creation, or PATCH of a fresh empty entity. */
type Attempt = (segment: 'items' | 'properties', set: Record<string, Record<string, unknown>>) => Promise<{ res: TestResponse; id?: string }>;
const ROUTES: Record<string, Attempt> = {
  creation: async (segment, set) => {
    const field = segment === 'items' ? 'item' : 'property';
    const body = segment === 'items' ? set : { data_type: 'string', ...set };
    return { res: await s.post(`/v1/entities/${segment}`, { [field]: body }) };
  },
  PATCH: async (segment, set) => {
    const id = await create(segment, {});
    const patch = Object.entries(set).flatMap(([field, map]) =>
      Object.entries(map).map(([key, value]) => ({ op: 'add', path: `/${field}/${key}`, value })));
    return { res: await s.patch(`/v1/entities/${segment}/${id}`, { patch }), id };
  },
};

async function assertNothingWritten(id: string | undefined): Promise<void> {
  if (id) assert.equal((await s.store.revisions(id, 10)).length, 1);
}

for (const [route, attempt] of Object.entries(ROUTES)) {
  describe(`data policy on ${route}`, () => {
    for (const segment of ['items', 'properties'] as const) {
      it(`${segment}: label = description in one language`, async () => {
        const text = fresh('same');
        const { res, id } = await attempt(segment, { labels: { en: text }, descriptions: { en: text } });
        assertViolation(res, 'label-description-same-value', { language: 'en' });
        await assertNothingWritten(id);
      });
    }

    it('items: the same label and description as another item', async () => {
      const [label, description] = [fresh('Paris'), fresh('city')];
      const other = await create('items', { labels: { fr: label }, descriptions: { fr: description } });
      const { res, id } = await attempt('items', { labels: { fr: label }, descriptions: { fr: description } });
      assertViolation(res, 'item-label-description-duplicate', { language: 'fr', conflicting_item_id: other });
      await assertNothingWritten(id);
    });

    it('properties: the same label as another property', async () => {
      const label = fresh('population');
      const other = await create('properties', { labels: { de: label } });
      const { res, id } = await attempt('properties', { labels: { de: label } });
      assertViolation(res, 'property-label-duplicate', { language: 'de', conflicting_property_id: other });
      await assertNothingWritten(id);
    });

    it('items: a sitelink another item already has', async () => {
      const title = fresh('Page');
      const other = await create('items', { sitelinks: { enwiki: { title } } });
      const { res, id } = await attempt('items', { sitelinks: { enwiki: { title } } });
      assertViolation(res, 'sitelink-conflict', { site_id: 'enwiki', conflicting_item_id: other });
      await assertNothingWritten(id);
    });

    it('items check same-value before duplicates; properties duplicates before same-value', async () => {
      const text = fresh('both');
      await create('items', { labels: { en: text }, descriptions: { en: `${text} d` } });
      let { res } = await attempt('items', { labels: { en: text, de: text }, descriptions: { en: `${text} d`, de: text } });
      assertViolation(res, 'label-description-same-value', { language: 'de' });
      const other = await create('properties', { labels: { en: text } });
      ({ res } = await attempt('properties', { labels: { en: text }, descriptions: { en: text } }));
      assertViolation(res, 'property-label-duplicate', { language: 'en', conflicting_property_id: other });
    });
  });
}

describe('data policy scope', () => {
  it('checks only the languages an edit sets or changes (docs/api.md §6.1)', async () => {
    // Two items that already share a label+description (an import does not check): editing another
    // language of one of them is not a violation; touching the shared language is.
    await s.store.importEntities([
      { ...emptyEntity('Q900001', 'item'), labels: { en: 'twin' }, descriptions: { en: 'imported' } },
      { ...emptyEntity('Q900002', 'item'), labels: { en: 'twin' }, descriptions: { en: 'imported' } },
    ], { user: 'import', comment: null, tags: [], bot: false });
    let res = await s.patch('/v1/entities/items/Q900002', { patch: [{ op: 'add', path: '/labels/de', value: 'Zwilling' }] });
    assert.equal(res.status, 200, res.text);
    res = await s.patch('/v1/entities/items/Q900002', { patch: [{ op: 'replace', path: '/descriptions/en', value: 'imported' },
      { op: 'add', path: '/aliases/en', value: ['x'] }] });
    assert.equal(res.status, 200, 'the en description did not change');
    res = await s.patch('/v1/entities/items/Q900002', { patch: [{ op: 'replace', path: '/labels/en', value: 'twin ' }] });
    assert.equal(res.status, 200, 'trimmed to the same label: no change');
    res = await s.patch('/v1/entities/items/Q900002', { patch: [{ op: 'replace', path: '/descriptions/en', value: 'changed' },
      { op: 'replace', path: '/descriptions/en', value: 'imported' }] });
    assert.equal(res.status, 200);
  });
});
