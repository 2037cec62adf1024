// Property constraints (src/domain/constraints/): each type with an entity that keeps it and one that breaks it,
// built from Wikidata's documented semantics (Help:Property constraints portal), with Wikidata's own ids; then
// exceptions, statuses and scopes, and a pattern that would backtrack for ever on a backtracking engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEntity, type Entity, type Snak, type Statement, type Value } from '../../src/domain/entity.js';
import { checkEntity, linksOf, type ConstraintLookup } from '../../src/domain/constraints/check.js';
import { constraintsOf } from '../../src/domain/constraints/model.js';
import { constraintVocabulary, WIKIDATA_CONSTRAINTS as V, type ConstraintType } from '../../src/domain/constraints/vocabulary.js';

const item = (value: string): Value => ({ type: 'value', content: value });
const text = (value: string): Value => ({ type: 'value', content: value });
const amount = (a: string, extra: Record<string, string> = {}): Value => ({ type: 'value', content: { amount: a, unit: '1', ...extra } });
const time = (t: string): Value => ({ type: 'value', content: { time: t, precision: 11, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' } });
const snak = (property: string, value: Value): Snak => ({ property: { id: property, 'data-type': null }, value });
let n = 0;
const st = (property: string, value: Value, extra: Partial<Statement> = {}): Statement =>
  ({ id: `Q0$${String(++n).padStart(8, '0')}-0000-0000-0000-000000000000`, rank: 'normal', property: { id: property, 'data-type': null }, value,
    qualifiers: [], references: [], ...extra });

/** An entity with these statements, grouped by property. */
function entity(id: string, statements: Statement[], extra: Partial<Entity> = {}): Entity {
  const grouped: Entity['statements'] = {};
  for (const s of statements) (grouped[s.property.id] ??= []).push(s);
  return { ...emptyEntity(id, id.startsWith('P') ? 'property' : 'item'), statements: grouped, ...extra };
}

/** The property `P1` with one constraint of `type` whose parameters are `qualifiers`. */
function constrained(type: ConstraintType, qualifiers: Snak[] = [], property = 'P1'): Entity {
  return entity(property, [st(V.properties.constraint, item(V.types[type]), { qualifiers })]);
}

function lookup(entities: Entity[], holders: Record<string, string[]> = {}): ConstraintLookup {
  const byId = new Map(entities.map((e) => [e.id, e]));
  return {
    async constraints(p) { const e = byId.get(p); return e ? constraintsOf(e, V) : []; },
    async links(id) { const e = byId.get(id); return e ? linksOf(e) : null; },
    async holders(p, key, except) { return (holders[`${p}:${key}`] ?? []).filter((h) => h !== except); },
  };
}

/** The messages of the violations `subject` has, given these other entities. */
async function broken(subject: Entity, others: Entity[], holders: Record<string, string[]> = {}): Promise<string[]> {
  return (await checkEntity(subject, lookup([subject, ...others], holders), V)).map((v) => `${v.constraint.type}: ${v.message}`);
}

const P = V.properties;

describe('constraint checks, a keeping and a breaking entity for each type', () => {
  const cases: { type: ConstraintType; params?: Snak[]; others?: Entity[]; keeps: Statement[]; breaks: Statement[]; subject?: Partial<Entity> }[] = [
    { type: 'single-value', keeps: [st('P1', text('a'))], breaks: [st('P1', text('a')), st('P1', text('b'))] },
    { type: 'multi-value', keeps: [st('P1', text('a')), st('P1', text('b'))], breaks: [st('P1', text('a'))] },
    { type: 'single-best-value', keeps: [st('P1', text('a'), { rank: 'preferred' }), st('P1', text('b'))], breaks: [st('P1', text('a')), st('P1', text('b'))] },
    { type: 'format', params: [snak(P.format, text('[1-9]\\d{3}'))], keeps: [st('P1', text('1234'))], breaks: [st('P1', text('01234'))] },
    { type: 'one-of', params: [snak(P.item, item('Q5')), snak(P.item, item('Q6'))], keeps: [st('P1', item('Q6'))], breaks: [st('P1', item('Q7'))] },
    { type: 'none-of', params: [snak(P.item, item('Q5'))], keeps: [st('P1', item('Q6'))], breaks: [st('P1', item('Q5'))] },
    { type: 'conflicts-with', params: [snak(P.property, item('P2'))], keeps: [st('P1', text('a'))], breaks: [st('P1', text('a')), st('P2', text('b'))] },
    { type: 'item-requires-statement', params: [snak(P.property, item('P2')), snak(P.item, item('Q5'))],
      keeps: [st('P1', text('a')), st('P2', item('Q5'))], breaks: [st('P1', text('a')), st('P2', item('Q6'))] },
    { type: 'value-requires-statement', params: [snak(P.property, item('P2'))], others: [entity('Q20', [st('P2', text('x'))]), entity('Q21', [])],
      keeps: [st('P1', item('Q20'))], breaks: [st('P1', item('Q21'))] },
    { type: 'type', params: [snak(P.class, item('Q5'))], others: [entity('Q15', [st(P.subclassOf, item('Q5'))]), entity('Q5', [])],
      keeps: [st('P1', text('a')), st(P.instanceOf, item('Q15'))], breaks: [st('P1', text('a')), st(P.instanceOf, item('Q16'))] },
    { type: 'value-type', params: [snak(P.class, item('Q5')), snak(P.relation, item(V.items.instanceOf))],
      others: [entity('Q30', [st(P.instanceOf, item('Q5'))]), entity('Q31', [st(P.instanceOf, item('Q6'))])],
      keeps: [st('P1', item('Q30'))], breaks: [st('P1', item('Q31'))] },
    { type: 'inverse', params: [snak(P.property, item('P2'))], others: [entity('Q40', [st('P2', item('Q100'))]), entity('Q41', [])],
      keeps: [st('P1', item('Q40'))], breaks: [st('P1', item('Q41'))] },
    { type: 'symmetric', others: [entity('Q50', [st('P1', item('Q100'))]), entity('Q51', [])], keeps: [st('P1', item('Q50'))], breaks: [st('P1', item('Q51'))] },
    { type: 'allowed-qualifiers', params: [snak(P.property, item('P3'))],
      keeps: [st('P1', text('a'), { qualifiers: [snak('P3', text('q'))] })], breaks: [st('P1', text('a'), { qualifiers: [snak('P4', text('q'))] })] },
    { type: 'mandatory-qualifier', params: [snak(P.property, item('P3'))],
      keeps: [st('P1', text('a'), { qualifiers: [snak('P3', text('q'))] })], breaks: [st('P1', text('a'))] },
    { type: 'range', params: [snak(P.minimumQuantity, amount('+0')), snak(P.maximumQuantity, amount('+10'))],
      keeps: [st('P1', amount('+5'))], breaks: [st('P1', amount('+11'))] },
    { type: 'difference-within-range', params: [snak(P.property, item('P2')), snak(P.minimumQuantity, amount('+0')), snak(P.maximumQuantity, amount('+150'))],
      keeps: [st('P1', time('+1980-01-01T00:00:00Z')), st('P2', time('+1900-01-01T00:00:00Z'))],
      breaks: [st('P1', time('+1890-01-01T00:00:00Z')), st('P2', time('+1900-01-01T00:00:00Z'))] },
    { type: 'allowed-units', params: [snak(P.item, item('Q11573'))],
      keeps: [st('P1', amount('+3', { unit: 'http://www.wikidata.org/entity/Q11573' }))], breaks: [st('P1', amount('+3'))] },
    { type: 'integer', keeps: [st('P1', amount('+3'))], breaks: [st('P1', amount('+3.5'))] },
    { type: 'no-bounds', keeps: [st('P1', amount('+3'))], breaks: [st('P1', amount('+3', { upperBound: '+4', lowerBound: '+2' }))] },
    { type: 'allowed-entity-types', params: [snak(P.item, item(V.items.wikibaseProperty))], keeps: [], breaks: [st('P1', text('a'))] },
    { type: 'property-scope', params: [snak(P.propertyScope, item(V.items.asQualifier))],
      keeps: [st('P9', text('a'), { qualifiers: [snak('P1', text('q'))] })], breaks: [st('P1', text('a'))] },
    { type: 'citation-needed', keeps: [st('P1', text('a'), { references: [{ hash: 'h', parts: [snak('P9', text('r'))] }] })], breaks: [st('P1', text('a'))] },
    { type: 'label-in-language', params: [snak(P.language, text('de'))], keeps: [st('P1', text('a'))], breaks: [st('P1', text('a'))],
      subject: { labels: { de: 'x' } } },
    // Born 1900, the value died in 1950 (keeps) or in 1850 (breaks): they must have existed at the same time.
    { type: 'contemporary', others: [entity('Q60', [st('P570', time('+1950-01-01T00:00:00Z'))]), entity('Q61', [st('P570', time('+1850-01-01T00:00:00Z'))])],
      keeps: [st('P1', item('Q60')), st('P569', time('+1900-01-01T00:00:00Z'))], breaks: [st('P1', item('Q61')), st('P569', time('+1900-01-01T00:00:00Z'))] },
  ];
  for (const c of cases) {
    it(c.type, async () => {
      const others = [constrained(c.type, c.params ?? []), ...(c.others ?? [])];
      const keeps = entity('Q100', c.keeps, c.subject);
      assert.deepEqual(await broken(keeps, others), [], 'the keeping entity');
      const breaks = entity('Q100', c.breaks);
      const messages = await broken(breaks, others);
      assert.ok(messages.length > 0 && messages.every((m) => m.startsWith(`${c.type}: `)), messages.join('\n'));
    });
  }

  it('distinct-values, through the holders of the value', async () => {
    const others = [constrained('distinct-values')];
    assert.deepEqual(await broken(entity('Q100', [st('P1', text('X-1'))]), others, { 'P1:X-1': ['Q100'] }), []);
    assert.deepEqual(await broken(entity('Q100', [st('P1', text('X-1'))]), others, { 'P1:X-1': ['Q100', 'Q7'] }),
      ['distinct-values: This value should be unique, but Q7 has it too.']);
  });
});

describe('exceptions, statuses, scopes and bounds', () => {
  it('skips an exception, says mandatory, suggestion or warning, and checks qualifiers only where the scope says', async () => {
    const property = entity('P1', [
      st(P.constraint, item(V.types['single-value']), { qualifiers: [snak(P.exception, item('Q101')), snak(P.status, item(V.items.mandatory))] }),
      st(P.constraint, item(V.types.format), { qualifiers: [snak(P.format, text('[a-z]+')), snak(P.status, item(V.items.suggestion))] }),
      st(P.constraint, item(V.types['none-of']), { qualifiers: [snak(P.item, item('Q5')), snak(P.scope, item(V.items.scopeQualifiers))] }),
    ]);
    const two = [st('P1', text('A')), st('P1', text('b'))];
    const statuses = async (e: Entity) => (await checkEntity(e, lookup([e, property]), V)).map((v) => [v.constraint.type, v.status, v.place]);
    assert.deepEqual(await statuses(entity('Q100', two)), [['single-value', 'violation', 'main'], ['format', 'suggestion', 'main'], ['single-value', 'violation', 'main']]);
    assert.deepEqual(await statuses(entity('Q101', two)), [['format', 'suggestion', 'main']], 'Q101 is an exception to single value');
    const qualified = entity('Q102', [st('P9', text('x'), { qualifiers: [snak('P1', item('Q5'))] }), st('P1', item('Q5'))]);
    assert.deepEqual(await statuses(qualified), [['format', 'suggestion', 'qualifier'], ['none-of', 'warning', 'qualifier'],
      ['format', 'suggestion', 'main']], 'format applies wherever P1 is used, none-of to qualifiers only');
    assert.deepEqual(await statuses(entity('Q103', [st('P1', text('a'), { rank: 'deprecated' })])), [], 'deprecated statements are not checked');
  });

  it('with a focus, runs only the checks an edit of those properties can change (enforce mode)', async () => {
    const conflicting = constrained('conflicts-with', [snak(P.property, item('P2'))]);
    const single = constrained('single-value', [], 'P3');
    const subject = entity('Q100', [st('P1', text('a')), st('P2', text('b')), st('P3', text('c')), st('P3', text('d'))]);
    const types = async (properties: string[]) => (await checkEntity(subject, lookup([subject, conflicting, single]), V,
      { properties: new Set(properties), terms: false })).map((v) => `${v.constraint.property} ${v.constraint.type}`);
    assert.deepEqual(await types(['P2']), ['P1 conflicts-with'], 'P1 reads P2: checked again; P3 is not');
    assert.deepEqual(await types(['P3']), ['P3 single-value', 'P3 single-value']);
    assert.deepEqual(await types([]), []);
  });

  it('checks a pattern that backtracks catastrophically elsewhere in linear time; an unusable one is bad-parameters', async () => {
    const evil = constrained('format', [snak(P.format, text('(a+)+$'))]);
    const started = process.hrtime.bigint();
    const result = await broken(entity('Q100', [st('P1', text(`${'a'.repeat(50_000)}!`))]), [evil]);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 1000, 'bounded time');
    assert.equal(result.length, 1);
    const lookaround = constrained('format', [snak(P.format, text('(?<=a)b'))]);
    const [v] = await checkEntity(entity('Q100', [st('P1', text('ab'))]), lookup([lookaround]), V);
    assert.equal(v.status, 'bad-parameters');
  });

  it('a knowledge base replaces any id of the vocabulary, and a wrong key is named', () => {
    const vocab = constraintVocabulary({ properties: { constraint: 'P7' }, types: { 'single-value': 'Q900' } });
    assert.equal(vocab.properties.constraint, 'P7');
    assert.equal(vocab.properties.exception, 'P2303');
    const own = entity('P1', [st('P7', item('Q900'))]);
    assert.deepEqual(constraintsOf(own, vocab).map((c) => c.type), ['single-value']);
    assert.throws(() => constraintVocabulary({ properties: { constrain: 'P7' } }), /unknown properties key "constrain"/);
    assert.throws(() => constraintVocabulary({ items: { mandatory: 'P1' } }), /items.mandatory must be an id/);
  });
});
