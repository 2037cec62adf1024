// History over real HTTP, on the test backend: the revision list and its paging, old revisions as they were,
// reverts with every rule an edit obeys, and undo of one revision's changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

const rev = (res: { headers: Headers }) => Number(res.headers.get('etag')!.replaceAll('"', ''));

async function itemWithEdits(n: number): Promise<{ id: string; revisions: number[] }> {
  const created = await s.post('/v1/entities/items', { item: { labels: { en: 'v0' } }, comment: 'created' });
  const id = created.body.id;
  const revisions = [rev(created)];
  for (let i = 1; i <= n; i++) {
    const res = await s.put(`/v1/entities/items/${id}/labels/en`, { label: `v${i}`, comment: `edit ${i}` });
    assert.equal(res.status, 200);
    revisions.push(rev(res));
  }
  return { id, revisions };
}

describe('GET …/history', () => {
  it('lists revisions newest first with who, when, why and size', async () => {
    const { id, revisions } = await itemWithEdits(2);
    const res = await s.get(`/v1/entities/items/${id}/history`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.revisions.map((r: any) => r.id), [...revisions].reverse());
    const [newest] = res.body.revisions;
    assert.equal(newest.comment, 'edit 2');
    assert.equal(newest.user, '127.0.0.1');
    assert.equal(newest.bot, false);
    assert.deepEqual(newest.tags, []);
    assert.match(newest.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const current = await s.get(`/v1/entities/items/${id}`);
    assert.equal(newest.size, Buffer.byteLength(JSON.stringify({ ...current.body, sitelinks: {} })));
    assert.equal(res.body.next, null);
  });

  it('pages backwards with before, never repeating or skipping, also while edits arrive', async () => {
    const { id, revisions } = await itemWithEdits(6);
    const seen: number[] = [];
    let page = await s.get(`/v1/entities/items/${id}/history?limit=3`);
    seen.push(...page.body.revisions.map((r: any) => r.id));
    await s.put(`/v1/entities/items/${id}/labels/en`, { label: 'meanwhile' });
    while (page.body.next) {
      page = await s.get(`/v1/entities/items/${id}/history?limit=3&before=${page.body.next}`);
      seen.push(...page.body.revisions.map((r: any) => r.id));
    }
    assert.deepEqual(seen, [...revisions].reverse());
  });

  it('answers 404 for a missing entity and 400 for a bad limit or before', async () => {
    assert.equal((await s.get('/v1/entities/items/Q999999999/history')).body.code, 'item-not-found');
    assert.equal((await s.get('/v1/entities/properties/P999999999/history')).body.code, 'property-not-found');
    const { id } = await itemWithEdits(0);
    for (const q of ['limit=0', 'limit=501', 'limit=x', 'before=-1', 'before=1.5']) {
      const res = await s.get(`/v1/entities/items/${id}/history?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.code, 'invalid-query-parameter');
    }
  });
});

describe('GET …/revisions/{revision_id}', () => {
  it('serves the entity as it was, with that revision\'s ETag', async () => {
    const { id, revisions } = await itemWithEdits(2);
    const old = await s.get(`/v1/entities/items/${id}/revisions/${revisions[1]}`);
    assert.equal(old.status, 200);
    assert.equal(old.body.labels.en, 'v1');
    assert.equal(old.body.id, id);
    assert.equal(rev(old), revisions[1]);
    assert.ok(old.headers.get('last-modified'));
  });

  it('answers 404 revision-not-found for another entity\'s revision, 400 for a malformed id', async () => {
    const a = await itemWithEdits(0);
    const b = await itemWithEdits(0);
    const res = await s.get(`/v1/entities/items/${a.id}/revisions/${b.revisions[0]}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'revision-not-found');
    assert.equal((await s.get(`/v1/entities/items/${a.id}/revisions/abc`)).body.code, 'invalid-revision-id');
    assert.equal((await s.get(`/v1/entities/items/Q999999999/revisions/1`)).body.code, 'item-not-found');
  });
});

describe('POST …/revert', () => {
  it('writes a new revision with the old content, statements keeping their ids', async () => {
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id;
    const created = await s.post('/v1/entities/items', { item: { labels: { en: 'first' },
      statements: { [property]: [{ property: { id: property }, value: { type: 'value', content: 'kept' } }] } } });
    const id = created.body.id;
    const statementId = created.body.statements[property][0].id;
    await s.put(`/v1/entities/items/${id}/labels/en`, { label: 'second' });
    await s.delete(`/v1/statements/${encodeURIComponent(statementId)}`);
    const res = await s.post(`/v1/entities/items/${id}/revert`, { revision: rev(created), comment: 'undo' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.labels.en, 'first');
    assert.equal(res.body.statements[property][0].id, statementId);
    const history = (await s.get(`/v1/entities/items/${id}/history`)).body.revisions;
    assert.equal(history.length, 4);
    assert.equal(history[0].comment, 'undo');
    assert.equal(history[0].id, rev(res));
  });

  it('reverting to the current content writes nothing', async () => {
    const { id, revisions } = await itemWithEdits(1);
    const res = await s.post(`/v1/entities/items/${id}/revert`, { revision: revisions[1] });
    assert.equal(res.status, 200);
    assert.equal(rev(res), revisions[1]);
    assert.equal(res.headers.get('entia-revert'), 'unchanged');
    const real = await s.post(`/v1/entities/items/${id}/revert`, { revision: revisions[0] });
    assert.equal(real.headers.get('entia-revert'), 'reverted');
    assert.ok(rev(real) > revisions[1]);
    const undone = await s.post(`/v1/entities/items/${id}/revert`, { revision: revisions[1] });
    assert.equal(undone.headers.get('entia-revert'), 'reverted');
    assert.equal((await s.get(`/v1/entities/items/${id}/history`)).body.revisions.length, 4);
  });

  it('obeys the rules of any edit: If-Match, body, unknown revision, data policy', async () => {
    const { id, revisions } = await itemWithEdits(1);
    const stale = await s.post(`/v1/entities/items/${id}/revert`, { revision: revisions[0] }, { 'if-match': `"${revisions[0]}"` });
    assert.equal(stale.status, 412);
    assert.equal((await s.post(`/v1/entities/items/${id}/revert`, {})).body.code, 'missing-field');
    assert.deepEqual((await s.post(`/v1/entities/items/${id}/revert`, { revision: 'x' })).body.context, { path: '/revision' });
    assert.equal((await s.post(`/v1/entities/items/${id}/revert`, { revision: 1 })).body.code, 'revision-not-found');
    // The page an old revision linked is another item's by now: 422, nothing written.
    const linked = await s.post('/v1/entities/items', { item: { sitelinks: { enwiki: { title: 'Revert page' } } } });
    await s.delete(`/v1/entities/items/${linked.body.id}/sitelinks/enwiki`);
    await s.post('/v1/entities/items', { item: { sitelinks: { enwiki: { title: 'Revert page' } } } });
    const conflict = await s.post(`/v1/entities/items/${linked.body.id}/revert`, { revision: rev(linked) });
    assert.equal(conflict.status, 422);
    assert.equal(conflict.body.context.violation, 'sitelink-conflict');
    assert.equal((await s.get(`/v1/entities/items/${linked.body.id}/history`)).body.revisions.length, 2);
  });
});

describe('POST …/undo', () => {
  it('takes back what one revision changed and keeps what came after', async () => {
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id;
    const created = await s.post('/v1/entities/items', { item: { labels: { en: 'first' }, descriptions: { en: 'a thing' } } });
    const id = created.body.id;
    const relabel = await s.put(`/v1/entities/items/${id}/labels/en`, { label: 'second' });
    const added = await s.post(`/v1/entities/items/${id}/statements`, { statement: { property: { id: property }, value: { type: 'value', content: 'later' } } });
    assert.equal(added.status, 201);
    // Undo the relabel: the label goes back; the statement added after it stays.
    const undone = await s.post(`/v1/entities/items/${id}/undo`, { revision: rev(relabel), comment: 'undo the relabel' });
    assert.equal(undone.status, 200, undone.text);
    assert.equal(undone.body.labels.en, 'first');
    assert.equal(undone.body.statements[property][0].value.content, 'later');
    assert.equal(undone.body.descriptions.en, 'a thing');
    assert.equal((await s.get(`/v1/entities/items/${id}/history`)).body.revisions[0].comment, 'undo the relabel');
    // Undo the statement's addition: it goes, the label stays as it is now.
    const removed = await s.post(`/v1/entities/items/${id}/undo`, { revision: rev(added) });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.body.statements, {});
    assert.equal(removed.body.labels.en, 'first');
  });

  it('refuses when a part the revision changed has changed since, and writes nothing', async () => {
    const { id, revisions } = await itemWithEdits(2);
    const res = await s.post(`/v1/entities/items/${id}/undo`, { revision: revisions[1] });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'undo-conflict');
    assert.deepEqual(res.body.context, { parts: 'label en' });
    assert.equal(res.body.message, 'The edit cannot be undone: label en changed since');
    assert.equal((await s.get(`/v1/entities/items/${id}/history`)).body.revisions.length, 3);
  });

  it('cannot undo a creation, nor another entity\'s revision, and obeys If-Match', async () => {
    const { id, revisions } = await itemWithEdits(1);
    assert.deepEqual((await s.post(`/v1/entities/items/${id}/undo`, { revision: revisions[0] })).body.context, { path: '/revision' });
    const other = await itemWithEdits(1);
    assert.equal((await s.post(`/v1/entities/items/${id}/undo`, { revision: other.revisions[1] })).body.code, 'revision-not-found');
    const stale = await s.post(`/v1/entities/items/${id}/undo`, { revision: revisions[1] }, { 'if-match': `"${revisions[0]}"` });
    assert.equal(stale.status, 412);
  });
});
