// The Action API's sessions, tokens and edit modules over real HTTP (docs/api.md §10.15): what a MediaWiki client
// relies on beyond what wikibase-edit exercises (client-wikibase-edit.test.ts), and that every refusal is an
// Action API error that writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addUser, INTERNALS, snapshot, startSecureServer } from '../helpers/secure.js';
import type { TestServer } from '../helpers/server.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importDump } from '../../src/cli/import.js';
import { buildSiteTable } from '../../src/domain/sites.js';

let open: TestServer;
let secured: TestServer;
let auth: Record<string, string>;

type Params = Record<string, string>;

async function api(s: TestServer, params: Params, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; query?: Params } = {}) {
  const method = options.method ?? 'POST';
  const query = new URLSearchParams({ format: 'json', ...(method === 'GET' ? params : {}), ...options.query });
  const res = await fetch(`${s.url}/w/api.php?${query}`, {
    method,
    headers: { ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...options.headers },
    body: method === 'POST' ? new URLSearchParams(params).toString() : undefined,
  });
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.doesNotMatch(text, INTERNALS);
  return { body: JSON.parse(text) as any, headers: res.headers };
}

/** A CSRF token for this Authorization header (or none). */
async function csrf(s: TestServer, headers: Record<string, string> = {}): Promise<string> {
  return (await api(s, { action: 'query', meta: 'tokens' }, { method: 'GET', headers })).body.query.tokens.csrftoken;
}

before(async () => {
  open = await startSecureServer();
  secured = await startSecureServer({ editMode: 'token' });
  auth = await addUser(secured.store, 'Editor');
});
after(async () => { await open.close(); await secured.close(); });

describe('Action API hashes', () => {
  it('shows an imported snak with the hash Wikidata gave it, and names qualifiers by Wikibase\'s hash', async () => {
    const lines = readFileSync(new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url), 'utf8').trim().split('\n');
    const source = lines.map((l) => JSON.parse(l));
    await importDump(open.store, fileURLToPath(new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url)), buildSiteTable(),
      { user: 'import', comment: null, tags: [], bot: true }, { mode: 'overwrite', filter: {}, strict: true, batchSize: 100, restart: true });
    const ids = source.map((e) => e.id);
    const { body } = await api(open, { action: 'wbgetentities', ids: ids.join('|') }, { method: 'GET' });
    let compared = 0;
    for (const entity of source) {
      for (const [pid, claims] of Object.entries(entity.claims) as [string, any[]][]) {
        const served = body.entities[entity.id].claims[pid];
        claims.forEach((claim, i) => {
          assert.equal(served[i].mainsnak.hash, claim.mainsnak.hash, `${entity.id} ${pid}`);
          compared++;
        });
      }
    }
    assert.ok(compared >= 18);
  });
});

