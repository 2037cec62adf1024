// Quantities as bot tools send them (issue #35): a unit named under the instance's own concept base
// (ENTIA_CONCEPT_URI) or under Wikidata's is accepted and stored as given, through the REST API and the Action
// API alike; `null` bounds, which Pywikibot always sends, mean no bounds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

const OWN = 'http://kb.example.org/entity/';
let s: TestServer;
let property: string;
let item: string;

before(async () => {
  s = await startServer({ config: { conceptUri: OWN } });
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'quantity', labels: { en: 'mass' } } })).body.id;
  item = (await s.post('/v1/entities/items', { item: { labels: { en: 'weighed' } } })).body.id;
});
after(async () => { await s.close(); });

const quantity = (unit: string) => ({ property: { id: property }, value: { type: 'value', content: { amount: '+5', unit } } });

describe('quantity units', () => {
  it('accepts a unit under the instance\'s concept base and under Wikidata\'s, each stored as given', async () => {
    for (const unit of [`${OWN}Q11573`, 'http://www.wikidata.org/entity/Q11573']) {
      const res = await s.post(`/v1/entities/items/${item}/statements`, { statement: quantity(unit) });
      assert.equal(res.status, 201, res.text);
      assert.equal((await s.get(`/v1/statements/${res.body.id}`)).body.value.content.unit, unit);
    }
  });

  it('refuses a unit under any other base, or that is not an item', async () => {
    for (const unit of ['http://other.example/entity/Q11573', `${OWN}P31`, `${OWN}Q0`, `${OWN}Q1/x`]) {
      const res = await s.post(`/v1/entities/items/${item}/statements`, { statement: quantity(unit) });
      assert.equal(res.status, 400, unit);
      assert.equal(res.body.code, 'invalid-value', unit);
    }
  });

  it('takes null bounds from the Action API as no bounds', async () => {
    const value = JSON.stringify({ amount: '+12', unit: `${OWN}Q11573`, upperBound: null, lowerBound: null });
    const res = await fetch(`${s.url}/w/api.php`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'wbcreateclaim', entity: item, property, snaktype: 'value', value, token: '+\\', format: 'json' }) });
    const body = await res.json() as any;
    assert.equal(body.success, 1, JSON.stringify(body));
    const stored = (await s.get(`/v1/statements/${body.claim.id}`)).body.value.content;
    assert.deepEqual(stored, { amount: '+12', unit: `${OWN}Q11573` });
  });
});
