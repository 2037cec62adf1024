// wikibase-cli (npm) against Entia's /sparql, configured as its documentation says (`--sparql-endpoint`):
// `wb sparql` runs a query file and `wb query` builds a query from its options; both read Entia's results as
// they read the Query Service's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitForSparql } from '../helpers/sparql.js';

const run = promisify(execFile);
const WB = new URL('../../node_modules/.bin/wb', import.meta.url).pathname;

let s: TestServer;
let dir: string;
let instanceOf: string;
let human: string;
let people: string[];

/** `wb` with a home of its own, so that no user's wikibase-cli config is read or written. */
const wb = async (args: string[]) => (await run(WB, [...args, '--sparql-endpoint', `${s.url}/sparql`],
  { timeout: 60_000, env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir } })).stdout;

describe('wikibase-cli against Entia', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'entia-wb-'));
    s = await startServer({ config: { sparql: 'full' } });
    await waitForSparql(s);
    instanceOf = (await s.post('/v1/entities/properties', { property: { data_type: 'wikibase-item' } })).body.id;
    human = (await s.post('/v1/entities/items', { item: { labels: { en: 'human' } } })).body.id;
    people = [];
    for (const name of ['Ada Lovelace', 'Douglas Adams', 'Grace Hopper']) {
      people.push((await s.post('/v1/entities/items', { item: { labels: { en: name },
        statements: { [instanceOf]: [{ property: { id: instanceOf }, value: { type: 'value', content: human } }] } } })).body.id);
    }
    await (await fetch(`${s.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wb sparql runs a query file, simplified and raw', async () => {
    const file = join(dir, 'people.rq');
    writeFileSync(file, `SELECT ?item ?name WHERE { ?item wdt:${instanceOf} wd:${human} ; rdfs:label ?name } ORDER BY ?name`);
    const simplified = JSON.parse(await wb(['sparql', file]));
    assert.deepEqual(simplified, [
      { item: people[0], name: 'Ada Lovelace' }, { item: people[1], name: 'Douglas Adams' }, { item: people[2], name: 'Grace Hopper' }]);
    const raw = JSON.parse(await wb(['sparql', file, '--raw']));
    assert.deepEqual(raw.head.vars, ['item', 'name']);
    assert.equal(raw.results.bindings[0].item.value, `http://www.wikidata.org/entity/${people[0]}`);
  });

  it('wb query finds the subjects of a property and value', async () => {
    const ids = (await wb(['query', '--property', instanceOf, '--object', human])).trim().split('\n');
    assert.deepEqual(ids.sort(), [...people].sort());
  });
});
