// QuickStatements batches over real HTTP, on the test backend (docs/api.md §10.17): the examples of Wikidata's
// help page (with this store's ids), as V1 and as CSV; one revision per group of commands on one entity, the
// batch's id in each revision's comment, and every command's outcome reported, a bad one without stopping the rest.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser, snapshot, startSecureServer } from '../helpers/secure.js';
import { uniq } from '../helpers/term-kinds.js';

let s: TestServer;
const P: Record<string, string> = {};
let human: string;
let kilogram: string;

before(async () => {
  s = await startServer();
  for (const [name, type] of [['instance', 'wikibase-item'], ['start', 'time'], ['source', 'wikibase-item'], ['mass', 'quantity'],
    ['place', 'globe-coordinate'], ['title', 'monolingualtext'], ['code', 'external-id'], ['url', 'url']]) {
    P[name] = (await s.post('/v1/entities/properties', { property: { data_type: type, labels: { en: uniq(`qs ${name}`) } } })).body.id;
  }
  human = (await s.post('/v1/entities/items', { item: { labels: { en: uniq('human') } } })).body.id;
  kilogram = (await s.post('/v1/entities/items', { item: { labels: { en: uniq('kilogram') } } })).body.id;
});
after(async () => { await s.close(); });

const run = (commands: string, extra: Record<string, unknown> = {}) => s.post('/v1/quickstatements', { commands, ...extra });
const history = async (id: string) => (await s.get(`/v1/entities/items/${id}/history`)).body.revisions;

