import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problemOf } from '../helpers/problems.js';
import {
  TERM_MAX_LENGTH, changedLanguages, normaliseTerm, parseAliasList, parseAliasMap, parseTermMap, sameLabelAndDescription, termRules,
} from '../../src/domain/terms.js';
import { ITEM, PROPERTY } from '../../src/domain/kinds.js';


test('normaliseTerm trims the PHP trim set and returns the trimmed value', () => {
  assert.equal(normaliseTerm('  potato \t\n\r\0\x0B', '/label'), 'potato');
  assert.equal(normaliseTerm('Jane M. Doe', '/label'), 'Jane M. Doe');
  assert.equal(normaliseTerm('K\u0061\u0308se', '/label'), 'Käse', 'NFC (docs/api.md §2.1)');
});

test('normaliseTerm: not a string is invalid with the raw value', () => {
  for (const value of [42, null, true, ['a'], { en: 'a' }, undefined]) {
    assert.deepEqual(problemOf(() => normaliseTerm(value, '/label')), { type: 'invalid', path: '/label', value });
  }
});

test('normaliseTerm: empty after trimming is invalid with value ""', () => {
  assert.deepEqual(problemOf(() => normaliseTerm('  \t ', '/labels/en')), { type: 'invalid', path: '/labels/en', value: '' });
  assert.deepEqual(problemOf(() => normaliseTerm('', '/label')), { type: 'invalid', path: '/label', value: '' });
});

test('normaliseTerm: longer than 250 code points is too-long', () => {
  assert.equal(TERM_MAX_LENGTH, 250);
  assert.equal(normaliseTerm('x'.repeat(250), '/label'), 'x'.repeat(250));
  assert.equal(normaliseTerm('😀'.repeat(250), '/label').length, 500, 'code points, not UTF-16 units');
  const long = ` ${'x'.repeat(251)} `;
  assert.deepEqual(problemOf(() => normaliseTerm(long, '/aliases/0')),
    { type: 'too-long', path: '/aliases/0', limit: 250, value: 'x'.repeat(251) });
});

test('normaliseTerm: tabs, line breaks and edge Unicode spaces are invalid (value after trimming)', () => {
  for (const bad of ['a\tb', 'a\nb', 'a\rb', 'a\fb', 'a\x0Bb', 'a\x85b', 'a\u2028b', 'a\u2029b', '\u00A0a', 'a\u3000']) {
    assert.deepEqual(problemOf(() => normaliseTerm(` ${bad} `, '/description')), { type: 'invalid', path: '/description', value: bad });
  }
  assert.equal(normaliseTerm('a\u00A0b', '/label'), 'a\u00A0b', 'inner NBSP is fine');
});

test('normaliseTerm: a property label may not be a property id', () => {
  assert.deepEqual(problemOf(() => normaliseTerm(' P123 ', '/label', termRules('labels', PROPERTY))),
    { type: 'invalid', path: '/label', value: 'P123' });
  assert.equal(normaliseTerm('P123', '/label'), 'P123', 'fine for items');
  assert.equal(normaliseTerm('Q123', '/label', termRules('labels', PROPERTY)), 'Q123');
  assert.equal(normaliseTerm('P0', '/label', termRules('labels', PROPERTY)), 'P0', 'not a valid id');
});

test('parseTermMap keeps insertion order and trims values', () => {
  const out = parseTermMap({ en: ' potato ', de: 'Kartoffel', mul: 'x' }, '/item/labels', 'labels', ITEM);
  assert.deepEqual(out, { en: 'potato', de: 'Kartoffel', mul: 'x' });
  assert.deepEqual(Object.keys(out), ['en', 'de', 'mul']);
});

test('parseTermMap: [] is {}; other non-objects are invalid at the map path', () => {
  assert.deepEqual(parseTermMap([], '/labels', 'labels', ITEM), {});
  for (const value of [['en'], 'en', 3, null]) {
    assert.deepEqual(problemOf(() => parseTermMap(value, '/labels', 'labels', ITEM)), { type: 'invalid', path: '/labels', value });
  }
});

test('parseTermMap: bad language key is invalid-key at the map path; descriptions reject mul', () => {
  assert.deepEqual(problemOf(() => parseTermMap({ en: 'a', 'en-GB': 'b' }, '', 'labels', ITEM)),
    { type: 'invalid-key', path: '', key: 'en-GB' });
  assert.deepEqual(problemOf(() => parseTermMap({ mul: 'a' }, '/descriptions', 'descriptions', PROPERTY)),
    { type: 'invalid-key', path: '/descriptions', key: 'mul' });
  assert.deepEqual(problemOf(() => parseTermMap(JSON.parse('{"__proto__": "a"}'), '/labels', 'labels', ITEM)),
    { type: 'invalid-key', path: '/labels', key: '__proto__' });
});

