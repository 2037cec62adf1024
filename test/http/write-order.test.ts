// The one write pipeline (src/http/write/rows.ts) against docs/api.md §7.7, over every write route of the table: the
// order of the body's problems written down in BODY_ORDER is the order the documentation states, and each
// route, sent a request whose body part and edit comment are both wrong, answers the problem that order puts
// first. A route added to the table is covered without a new test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { bindRoutes } from '../../src/http/rest/route.js';
import { ROUTES } from '../../src/http/rest/routes.js';
import { BODY_ORDER, type BodyPart } from '../../src/http/write/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { uniq } from '../helpers/term-kinds.js';

/** How docs/api.md §7 names each body part in step 5. `revision` (a revert's) and `merge` are Entia's own and not there. */
const DOCUMENTED: Partial<Record<(typeof BODY_ORDER)[number], string>> = {
  statement: 'statement body',
  meta: '`comment`',
  patch: 'patch document',
  term: 'label or description value',
  aliases: 'alias list',
  sitelink: 'sitelink body',
  creation: 'creation body',
};

describe('the write pipeline follows docs/api.md §7.7', () => {
  it('BODY_ORDER is the order of step 5, with Entia\'s own revision and merge last', () => {
    const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const step5 = api.slice(api.indexOf("5. The request's own values:"), api.indexOf('6. Existence:'));
    assert.ok(step5.length > 0, 'docs/api.md §7 has a step 5');
    const positions = BODY_ORDER.filter((part) => DOCUMENTED[part]).map((part) => {
      const at = step5.indexOf(DOCUMENTED[part]!);
      assert.ok(at >= 0, `step 5 names ${part} as "${DOCUMENTED[part]}"`);
      return at;
    });
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
    assert.deepEqual(BODY_ORDER.slice(-2), ['revision', 'merge']);
  });
});

/** A body part that passes the route's schema but not its content rules. */
function badPart(part: BodyPart, path: string): Record<string, unknown> {
  switch (part) {
    case 'statement': return { statement: {} };
    case 'patch': return { patch: [{ op: 'nope', path: '/x' }] };
    case 'term': return { [path.includes('/labels/') ? 'label' : 'description']: 'x'.repeat(1000) };
    case 'aliases': return { aliases: [''] };
    case 'sitelink': return { sitelink: {} };
    case 'revision': return { revision: 0 };
    case 'merge': return { into: 'P1' };
    case 'creation': throw new Error('creation collapses its problems (D7/D8): not covered here');
  }
}

describe('every write route answers its problems in that order', () => {
  let s: TestServer;
  const ids: Record<string, string> = {};
  let statementOf: Record<string, string> = {};

  before(async () => {
    s = await startServer();
    const property = await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: uniq('p') } } });
    ids.property_id = property.body.id;
    const statement = { property: { id: ids.property_id }, value: { type: 'value', content: 'a' } };
    const item = await s.post('/v1/entities/items', { item: {
      labels: { en: uniq('i') }, statements: { [ids.property_id]: [statement] }, sitelinks: { enwiki: { title: uniq('Page') } },
    } });
    assert.equal(item.status, 201, item.text);
    ids.item_id = item.body.id;
    const onProperty = await s.post(`/v1/entities/properties/${ids.property_id}/statements`, { statement });
    statementOf = { item: item.body.statements[ids.property_id][0].id, property: onProperty.body.id };
  });
  after(async () => { await s.close(); });

  const writes = bindRoutes(ROUTES).filter((b) => b.route.write?.body && b.route.write.body.part !== 'creation');
  it('covers the write routes with a body part', () => assert.ok(writes.length >= 15, String(writes.length)));

  for (const { route, path, kind } of writes) {
    const part = route.write!.body!.part;
    const metaFirst = BODY_ORDER.indexOf(part) > BODY_ORDER.indexOf('meta');
    it(`${route.method} ${path}: ${metaFirst ? 'the comment before the ' + part : 'the ' + part + ' before the comment'}`, async () => {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (name === 'language_code') return 'en';
        if (name === 'site_id') return 'enwiki';
        if (name === 'statement_id') return encodeURIComponent(statementOf[kind?.name ?? 'item']);
        return ids[name];
      });
      const res = await s.request(route.method, url, { body: { ...badPart(part, path), comment: 'x'.repeat(501) } });
      assert.equal(res.status, 400, res.text);
      const aboutComment = res.body.code === 'value-too-long' && res.body.context?.path === '/comment';
      assert.equal(aboutComment, metaFirst, res.text);
    });
  }
});
