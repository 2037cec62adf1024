import { test } from 'node:test';
import assert from 'node:assert/strict';
import data from '../../src/domain/languages.json' with { type: 'json' };
import { TERM_LANGUAGES, fallbackChain, isMonolingualLanguage, isTermLanguage } from '../../src/domain/languages.js';

test('the data file carries Appendix A and B', () => {
  assert.equal(data.termLanguages.length, new Set(data.termLanguages).size, 'no duplicate codes');
  assert.deepEqual(TERM_LANGUAGES, data.termLanguages);
  for (const code of ['en', 'de-ch', 'pt-br', 'zh-tw', 'mul', 'simple', 'be-x-old', 'zh-min-nan']) {
    assert.ok(data.termLanguages.includes(code), code);
  }
  assert.deepEqual(data.fallbacks['de-ch'], ['de']);
  assert.deepEqual(data.fallbacks['zh-mo'], ['zh-hk', 'zh-hant', 'zh-hans']);
});

test('every fallback, variant and exclusion names a term language', () => {
  const known = new Set(data.termLanguages);
  for (const [code, targets] of Object.entries(data.fallbacks)) {
    for (const c of [code, ...targets]) assert.ok(known.has(c), `${code} > ${c}`);
  }
  for (const [base, members] of Object.entries(data.variants)) {
    for (const c of [base, ...members]) assert.ok(known.has(c), `variant ${c}`);
  }
  for (const c of data.monolingualExcluded) assert.ok(known.has(c), `excluded ${c}`);
});

test('isTermLanguage: exact match; mul only for labels and aliases', () => {
  assert.ok(isTermLanguage('en', 'labels'));
  assert.ok(isTermLanguage('en-gb', 'descriptions'));
  for (const bad of ['xyz', '1e', 'invalidLanguageCode', 'not_a_language', 'en-GB', '', 'EN', 'constructor']) {
    assert.equal(isTermLanguage(bad, 'labels'), false, bad);
  }
  assert.ok(isTermLanguage('mul', 'labels'));
  assert.ok(isTermLanguage('mul', 'aliases'));
  assert.equal(isTermLanguage('mul', 'descriptions'), false);
  assert.equal(isTermLanguage('mul', 'search'), false);
});

test('isMonolingualLanguage drops mul, deprecated and formal codes', () => {
  assert.ok(isMonolingualLanguage('en'));
  assert.ok(isMonolingualLanguage('de-ch'));
  for (const code of ['mul', 'simple', 'be-x-old', 'zh-min-nan', 'de-formal', 'nl-informal', 'xyz']) {
    assert.equal(isMonolingualLanguage(code), false, code);
  }
});

test('fallbackChain follows Appendix B, then mul, then en', () => {
  assert.deepEqual(fallbackChain('de-ch', 'labels'), ['de-ch', 'de', 'mul', 'en']);
  assert.deepEqual(fallbackChain('pt-br', 'labels'), ['pt-br', 'pt', 'mul', 'en']);
  assert.deepEqual(fallbackChain('pt', 'labels'), ['pt', 'pt-br', 'mul', 'en']);
  assert.deepEqual(fallbackChain('arz', 'labels'), ['arz', 'ar', 'mul', 'en']);
  assert.deepEqual(fallbackChain('als', 'labels'), ['als', 'gsw', 'de', 'mul', 'en']);
  assert.deepEqual(fallbackChain('ko', 'labels'), ['ko', 'mul', 'en'], 'no fallback');
  assert.deepEqual(fallbackChain('en', 'labels'), ['en', 'mul'], 'en is not repeated');
  assert.deepEqual(fallbackChain('mul', 'labels'), ['mul', 'en']);
});

test('fallbackChain is transitive: each fallback brings its own fallbacks', () => {
  // ab > ru; bat-smg > sgs, lt and sgs > lt; ruq > ruq-latn, ro and ruq-latn > ro.
  assert.deepEqual(fallbackChain('bat-smg', 'labels'), ['bat-smg', 'sgs', 'lt', 'mul', 'en']);
  assert.deepEqual(fallbackChain('ruq', 'labels'), ['ruq', 'ruq-latn', 'ro', 'mul', 'en']);
  assert.deepEqual(fallbackChain('be-x-old', 'labels'), ['be-x-old', 'be-tarask', 'mul', 'en']);
});

test('fallbackChain inserts script variants after the code (docs/api.md §9.3)', () => {
  assert.deepEqual(fallbackChain('zh-tw', 'labels'), [
    'zh-tw', 'zh-hant', 'zh-hans', 'zh', 'zh-cn', 'zh-hk', 'zh-sg', 'zh-mo', 'zh-my', 'mul', 'en',
  ]);
  assert.deepEqual(fallbackChain('zh', 'labels').slice(0, 3), ['zh', 'zh-hans', 'zh-hant']);
  assert.deepEqual(fallbackChain('sr-el', 'labels'), ['sr-el', 'sr', 'sr-ec', 'mul', 'en']);
  const kk = fallbackChain('kk', 'labels');
  assert.deepEqual(kk.slice(0, 2), ['kk', 'kk-cyrl']);
  for (const v of ['kk-latn', 'kk-arab', 'kk-kz', 'kk-tr', 'kk-cn']) assert.ok(kk.includes(v), v);
  // A fallback is followed by its variants: ii > zh-cn brings the other zh codes.
  const ii = fallbackChain('ii', 'labels');
  assert.deepEqual(ii.slice(0, 3), ['ii', 'zh-cn', 'zh-hans']);
  assert.ok(ii.includes('zh-tw'));
});

test('descriptions and search chains never contain mul', () => {
  assert.deepEqual(fallbackChain('de-ch', 'descriptions'), ['de-ch', 'de', 'en']);
  assert.deepEqual(fallbackChain('de-ch', 'search'), ['de-ch', 'de', 'en']);
  assert.deepEqual(fallbackChain('de-ch', 'aliases'), ['de-ch', 'de', 'mul', 'en']);
});

test('every chain of every language holds only valid, distinct codes and ends with en', () => {
  for (const code of data.termLanguages) {
    for (const use of ['labels', 'descriptions'] as const) {
      const chain = fallbackChain(code, use);
      assert.equal(new Set(chain).size, chain.length, `${code} distinct`);
      assert.ok(chain.every((c) => isTermLanguage(c, use)), `${code} valid for ${use}`);
      assert.equal(chain.at(-1), code === 'en' ? (use === 'labels' ? 'mul' : 'en') : 'en', code);
    }
  }
});

test('an invalid code drops out of its own chain and the result is not shared', () => {
  assert.deepEqual(fallbackChain('xyz', 'labels'), ['mul', 'en']);
  const chain = fallbackChain('de', 'labels');
  chain.push('tampered');
  assert.deepEqual(fallbackChain('de', 'labels'), ['de', 'mul', 'en']);
});
