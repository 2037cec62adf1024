// WMDE's generated `@wmde/wikibase-rest-api` package against a started Entia, configured only as its README says
// (an ApiClient with the `…/w/rest.php/wikibase` base and a User-Agent): create, read every part, edit, search,
// conditional requests; statements carry `data_type`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AliasesApi, ApiClient, DescriptionsApi, ItemSearchApi, ItemsApi, LabelsApi, PropertiesApi, SitelinksApi,
  StatementsApi } from '@wmde/wikibase-rest-api';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let client: any;
/**
 * The package hands back a JSON string body (a label, a description) as the JSON text itself, quotes included, as
 * it does against Wikidata (superagent leaves non-object JSON unparsed): read it as JSON.
 */
const jsonString = (v: unknown) => JSON.parse(v as string) as string;
before(async () => {
  s = await startServer();
  client = new ApiClient(`${s.url}/w/rest.php/wikibase`);
  client.defaultHeaders = { 'User-Agent': 'entia-tests/1.0' };
});
after(async () => { await s.close(); });

describe('@wmde/wikibase-rest-api against Entia', () => {
  it('creates, reads, edits and searches', async () => {
    const property = await new PropertiesApi(client).addProperty({ property: { data_type: 'external-id', labels: { en: 'wmde id' } } });
    assert.equal(property.data_type, 'external-id');
    const items = new ItemsApi(client);
    const item = await items.addItem({ item: { labels: { en: 'wmde client item' }, descriptions: { en: 'from WMDE\'s client' },
      aliases: { en: ['wci'] }, sitelinks: { enwiki: { title: 'WMDE client item' } } }, comment: 'made by the generated client' });
    const itemId = item.id;
    assert.match(itemId, /^Q\d+$/);
    const statements = new StatementsApi(client);
    const added = await statements.addItemStatement(itemId, { statement: { property: { id: property.id },
      value: { type: 'value', content: 'ext-1' } } });
    assert.equal(added.property.data_type, 'external-id');
    const read = await items.getItem(itemId);
    assert.equal(read.statements[property.id][0].property.data_type, 'external-id');
    assert.equal((await statements.getStatement(added.id)).value.content, 'ext-1');
    const labels = new LabelsApi(client);
    assert.equal(jsonString(await labels.getItemLabel(itemId, 'en')), 'wmde client item');
    assert.equal(jsonString(await labels.replaceItemLabel(itemId, 'fr', { label: 'objet client' })), 'objet client');
    assert.equal(jsonString(await new DescriptionsApi(client).getItemDescription(itemId, 'en')), 'from WMDE\'s client');
    assert.deepEqual(await new AliasesApi(client).getItemAliasesInLanguage(itemId, 'en'), ['wci']);
    assert.equal((await new SitelinksApi(client).getSitelink(itemId, 'enwiki')).title, 'WMDE client item');
    const found = await new ItemSearchApi(client).simpleItemSearch('wmde client', 'en');
    assert.equal(found.results[0].id, itemId);
  });

  it('passes If-Match through and reports a stale one as 412', async () => {
    const items = new ItemsApi(client);
    const item = await items.addItem({ item: { labels: { en: 'wmde conditional' } } });
    const labels = new LabelsApi(client);
    const stale = await labels.replaceItemLabel(item.id, 'en', { label: 'stale' }, { ifMatch: ['"1"'] }).then(() => null, (e: any) => e);
    assert.equal(stale?.status, 412);
    const etag = (await fetch(`${s.url}/w/rest.php/wikibase/v1/entities/items/${item.id}`)).headers.get('etag')!;
    assert.equal(jsonString(await labels.replaceItemLabel(item.id, 'en', { label: 'fresh' }, { ifMatch: [etag] })), 'fresh');
  });
});
