// WikibaseIntegrator (shared/clients/python, no install step) against Entia, configured only as its documentation
// says. Its execute_sparql_query (`wbi_config['SPARQL_ENDPOINT_URL']`) POSTs the query in the URL with an empty
// multipart body and reads the JSON results; the label service fills labels as on Wikidata. Its editing session
// (`MEDIAWIKI_API_URL`, `WIKIBASE_URL`, a BotPassword-style login whose password is an Entia token) creates and
// edits items with claims of several kinds, merges two and lists revisions; every result is read back over REST.
// Skips with its reason where Python or the clients are absent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { PYTHON_CLIENTS, pythonClientSkip } from '../helpers/python-clients.js';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitForSparql } from '../helpers/sparql.js';
import { addUser, startSecureServer } from '../helpers/secure.js';

const run = promisify(execFile);
const skip = pythonClientSkip('wikibaseintegrator', 'WikibaseIntegrator');

let s: TestServer;
let human: string;
let instanceOf: string;
let people: string[];

describe('WikibaseIntegrator\'s execute_sparql_query against Entia', { skip }, () => {
  before(async () => {
    s = await startServer({ config: { sparql: 'full' } });
    await waitForSparql(s);
    instanceOf = (await s.post('/v1/entities/properties', { property: { data_type: 'wikibase-item', labels: { en: 'instance of' } } })).body.id;
    human = (await s.post('/v1/entities/items', { item: { labels: { en: 'human' } } })).body.id;
    people = [];
    for (const [en, fr] of [['Ada Lovelace', 'Ada Lovelace'], ['Douglas Adams', undefined]]) {
      people.push((await s.post('/v1/entities/items', { item: { labels: fr ? { en, fr } : { en },
        statements: { [instanceOf]: [{ property: { id: instanceOf }, value: { type: 'value', content: human } }] } } })).body.id);
    }
    // The client reads what was committed before it asks once the engine has applied it.
    await (await fetch(`${s.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
  });
  after(async () => { await s?.close(); });

  it('runs a Query Service style query and reads the labelled rows', async () => {
    const script = [
      'import json',
      'from wikibaseintegrator.wbi_config import config as wbi_config',
      'from wikibaseintegrator.wbi_helpers import execute_sparql_query',
      `wbi_config['SPARQL_ENDPOINT_URL'] = '${s.url}/sparql'`,
      "wbi_config['USER_AGENT'] = 'entia-test/1.0'",
      `query = 'SELECT ?item ?itemLabel WHERE { ?item wdt:${instanceOf} wd:${human} . SERVICE wikibase:label { bd:serviceParam wikibase:language "fr,en". } } ORDER BY ?itemLabel'`,
      'result = execute_sparql_query(query, max_retries=3, retry_after=1)',
      "print(json.dumps([[b['item']['value'], b['itemLabel']['value']] for b in result['results']['bindings']]))",
    ].join('\n');
    const { stdout } = await run('python3', ['-c', script], { timeout: 60_000, env: { ...process.env, PYTHONPATH: PYTHON_CLIENTS } });
    assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1)!), [
      [`http://www.wikidata.org/entity/${people[0]}`, 'Ada Lovelace'],
      [`http://www.wikidata.org/entity/${people[1]}`, 'Douglas Adams'],
    ]);
  });
});

