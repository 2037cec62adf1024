// Every data type over HTTP (docs/api.md §5): one property per type, a valid value that round-trips (normalised
// where §5 says so) and invalid values rejected at `/statement/value/content`, in the main snak, in a
// qualifier, and as a PATCH result.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { addStatement, createItem, createProperty, entityPath, GREGORIAN, snapshot, valueSnak } from '../helpers/statements.js';

let s: TestServer;
let subject: string;
/** Data type → the property created for it. */
const properties: Record<string, string> = {};
before(async () => {
  s = await startServer();
  subject = await createItem(s);
  for (const dataType of Object.keys(CASES)) properties[dataType] = await createProperty(s, dataType);
});
after(async () => { await s.close(); });

const EARTH = 'http://www.wikidata.org/entity/Q2';
const METRE = 'http://www.wikidata.org/entity/Q11573';

type Rejection = { content: unknown; error?: { code: string; field?: string } };
interface Case {
  /** Content sent, and what is stored and answered (the same unless §5 normalises it). */
  valid: { content: unknown; stored?: unknown }[];
  invalid: Rejection[];
}

/** Ids the wikibase-* cases use; replaced by real ids once `before` has created the entities. */
const SUBJECT = '{subject}';
const PROPERTY = '{property}';

const CASES: Record<string, Case> = {
  string: {
    valid: [{ content: 'Senior Team Supervisor' }, { content: 'x'.repeat(400) }],
    invalid: [{ content: ' leading space' }, { content: 'tab\there' }, { content: 'line\nbreak' }, { content: '' },
      { content: 'x'.repeat(401) }, { content: 42 }],
  },
  'external-id': {
    valid: [{ content: 'tt0111161' }],
    invalid: [{ content: 'trailing ' }, { content: '' }, { content: ['x'] }],
  },
  url: {
    valid: [{ content: 'https://example.org/path?q=1' }, { content: 'mailto:someone@example.org' }],
    invalid: [{ content: 'example.org' }, { content: 'https://' }, { content: 'https://exa mple.org' },
      { content: 'javascript://x' }, { content: 'mailto:nobody' }],
  },
  commonsMedia: {
    valid: [{ content: 'Potato heart mutation.jpg' }],
    invalid: [{ content: 'File:Potato.jpg' }, { content: 'Potato' }, { content: 'a/b.jpg' }, { content: 'Potato.j' }],
  },
  'geo-shape': {
    valid: [{ content: 'Data:Berlin/Districts.map' }],
    invalid: [{ content: 'Berlin.map' }, { content: 'Data:Berlin.tab' }, { content: 'Data:Ber|lin.map' }],
  },
  'tabular-data': {
    valid: [{ content: 'Data:Population.tab' }],
    invalid: [{ content: 'Population.tab' }, { content: 'Data:Population.map' }],
  },
  math: {
    valid: [{ content: 'E = mc^2' }],
    invalid: [{ content: ' E' }, { content: '' }, { content: 1 }],
  },
  'musical-notation': {
    valid: [{ content: "\\relative c' { c d e f }" }],
    invalid: [{ content: 'c\nd' }, { content: '' }],
  },
  'wikibase-item': {
    valid: [{ content: SUBJECT }, { content: 'lower-case', stored: SUBJECT }],
    invalid: [{ content: 'P1' }, { content: 'Q0' }, { content: 5 },
      { content: 'Q99999999', error: { code: 'referenced-resource-not-found' } }],
  },
  'wikibase-property': {
    valid: [{ content: PROPERTY }],
    invalid: [{ content: SUBJECT }, { content: 'P' },
      { content: 'P99999999', error: { code: 'referenced-resource-not-found' } }],
  },
  time: {
    valid: [
      { content: { time: '+1986-01-27T00:00:00Z', precision: 11, calendarmodel: GREGORIAN } },
      { content: { time: '+1-00-00T00:00:00Z', precision: 9, calendarmodel: GREGORIAN },
        stored: { time: '+0001-00-00T00:00:00Z', precision: 9, calendarmodel: GREGORIAN } },
    ],
    invalid: [
      { content: { time: '+1986-01-27T12:00:00Z', precision: 11, calendarmodel: GREGORIAN } },
      { content: { time: '+1986-13-01T00:00:00Z', precision: 11, calendarmodel: GREGORIAN } },
      { content: { time: '+1986-00-00T00:00:00Z', precision: 11, calendarmodel: GREGORIAN } },
      { content: { time: '+1986-01-27T00:00:00Z', precision: 12, calendarmodel: GREGORIAN } },
      { content: { time: '+1986-01-27T00:00:00Z', precision: 11, calendarmodel: 'https://www.wikidata.org/entity/Q1985727' } },
      { content: { time: '+1986-01-27T00:00:00Z', calendarmodel: GREGORIAN }, error: { code: 'missing-field', field: 'precision' } },
      { content: '+1986-01-27T00:00:00Z' },
    ],
  },
  quantity: {
    valid: [
      { content: { amount: '10.38', unit: '1' }, stored: { amount: '+10.38', unit: '1' } },
      { content: { amount: -0, unit: METRE, upperBound: '1', lowerBound: '-1' },
        stored: { amount: '+0', unit: METRE, upperBound: '+1', lowerBound: '-1' } },
    ],
    invalid: [
      { content: { amount: 'ten', unit: '1' } },
      { content: { amount: '01', unit: '1' } },
      { content: { amount: '1', unit: 'metre' } },
      { content: { amount: '1', unit: '1', upperBound: '2' } },
      { content: { amount: '5', unit: '1', upperBound: '4', lowerBound: '1' } },
      { content: { amount: '1' }, error: { code: 'missing-field', field: 'unit' } },
    ],
  },
  'globe-coordinate': {
    valid: [
      { content: { latitude: 52.5, longitude: 13.4, precision: 0.01 },
        stored: { latitude: 52.5, longitude: 13.4, precision: 0.01, globe: EARTH } },
      { content: { latitude: 100, longitude: -360, precision: 1, globe: 'http://www.wikidata.org/entity/Q405', altitude: 3 },
        stored: { latitude: 100, longitude: -360, precision: 1, globe: 'http://www.wikidata.org/entity/Q405' } },
    ],
    invalid: [
      { content: { latitude: 400, longitude: 0, precision: 1 } },
      { content: { latitude: '52', longitude: 0, precision: 1 } },
      { content: { latitude: 0, longitude: 0, precision: null } },
      { content: { latitude: 0, longitude: 0, precision: 1, globe: 'earth' } },
      { content: { latitude: 0, precision: 1 }, error: { code: 'missing-field', field: 'longitude' } },
    ],
  },
  monolingualtext: {
    valid: [{ content: { text: 'Kartoffel', language: 'de' } }],
    invalid: [
      { content: { text: 'Kartoffel', language: 'xyz' } },
      { content: { text: 'Kartoffel', language: 'simple' } },
      { content: { text: 'Kartoffel', language: 'mul' } },
      { content: { text: ' Kartoffel', language: 'de' } },
      { content: { text: 'Kartoffel' }, error: { code: 'missing-field', field: 'language' } },
      { content: 'Kartoffel' },
    ],
  },
};

