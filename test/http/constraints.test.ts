// Property constraints over real HTTP, on the test backend (docs/api.md §10.18): a knowledge base with its own ids
// states constraints as Wikidata does (ENTIA_CONSTRAINTS_FILE's vocabulary), the REST route and wbcheckconstraints
// report what entities break, enforce mode refuses an edit that adds a mandatory violation and writes nothing,
// and off mode checks nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { constraintVocabulary } from '../../src/domain/constraints/vocabulary.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { snapshot } from '../helpers/secure.js';

/** The ids a fresh store gives the vocabulary's entities, created in this order by `setUp`. */
const VOCABULARY = constraintVocabulary({
  properties: { constraint: 'P1', status: 'P2', format: 'P3', property: 'P4', exception: 'P5' },
  types: { 'single-value': 'Q1', format: 'Q2', 'distinct-values': 'Q3', 'item-requires-statement': 'Q4' },
  items: { mandatory: 'Q5' },
});
const CODE = 'P6';
const NOTE = 'P7';

const value = (content: string) => ({ type: 'value', content });
const statement = (property: string, content: string, qualifiers: unknown[] = []) =>
  ({ property: { id: property }, value: value(content), qualifiers });

/** The vocabulary's properties and items, then P6 (a code) with four constraints and P7 (a note). */
async function setUp(s: TestServer): Promise<void> {
  const created: string[] = [];
  for (const [type, label] of [['wikibase-item', 'property constraint'], ['wikibase-item', 'constraint status'], ['string', 'format as a regular expression'],
    ['wikibase-property', 'property'], ['wikibase-item', 'exception to constraint'], ['external-id', 'code'], ['string', 'note']]) {
    created.push((await s.post('/v1/entities/properties', { property: { data_type: type, labels: { en: label } } })).body.id);
  }
  for (const label of ['single-value constraint', 'format constraint', 'distinct-values constraint', 'item-requires-statement constraint', 'mandatory constraint']) {
    created.push((await s.post('/v1/entities/items', { item: { labels: { en: label } } })).body.id);
  }
  assert.deepEqual(created, ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'Q1', 'Q2', 'Q3', 'Q4', 'Q5'], 'a fresh store numbers from 1');
  for (const constraint of [
    statement('P1', 'Q1', [{ property: { id: 'P2' }, value: value('Q5') }]),
    statement('P1', 'Q2', [{ property: { id: 'P3' }, value: value('[0-9]+') }]),
    statement('P1', 'Q3'),
    statement('P1', 'Q4', [{ property: { id: 'P4' }, value: value(NOTE) }]),
  ]) {
    const res = await s.post(`/v1/entities/properties/${CODE}/statements`, { statement: constraint });
    assert.equal(res.status, 201, res.text);
  }
}

async function item(s: TestServer, statements: { property: { id: string } }[]): Promise<{ status: number; id: string; body: any }> {
  const grouped: Record<string, unknown[]> = {};
  for (const st of statements) (grouped[st.property.id] ??= []).push(st);
  const res = await s.post('/v1/entities/items', { item: { statements: grouped } });
  return { status: res.status, id: res.body.id, body: res.body };
}