describe('Action API edits', () => {
  it('anonymous edits with +\\ where editing is open; the new item reads back through REST', async () => {
    assert.equal(await csrf(open), '+\\');
    const { body } = await api(open, { action: 'wbeditentity', new: 'item', token: '+\\',
      data: JSON.stringify({ labels: { en: { language: 'en', value: 'anonymous item' } } }) });
    assert.equal(body.success, 1);
    assert.match(body.entity.id, /^Q\d+$/);
    assert.equal(typeof body.entity.lastrevid, 'number');
    assert.equal((await open.get(`/v1/entities/items/${body.entity.id}/labels/en`)).body, 'anonymous item');
  });

  it('a new property with its data type; wbcreateclaim, wbsetclaimvalue, wbsetclaim and wbremoveclaims', async () => {
    const token = await csrf(secured, auth);
    const property = (await api(secured, { action: 'wbeditentity', new: 'property', token,
      data: JSON.stringify({ datatype: 'string', labels: { en: { language: 'en', value: 'action code' } } }) }, { headers: auth })).body.entity;
    assert.equal(property.datatype, 'string');
    const item = (await api(secured, { action: 'wbeditentity', new: 'item', token, data: '{}' }, { headers: auth })).body.entity.id;
    const created = (await api(secured, { action: 'wbcreateclaim', entity: item, property: property.id, snaktype: 'value',
      value: '"first"', token }, { headers: auth })).body;
    const guid = created.claim.id;
    assert.equal(created.claim.mainsnak.datavalue.value, 'first');
    await api(secured, { action: 'wbsetclaimvalue', claim: guid, snaktype: 'value', value: '"second"', token }, { headers: auth });
    assert.equal((await secured.get(`/v1/statements/${encodeURIComponent(guid)}`)).body.value.content, 'second');
    const claim = { ...created.claim, rank: 'preferred', mainsnak: { ...created.claim.mainsnak, datavalue: { type: 'string', value: 'third' } } };
    await api(secured, { action: 'wbsetclaim', claim: JSON.stringify(claim), token }, { headers: auth });
    const stored = (await secured.get(`/v1/statements/${encodeURIComponent(guid)}`)).body;
    assert.equal(stored.rank, 'preferred');
    assert.equal(stored.value.content, 'third');
    const removed = (await api(secured, { action: 'wbremoveclaims', claim: guid, token }, { headers: auth })).body;
    assert.deepEqual(removed.claims, [guid]);
    assert.equal((await secured.get(`/v1/statements/${encodeURIComponent(guid)}`)).status, 404);

    // A GUID the client chose for a new statement is kept, as Wikibase keeps it (Pywikibot then addresses the
    // statement by it); one of another entity is not.
    const chosen = `${item}$5627445f-43cb-ed6d-3adb-760e85bd17ee`;
    const fresh = { ...created.claim, id: chosen, mainsnak: { ...created.claim.mainsnak, datavalue: { type: 'string', value: 'mine' } } };
    await api(secured, { action: 'wbsetclaim', claim: JSON.stringify(fresh), token }, { headers: auth });
    assert.equal((await secured.get(`/v1/statements/${encodeURIComponent(chosen)}`)).body.value.content, 'mine');
    const qualified = await api(secured, { action: 'wbsetqualifier', claim: chosen, property: property.id, snaktype: 'value', value: '"q"', token }, { headers: auth });
    assert.equal(qualified.body.success, 1, JSON.stringify(qualified.body));
    const foreign = { ...fresh, id: 'Q999999$5627445f-43cb-ed6d-3adb-760e85bd17ef' };
    await api(secured, { action: 'wbsetclaim', claim: JSON.stringify(foreign), token }, { headers: auth });
    assert.equal((await secured.get(`/v1/statements/${encodeURIComponent(foreign.id)}`)).status, 404);
  });

  it('login with the account name and token gives a session cookie that edits; logout ends it', async () => {
    const password = auth.authorization.slice('Bearer '.length);
    const first = (await api(secured, { action: 'login', lgname: 'Editor', lgpassword: password })).body;
    assert.equal(first.login.result, 'NeedToken');
    // MediaWiki compares user names with their first letter capitalised: `editor` is the account `Editor`.
    const lower = await api(secured, { action: 'login', lgname: 'editor@bot', lgpassword: password, lgtoken: first.login.token });
    assert.equal(lower.body.login.result, 'Success', JSON.stringify(lower.body));
    const done = await api(secured, { action: 'login', lgname: 'Editor', lgpassword: password, lgtoken: first.login.token });
    assert.equal(done.body.login.result, 'Success');
    const cookie = done.headers.get('set-cookie')!.split(';')[0];
    assert.match(cookie, /^entia_session=[0-9a-f]{32,}$/);
    assert.match(done.headers.get('set-cookie')!, /HttpOnly/);
    const session = { cookie };
    const userinfo = (await api(secured, { action: 'query', meta: 'userinfo' }, { method: 'GET', headers: session })).body;
    assert.equal(userinfo.query.userinfo.name, 'Editor');
    const token = await csrf(secured, session);
    assert.match(token, /^[0-9a-f]{40}\+\\$/);
    const item = (await api(secured, { action: 'wbeditentity', new: 'item', token, data: '{}' }, { headers: session })).body.entity.id;
    const label = (await api(secured, { action: 'wbsetlabel', id: item, language: 'en', value: 'by session', token }, { headers: session })).body;
    assert.deepEqual(label.entity.labels, { en: { language: 'en', value: 'by session' } });
    const history = (await secured.get(`/v1/entities/items/${item}/history`)).body;
    assert.equal(history.revisions[0].user, 'Editor');

    await api(secured, { action: 'logout', token }, { headers: session });
    const wrong = (await api(secured, { action: 'login', lgname: 'Editor', lgpassword: 'y'.repeat(43), lgtoken: first.login.token })).body;
    assert.equal(wrong.login.result, 'Failed');
    const forged = (await api(secured, { action: 'query', meta: 'userinfo' }, { method: 'GET', headers: { cookie: 'entia_session=' + 'ab'.repeat(40) } })).body;
    assert.equal(forged.query.userinfo.anon, '');
  });

  it('applies an edit made against an older revision when nothing it changes changed since; refuses it when something did', async () => {
    const token = await csrf(secured, auth);
    const created = (await api(secured, { action: 'wbeditentity', new: 'item', token, data: JSON.stringify({
      labels: { en: { language: 'en', value: 'based' } }, descriptions: { en: { language: 'en', value: 'first' } } }) }, { headers: auth })).body.entity;
    const base = String(created.lastrevid);
    // Someone else changes the description.
    const other = await api(secured, { action: 'wbsetdescription', id: created.id, language: 'en', value: 'second', token }, { headers: auth });
    assert.equal(other.body.success, 1);
    // A label edit based on the first revision touches nothing that changed: applied, the description kept.
    const label = await api(secured, { action: 'wbsetlabel', id: created.id, language: 'de', value: 'basiert', token, baserevid: base }, { headers: auth });
    assert.equal(label.body.success, 1, JSON.stringify(label.body));
    const now = (await secured.get(`/v1/entities/items/${created.id}`)).body;
    assert.deepEqual([now.labels.de, now.descriptions.en], ['basiert', 'second']);
    // A description edit based on the first revision overlaps: refused, nothing written.
    const before = await snapshot(secured.store);
    const clash = await api(secured, { action: 'wbsetdescription', id: created.id, language: 'en', value: 'third', token, baserevid: base }, { headers: auth });
    assert.equal(clash.body.error?.code, 'editconflict', JSON.stringify(clash.body));
    assert.match(clash.body.error.info, /descriptions\/en/);
    assert.equal(await snapshot(secured.store), before);
    const bad = await api(secured, { action: 'wbsetlabel', id: created.id, language: 'en', value: 'x', token, baserevid: 'abc' }, { headers: auth });
    assert.equal(bad.body.error?.code, 'badinteger');
  });

  it('refusals are Action API errors that write nothing', async () => {
    const token = await csrf(secured, auth);
    const item = (await api(secured, { action: 'wbeditentity', new: 'item', token,
      data: JSON.stringify({ labels: { en: { language: 'en', value: 'guarded' } } }) }, { headers: auth })).body.entity;
    const before = await snapshot(secured.store);
    const cases: [Params, string, { method?: 'GET' | 'POST'; headers?: Record<string, string>; query?: Params }?][] = [
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x', token: '+\\' }, 'permissiondenied'],
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x', token: 'f'.repeat(40) + '+\\' }, 'badtoken', { headers: auth }],
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x' }, 'missingparam', { headers: auth }],
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x' }, 'mustpostparams', { headers: auth, query: { token } }],
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x', token }, 'mustbeposted', { method: 'GET', headers: auth }],
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x', token, baserevid: String(item.lastrevid - 1) }, 'editconflict', { headers: auth }],
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x', token, assert: 'bot' }, 'assertbotfailed', { headers: auth }],
      [{ action: 'delete', title: item.id, token }, 'permissiondenied', { headers: auth }],
      [{ action: 'wbsetlabel', id: item.id, language: 'xx-nope', value: 'x', token }, 'badvalue', { headers: auth }],
      [{ action: 'wbsetlabel', id: 'Q999999999', language: 'en', value: 'x', token }, 'no-such-entity', { headers: auth }],
      [{ action: 'wbsetlabel', id: 'not an id', language: 'en', value: 'x', token }, 'invalid-entity-id', { headers: auth }],
      [{ action: 'wbeditentity', id: item.id, data: '{not json', token }, 'invalid-json', { headers: auth }],
      [{ action: 'wbeditentity', id: item.id, data: JSON.stringify({ claims: [{ mainsnak: { snaktype: 'value', property: 'P1' } }] }), token }, 'invalid-snak', { headers: auth }],
      [{ action: 'wbcreateclaim', entity: item.id, property: 'P999999', snaktype: 'value', value: '"x"', token }, 'modification-failed', { headers: auth }],
      [{ action: 'wbremoveclaims', claim: `${item.id}$00000000-0000-0000-0000-000000000000`, token }, 'no-such-claim', { headers: auth }],
      [{ action: 'wbcreateredirect', from: item.id, to: item.id, token }, 'cant-redirect-self', { headers: auth }],
      [{ action: 'wbsetreference', statement: `${item.id}$00000000-0000-0000-0000-000000000000`, snaks: '{}', index: 'first', token }, 'badinteger', { headers: auth }],
      [{ action: 'wbsetlabel', id: item.id, language: 'en', value: 'x', token, maxlag: 'soon' }, 'badinteger', { headers: auth }],
      [{ action: 'nosuchmodule' }, 'badvalue'],
    ];
    for (const [params, code, options] of cases) {
      const { body, headers } = await api(secured, params, options);
      assert.equal(body.error?.code, code, `${JSON.stringify(params)} → ${JSON.stringify(body)}`);
      assert.equal(headers.get('mediawiki-api-error'), code);
    }
    assert.equal(await snapshot(secured.store), before);
  });

  it('a form body that is not a form, and fuzzed parameters, never give a 500', async () => {
    const res = await fetch(`${secured.url}/w/api.php`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as any).error.code, 'badcontenttype');
    const token = await csrf(secured, auth);
    const weird = ['', '[]', 'null', '{"labels": 5}', '{"claims": {"P1": [5]}}', '{"sitelinks": [{"site": 5}]}', '{"aliases": {"en": "x"}}',
      '{"claims": [{"mainsnak": {"snaktype": "value", "property": "P1", "datavalue": {"type": "time", "value": 3}}}]}'];
    const item = (await api(secured, { action: 'wbeditentity', new: 'item', token, data: '{}' }, { headers: auth })).body.entity.id;
    for (const data of weird) {
      const { body } = await api(secured, { action: 'wbeditentity', id: item, data, token }, { headers: auth });
      assert.ok(body.error && body.error.code !== 'internal_api_error', `${data} → ${JSON.stringify(body)}`);
    }
  });

  it('wbcreateredirect turns an empty item into a redirect the REST API follows', async () => {
    const token = await csrf(secured, auth);
    const from = (await api(secured, { action: 'wbeditentity', new: 'item', token, data: '{}' }, { headers: auth })).body.entity.id;
    const to = (await api(secured, { action: 'wbeditentity', new: 'item', token, data: '{}' }, { headers: auth })).body.entity.id;
    const { body } = await api(secured, { action: 'wbcreateredirect', from, to, token }, { headers: auth });
    assert.deepEqual(body, { success: 1, redirected: 1, from, to });
    const res = await secured.get(`/v1/entities/items/${from}`);
    assert.equal(res.status, 308);
  });

  it('list=search with haswbstatement finds by statement value', async () => {
    const token = await csrf(secured, auth);
    const property = (await api(secured, { action: 'wbeditentity', new: 'property', token,
      data: JSON.stringify({ datatype: 'external-id', labels: { en: { language: 'en', value: 'search code' } } }) }, { headers: auth })).body.entity.id;
    const item = (await api(secured, { action: 'wbeditentity', new: 'item', token, data: JSON.stringify({
      claims: [{ mainsnak: { snaktype: 'value', property, datavalue: { type: 'string', value: 'XYZ-9' } }, type: 'statement', rank: 'normal' }],
    }) }, { headers: auth })).body.entity.id;
    const { body } = await api(secured, { action: 'query', list: 'search', srsearch: `haswbstatement:${property}=XYZ-9` }, { method: 'GET' });
    assert.deepEqual(body.query.search.map((r: any) => r.title), [item]);
  });
});
