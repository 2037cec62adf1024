// The real `wikibase-edit` package against a started Entia that enforces accounts (guard.ts), configured only as
// its documentation says: the instance URL and credentials (an account name with its token as the password, or
// the token as an OAuth 2 bearer). Every edit goes through the Action API's login, tokens and edit modules, and
// every result is read back through the REST API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WBEdit from 'wikibase-edit';
import { addUser, startSecureServer } from '../helpers/secure.js';
import type { TestServer } from '../helpers/server.js';

let s: TestServer;
let auth: Record<string, string>;
let wbEdit: ReturnType<typeof WBEdit>;
let itemProperty: string;
let stringProperty: string;
let timeProperty: string;
let target: string;

const token = () => auth.authorization.slice('Bearer '.length);
const rest = async (path: string) => {
  const res = await s.get(path);
  assert.equal(res.status, 200, path);
  return res.body as any;
};

before(async () => {
  s = await startSecureServer({ editMode: 'token' });
  auth = await addUser(s.store, 'EditBot', 'bot');
  const make = async (dataType: string, label: string) =>
    (await s.post('/v1/entities/properties', { property: { data_type: dataType, labels: { en: label } } }, auth)).body.id as string;
  itemProperty = await make('wikibase-item', 'edit instance of');
  stringProperty = await make('string', 'edit identifier');
  timeProperty = await make('time', 'edit date');
  target = (await s.post('/v1/entities/items', { item: { labels: { en: 'edit target' } } }, auth)).body.id;
  wbEdit = WBEdit({ instance: s.url as `http${string}`, credentials: { username: 'EditBot', password: token() }, userAgent: 'entia-test', bot: true, maxlag: 5 });
});
after(async () => { await s.close(); });

