// GET of a whole entity serves its stored JSON text with only the sitelinks re-rendered (render.ts
// renderEntityJson, json-members.ts). It must give exactly the bytes of rendering the parsed entity, for any
// text the terms and values may hold: quotes, backslashes, braces, non-BMP characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Entity } from '../../src/domain/entity.js';
import { buildSiteTable } from '../../src/domain/sites.js';
import { topLevelMembers } from '../../src/domain/json-members.js';
import { renderEntity, renderEntityJson } from '../../src/domain/render.js';

const sites = buildSiteTable(undefined);
// Characters that matter to a JSON scanner, mixed with any others.
const tricky = fc.oneof(fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\\"', '"sitelinks":', '😀'), fc.string({ unit: 'grapheme' }));
const text = fc.array(tricky, { maxLength: 6 }).map((parts) => parts.join(''));
const termMap = fc.dictionary(fc.constantFrom('en', 'de', 'fr', 'zh', 'mul'), text);
const value = fc.jsonValue({ maxDepth: 3 });
const statement = fc.record({
  id: text, rank: fc.constantFrom('normal', 'preferred'),
  property: fc.record({ id: fc.constantFrom('P1', 'P2'), 'data-type': fc.constantFrom('string', 'quantity') }),
  value: fc.record({ type: fc.constant('value'), content: value }),
  qualifiers: fc.array(fc.record({ property: fc.record({ id: fc.constant('P3') }), value: fc.record({ content: value }) }), { maxLength: 2 }),
  references: fc.constant([]),
});
const sitelinks = fc.dictionary(fc.constantFrom('enwiki', 'dewiki', 'frwikivoyage', 'nosuchwiki'),
  fc.record({ title: text, badges: fc.array(fc.constantFrom('Q17437796', 'Q17437798'), { maxLength: 2 }) }));
const entity = fc.record({
  number: fc.integer({ min: 1, max: 1e9 }),
  type: fc.constantFrom('item', 'property'),
  data_type: fc.constantFrom('string', 'wikibase-item'),
  labels: termMap, descriptions: termMap, aliases: fc.dictionary(fc.constantFrom('en', 'de'), fc.array(text, { maxLength: 3 })),
  statements: fc.dictionary(fc.constantFrom('P1', 'P2'), fc.array(statement, { maxLength: 3 })),
  sitelinks,
}).map(({ number, type, data_type, sitelinks: links, ...rest }): Entity => (type === 'item'
  ? { id: `Q${number}`, type, ...rest, sitelinks: links } as unknown as Entity
  : { id: `P${number}`, type, data_type, ...rest } as unknown as Entity));

test('a stored document renders to the same bytes as the parsed entity', () => {
  fc.assert(fc.property(entity, fc.boolean(), (e, withDataType) => {
    const stored = JSON.stringify(e);
    assert.equal(renderEntityJson(stored, sites, withDataType), JSON.stringify(renderEntity(e, sites, withDataType)));
  }), { numRuns: 500 });
});

test('an item stored without sitelinks renders with an empty sitelinks object', () => {
  const json = JSON.stringify({ id: 'Q1', type: 'item', labels: { en: 'x' }, descriptions: {}, aliases: {}, statements: {} });
  assert.deepEqual(JSON.parse(renderEntityJson(json, sites, false)).sitelinks, {});
});

test('top-level members are found whatever the whitespace, and their values kept verbatim', () => {
  fc.assert(fc.property(fc.dictionary(text, value), fc.constantFrom(undefined, 1, 2, '\t'), (object, indent) => {
    const members = topLevelMembers(JSON.stringify(object, null, indent));
    assert.deepEqual([...members.keys()], Object.keys(object));
    // Through JSON both sides, as JSON has no -0.
    for (const [key, raw] of members) assert.deepEqual(JSON.parse(raw), JSON.parse(JSON.stringify(object[key])));
  }), { numRuns: 300 });
});

test('text that is not a JSON object is refused, not misread', () => {
  for (const bad of ['', '[]', '{"a":1', '{"a" 1}', '{"a":"x}', '{"a":1,}', '{"a":{"b":[1,2}']) {
    assert.throws(() => topLevelMembers(bad), SyntaxError, bad);
  }
});
