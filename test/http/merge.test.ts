// Merging items over real HTTP, on the test backend (docs/api.md §9.4): the REST route and the Action API's
// wbmergeitems make the same merge: content moved by Wikibase's rules, the source a redirect, one revision on
// each item, conflicts refused with nothing written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { uniq } from '../helpers/term-kinds.js';

let s: TestServer;
let property: string;
before(async () => {
  s = await startServer();
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: uniq('merge p') } } })).body.id;
});
after(async () => { await s.close(); });

const value = (content: string) => ({ property: { id: property }, value: { type: 'value', content } });

async function item(body: Record<string, unknown>): Promise<string> {
  const res = await s.post('/v1/entities/items', { item: body });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

async function api(params: Record<string, string>) {
  const res = await fetch(`${s.url}/w/api.php`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ format: 'json', token: '+\\', ...params }).toString(),
  });
  return (await res.json()) as any;
}

const historyOf = async (id: string) => (await s.get(`/v1/entities/items/${id}/history`)).body.revisions;

describe('POST /v1/entities/items/{id}/merge', () => {
  it('moves labels (a different one as an alias), sitelinks and statements, and leaves a redirect', async () => {
    const title = uniq('Merged page');
    const from = await item({ labels: { en: uniq('from'), de: 'Quelle' }, sitelinks: { enwiki: { title } },
      statements: { [property]: [value('shared'), value('only on source')] } });
    const to = await item({ labels: { en: uniq('to') }, statements: { [property]: [value('shared')] } });
    const before = (await s.get(`/v1/entities/items/${from}`)).body;
    const res = await s.post(`/v1/entities/items/${from}/merge`, { into: to, comment: 'duplicate' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.source.id, from);
    assert.equal(res.body.source.redirect, to);
    const merged = (await s.get(`/v1/entities/items/${to}`)).body;
    assert.deepEqual(res.body.target, merged);
    assert.equal(merged.labels.de, 'Quelle');
    assert.deepEqual(merged.aliases.en, [before.labels.en]);
    assert.equal(merged.sitelinks.enwiki.title, title);
    assert.deepEqual(merged.statements[property].map((st: any) => st.value.content), ['shared', 'only on source']);
    assert.ok(merged.statements[property].every((st: any) => st.id.startsWith(`${to}$`)));
    // The source redirects; each item has one revision more, with the comment given.
    const redirected = await s.get(`/v1/entities/items/${from}`);
    assert.equal(redirected.status, 308);
    const [sourceRevision] = await historyOf(from);
    const [targetRevision] = await historyOf(to);
    assert.equal(sourceRevision.id, res.body.source.revision);
    assert.deepEqual([sourceRevision.comment, targetRevision.comment], ['duplicate', 'duplicate']);
    // Its sitelink now belongs to the target: another item cannot take it.
    const taken = await s.post('/v1/entities/items', { item: { sitelinks: { enwiki: { title } } } });
    assert.equal(taken.status, 422);
    assert.equal(taken.body.context.violation_context.conflicting_item_id, to);
  });

  it('refuses conflicts, itself, a missing or redirected target, and writes nothing', async () => {
    const from = await item({ labels: { en: uniq('a') }, descriptions: { en: 'first' } });
    const to = await item({ labels: { en: uniq('b') }, descriptions: { en: 'second' } });
    const revisions = [(await historyOf(from)).length, (await historyOf(to)).length];
    const conflict = await s.post(`/v1/entities/items/${from}/merge`, { into: to });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.code, 'merge-conflict');
    assert.deepEqual(conflict.body.context, { conflict: 'description', conflict_context: { language: 'en', source: 'first', target: 'second' } });
    const cases: [unknown, number, string][] = [
      [from, 400, 'merge-into-self'], ['Q999999999', 400, 'referenced-resource-not-found'], ['P1', 400, 'invalid-value'],
    ];
    for (const [into, status, code] of cases) {
      const res = await s.post(`/v1/entities/items/${from}/merge`, { into });
      assert.deepEqual([res.status, res.body.code], [status, code], `into ${String(into)}`);
    }
    const bad = await s.post(`/v1/entities/items/${from}/merge`, { into: to, ignore_conflicts: ['label'] });
    assert.equal(bad.status, 400);
    assert.deepEqual([(await historyOf(from)).length, (await historyOf(to)).length], revisions);
    // Told to ignore the description: it stays on the source, which is then not a redirect.
    const kept = await s.post(`/v1/entities/items/${from}/merge`, { into: to, ignore_conflicts: ['description'] });
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.source.redirect, null);
    assert.deepEqual((await s.get(`/v1/entities/items/${from}`)).body.descriptions, { en: 'first' });
    const third = await item({ labels: { en: uniq('c') } });
    const gone = await item({ labels: { en: uniq('d') } });
    assert.equal((await s.post(`/v1/entities/items/${gone}/merge`, { into: third })).status, 200);
    const toRedirect = await s.post(`/v1/entities/items/${third}/merge`, { into: gone });
    assert.deepEqual([toRedirect.status, toRedirect.body.code], [409, 'redirected-item']);
  });
});

describe('action=wbmergeitems', () => {
  it('merges as Wikibase answers it, and says conflicts with failed-modify', async () => {
    const from = await item({ labels: { en: uniq('api from') }, statements: { [property]: [value('moved')] } });
    const to = await item({ labels: { en: uniq('api to') } });
    const done = await api({ action: 'wbmergeitems', fromid: from, toid: to, summary: 'via api' });
    assert.equal(done.success, 1);
    assert.equal(done.redirected, 1);
    assert.deepEqual(done.from, { id: from, type: 'item', lastrevid: (await historyOf(from))[0].id });
    assert.deepEqual(done.to, { id: to, type: 'item', lastrevid: (await historyOf(to))[0].id });
    assert.equal((await s.get(`/v1/entities/items/${to}`)).body.statements[property][0].value.content, 'moved');
    const one = await item({ labels: { en: uniq('one') }, descriptions: { en: 'x' } });
    const other = await item({ labels: { en: uniq('other') }, descriptions: { en: 'y' } });
    const self = await api({ action: 'wbmergeitems', fromid: one, toid: one });
    assert.equal(self.error.code, 'cant-merge-self');
    const missing = await api({ action: 'wbmergeitems', fromid: one, toid: 'Q999999998' });
    assert.equal(missing.error.code, 'no-such-entity');
    const conflict = await api({ action: 'wbmergeitems', fromid: one, toid: other });
    assert.equal(conflict.error.code, 'failed-modify');
    const ignored = await api({ action: 'wbmergeitems', fromid: one, toid: other, ignoreconflicts: 'description' });
    assert.deepEqual([ignored.success, ignored.redirected], [1, 0]);
  });
});
