// Content rules of every data type (docs/api.md §5): what passes, how it is normalised, and where a failure
// is reported.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { problemOf as problemFrom } from '../helpers/problems.js';
import type { Problem } from '../../src/domain/problems.js';
import { DATA_TYPES, isDataType, normaliseContent, type ReferenceLookup } from '../../src/domain/values/index.js';

const lookup: ReferenceLookup = {
  dataTypeOf: (id) => (id === 'P1' ? 'string' : undefined),
  exists: (id) => ['Q1', 'Q5', 'P1'].includes(id),
};

const PATH = '/statement/value/content';

function accepts(dataType: string, content: unknown, expected: unknown = content): void {
  assert.deepEqual(normaliseContent(dataType, content, PATH, lookup), expected);
}

function problemOf(dataType: string, content: unknown): Problem {
  return problemFrom(() => normaliseContent(dataType, content, PATH, lookup));
}

/** Every rejection of content is an invalid value at the content path, carrying the content. */
function rejects(dataType: string, ...contents: unknown[]): void {
  for (const content of contents) {
    assert.deepEqual(problemOf(dataType, content), { type: 'invalid', path: PATH, value: content },
      `${dataType}: ${JSON.stringify(content)}`);
  }
}

function missing(dataType: string, content: unknown, field: string): void {
  assert.deepEqual(problemOf(dataType, content), { type: 'missing', path: PATH, field });
}

describe('data types table', () => {
  it('maps the twelve required data types and the two string extensions to their value types', () => {
    assert.deepEqual(DATA_TYPES, {
      string: 'string', 'external-id': 'string', url: 'string', commonsMedia: 'string', 'geo-shape': 'string',
      'tabular-data': 'string', math: 'string', 'musical-notation': 'string',
      'wikibase-item': 'wikibase-entityid', 'wikibase-property': 'wikibase-entityid',
      time: 'time', quantity: 'quantity', 'globe-coordinate': 'globecoordinate', monolingualtext: 'monolingualtext',
    });
  });

  it('knows only those names', () => {
    assert.equal(isDataType('string'), true);
    assert.equal(isDataType('entity-schema'), false);
    assert.equal(isDataType('wikibase-lexeme'), false);
    assert.equal(isDataType('constructor'), false);
    assert.equal(isDataType(42), false);
  });
});

describe('string-valued data types', () => {
  for (const dataType of ['string', 'external-id', 'math', 'musical-notation']) {
    it(`${dataType}: 1..400 code points, not trimmed, no tabs or line breaks`, () => {
      accepts(dataType, 'Senior Team Supervisor');
      accepts(dataType, '😀'.repeat(400));
      rejects(dataType, '', ' leading', 'trailing ', 'a\tb', 'a\nb', 'a\u2028b', '\u00a0nbsp', 'x'.repeat(401), 42, null);
    });
  }

  it('url: known schemes, 500 characters at most', () => {
    accepts('url', 'https://news.example.org');
    accepts('url', 'HTTP://example.org/a?b=c');
    accepts('url', 'mailto:someone@example.org');
    accepts('url', `https://${'a'.repeat(492)}`);
    rejects('url', 'example.org', 'javascript://x', 'https://', 'https://a b', 'https://a<b', 'mailto:nobody',
      `https://${'a'.repeat(493)}`, 'https://\ufffd', ['https://x']);
  });

  it('commonsMedia: a file name with an extension, no link syntax, 240 at most', () => {
    accepts('commonsMedia', 'Foo bar.jpg');
    accepts('commonsMedia', `${'a'.repeat(236)}.jpg`);
    rejects('commonsMedia', 'Foo', 'Foo.j', 'File:Foo.jpg', 'a/b.jpg', 'a#b.jpg', 'a{b}.jpg', '.jpg', ' Foo.jpg',
      `${'a'.repeat(237)}.jpg`);
  });

  it('geo-shape: Data:… .map', () => {
    accepts('geo-shape', 'Data:Foo/bar.map');
    rejects('geo-shape', 'Data:Foo.tab', 'Foo.map', 'Data:a|b.map', `Data:${'a'.repeat(232)}.map`);
  });

  it('tabular-data: Data:… .tab', () => {
    accepts('tabular-data', 'Data:Population.tab');
    rejects('tabular-data', 'Data:Population.map', 'data:Population.tab', 'Data:a[b].tab');
  });
});