test('parseTermMap: values are checked at <path>/<lang>; property labels reject P-ids', () => {
  assert.deepEqual(problemOf(() => parseTermMap({ en: 'ok', de: ' ' }, '/item/labels', 'labels', ITEM)),
    { type: 'invalid', path: '/item/labels/de', value: '' });
  assert.deepEqual(problemOf(() => parseTermMap({ en: 'P31' }, '/labels', 'labels', PROPERTY)),
    { type: 'invalid', path: '/labels/en', value: 'P31' });
  assert.deepEqual(parseTermMap({ en: 'P31' }, '/descriptions', 'descriptions', PROPERTY), { en: 'P31' });
  assert.deepEqual(parseTermMap({ en: 'P31' }, '/labels', 'labels', ITEM), { en: 'P31' });
});

test('parseAliasList drops duplicates after trimming, first kept', () => {
  assert.deepEqual(parseAliasList(['spud', 'tater', ' spud '], '/aliases'), ['spud', 'tater']);
});

test('parseAliasList: empty array or non-array is invalid at the list path', () => {
  for (const value of [[], 'spud', { 0: 'a' }, null]) {
    assert.deepEqual(problemOf(() => parseAliasList(value, '/aliases/en')), { type: 'invalid', path: '/aliases/en', value });
  }
});

test('parseAliasList: each alias is checked at <path>/<index>', () => {
  assert.deepEqual(problemOf(() => parseAliasList(['ok', 5], '/aliases')), { type: 'invalid', path: '/aliases/1', value: 5 });
  assert.deepEqual(problemOf(() => parseAliasList(['ok', '  '], '/en')), { type: 'invalid', path: '/en/1', value: '' });
  assert.deepEqual(problemOf(() => parseAliasList(['x'.repeat(251)], '/aliases')),
    { type: 'too-long', path: '/aliases/0', limit: 250, value: 'x'.repeat(251) });
});

test('parseAliasMap: mul allowed, bad keys invalid-key, lists checked per language', () => {
  assert.deepEqual(parseAliasMap({ en: ['spud', 'tater', 'spud'], mul: ['x'] }, '/item/aliases'),
    { en: ['spud', 'tater'], mul: ['x'] });
  assert.deepEqual(parseAliasMap([], ''), {});
  assert.deepEqual(problemOf(() => parseAliasMap('x', '')), { type: 'invalid', path: '', value: 'x' });
  assert.deepEqual(problemOf(() => parseAliasMap({ xyz: ['a'] }, '/aliases')), { type: 'invalid-key', path: '/aliases', key: 'xyz' });
  assert.deepEqual(problemOf(() => parseAliasMap({ en: [] }, '')), { type: 'invalid', path: '/en', value: [] });
  assert.deepEqual(problemOf(() => parseAliasMap({ en: ['a', ''] }, '/aliases')), { type: 'invalid', path: '/aliases/en/1', value: '' });
});

test('changedLanguages lists added, changed and removed languages', () => {
  assert.deepEqual(changedLanguages({ en: 'a', de: 'b', fr: 'c' }, { en: 'a', de: 'B', it: 'd' }), ['de', 'it', 'fr']);
  assert.deepEqual(changedLanguages({ en: 'a' }, { en: 'a' }), []);
  assert.deepEqual(changedLanguages({ en: ['a', 'b'] }, { en: ['a', 'b'] }), [], 'alias lists compared by value');
  assert.deepEqual(changedLanguages({ en: ['a', 'b'] }, { en: ['b', 'a'] }), ['en']);
  assert.deepEqual(changedLanguages({}, { en: 'a' }), ['en']);
});

test('sameLabelAndDescription finds the first listed language where both are equal', () => {
  const labels = { en: 'potato', de: 'Kartoffel', fr: 'pomme' };
  const descriptions = { en: 'potato', de: 'Kartoffel', fr: 'légume' };
  assert.equal(sameLabelAndDescription(labels, descriptions, ['fr', 'de', 'en']), 'de');
  assert.equal(sameLabelAndDescription(labels, descriptions, ['fr']), null);
  assert.equal(sameLabelAndDescription(labels, descriptions, ['it']), null, 'neither present');
  assert.equal(sameLabelAndDescription({ en: 'Potato' }, { en: 'potato' }, ['en']), null, 'case-sensitive');
  assert.equal(sameLabelAndDescription({}, {}, ['constructor']), null);
});
