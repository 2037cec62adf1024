// The real `wikibase-rest-api-ts` package against a started Entia, configured only as its README says (basePath
// `…/w/rest.php/wikibase`): create, read every part, edit, conditional requests; statements come back with their
// `dataType`, which Wikibase clients read from `data_type`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AliasesApi, Configuration, DescriptionsApi, ItemsApi, LabelsApi, PropertiesApi, ResponseError, SitelinksApi,
  StatementsApi } from 'wikibase-rest-api-ts';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let config: Configuration;
before(async () => {
  s = await startServer();
  config = new Configuration({ basePath: `${s.url}/w/rest.php/wikibase` });
});
after(async () => { await s.close(); });

describe('wikibase-rest-api-ts against Entia', () => {
  it('creates, reads and edits items, properties, terms, statements and sitelinks', async () => {
    const property = await new PropertiesApi(config).addProperty({ addPropertyRequest: { property: {
      dataType: 'string', labels: { en: 'client property' } } as never } });
    assert.match(property.id!, /^P\d+$/);
    assert.equal(property.dataType, 'string');

    const items = new ItemsApi(config);
    const item = await items.addItem({ addItemRequest: { item: { labels: { en: 'client item' }, descriptions: { en: 'made by a client' },
      aliases: { en: ['ci'] }, sitelinks: { enwiki: { title: 'Client item' } } } as never, comment: 'from the client' } });
    assert.match(item.id!, /^Q\d+$/);
    const itemId = item.id!;

    const statements = new StatementsApi(config);
    const added = await statements.addItemStatement({ itemId, addItemStatementRequest: { statement: {
      property: { id: property.id! }, value: { type: 'value', content: 'a value' } } as never } });
    assert.equal(added.property?.dataType, 'string', 'dataType read from data_type');

    const read = await items.getItem({ itemId });
    assert.equal(read.labels?.en, 'client item');
    // The package passes an item's statements through as the server sent them: upstream's spelling.
    const raw = read.statements as Record<string, { property: Record<string, unknown> }[]>;
    assert.equal(raw[property.id!][0].property.data_type, 'string');
    assert.equal(read.sitelinks?.enwiki?.title, 'Client item');
    const all = await statements.getItemStatements({ itemId });
    assert.equal(all[property.id!][0].value?.content, 'a value');
    const one = await statements.getStatement({ statementId: added.id! });
    assert.equal(one.property?.dataType, 'string');

    const labels = new LabelsApi(config);
    assert.equal(await labels.getItemLabel({ itemId, languageCode: 'en' }), 'client item');
    assert.equal(await labels.replaceItemLabel({ itemId, languageCode: 'de', replaceItemLabelRequest: { label: 'Kunde' } }), 'Kunde');
    assert.equal(await new DescriptionsApi(config).getItemDescription({ itemId, languageCode: 'en' }), 'made by a client');
    assert.deepEqual(await new AliasesApi(config).getItemAliasesInLanguage({ itemId, languageCode: 'en' }), ['ci']);
    assert.equal((await new SitelinksApi(config).getSitelink({ itemId, siteId: 'enwiki' })).title, 'Client item');
  });

  it('makes conditional requests and reads errors', async () => {
    const items = new ItemsApi(config);
    const item = await items.addItem({ addItemRequest: { item: { labels: { en: 'conditional' } } as never } });
    const raw = await items.getItemRaw({ itemId: item.id! });
    const etag = raw.raw.headers.get('etag')!;
    const labels = new LabelsApi(config);
    await assert.rejects(labels.replaceItemLabel({ itemId: item.id!, languageCode: 'en', replaceItemLabelRequest: { label: 'stale' },
      ifMatch: ['"1"'] }), (e: unknown) => e instanceof ResponseError && e.response.status === 412);
    assert.equal(await labels.replaceItemLabel({ itemId: item.id!, languageCode: 'en', replaceItemLabelRequest: { label: 'fresh' },
      ifMatch: [etag] }), 'fresh');
    const missing = await items.getItem({ itemId: 'Q999999999' }).then(() => null, (e: unknown) => e);
    assert.ok(missing instanceof ResponseError);
    assert.equal(missing.response.status, 404);
    // Upstream's code and context under its base path (docs/api.md §1.1, D5).
    assert.deepEqual(await missing.response.json(),
      { code: 'resource-not-found', message: 'The requested resource does not exist', context: { resource_type: 'item' } });
  });
});
