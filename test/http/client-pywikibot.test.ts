// The real Pywikibot (shared/clients/python, no install step) against a started Entia that requires tokens,
// configured as its documentation says: `generate_family_file` with the server's URL writes the family file (made
// a Wikibase family, as Pywikibot's manual says for a third-party Wikibase), a `user-config.py` names it, a
// `user-password.py` holds a BotPassword whose password is an Entia token. Then a bot script does what bots do,
// merges a duplicate, and every result is read back through the REST API. Skips with its reason where Python or the clients are absent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PYTHON_CLIENTS, pythonClientSkip } from '../helpers/python-clients.js';
import { promisify } from 'node:util';
import type { TestServer } from '../helpers/server.js';
import { addUser, startSecureServer } from '../helpers/secure.js';

const run = promisify(execFile);
const skip = pythonClientSkip('pywikibot', 'Pywikibot');

let s: TestServer;
let dir: string;
let item: string;
let auth: Record<string, string>;

async function pywikibot(args: string[], env: Record<string, string> = {}) {
  return run('python3', args, { cwd: dir, timeout: 120_000,
    env: { ...process.env, PYTHONPATH: PYTHON_CLIENTS, PYWIKIBOT_DIR: dir, ...env } });
}

describe('Pywikibot against Entia', { skip }, () => {
  before(async () => {
    s = await startSecureServer({ editMode: 'token' });
    auth = await addUser(s.store, 'Bot', 'bot');
    item = (await s.post('/v1/entities/items', { item: { labels: { en: 'read by pywikibot', de: 'von Pywikibot gelesen' } } }, auth)).body.id;
    dir = mkdtempSync(join(tmpdir(), 'entia-pywikibot-'));
    // As a user does: the family generator with the wiki's URL, then a user-config naming it and a BotPassword.
    const generated = await pywikibot(['-m', 'pywikibot.scripts.generate_family_file', `${s.url}/`, 'entia', 'n'], { PYWIKIBOT_NO_USER_CONFIG: '2' });
    assert.match(generated.stdout, /MediaWiki version: 1\.43/);
    // Pywikibot's manual: a third-party Wikibase's family derives from DefaultWikibaseFamily (calendar, globes).
    const familyFile = join(dir, 'families', 'entia_family.py');
    writeFileSync(familyFile, readFileSync(familyFile, 'utf8').replace('class Family(family.Family)', 'class Family(family.DefaultWikibaseFamily)'));
    writeFileSync(join(dir, 'user-config.py'),
      "family = 'entia'\nmylang = 'en'\nput_throttle = 0\nusernames['entia']['en'] = 'Bot'\npassword_file = 'user-password.py'\n");
    const token = auth.authorization.slice('Bearer '.length);
    writeFileSync(join(dir, 'user-password.py'), `('Bot', BotPassword('entia', '${token}'))\n`, { mode: 0o600 });
  });
  after(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('generate_family_file with the server\'s URL writes a working family; a script reads an item', async () => {
    writeFileSync(join(dir, 'read.py'), [
      'import json, pywikibot',
      "site = pywikibot.Site('en', 'entia')",
      'repo = site.data_repository()',
      `item = pywikibot.ItemPage(repo, '${item}')`,
      'data = item.get()',
      "print(json.dumps({'labels': dict(data['labels'])}))",
    ].join('\n'));
    const read = await pywikibot(['read.py']);
    const out = JSON.parse(read.stdout.trim().split('\n').pop()!);
    assert.deepEqual(out.labels, { en: 'read by pywikibot', de: 'von Pywikibot gelesen' });
  });

  it('logs in with a BotPassword, creates an item, adds claims of every kind with qualifiers and sources, ranks, changes and removes them, merges a duplicate', async () => {
    const properties: Record<string, string> = {};
    for (const [type, label] of [['string', 'code'], ['wikibase-item', 'related'], ['quantity', 'mass'], ['time', 'date'],
      ['globe-coordinate', 'place'], ['monolingualtext', 'motto'], ['external-id', 'ident'], ['url', 'site']]) {
      properties[type] = (await s.post('/v1/entities/properties', { property: { data_type: type, labels: { en: `pwb ${label}` } } },
        auth)).body.id;
    }
    const p = (type: string) => properties[type];
    writeFileSync(join(dir, 'edit.py'), [
      'import json, pywikibot',
      "site = pywikibot.Site('en', 'entia')",
      'site.login()',
      'repo = site.data_repository()',
      'item = pywikibot.ItemPage(repo)',
      "item.editEntity({'labels': {'en': 'made by pywikibot'}, 'descriptions': {'en': 'a bot item'}}, summary='new item')",
      "item.editLabels({'de': 'von Pywikibot'}, summary='label')",
      "item.editAliases({'en': ['pwb alias']})",
      "item.setSitelink({'site': 'enwiki', 'title': 'Pywikibot page'})",
      'other = pywikibot.ItemPage(repo)',
      "other.editEntity({'labels': {'en': 'the other one'}})",
      'def add(pid, target):',
      '    claim = pywikibot.Claim(repo, pid)',
      '    claim.setTarget(target)',
      '    item.addClaim(claim, summary="claim " + pid)',
      '    return claim',
      `first = add('${p('string')}', 'hello')`,
      `q = pywikibot.Claim(repo, '${p('string')}', is_qualifier=True); q.setTarget('qualified'); first.addQualifier(q)`,
      `r = pywikibot.Claim(repo, '${p('url')}', is_reference=True); r.setTarget('https://example.org/source'); first.addSources([r])`,
      'first.changeRank("preferred")',
      `add('${p('wikibase-item')}', other)`,
      `add('${p('quantity')}', pywikibot.WbQuantity(12, pywikibot.ItemPage(repo, other.getID()), site=repo))`,
      `add('${p('time')}', pywikibot.WbTime(year=1953, month=3, day=11, site=repo))`,
      `add('${p('globe-coordinate')}', pywikibot.Coordinate(52.5, 13.4, precision=0.1, site=repo))`,
      `add('${p('monolingualtext')}', pywikibot.WbMonolingualText('Einigkeit', 'de'))`,
      `ident = add('${p('external-id')}', 'X-1')`,
      "ident.changeTarget('X-2')",
      `gone = add('${p('url')}', 'https://example.org/')`,
      'item.removeClaims([gone])',
      `add('${p('quantity')}', pywikibot.WbQuantity(5, error=1, site=repo))`,
      "found = [r['id'] for r in repo.search_entities('made by pywikibot', 'en')]",
      'from pywikibot import pagegenerators',
      "generated = [page.getID() for page in pagegenerators.WikibaseSearchItemPageGenerator('made by pywikibot', language='en', site=repo)]",
      'dup = pywikibot.ItemPage(repo)',
      "dup.editEntity({'labels': {'fr': 'doublon'}})",
      "dup.mergeInto(item, summary='duplicate')",
      "print(json.dumps({'id': item.getID(), 'revisions': len(list(item.revisions())), 'merged': dup.getID(),",
      "  'redirect': pywikibot.ItemPage(repo, dup.getID()).isRedirectPage(), 'found': found, 'generated': generated}))",
    ].join('\n'));
    const run = await pywikibot(['edit.py']);
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!);
    assert.ok(out.revisions >= 15, `${out.revisions} revisions`);
    const entity = (await s.get(`/v1/entities/items/${out.id}`)).body;
    assert.deepEqual([entity.labels, entity.descriptions.en, entity.aliases.en, entity.sitelinks.enwiki.title],
      [{ en: 'made by pywikibot', de: 'von Pywikibot', fr: 'doublon' }, 'a bot item', ['pwb alias'], 'Pywikibot page']);
    assert.equal(out.redirect, true, 'mergeInto left a redirect');
    assert.deepEqual([out.found, out.generated], [[out.id], [out.id]], 'search_entities and the search generator find the item');
    assert.deepEqual(entity.statements[p('quantity')][1].value.content, { amount: '+5', unit: '1', upperBound: '+6', lowerBound: '+4' });
    assert.equal((await s.get(`/v1/entities/items/${out.merged}`)).status, 308);
    const value = (type: string) => entity.statements[p(type)]?.[0];
    assert.equal(value('string').value.content, 'hello');
    assert.equal(value('string').rank, 'preferred');
    assert.equal(value('string').qualifiers[0].value.content, 'qualified');
    assert.equal(value('string').references[0].parts[0].value.content, 'https://example.org/source');
    assert.match(value('wikibase-item').value.content, /^Q\d+$/);
    assert.equal(value('quantity').value.content.amount, '+12');
    assert.match(value('quantity').value.content.unit, /\/entity\/Q\d+$/);
    assert.equal(value('time').value.content.time, '+1953-03-11T00:00:00Z');
    assert.equal(value('globe-coordinate').value.content.latitude, 52.5);
    assert.deepEqual(value('monolingualtext').value.content, { text: 'Einigkeit', language: 'de' });
    assert.equal(value('external-id').value.content, 'X-2');
    assert.equal(entity.statements[p('url')], undefined, 'the removed claim is gone');
    const history = (await s.get(`/v1/entities/items/${out.id}/history`)).body.revisions;
    assert.ok(history.every((r: { user: string }) => r.user === 'Bot'));
  });
});