describe('WikibaseIntegrator edits Entia', { skip }, () => {
  let wiki: TestServer;
  let token: string;
  const properties: Record<string, string> = {};
  before(async () => {
    wiki = await startSecureServer({ editMode: 'token' });
    const auth = await addUser(wiki.store, 'Integrator', 'bot');
    token = auth.authorization.slice('Bearer '.length);
    for (const type of ['string', 'quantity', 'time', 'wikibase-item', 'external-id']) {
      properties[type] = (await wiki.post('/v1/entities/properties', { property: { data_type: type, labels: { en: `wbi ${type}` } } }, auth)).body.id;
    }
  });
  after(async () => { await wiki?.close(); });

  it('logs in, creates and edits items with claims, qualifiers and references, merges two, lists revisions', async () => {
    const p = (type: string) => properties[type];
    const script = [
      'import json',
      'from wikibaseintegrator import WikibaseIntegrator, wbi_login, wbi_helpers, datatypes',
      'from wikibaseintegrator.models import Qualifiers, References, Reference',
      'from wikibaseintegrator.wbi_config import config as wbi_config',
      `wbi_config['MEDIAWIKI_API_URL'] = '${wiki.url}/w/api.php'`,
      `wbi_config['WIKIBASE_URL'] = '${wiki.url}'`,
      "wbi_config['USER_AGENT'] = 'entia-test/1.0'",
      `login = wbi_login.Login(user='Integrator', password='${token}')`,
      'wbi = WikibaseIntegrator(login=login, is_bot=True)',
      'unit = wbi.item.new()',
      "unit.labels.set('en', 'wbi kilogram')",
      'unit = unit.write()',
      'item = wbi.item.new()',
      "item.labels.set('en', 'made by wbi')",
      "item.descriptions.set('en', 'an integrator item')",
      "item.aliases.set('en', ['wbi alias'])",
      'qualifiers = Qualifiers()',
      `qualifiers.add(datatypes.String(value='qualified', prop_nr='${p('string')}'))`,
      'references = References()',
      'reference = Reference()',
      `reference.add(datatypes.ExternalID(value='REF-1', prop_nr='${p('external-id')}'))`,
      'references.add(reference)',
      `item.claims.add(datatypes.String(value='hello', prop_nr='${p('string')}', qualifiers=qualifiers, references=references))`,
      `item.claims.add(datatypes.Quantity(amount=12, unit=unit.id, prop_nr='${p('quantity')}'))`,
      `item.claims.add(datatypes.Time(time='+1953-03-11T00:00:00Z', precision=11, prop_nr='${p('time')}'))`,
      `item.claims.add(datatypes.Item(value=unit.id, prop_nr='${p('wikibase-item')}'))`,
      "item = item.write(summary='created by wbi')",
      'again = wbi.item.get(item.id)',
      "again.labels.set('de', 'von WBI')",
      'again.write()',
      'duplicate = wbi.item.new()',
      "duplicate.labels.set('fr', 'doublon wbi')",
      'duplicate = duplicate.write()',
      'merged = wbi_helpers.merge_items(duplicate.id, item.id, login=login, is_bot=True)',
      "revisions = wbi_helpers.mediawiki_api_call_helper(data={'action': 'query', 'prop': 'revisions', 'titles': item.id, 'rvlimit': 'max'}, login=login, allow_anonymous=True)",
      "pages = revisions['query']['pages']",
      "print(json.dumps({'id': item.id, 'unit': unit.id, 'duplicate': duplicate.id, 'redirected': merged['redirected'],",
      "  'revisions': len(next(iter(pages.values()))['revisions'])}))",
    ].join('\n');
    const { stdout } = await run('python3', ['-c', script], { timeout: 120_000, env: { ...process.env, PYTHONPATH: PYTHON_CLIENTS } });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    const entity = (await wiki.get(`/v1/entities/items/${out.id}`)).body;
    assert.deepEqual([entity.labels, entity.descriptions.en, entity.aliases.en],
      [{ en: 'made by wbi', de: 'von WBI', fr: 'doublon wbi' }, 'an integrator item', ['wbi alias']]);
    const first = (type: string) => entity.statements[p(type)][0];
    assert.equal(first('string').value.content, 'hello');
    assert.equal(first('string').qualifiers[0].value.content, 'qualified');
    assert.equal(first('string').references[0].parts[0].value.content, 'REF-1');
    assert.equal(first('quantity').value.content.amount, '+12');
    assert.equal(first('quantity').value.content.unit, `${wiki.url}/entity/${out.unit}`);
    assert.equal(first('time').value.content.time, '+1953-03-11T00:00:00Z');
    assert.equal(first('wikibase-item').value.content, out.unit);
    assert.equal(out.redirected, 1);
    assert.equal((await wiki.get(`/v1/entities/items/${out.duplicate}`)).status, 308);
    const history = (await wiki.get(`/v1/entities/items/${out.id}/history`)).body.revisions;
    assert.equal(out.revisions, history.length);
    assert.ok(history.every((r: { user: string; bot: boolean }) => r.user === 'Integrator' && r.bot));
  });
});