describe('entity-id data types', () => {
  it('wikibase-item: an existing item, upper-cased', () => {
    accepts('wikibase-item', 'Q5');
    accepts('wikibase-item', 'q5', 'Q5');
    rejects('wikibase-item', 'P1', 'Q05', 'Q', 'L1', 5, { id: 'Q5' });
  });

  it('wikibase-item: a well-formed id of a missing item is not-found', () => {
    assert.deepEqual(problemOf('wikibase-item', 'q999'), { type: 'not-found', path: PATH, value: 'Q999' });
  });

  it('wikibase-property: an existing property', () => {
    accepts('wikibase-property', 'P1');
    rejects('wikibase-property', 'Q1', 'P1x', null);
    assert.deepEqual(problemOf('wikibase-property', 'P2'), { type: 'not-found', path: PATH, value: 'P2' });
  });
});

describe('time (docs/api.md §5.1)', () => {
  const GREGORIAN = 'http://www.wikidata.org/entity/Q1985727';
  const time = (t: string, precision = 11, calendarmodel = GREGORIAN) => ({ time: t, precision, calendarmodel });

  it('accepts day, month, year and coarser precisions', () => {
    accepts('time', time('+1986-01-27T00:00:00Z'));
    accepts('time', time('+1986-01-00T00:00:00Z', 10));
    accepts('time', time('-13798000000-00-00T00:00:00Z', 0));
  });

  it('pads the year to four digits and drops extra leading zeros', () => {
    accepts('time', time('+1-00-00T00:00:00Z', 9), time('+0001-00-00T00:00:00Z', 9));
    accepts('time', time('+000001986-01-27T00:00:00Z'), time('+1986-01-27T00:00:00Z'));
  });

  it('outputs exactly time, precision and calendarmodel', () => {
    accepts('time', { ...time('+2023-06-13T00:00:00Z'), timezone: 0, before: 0 }, time('+2023-06-13T00:00:00Z'));
  });

  it('reports a missing field with the content as parent', () => {
    missing('time', { precision: 11, calendarmodel: GREGORIAN }, 'time');
    missing('time', { time: '+1986-01-27T00:00:00Z', calendarmodel: GREGORIAN }, 'precision');
    missing('time', { time: '+1986-01-27T00:00:00Z', precision: 11 }, 'calendarmodel');
  });

  it('rejects malformed timestamps, precisions and calendar models', () => {
    rejects('time',
      '+1986-01-27T00:00:00Z',
      time('1986-01-27T00:00:00Z'),
      time('+1986-13-01T00:00:00Z'),
      time('+1986-01-32T00:00:00Z'),
      time('+1986-00-05T00:00:00Z', 9),
      time('+1986-01-27T12:00:00Z'),
      time('+1986-00-00T00:00:00Z', 10),
      time('+1986-01-00T00:00:00Z', 11),
      time('+1986-01-27T00:00:00Z', 12),
      time('+1986-01-27T00:00:00Z', 1.5),
      { ...time('+1986-01-27T00:00:00Z'), precision: '11' },
      time('+1986-01-27T00:00:00Z', 11, 'https://www.wikidata.org/entity/Q1985727'),
      time('+1986-01-27T00:00:00Z', 11, 'Q1985727'),
      { ...time('+1986-01-27T00:00:00Z'), time: 19860127 },
    );
  });
});

