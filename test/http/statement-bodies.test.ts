// Statement bodies over real HTTP: POST/PUT validation with `/statement` paths (docs/api.md §6.3, §7.3), PATCH
// results (§10.4, §7.4), qualifiers and references, somevalue/novalue (§4.4). Every rejected edit is checked
// to leave the subject's document and revision count as they were.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  addStatement, createItem, createProperty, entityPath, GREGORIAN, snapshot, valueSnak,
} from '../helpers/statements.js';

let s: TestServer;
let P: string; // string
let PTIME: string; // time
let PURL: string; // url
let PITEM: string; // wikibase-item
let subject: string;
let statementId: string;
before(async () => {
  s = await startServer();
  P = await createProperty(s, 'string');
  PTIME = await createProperty(s, 'time');
  PURL = await createProperty(s, 'url');
  PITEM = await createProperty(s, 'wikibase-item');
  subject = await createItem(s);
  statementId = (await addStatement(s, subject, valueSnak(P, 'stored'))).id;
});
after(async () => { await s.close(); });

const MISSING_PROPERTY = 'P99999999';

/** [name, statement body, expected error] for bodies that are wrong wherever a statement is sent. */
const BAD_BODIES: [string, unknown, { code: string; context: Record<string, unknown> }][] = [
  ['statement missing', undefined, { code: 'missing-field', context: { path: '', field: 'statement' } }],
  ['statement an array', [], { code: 'invalid-value', context: { path: '/statement' } }],
  ['statement a string', 'x', { code: 'invalid-value', context: { path: '/statement' } }],
  ['property missing', { value: { type: 'novalue' } }, { code: 'missing-field', context: { path: '/statement', field: 'property' } }],
  ['property not an object', { property: 'P1', value: { type: 'novalue' } }, { code: 'invalid-value', context: { path: '/statement/property' } }],
  ['property id missing', { property: {}, value: { type: 'novalue' } },
    { code: 'missing-field', context: { path: '/statement/property', field: 'id' } }],
  ['property id malformed', { property: { id: 'Q1' }, value: { type: 'novalue' } },
    { code: 'invalid-value', context: { path: '/statement/property/id' } }],
  ['property unknown', { property: { id: MISSING_PROPERTY }, value: { type: 'novalue' } },
    { code: 'referenced-resource-not-found', context: { path: '/statement/property/id' } }],
  ['value missing', { property: { id: 'P1' } }, { code: 'missing-field', context: { path: '/statement', field: 'value' } }],
  ['value type unknown', { property: { id: 'P1' }, value: { type: 'other' } },
    { code: 'invalid-value', context: { path: '/statement/value/type' } }],
  ['value type missing', { property: { id: 'P1' }, value: {} },
    { code: 'missing-field', context: { path: '/statement/value', field: 'type' } }],
  ['content missing', { property: { id: 'P1' }, value: { type: 'value' } },
    { code: 'missing-field', context: { path: '/statement/value', field: 'content' } }],
  ['content of the wrong type', { property: { id: 'P1' }, value: { type: 'value', content: 42 } },
    { code: 'invalid-value', context: { path: '/statement/value/content' } }],
  ['rank unknown', { property: { id: 'P1' }, value: { type: 'novalue' }, rank: 'best' },
    { code: 'invalid-value', context: { path: '/statement/rank' } }],
  ['qualifiers not an array', { property: { id: 'P1' }, value: { type: 'novalue' }, qualifiers: {} },
    { code: 'invalid-value', context: { path: '/statement/qualifiers' } }],
  ['qualifier not an object', { property: { id: 'P1' }, value: { type: 'novalue' }, qualifiers: ['x'] },
    { code: 'invalid-value', context: { path: '/statement/qualifiers/0' } }],
  ['qualifier property unknown', { property: { id: 'P1' }, value: { type: 'novalue' },
    qualifiers: [{ property: { id: MISSING_PROPERTY }, value: { type: 'novalue' } }] },
  { code: 'referenced-resource-not-found', context: { path: '/statement/qualifiers/0/property/id' } }],
  ['qualifier content invalid', { property: { id: 'P1' }, value: { type: 'novalue' },
    qualifiers: [{ property: { id: 'P1' }, value: { type: 'value', content: ' padded' } }] },
  { code: 'invalid-value', context: { path: '/statement/qualifiers/0/value/content' } }],
  ['references not an array', { property: { id: 'P1' }, value: { type: 'novalue' }, references: 'x' },
    { code: 'invalid-value', context: { path: '/statement/references' } }],
  ['reference without parts', { property: { id: 'P1' }, value: { type: 'novalue' }, references: [{}] },
    { code: 'missing-field', context: { path: '/statement/references/0', field: 'parts' } }],
  ['reference parts not an array', { property: { id: 'P1' }, value: { type: 'novalue' }, references: [{ parts: {} }] },
    { code: 'invalid-value', context: { path: '/statement/references/0/parts' } }],
  ['reference part property unknown', { property: { id: 'P1' }, value: { type: 'novalue' },
    references: [{ parts: [{ property: { id: MISSING_PROPERTY }, value: { type: 'novalue' } }] }] },
  { code: 'referenced-resource-not-found', context: { path: '/statement/references/0/parts/0/property/id' } }],
  ['id not a string', { id: 7, property: { id: 'P1' }, value: { type: 'novalue' } },
    { code: 'invalid-value', context: { path: '/statement/id' } }],
  // Upstream's order (docs/api.md "Order of checks"): id, rank, qualifiers and references before property and value.
  ['rank checked before property and value', { rank: 'invalid rank' },
    { code: 'invalid-value', context: { path: '/statement/rank' } }],
  ['qualifiers checked before a missing property', { qualifiers: 'x' },
    { code: 'invalid-value', context: { path: '/statement/qualifiers' } }],
  ['references checked before an unknown property', { property: { id: MISSING_PROPERTY }, references: {} },
    { code: 'invalid-value', context: { path: '/statement/references' } }],
  ['id (a number) checked before rank', { id: 7, rank: 'best' }, { code: 'invalid-value', context: { path: '/statement/id' } }],
];