describe('constraint reports', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ config: { constraints: 'report', constraintVocabulary: VOCABULARY } });
    await setUp(s);
  });
  after(async () => { await s.close(); });

  it('lists what each entity breaks, with the constraint, its status and the statement', async () => {
    const kept = await item(s, [statement(CODE, '123'), statement(NOTE, 'x')]);
    const duplicate = await item(s, [statement(CODE, '123'), statement(NOTE, 'y')]);
    const broken = await item(s, [statement(CODE, '12a'), statement(CODE, '456')]);
    const report = async (id: string) => (await s.get(`/v1/entities/items/${id}/constraint-violations`)).body.violations as any[];
    assert.deepEqual((await report(kept.id)).map((v) => v.constraint.type), ['distinct-values'], 'the duplicate made the first one break it too');
    const [unique] = await report(duplicate.id);
    assert.equal(unique.message, `This value should be unique, but ${kept.id} has it too.`);
    assert.equal(unique.status, 'warning');
    const found = (await report(broken.id)).map((v) => [v.constraint.type, v.status, v.statement_id === broken.body.statements[CODE][0].id ? 0 : 1]);
    assert.deepEqual(found, [
      ['single-value', 'violation', 0], ['format', 'warning', 0], ['item-requires-statement', 'warning', 0],
      ['single-value', 'violation', 1], ['item-requires-statement', 'warning', 1],
    ]);
    const first = (await report(broken.id))[0];
    assert.deepEqual(first.constraint, { id: (await s.get(`/v1/entities/properties/${CODE}`)).body.statements.P1[0].id,
      type: 'single-value', type_item: 'Q1', property_id: CODE });
    assert.equal((await s.get('/v1/entities/items/Q999999/constraint-violations')).status, 404);
  });

  it('answers wbcheckconstraints as WikibaseQualityConstraints does, filtered by status', async () => {
    const broken = await item(s, [statement(CODE, '9x', [])]);
    const url = `${s.url}/w/api.php?action=wbcheckconstraints&format=json&id=${broken.id}`;
    const body = await (await fetch(url)).json() as any;
    assert.equal(body.success, 1);
    const [claim] = body.wbcheckconstraints[broken.id].claims[CODE];
    assert.equal(claim.id, broken.body.statements[CODE][0].id);
    assert.match(claim.mainsnak.hash, /^[0-9a-f]{40}$/);
    assert.deepEqual(claim.mainsnak.results.map((r: any) => [r.status, r.constraint.type]), [['warning', 'Q2'], ['warning', 'Q4']]);
    assert.match(claim.mainsnak.results[0]['message-html'], /should match the format \[0-9\]\+/);
    const onlyViolations = await (await fetch(`${url}&status=violation`)).json() as any;
    assert.deepEqual(onlyViolations.wbcheckconstraints[broken.id].claims, {});
    const many = await (await fetch(`${url}&constraintid=${Array.from({ length: 51 }, (_, i) => `P6$${i}`).join('|')}`)).json() as any;
    assert.equal(many.error.code, 'toomanyvalues');
  });
});

describe('constraints enforced, and off', () => {
  it('enforce: refuses an edit that adds a mandatory violation and writes nothing; warnings pass', async () => {
    const s = await startServer({ config: { constraints: 'enforce', constraintVocabulary: VOCABULARY } });
    try {
      await setUp(s);
      const one = await item(s, [statement(CODE, '1'), statement(NOTE, 'n')]);
      assert.equal(one.status, 201, JSON.stringify(one.body));
      const before = await snapshot(s.store);
      const second = await s.post(`/v1/entities/items/${one.id}/statements`, { statement: statement(CODE, '2') });
      assert.equal(second.status, 422, second.text);
      assert.equal(second.body.code, 'constraint-violation');
      assert.equal(second.body.context.constraint_type, 'single-value');
      assert.equal(second.body.context.property_id, CODE);
      assert.equal(await snapshot(s.store), before);
      const creation = await item(s, [statement(CODE, '3'), statement(CODE, '4')]);
      assert.deepEqual([creation.status, creation.body.code], [422, 'constraint-violation']);
      // Breaking only a constraint without the mandatory status (format, item requires statement) is allowed.
      assert.equal((await item(s, [statement(CODE, 'abc')])).status, 201);
    } finally {
      await s.close();
    }
  });

  it('off: the report says checks are off', async () => {
    const s = await startServer({ config: { constraints: 'off' } });
    try {
      const id = (await s.post('/v1/entities/items', { item: { labels: { en: 'unchecked' } } })).body.id;
      const res = await s.get(`/v1/entities/items/${id}/constraint-violations`);
      assert.deepEqual([res.status, res.body.code], [404, 'constraint-checks-off']);
    } finally {
      await s.close();
    }
  });
});
