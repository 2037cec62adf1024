// WikibaseIntegrator's execute_sparql_query (shared/clients/python, no install step) against Entia's /sparql,
// configured only as its documentation says: `wbi_config['SPARQL_ENDPOINT_URL']`. It POSTs the query in the URL
// with an empty multipart body and reads the JSON results; the label service fills labels as on Wikidata.
// Skips with its reason where Python or the clients are absent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { PYTHON_CLIENTS, pythonClientSkip } from '../helpers/python-clients.js';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitForSparql } from '../helpers/sparql.js';

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