describe('quantity (docs/api.md §5.2)', () => {
  const UNIT = 'http://www.wikidata.org/entity/Q11573';

  it('signs amounts and keeps the unit', () => {
    accepts('quantity', { amount: '10.38', unit: '1' }, { amount: '+10.38', unit: '1' });
    accepts('quantity', { amount: '-5', unit: UNIT }, { amount: '-5', unit: UNIT });
  });

  it('normalises -0 to +0', () => {
    accepts('quantity', { amount: '-0', unit: '1' }, { amount: '+0', unit: '1' });
    accepts('quantity', { amount: '-0.00', unit: '1' }, { amount: '+0.00', unit: '1' });
  });

  it('converts JSON numbers, exponents included', () => {
    accepts('quantity', { amount: 10.38, unit: '1' }, { amount: '+10.38', unit: '1' });
    accepts('quantity', { amount: -0, unit: '1' }, { amount: '+0', unit: '1' });
    accepts('quantity', { amount: 1.5e-7, unit: '1' }, { amount: '+0.00000015', unit: '1' });
    accepts('quantity', { amount: 1e21, unit: '1' }, { amount: `+1${'0'.repeat(21)}`, unit: '1' });
  });

  it('keeps bounds that enclose the amount, in output order amount, unit, upperBound, lowerBound', () => {
    const out = normaliseContent('quantity', { lowerBound: '9.5', upperBound: 11, amount: '10', unit: '1' }, PATH, lookup);
    assert.deepEqual(Object.entries(out as object), [['amount', '+10'], ['unit', '1'], ['upperBound', '+11'], ['lowerBound', '+9.5']]);
    accepts('quantity', { amount: '-2', unit: '1', lowerBound: '-2.0', upperBound: '-1.99' },
      { amount: '-2', unit: '1', lowerBound: '-2.0', upperBound: '-1.99' });
  });

  it('reports missing amount or unit', () => {
    missing('quantity', { unit: '1' }, 'amount');
    missing('quantity', { amount: '+1' }, 'unit');
  });

  it('rejects bad decimals, units and bounds', () => {
    rejects('quantity',
      { amount: '01', unit: '1' },
      { amount: '1.', unit: '1' },
      { amount: '1e5', unit: '1' },
      { amount: '++1', unit: '1' },
      { amount: `+${'1'.repeat(127)}`, unit: '1' },
      { amount: '1', unit: 'm' },
      { amount: '1', unit: 1 },
      { amount: '1', unit: 'https://www.wikidata.org/entity/Q11573' },
      { amount: '1', unit: '1', upperBound: '2' },
      { amount: '1', unit: '1', lowerBound: '0' },
      { amount: '1', unit: '1', lowerBound: '1.5', upperBound: '2' },
      { amount: '3', unit: '1', lowerBound: '1', upperBound: '2.99' },
      { amount: '-1', unit: '1', lowerBound: '-0.5', upperBound: '0' },
      [1],
    );
  });
});

describe('globe-coordinate (docs/api.md §5.3)', () => {
  const EARTH = 'http://www.wikidata.org/entity/Q2';
  const MOON = 'http://www.wikidata.org/entity/Q405';

  it('defaults the globe to Earth and drops altitude', () => {
    accepts('globe-coordinate', { latitude: 52.5, longitude: 13.4, precision: 0.01, altitude: 30 },
      { latitude: 52.5, longitude: 13.4, precision: 0.01, globe: EARTH });
    accepts('globe-coordinate', { latitude: 100, longitude: -360, precision: 1, globe: MOON },
      { latitude: 100, longitude: -360, precision: 1, globe: MOON });
  });

  it('reports missing fields', () => {
    missing('globe-coordinate', { longitude: 1, precision: 1 }, 'latitude');
    missing('globe-coordinate', { latitude: 1, precision: 1 }, 'longitude');
    missing('globe-coordinate', { latitude: 1, longitude: 1 }, 'precision');
  });

  it('rejects out-of-range angles, null precision and bad globes', () => {
    rejects('globe-coordinate',
      { latitude: 361, longitude: 0, precision: 1 },
      { latitude: 0, longitude: -360.5, precision: 1 },
      { latitude: '52.5', longitude: 0, precision: 1 },
      { latitude: 0, longitude: 0, precision: null },
      { latitude: 0, longitude: 0, precision: 1, globe: 'Q2' },
      { latitude: 0, longitude: 0, precision: 1, globe: 2 },
      'Berlin',
    );
  });
});

describe('monolingualtext', () => {
  it('accepts a text in a monolingual language', () => {
    accepts('monolingualtext', { language: 'en', text: 'potato' }, { text: 'potato', language: 'en' });
  });

  it('reports missing text or language', () => {
    missing('monolingualtext', { language: 'en' }, 'text');
    missing('monolingualtext', { text: 'potato' }, 'language');
  });

  it('rejects bad texts and languages that are not monolingual languages', () => {
    rejects('monolingualtext',
      { text: ' potato', language: 'en' },
      { text: 'x'.repeat(401), language: 'en' },
      { text: 'potato', language: 'en-GB' },
      { text: 'potato', language: 'xyz' },
      { text: 'potato', language: 'mul' },
      { text: 'potato', language: 'simple' },
      { text: 'potato', language: 'de-formal' },
      { text: 'potato', language: 1 },
      ['potato'],
    );
  });
});
