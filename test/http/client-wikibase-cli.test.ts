// wikibase-cli (npm) against Entia, configured as its documentation says: against /sparql (`--sparql-endpoint`),
// `wb sparql` runs a query file and `wb query` builds a query from its options, both read as the Query Service's
// results; against the wiki (`instance` and `credentials` in its config file, a BotPassword-style password that is
// an Entia token), `wb` creates, edits, lists revisions and merges, each result read back over REST.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser, startSecureServer } from '../helpers/secure.js';
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

describe('wikibase-cli edits Entia', () => {
  let wiki: TestServer;
  let home: string;
  const edit = async (args: string[]) => (await run(WB, args, { timeout: 60_000,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, WB_CONFIG: join(home, 'wb.json') } })).stdout;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'entia-wb-edit-'));
    wiki = await startSecureServer({ editMode: 'token' });
    const token = (await addUser(wiki.store, 'Cli')).authorization.slice('Bearer '.length);
    // wikibase-cli's config file, as `wb config` writes it: the instance, and credentials for it.
    writeFileSync(join(home, 'wb.json'), JSON.stringify({ instance: wiki.url, credentials: { [wiki.url]: { username: 'Cli', password: token } } }),
      { mode: 0o600 });
  });
  after(async () => {
    await wiki?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('creates an item, adds a quantity with a unit, lists its revisions and merges a duplicate into it', async () => {
    const mass = JSON.parse(await edit(['create-entity', JSON.stringify({ type: 'property', datatype: 'quantity', labels: { en: 'cli mass' } })])).entity.id;
    const kilogram = JSON.parse(await edit(['create-entity', JSON.stringify({ labels: { en: 'cli kilogram' } })])).entity.id;
    const item = JSON.parse(await edit(['create-entity', JSON.stringify({ labels: { en: 'made by wb' }, descriptions: { en: 'cli item' } })])).entity.id;
    await edit(['add-claim', item, mass, JSON.stringify({ amount: 12, unit: kilogram })]);
    const duplicate = JSON.parse(await edit(['create-entity', JSON.stringify({ labels: { de: 'von wb' } })])).entity.id;
    const merged = JSON.parse(await edit(['merge-entity', duplicate, item]));
    assert.deepEqual([merged.success, merged.from.id, merged.to.id], [1, duplicate, item]);
    const read = (await wiki.get(`/v1/entities/items/${item}`)).body;
    assert.equal(read.labels.de, 'von wb');
    const quantity = read.statements[mass][0].value.content;
    assert.equal(quantity.amount, '+12');
    assert.match(quantity.unit, new RegExp(`/entity/${kilogram}$`));
    // One JSON line per page, its revisions newest first, as MediaWiki's prop=revisions gives them.
    const [page] = (await edit(['revisions', item])).trim().split('\n').map((line) => JSON.parse(line));
    const revisions = page.revisions as { revid: number; user: string; comment: string }[];
    const history = (await wiki.get(`/v1/entities/items/${item}/history`)).body.revisions;
    assert.equal(page.title, item);
    assert.deepEqual(revisions.map((r) => r.revid), history.map((r: { id: number }) => r.id));
    assert.match(revisions[0].comment, new RegExp(`wbmergeitems-from:0\\|\\|${duplicate}`));
    assert.ok(revisions.every((r) => r.user === 'Cli'));
  });
});