/** Puts the real ids in place of the placeholders. */
function resolve(content: unknown): unknown {
  if (content === SUBJECT) return subject;
  if (content === PROPERTY) return properties['wikibase-property'];
  if (content === 'lower-case') return subject.toLowerCase();
  return content;
}

function expectedError(rejection: Rejection, path: string) {
  const { code = 'invalid-value', field } = rejection.error ?? {};
  if (code === 'missing-field') return { code, message: 'Required field missing', context: { path, field } };
  if (code === 'referenced-resource-not-found') return { code, message: 'The referenced resource does not exist', context: { path } };
  return { code, message: `Invalid value at '${path}'`, context: { path } };
}

it('GET /v1/property-data-types lists every tested data type with its value type (§5)', async () => {
  const res = await s.get('/v1/property-data-types');
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), Object.keys(CASES).sort());
  assert.deepEqual(res.body, {
    string: 'string', 'external-id': 'string', url: 'string', commonsMedia: 'string', 'geo-shape': 'string',
    'tabular-data': 'string', math: 'string', 'musical-notation': 'string', 'wikibase-item': 'wikibase-entityid',
    'wikibase-property': 'wikibase-entityid', time: 'time', quantity: 'quantity', 'globe-coordinate': 'globecoordinate',
    monolingualtext: 'monolingualtext',
  });
});

for (const [dataType, { valid, invalid }] of Object.entries(CASES)) {
  describe(`data type ${dataType}`, () => {
    for (const { content, stored } of valid) {
      it(`stores ${JSON.stringify(content)}`, async () => {
        const property = properties[dataType];
        const expected = resolve(stored ?? content);
        const created = await addStatement(s, subject, valueSnak(property, resolve(content)));
        assert.deepEqual(created.property, { id: property, 'data-type': dataType });
        assert.deepEqual(created.value, { type: 'value', content: expected });
        assert.deepEqual((await s.get(`/v1/statements/${created.id}`)).body.value.content, expected);
        // The same value as a qualifier.
        const qualified = await addStatement(s, subject, { property: { id: property }, value: { type: 'novalue' },
          qualifiers: [valueSnak(property, resolve(content))] });
        assert.deepEqual(qualified.qualifiers[0].value, { type: 'value', content: expected });
      });
    }

    for (const rejection of invalid) {
      it(`refuses ${JSON.stringify(rejection.content)}`, async () => {
        const property = properties[dataType];
        const content = resolve(rejection.content);
        const before = await snapshot(s, subject);
        let res = await s.post(`${entityPath(subject)}/statements`, { statement: valueSnak(property, content) });
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.body, expectedError(rejection, '/statement/value/content'));
        res = await s.post(`${entityPath(subject)}/statements`, { statement: { property: { id: property },
          value: { type: 'somevalue' }, qualifiers: [valueSnak(property, content)] } });
        assert.deepEqual(res.body, expectedError(rejection, '/statement/qualifiers/0/value/content'));
        assert.deepEqual(await snapshot(s, subject), before);
      });
    }

    it('refuses an invalid value as a PATCH result (422) without editing', async () => {
      const property = properties[dataType];
      const { id } = await addStatement(s, subject, { property: { id: property }, value: { type: 'novalue' } });
      const rejection = invalid.find((r) => !r.error)!;
      const before = await snapshot(s, subject);
      const res = await s.patch(`/v1/statements/${id}`, {
        patch: [{ op: 'replace', path: '/value', value: { type: 'value', content: rejection.content } }],
      });
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body, { code: 'patch-result-invalid-value', message: 'Invalid value in patch result',
        context: { path: '/value/content', value: rejection.content } });
      assert.deepEqual(await snapshot(s, subject), before);
    });
  });
}