describe('wikibase-edit against Entia', () => {
  let item: string;

  it('entity.create: labels, descriptions, aliases, claims and a sitelink, as the REST API reads them', async () => {
    const res = await wbEdit.entity.create({
      type: 'item',
      labels: { en: 'created by wikibase-edit', fr: 'créé par wikibase-edit' },
      descriptions: { en: 'a test item' },
      aliases: { en: ['wbedit alias'] },
      claims: { [itemProperty]: target, [stringProperty]: 'ABC-1' },
      sitelinks: { enwiki: 'Wikibase edit page' },
    } as any);
    assert.equal(res.success, 1);
    item = res.entity.id;
    const read = await rest(`/v1/entities/items/${item}`);
    assert.deepEqual(read.labels, { en: 'created by wikibase-edit', fr: 'créé par wikibase-edit' });
    assert.deepEqual(read.descriptions, { en: 'a test item' });
    assert.deepEqual(read.aliases, { en: ['wbedit alias'] });
    assert.equal(read.statements[itemProperty][0].value.content, target);
    assert.equal(read.statements[stringProperty][0].value.content, 'ABC-1');
    assert.equal(read.sitelinks.enwiki.title, 'Wikibase edit page');
    const history = await rest(`/v1/entities/items/${item}/history`);
    // One revision, by the account that logged in, flagged as a bot edit (the account is in the bot group).
    assert.equal(history.revisions.length, 1);
    assert.equal(history.revisions[0].user, 'EditBot');
    assert.equal(history.revisions[0].bot, true);
  });

  it('label, description and alias edits', async () => {
    await wbEdit.label.set({ id: item, language: 'de', value: 'von wikibase-edit' } as any);
    await wbEdit.description.set({ id: item, language: 'en', value: 'an edited test item' } as any);
    await wbEdit.alias.add({ id: item, language: 'en', value: ['second alias'] } as any);
    await wbEdit.alias.remove({ id: item, language: 'en', value: 'wbedit alias' } as any);
    const read = await rest(`/v1/entities/items/${item}`);
    assert.equal(read.labels.de, 'von wikibase-edit');
    assert.equal(read.descriptions.en, 'an edited test item');
    assert.deepEqual(read.aliases.en, ['second alias']);
  });

  it('claim create, update and remove; qualifiers and references', async () => {
    const created = await wbEdit.claim.create({ id: item, property: timeProperty, value: '1952-03-11' } as any);
    const guid = created.claim.id as string;
    let read = await rest(`/v1/statements/${encodeURIComponent(guid)}`);
    assert.equal(read.value.content.time, '+1952-03-11T00:00:00Z');
    assert.equal(read.value.content.precision, 11);

    await wbEdit.claim.update({ guid: (await rest(`/v1/entities/items/${item}/statements`))[stringProperty][0].id, newValue: 'ABC-2' } as any);
    const statements = await rest(`/v1/entities/items/${item}/statements`);
    assert.equal(statements[stringProperty][0].value.content, 'ABC-2');

    await wbEdit.qualifier.set({ guid, property: stringProperty, value: 'a qualifier' } as any);
    await wbEdit.reference.set({ guid, snaks: { [stringProperty]: 'a reference' } } as any);
    read = await rest(`/v1/statements/${encodeURIComponent(guid)}`);
    assert.deepEqual(read.qualifiers.map((q: any) => q.value.content), ['a qualifier']);
    assert.deepEqual(read.references[0].parts.map((p: any) => p.value.content), ['a reference']);

    const claim = (await (await fetch(`${s.url}/w/api.php?action=wbgetclaims&claim=${encodeURIComponent(guid)}&format=json`)).json() as any)
      .claims[timeProperty][0];
    await wbEdit.qualifier.remove({ guid, hash: claim.qualifiers[stringProperty][0].hash } as any);
    await wbEdit.reference.remove({ guid, hash: claim.references[0].hash } as any);
    read = await rest(`/v1/statements/${encodeURIComponent(guid)}`);
    assert.deepEqual(read.qualifiers, []);
    assert.deepEqual(read.references, []);

    await wbEdit.claim.remove({ guid } as any);
    assert.equal((await s.get(`/v1/statements/${encodeURIComponent(guid)}`)).status, 404);
  });

  it('sitelink set and remove', async () => {
    await wbEdit.sitelink.set({ id: item, site: 'dewiki', title: 'Wikibase-Bearbeitung' } as any);
    assert.equal((await rest(`/v1/entities/items/${item}/sitelinks/dewiki`)).title, 'Wikibase-Bearbeitung');
    await wbEdit.sitelink.set({ id: item, site: 'dewiki', title: null } as any);
    assert.equal((await s.get(`/v1/entities/items/${item}/sitelinks/dewiki`)).status, 404);
  });

  it('entity.merge: a duplicate merged into the item, then a redirect to it', async () => {
    const duplicate = (await wbEdit.entity.create({ type: 'item', labels: { nl: 'duplicaat' }, aliases: { en: ['merged alias'] } } as any)).entity.id;
    const res: any = await wbEdit.entity.merge({ from: duplicate, to: item } as any);
    assert.deepEqual([res.success, res.redirected, res.from.id, res.to.id], [1, 1, duplicate, item]);
    const merged = await rest(`/v1/entities/items/${item}`);
    assert.equal(merged.labels.nl, 'duplicaat');
    assert.ok(merged.aliases.en.includes('merged alias'));
    assert.equal((await s.get(`/v1/entities/items/${duplicate}`)).status, 308);
  });

  it('entity.edit with an OAuth 2 bearer: the account token works as the access token', async () => {
    const bearer = WBEdit({ instance: s.url as `http${string}`, credentials: { oauth2: { accessToken: token() } } as any, userAgent: 'entia-test' });
    await bearer.entity.edit({ id: item, labels: { es: 'editado' }, descriptions: { en: 'edited with a bearer' } } as any);
    const read = await rest(`/v1/entities/items/${item}`);
    assert.equal(read.labels.es, 'editado');
    assert.equal(read.descriptions.en, 'edited with a bearer');
  });

  it('a wrong password fails the login, and nothing is written', async () => {
    const stranger = WBEdit({ instance: s.url as `http${string}`, credentials: { username: 'EditBot', password: 'x'.repeat(43) }, userAgent: 'entia-test' });
    await assert.rejects(stranger.label.set({ id: item, language: 'it', value: 'non scritto' } as any), /failed to login/);
    assert.equal((await rest(`/v1/entities/items/${item}`)).labels.it, undefined);
  });

  it('a refused edit (label equal to the description) says why, in the Action API error shape', async () => {
    await assert.rejects(wbEdit.label.set({ id: item, language: 'en', value: 'edited with a bearer' } as any),
      (e: any) => e.body?.error?.code === 'modification-failed'
        && e.body.error.messages[0].name === 'wikibase-validator-label-equals-description');
  });
});
