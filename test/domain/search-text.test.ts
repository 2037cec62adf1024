// Text folding, tokenisation and match tiers of search (src/search/): the rules both the index and the query use.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchKeys, rankOf } from '../../src/search/index-keys.js';
import { searchLanguages } from '../../src/search/languages.js';
import { isDecidedByToken, parseText, requiredTokens, tierOf } from '../../src/search/query.js';
import { foldText, indexTokens, wordsOf } from '../../src/search/text.js';
import { emptyEntity } from '../../src/domain/entity.js';

describe('foldText', () => {
  const cases: [string, string][] = [
    ['Zürich', 'zurich'],
    ['Ka\u0308se', 'kase'],
    ['ZÜRICH', 'zurich'],
    ['Straße', 'strasse'],
    ['İstanbul', 'istanbul'],
    ['Ὀδυσσεύς', 'οδυσσευσ'],
    ['Ёлка', 'елка'],
    ['مُحَمَّد', 'محمد'],
    ['שָׁלוֹם', 'שלום'],
    ['ﬁne', 'fine'],
    ['Ｔｏｋｙｏ', 'tokyo'],
    ['  New \u00a0 York\u3000City ', 'new york city'],
    ['東京都', '東京都'],
    ['ガス', 'ガス'],
    ['서울', '서울'],
    ['हिन्दी', 'हिन्दी'],
  ];
  for (const [input, folded] of cases) it(`${input} → ${folded}`, () => assert.equal(foldText(input), folded));
});

describe('words and tokens', () => {
  it('splits on anything that is not a letter, digit or mark', () => {
    assert.deepEqual(wordsOf(foldText("O'Brien-Smith (2nd)")), ['o', 'brien', 'smith', '2nd']);
    assert.deepEqual(wordsOf(foldText('Москва-река')), ['москва', 'река']);
    assert.deepEqual(wordsOf(foldText('القاهرة الكبرى')), ['القاهرة', 'الكبرى']);
  });

  it('keeps a CJK run apart from Latin letters and indexes it as unigrams and bigrams', () => {
    assert.deepEqual(wordsOf('abc東京def'), ['abc', '東京', 'def']);
    assert.deepEqual(indexTokens('東京都').sort(), ['^東京都', '京', '京都', '東', '東京', '都'].sort());
  });

  it('adds a first-word token', () => {
    assert.deepEqual(indexTokens('new york new'), ['new', 'york', '^new']);
    assert.deepEqual(indexTokens('!!!'), []);
  });

  it('asks for the bigrams of a CJK query run, and decides a single word by its token alone', () => {
    assert.deepEqual(requiredTokens(parseText('東京都')), ['東京', '京都']);
    assert.deepEqual(requiredTokens(parseText('京')), ['京']);
    assert.equal(isDecidedByToken(parseText('york')), true);
    assert.equal(isDecidedByToken(parseText('京都')), true);
    assert.equal(isDecidedByToken(parseText('東京都')), false);
    assert.equal(isDecidedByToken(parseText('new york')), false);
  });
});

describe('tierOf', () => {
  const tier = (term: string, q: string, mode: 'search' | 'suggest') => tierOf(term, parseText(q), mode);

  it('suggest: exact, then any prefix of the folded term', () => {
    assert.equal(tier('Zürich', 'zurich', 'suggest'), 'exact');
    assert.equal(tier('Zürich Airport', 'ZUR', 'suggest'), 'prefix');
    assert.equal(tier('Zürich Airport', 'zurich a', 'suggest'), 'prefix');
    assert.equal(tier('Lake Zurich', 'zurich', 'suggest'), null);
  });

  it('search: every query word as a whole word; prefix when the term starts with the query words', () => {
    assert.equal(tier('New York', 'new york', 'search'), 'exact');
    assert.equal(tier('New York City', 'new york', 'search'), 'prefix');
    assert.equal(tier('Greater New York', 'york new', 'search'), 'word');
    assert.equal(tier('New Yorker', 'new york', 'search'), null);
    assert.equal(tier('Zurich', 'zur', 'search'), null);
    assert.equal(tier('!!!', '!!!', 'search'), 'exact');
    assert.equal(tier('a b', '!!!', 'search'), null);
  });

  it('search: CJK query runs match as substrings', () => {
    assert.equal(tier('東京都庁', '京都', 'search'), 'word');
    assert.equal(tier('東京都庁', '東京都庁', 'search'), 'exact');
    assert.equal(tier('東京都庁', '庁舎', 'search'), null);
  });
});

describe('search index keys', () => {
  it('folds labels and aliases (not descriptions) and drops keys that fold alike', () => {
    const entity = { ...emptyEntity('Q1', 'item'), labels: { de: 'Zürich' }, descriptions: { de: 'Stadt' },
      aliases: { de: ['Zurich', 'ZÜRICH'] } };
    const keys = searchKeys(entity);
    assert.deepEqual(keys.terms, [{ lang: 'de', type: 'label', key: 'zurich' }, { lang: 'de', type: 'alias', key: 'zurich' }]);
    assert.deepEqual(keys.prefixes.filter((k) => k.type === 'label').map((k) => k.key), ['z', 'zu', 'zur', 'zuri', 'zuric', 'zurich']);
    assert.equal(keys.tokens.some((k) => k.key === 'stadt'), false);
  });

  it('ranks more sitelinks first, then more statements by powers of four', () => {
    assert.ok(rankOf({ sitelinks: 2, statements: 0 }) < rankOf({ sitelinks: 1, statements: 500 }));
    assert.ok(rankOf({ sitelinks: 1, statements: 16 }) < rankOf({ sitelinks: 1, statements: 15 }));
    assert.ok(rankOf({ sitelinks: 1, statements: 4 }) < rankOf({ sitelinks: 1, statements: 3 }));
    assert.ok(rankOf({ sitelinks: 1, statements: 1 }) < rankOf({ sitelinks: 1, statements: 0 }));
    // Within a power of four, the rank (and so every search row) stays put when a statement is added.
    assert.equal(rankOf({ sitelinks: 1, statements: 15 }), rankOf({ sitelinks: 1, statements: 4 }));
    assert.equal(rankOf({ sitelinks: 1, statements: 3 }), rankOf({ sitelinks: 1, statements: 1 }));
    assert.ok(rankOf({ sitelinks: 0, statements: 2 ** 31 }) < rankOf({ sitelinks: 0, statements: 2 ** 30 - 1 }));
    assert.equal(rankOf({ sitelinks: 0, statements: 2 ** 40 }), rankOf({ sitelinks: 0, statements: 2 ** 31 }));
  });
});

describe('searchLanguages', () => {
  it('is lang, its fallbacks, mul, en (docs/api.md §10.7)', () => {
    assert.deepEqual(searchLanguages('de-ch'), ['de-ch', 'de', 'mul', 'en']);
    assert.deepEqual(searchLanguages('en'), ['en', 'mul']);
  });
});