const MESSAGES: Record<string, string> = {
  'missing-field': 'Required field missing',
  'referenced-resource-not-found': 'The referenced resource does not exist',
};

async function expectRejected(send: () => Promise<{ status: number; body: any; headers: Headers }>,
  expected: { code: string; context: Record<string, unknown> }, status = 400) {
  const before = await snapshot(s, subject);
  const res = await send();
  assert.equal(res.status, status);
  const message = MESSAGES[expected.code] ?? (expected.code === 'invalid-value' ? `Invalid value at '${expected.context.path}'` : res.body.message);
  assert.deepEqual(res.body, { code: expected.code, message, context: expected.context });
  assert.equal(res.headers.get('content-language'), 'en');
  assert.deepEqual(await snapshot(s, subject), before);
}

describe('POST and PUT bodies (§6.3)', () => {
  // P1 is the first property created by `before`: a string property.
  for (const [name, statement, expected] of BAD_BODIES) {
    it(`POST: ${name}`, async () => {
      const body = statement === undefined ? {} : { statement };
      await expectRejected(() => s.post(`${entityPath(subject)}/statements`, body), expected);
    });
    if (name.startsWith('id ')) continue; // PUT: any other id is a read-only violation, below
    it(`PUT: ${name}`, async () => {
      const body = statement === undefined ? {} : { statement };
      await expectRejected(() => s.put(`/v1/statements/${statementId}`, body), expected);
    });
  }

  it('PUT: refuses another statement id and another property as read-only values', async () => {
    const other = `${subject}$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9`;
    await expectRejected(() => s.put(`/v1/statements/${statementId}`, { statement: { id: other, ...valueSnak(P, 'x') } }),
      { code: 'cannot-modify-read-only-value', context: { path: '/statement/id' } });
    await expectRejected(() => s.put(`/v1/statements/${statementId}`, { statement: { id: 7, ...valueSnak(P, 'x') } }),
      { code: 'cannot-modify-read-only-value', context: { path: '/statement/id' } });
    await expectRejected(() => s.put(`${entityPath(subject)}/statements/${statementId}`, { statement: valueSnak(PURL, 'https://example.org') }),
      { code: 'cannot-modify-read-only-value', context: { path: '/statement/property/id' } });
    const ok = await s.put(`/v1/statements/${statementId}`, { statement: { id: statementId, ...valueSnak(P, 'stored') } });
    assert.equal(ok.status, 200);
  });

  it('PUT: validates the body before looking for the statement (§7.7)', async () => {
    const missing = `${subject}$00000000-AAAA-4BBB-8CCC-DDDDDDDDDDDD`;
    const res = await s.put(`/v1/statements/${missing}`, { statement: { property: { id: MISSING_PROPERTY }, value: { type: 'novalue' } } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'referenced-resource-not-found');
    const wellFormed = await s.put(`/v1/statements/${missing}`, { statement: valueSnak(P, 'x') });
    assert.equal(wellFormed.status, 404);
  });

  it('ignores `data-type`, reference hashes and unknown keys on input', async () => {
    const statement = await addStatement(s, subject, {
      property: { id: PURL, 'data-type': 'string' }, value: { type: 'value', content: 'https://example.org/a' }, extra: true,
      references: [{ hash: 'not-a-hash', parts: [valueSnak(P, 'source')] }],
    });
    assert.equal(statement.property['data-type'], 'url');
    assert.equal(statement.extra, undefined);
    assert.match(statement.references[0].hash, /^[0-9a-f]{40}$/);
  });
});

describe('qualifiers and references', () => {
  const rich = () => ({
    rank: 'preferred',
    ...valueSnak(P, 'Senior Team Supervisor'),
    qualifiers: [
      valueSnak(PTIME, { time: '+2023-06-13T00:00:00Z', precision: 11, calendarmodel: GREGORIAN }),
      { property: { id: PITEM }, value: { type: 'somevalue' } },
    ],
    references: [
      { parts: [valueSnak(PURL, 'https://news.example.org'), valueSnak(P, 'page 3')] },
      { parts: [{ property: { id: PITEM }, value: { type: 'novalue' } }] },
    ],
  });

  it('round-trip with data types filled in and a stable 40-hex hash per reference', async () => {
    const created = await addStatement(s, subject, rich());
    assert.equal(created.rank, 'preferred');
    assert.deepEqual(created.qualifiers, [
      { property: { id: PTIME, 'data-type': 'time' },
        value: { type: 'value', content: { time: '+2023-06-13T00:00:00Z', precision: 11, calendarmodel: GREGORIAN } } },
      { property: { id: PITEM, 'data-type': 'wikibase-item' }, value: { type: 'somevalue' } },
    ]);
    assert.equal(created.references.length, 2);
    for (const reference of created.references) assert.match(reference.hash, /^[0-9a-f]{40}$/);
    assert.notEqual(created.references[0].hash, created.references[1].hash);
    assert.deepEqual(created.references[0].parts[0], { property: { id: PURL, 'data-type': 'url' },
      value: { type: 'value', content: 'https://news.example.org' } });

    // Stable: the same on GET, and for the same parts sent again elsewhere or with another hash.
    assert.deepEqual((await s.get(`/v1/statements/${created.id}`)).body, created);
    const again = await addStatement(s, subject, rich());
    assert.deepEqual(again.references.map((r: { hash: string }) => r.hash), created.references.map((r: { hash: string }) => r.hash));
    const body = { ...rich(), references: rich().references.map((r) => ({ ...r, hash: '0'.repeat(40) })) };
    const before = await snapshot(s, subject);
    const put = await s.put(`/v1/statements/${created.id}`, { statement: body });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, created);
    assert.equal((await snapshot(s, subject)).revisions, before.revisions, 'an identical PUT is a no-op');
  });

  it('give a reference a new hash when its parts change', async () => {
    const created = await addStatement(s, subject, rich());
    const res = await s.patch(`/v1/statements/${created.id}`, {
      patch: [{ op: 'replace', path: '/references/0/parts/1/value/content', value: 'page 4' }],
    });
    assert.equal(res.status, 200, res.text);
    assert.notEqual(res.body.references[0].hash, created.references[0].hash);
    assert.equal(res.body.references[1].hash, created.references[1].hash);
  });
});