describe('POST /v1/quickstatements', () => {
  it('runs V1: CREATE with LAST as one revision, statements with qualifiers and sources, every value syntax', async () => {
    const name = uniq('Douglas Adams');
    const res = await run([
      'CREATE',
      `LAST\tLen\t"${name}"`,
      'LAST\tDen\t"English writer"',
      'LAST\tAen\t"DNA"',
      `LAST\t${P.instance}\t${human}\t${P.start}\t+1952-03-11T00:00:00Z/11\tS${P.source.slice(1)}\t${kilogram} /* from the help page */`,
      `LAST|${P.mass}|12U${kilogram.slice(1)}`,
      `LAST\t${P.place}\t@43.26193/10.92708`,
      `LAST\t${P.title}\ten:"The Hitchhiker's Guide"`,
      `LAST\t${P.code}\t"ABC-1"`,
      `LAST\t${P.url}\t"https://example.org/adams"`,
    ].join('\n'), { comment: 'help page examples' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.batch, /^[0-9a-f]{10}$/);
    assert.deepEqual([res.body.done, res.body.failed], [10, 0], JSON.stringify(res.body.commands.filter((c: any) => c.error)));
    const id = res.body.commands[0].entity;
    assert.ok(res.body.commands.every((c: any) => c.entity === id && c.revision === res.body.commands[0].revision));
    const item = (await s.get(`/v1/entities/items/${id}`)).body;
    assert.deepEqual([item.labels.en, item.descriptions.en, item.aliases.en], [name, 'English writer', ['DNA']]);
    const first = (p: string) => item.statements[p][0];
    assert.equal(first(P.instance).value.content, human);
    assert.equal(first(P.instance).qualifiers[0].value.content.time, '+1952-03-11T00:00:00Z');
    assert.equal(first(P.instance).references[0].parts[0].value.content, kilogram);
    assert.deepEqual(first(P.mass).value.content, { amount: '+12', unit: `http://www.wikidata.org/entity/${kilogram}` });
    assert.equal(first(P.place).value.content.latitude, 43.26193);
    assert.deepEqual(first(P.title).value.content, { text: "The Hitchhiker's Guide", language: 'en' });
    assert.equal(first(P.code).value.content, 'ABC-1');
    const revisions = await history(id);
    assert.equal(revisions.length, 1, 'one revision for the creation group');
    assert.equal(revisions[0].comment, `quickstatements batch #${res.body.batch}: help page examples; from the help page`);
  });

  it('adds to a statement it already has, removes by value, reports bad commands and runs the rest', async () => {
    const id = (await s.post('/v1/entities/items', { item: { labels: { en: uniq('edited by qs') },
      statements: { [P.instance]: [{ property: { id: P.instance }, value: { type: 'value', content: human } }] } } })).body.id;
    const before = (await history(id)).length;
    const res = await run([
      `${id}\t${P.instance}\t${human}\t${P.start}\t+2001-05-11T00:00:00Z/11`,
      `${id}\t${P.instance}\t"not an item"`,
      `${id}\t${P.mass}\t1.5~0.5`,
      `${id}\tLde\t"bearbeitet"`,
      `${id}\tnonsense`,
      `-${id}\t${P.mass}\t1.5~0.5`,
      `-${id}\t${P.code}\t"absent"`,
      `LAST\tLfr\t"x"`,
    ].join('\n'));
    assert.equal(res.status, 200, res.text);
    const status = res.body.commands.map((c: any) => [c.line, c.status, c.error?.code]);
    assert.deepEqual(status, [
      [1, 'done', undefined], [2, 'failed', 'invalid-quickstatements-command'], [3, 'done', undefined], [4, 'done', undefined],
      [5, 'failed', 'invalid-quickstatements-command'], [6, 'done', undefined], [7, 'failed', 'invalid-quickstatements-command'],
      [8, 'failed', 'invalid-quickstatements-command'],
    ]);
    assert.match(res.body.commands[7].error.message, /LAST: no item was created/);
    const item = (await s.get(`/v1/entities/items/${id}`)).body;
    assert.equal(item.statements[P.instance].length, 1, 'the qualifier went to the statement it already had');
    assert.equal(item.statements[P.instance][0].qualifiers[0].value.content.time, '+2001-05-11T00:00:00Z');
    assert.equal(item.statements[P.mass], undefined, 'added, then removed by value');
    assert.equal(item.labels.de, 'bearbeitet');
    assert.equal((await history(id)).length, before + 1, 'one revision for the group of commands on the item');
    // A command's comment longer than a revision comment may be is cut at a whole character ("abc" puts the cut of
    // a character-by-character cut on a surrogate pair).
    const long = await run(`${id}\tLit\t"lungo" /* abc${'😀'.repeat(200)} */`);
    assert.equal(long.body.done, 1, long.text);
    const [latest] = await history(id);
    assert.ok(Buffer.byteLength(latest.comment) <= 500 && latest.comment.endsWith('😀…') && latest.comment.isWellFormed(), latest.comment);
  });

  it('reads CSV, merges, and refuses what is not a batch', async () => {
    const csv = [`qid,Len,${P.instance},qal${P.start.slice(1)},#`, `,${uniq('csv item')},${human},+1999-00-00T00:00:00Z/9,made from CSV`].join('\n');
    const res = await run(csv, { format: 'csv' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.done, res.body.failed], [3, 0]);
    const created = res.body.commands[0].entity;
    const item = (await s.get(`/v1/entities/items/${created}`)).body;
    assert.equal(item.statements[P.instance][0].qualifiers[0].value.content.precision, 9);
    const duplicate = (await s.post('/v1/entities/items', { item: { labels: { de: uniq('Duplikat') } } })).body.id;
    const merged = await run(`MERGE\t${duplicate}\t${created}`);
    assert.equal(merged.body.done, 1, merged.text);
    assert.equal((await s.get(`/v1/entities/items/${duplicate}`)).status, 308);
    for (const [body, code] of [[{ commands: '' }, 'invalid-value'], [{ commands: 'CREATE', format: 'xml' }, 'invalid-value'],
      [{}, 'missing-field'], [{ commands: 'CREATE\n'.repeat(10_001) }, 'value-too-long']] as const) {
      const refused = await s.post('/v1/quickstatements', body);
      assert.deepEqual([refused.status, refused.body.code], [400, code], JSON.stringify(body).slice(0, 60));
    }
  });
});

describe('QuickStatements and the guard', () => {
  it('refuses an anonymous batch in token mode; reports a protected entity and a spent budget per command', async () => {
    const secured = await startSecureServer({ editMode: 'token', rateEdit: { count: 1, windowSeconds: 600 } });
    try {
      const editor = await addUser(secured.store, 'Batcher');
      const admin = await addUser(secured.store, 'Boss', 'admin');
      const item = (await secured.post('/v1/entities/items', { item: { labels: { en: 'guarded by qs' } } }, admin)).body.id;
      await secured.store.accounts.setProtected(item, true);
      const before = await snapshot(secured.store);
      const anonymous = await secured.post('/v1/quickstatements', { commands: `${item}\tLde\t"x"` });
      assert.deepEqual([anonymous.status, anonymous.body.context?.denial_reason], [403, 'unauthenticated']);
      assert.equal(await snapshot(secured.store), before);
      const other = (await secured.post('/v1/entities/items', { item: { labels: { en: 'open to edits' } } }, editor)).body.id;
      const res = await secured.post('/v1/quickstatements', { commands: [
        `${item}\tLde\t"geschützt"`, `${other}\tLde\t"offen"`, `${other}\tLfr\t"ouvert"`, `${item}\tLfr\t"x"`, `${other}\tLit\t"aperto"`,
      ].join('\n') }, editor);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.commands.map((c: any) => c.error?.code ?? c.status),
        ['permission-denied', 'done', 'done', 'permission-denied', 'request-limit-reached']);
      assert.equal((await secured.get(`/v1/entities/items/${item}`)).body.labels.de, undefined);
    } finally {
      await secured.close();
    }
  });
});