describe('somevalue and novalue (§4.4)', () => {
  for (const type of ['somevalue', 'novalue']) {
    it(`stores ${type} without content, ignoring any content given`, async () => {
      const created = await addStatement(s, subject, { property: { id: PTIME }, value: { type, content: 'ignored' } });
      assert.deepEqual(created.value, { type });
      assert.equal('content' in created.value, false);
      const read = await s.get(`${entityPath(subject)}/statements/${created.id}`);
      assert.deepEqual(read.body.value, { type });
    });
  }
});

describe('PATCH results (§10.4)', () => {
  const patch = (operations: unknown[]) => () => s.patch(`/v1/statements/${statementId}`, { patch: operations });

  const cases: [string, unknown[], number, { code: string; context: Record<string, unknown> }][] = [
    ['result not an object', [{ op: 'replace', path: '', value: 'x' }], 422,
      { code: 'patch-result-invalid-value', context: { path: '', value: 'x' } }],
    ['value removed', [{ op: 'remove', path: '/value' }], 422,
      { code: 'patch-result-missing-field', context: { path: '', field: 'value' } }],
    ['property removed', [{ op: 'remove', path: '/property' }], 422,
      { code: 'patch-result-missing-field', context: { path: '', field: 'property' } }],
    ['bad content', [{ op: 'replace', path: '/value/content', value: ' padded' }], 422,
      { code: 'patch-result-invalid-value', context: { path: '/value/content', value: ' padded' } }],
    ['bad rank', [{ op: 'replace', path: '/rank', value: 'best' }], 422,
      { code: 'patch-result-invalid-value', context: { path: '/rank', value: 'best' } }],
    ['unknown qualifier property', [{ op: 'add', path: '/qualifiers/-', value: { property: { id: MISSING_PROPERTY }, value: { type: 'novalue' } } }], 422,
      { code: 'patch-result-referenced-resource-not-found', context: { path: '/qualifiers/0/property/id', value: MISSING_PROPERTY } }],
    ['unknown reference property', [{ op: 'add', path: '/references/-', value: { parts: [{ property: { id: MISSING_PROPERTY }, value: { type: 'novalue' } }] } }], 422,
      { code: 'patch-result-referenced-resource-not-found', context: { path: '/references/0/parts/0/property/id', value: MISSING_PROPERTY } }],
    ['id changed', [{ op: 'replace', path: '/id', value: 'Q1$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9' }], 422,
      { code: 'patch-result-modified-read-only-value', context: { path: '/id' } }],
    ['property changed', [{ op: 'replace', path: '/property/id', value: 'P2' }], 422,
      { code: 'patch-result-modified-read-only-value', context: { path: '/property/id' } }],
    ['test failed', [{ op: 'test', path: '/rank', value: 'preferred' }], 409,
      { code: 'patch-test-failed', context: { path: '/patch/0', actual_value: 'normal' } }],
    ['target not found', [{ op: 'remove', path: '/nothing' }], 409,
      { code: 'patch-target-not-found', context: { path: '/patch/0/path' } }],
    ['patch not an array', 'x' as unknown as unknown[], 400, { code: 'invalid-value', context: { path: '/patch' } }],
    ['operation without op', [{ path: '/rank' }], 400, { code: 'missing-field', context: { path: '/patch/0', field: 'op' } }],
  ];
  for (const [name, operations, status, expected] of cases) {
    it(`${status} ${expected.code}: ${name}`, async () => expectRejected(patch(operations), expected, status));
  }

  it('ignores a removed id and changes to data-type and reference hashes', async () => {
    const created = await addStatement(s, subject, { ...valueSnak(P, 'x'), references: [{ parts: [valueSnak(P, 'src')] }] });
    const before = await snapshot(s, subject);
    const res = await s.patch(`/v1/statements/${created.id}`, { patch: [
      { op: 'remove', path: '/id' },
      { op: 'replace', path: '/property/data-type', value: 'url' },
      { op: 'replace', path: '/references/0/hash', value: 'f'.repeat(40) },
    ] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, created);
    assert.equal(res.headers.get('etag'), before.etag, 'nothing changed: no revision');
    assert.equal((await snapshot(s, subject)).revisions, before.revisions);
  });

  it('answers an empty patch with the current statement and no revision', async () => {
    const before = await snapshot(s, subject);
    const res = await s.patch(`${entityPath(subject)}/statements/${statementId}`, { patch: [] });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, statementId);
    assert.equal(res.headers.get('etag'), before.etag);
    assert.equal((await snapshot(s, subject)).revisions, before.revisions);
  });

  it('accepts application/json-patch+json', async () => {
    const res = await s.request('PATCH', `/v1/statements/${statementId}`, {
      raw: JSON.stringify({ patch: [{ op: 'add', path: '/qualifiers/-', value: valueSnak(P, 'q') }] }),
      headers: { 'content-type': 'application/json-patch+json' },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.qualifiers, [{ property: { id: P, 'data-type': 'string' }, value: { type: 'value', content: 'q' } }]);
  });
});
