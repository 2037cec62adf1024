// Statement routes over real HTTP (docs/api.md §10.4): every verb under items, under properties and on the
// global /v1/statements path; ids, 404s, the case redirect (§9.2), redirected items (§9.1), revisions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Entity } from '../../src/domain/entity.js';
import { fail } from '../../src/domain/errors.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  addStatement, createItem, createProperty, entityPath, SCOPES, snapshot, valueSnak,
} from '../helpers/statements.js';

let s: TestServer;
let P: string; // a string property
let P2: string; // another string property
before(async () => {
  s = await startServer();
  P = await createProperty(s, 'string');
  P2 = await createProperty(s, 'string');
});
after(async () => { await s.close(); });

const GUID = /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/;
const MISSING_GUID = '00000000-AAAA-4BBB-8CCC-DDDDDDDDDDDD';

/** A fresh item or property (as `kind` says) with one string statement. */
async function subjectWithStatement(kind: 'item' | 'property', content = 'first') {
  const subject = kind === 'item' ? await createItem(s) : await createProperty(s, 'string');
  const statement = await addStatement(s, subject, valueSnak(P, content));
  return { subject, statement, id: statement.id as string };
}

const KINDS = ['item', 'property'] as const;

describe('POST …/statements', () => {
  for (const kind of KINDS) {
    it(`adds a statement to a ${kind} with a generated id, absolute Location, ETag and Last-Modified`, async () => {
      const subject = kind === 'item' ? await createItem(s) : await createProperty(s, 'string');
      const res = await s.post(`${entityPath(subject)}/statements`, {
        statement: { id: 'Q1$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9', ...valueSnak(P, 'potato') }, comment: 'add one',
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers.get('content-type'), 'application/json');
      const [prefix, guid] = res.body.id.split('$');
      assert.equal(prefix, subject);
      assert.match(guid, GUID);
      assert.deepEqual(res.body, {
        id: res.body.id, rank: 'normal', qualifiers: [], references: [],
        property: { id: P, 'data-type': 'string' }, value: { type: 'value', content: 'potato' },
      });
      const location = res.headers.get('location')!;
      assert.equal(location, `${s.url}${entityPath(subject)}/statements/${subject}%24${guid}`);
      const entity = await s.get(entityPath(subject));
      assert.equal(res.headers.get('etag'), entity.headers.get('etag'));
      assert.equal(res.headers.get('last-modified'), entity.headers.get('last-modified'));
      assert.deepEqual(entity.body.statements, { [P]: [res.body] });
      assert.equal((await s.store.revisions(subject, 1))[0].comment, 'add one');
      assert.equal((await s.get(new URL(location).pathname)).body.id, res.body.id);
    });
  }

  it('appends to the property group, and starts a new group at the end', async () => {
    const subject = await createItem(s);
    const a = await addStatement(s, subject, valueSnak(P, 'a'));
    const b = await addStatement(s, subject, valueSnak(P2, 'b'));
    const c = await addStatement(s, subject, valueSnak(P, 'c'));
    const { body } = await s.get(`${entityPath(subject)}/statements`);
    assert.deepEqual(Object.keys(body), [P, P2]);
    assert.deepEqual(body[P].map((x: { id: string }) => x.id), [a.id, c.id]);
    assert.deepEqual(body[P2].map((x: { id: string }) => x.id), [b.id]);
  });

  it('answers 409 redirected-item on a redirected item, and 404 on a missing one', async () => {
    const { subject } = await redirectedItem();
    let res = await s.post(`/v1/entities/items/${subject}/statements`, { statement: valueSnak(P, 'x') });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'redirected-item');
    res = await s.post('/v1/entities/items/Q99999999/statements', { statement: valueSnak(P, 'x') });
    assert.deepEqual(res.body, { code: 'item-not-found', message: 'Could not find an item with the ID: Q99999999' });
    res = await s.post('/v1/entities/properties/P99999999/statements', { statement: valueSnak(P, 'x') });
    assert.equal(res.body.code, 'property-not-found');
  });
});

describe('GET …/statements', () => {
  for (const kind of KINDS) {
    it(`lists a ${kind}'s statement groups, optionally one property's, with the entity's ETag`, async () => {
      const { subject, statement } = await subjectWithStatement(kind);
      const other = await addStatement(s, subject, valueSnak(P2, 'other'));
      const base = `${entityPath(subject)}/statements`;
      let res = await s.get(base);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { [P]: [statement], [P2]: [other] });
      assert.equal(res.headers.get('etag'), (await s.get(entityPath(subject))).headers.get('etag'));
      assert.ok(res.headers.get('last-modified'));
      res = await s.get(`${base}?property=${P2}`);
      assert.deepEqual(res.body, { [P2]: [other] });
      res = await s.get(`${base}?property=${P2.toLowerCase()}`);
      assert.deepEqual(res.body, { [P2]: [other] });
      res = await s.get(`${base}?property=P99999999`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
    });
  }

  it('answers {} for an entity without statements', async () => {
    const res = await s.get(`${entityPath(await createItem(s))}/statements`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
  });

  for (const bad of ['Q1', 'x', '', 'P0']) {
    it(`answers 400 invalid-query-parameter for property=${JSON.stringify(bad)}`, async () => {
      const subject = await createItem(s);
      const res = await s.get(`${entityPath(subject)}/statements?property=${bad}`);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        code: 'invalid-query-parameter', message: "Invalid query parameter: 'property'", context: { parameter: 'property' },
      });
    });
  }

  it('checks the entity id before the filter, and the filter before existence (§7.7)', async () => {
    assert.equal((await s.get('/v1/entities/items/X1/statements?property=x')).body.code, 'invalid-item-id');
    assert.equal((await s.get('/v1/entities/items/Q99999999/statements?property=x')).body.code, 'invalid-query-parameter');
    assert.equal((await s.get('/v1/entities/items/Q99999999/statements')).body.code, 'item-not-found');
    assert.equal((await s.get('/v1/entities/properties/Q1/statements')).body.code, 'invalid-property-id');
  });

  it('answers 308 to the target for a redirected item, keeping the query', async () => {
    const { subject, target } = await redirectedItem();
    const res = await s.get(`/v1/entities/items/${subject}/statements?property=${P}`);
    assert.equal(res.status, 308);
    assert.equal(res.headers.get('location'), `${s.url}/v1/entities/items/${target}/statements?property=${P}`);
  });
});

describe('one statement in every scope', () => {
  for (const kind of KINDS) {
    for (const scope of SCOPES) {
      const label = `${kind} statement via the ${scope.name}`;

      it(`GET: ${label}`, async () => {
        const { subject, statement, id } = await subjectWithStatement(kind);
        const res = await s.get(scope.path(subject, id));
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, statement);
        assert.equal(res.headers.get('etag'), (await s.get(entityPath(subject))).headers.get('etag'));
        assert.ok(res.headers.get('last-modified'));
        // `$` percent-encoded reaches the same statement.
        assert.deepEqual((await s.get(scope.path(subject, id.replace('$', '%24')))).body, statement);
      });

      it(`PUT: ${label} keeps its id and position`, async () => {
        const { subject, id } = await subjectWithStatement(kind);
        const second = await addStatement(s, subject, valueSnak(P, 'second'));
        const before = await snapshot(s, subject);
        const res = await s.put(scope.path(subject, id), {
          statement: { id, rank: 'preferred', ...valueSnak(P, 'replaced') }, comment: 'replace',
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, {
          id, rank: 'preferred', qualifiers: [], references: [],
          property: { id: P, 'data-type': 'string' }, value: { type: 'value', content: 'replaced' },
        });
        assert.notEqual(res.headers.get('etag'), before.etag);
        const after = await snapshot(s, subject);
        assert.equal(res.headers.get('etag'), after.etag);
        assert.deepEqual(after.body.statements[P], [res.body, second]);
        assert.equal(after.revisions, before.revisions + 1);
        // The same body again is a no-op: no revision, same validators.
        const again = await s.put(scope.path(subject, id), { statement: { rank: 'preferred', ...valueSnak(P, 'replaced') } });
        assert.equal(again.status, 200);
        assert.equal(again.headers.get('etag'), after.etag);
        assert.equal(again.headers.get('last-modified'), res.headers.get('last-modified'));
        assert.equal((await snapshot(s, subject)).revisions, after.revisions);
      });

      it(`PATCH: ${label}`, async () => {
        const { subject, id } = await subjectWithStatement(kind);
        const res = await s.patch(scope.path(subject, id), {
          patch: [{ op: 'replace', path: '/value/content', value: 'patched' }, { op: 'replace', path: '/rank', value: 'deprecated' }],
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.id, id);
        assert.equal(res.body.rank, 'deprecated');
        assert.deepEqual(res.body.value, { type: 'value', content: 'patched' });
        const after = await snapshot(s, subject);
        assert.equal(res.headers.get('etag'), after.etag);
        assert.deepEqual(after.body.statements[P], [res.body]);
      });

      it(`DELETE: ${label}; a GET afterwards is 404 and the emptied group is gone`, async () => {
        const { subject, id } = await subjectWithStatement(kind);
        const kept = await addStatement(s, subject, valueSnak(P2, 'kept'));
        const before = await snapshot(s, subject);
        const res = await s.delete(scope.path(subject, id), { comment: 'gone' });
        assert.equal(res.status, 200);
        assert.equal(res.body, 'Statement deleted');
        assert.equal(res.headers.get('content-language'), 'en');
        assert.equal(res.headers.get('content-type'), 'application/json');
        const after = await snapshot(s, subject);
        assert.deepEqual(after.body.statements, { [P2]: [kept] });
        assert.equal(after.revisions, before.revisions + 1);
        assert.equal((await s.store.revisions(subject, 1))[0].comment, 'gone');
        for (const path of [scope.path(subject, id), `/v1/statements/${id}`]) {
          const gone = await s.get(path);
          assert.equal(gone.status, 404);
          assert.deepEqual(gone.body, { code: 'statement-not-found', message: `Could not find a statement with the ID: ${id}` });
        }
        assert.equal((await s.delete(scope.path(subject, id))).status, 404);
      });

      it(`308 to the stored id on a case-mismatched id, on every verb: ${label}`, async () => {
        const { subject, id } = await subjectWithStatement(kind);
        const before = await snapshot(s, subject);
        const lower = id.toLowerCase();
        // §9.2: the request URL with only the id replaced, so `$` stays as the client sent it.
        const expected = `${s.url}${scope.path(subject, id)}`;
        const encoded = await s.get(scope.path(subject, encodeURIComponent(lower)));
        assert.equal(encoded.status, 308);
        assert.equal(encoded.headers.get('location'), `${s.url}${scope.path(subject, encodeURIComponent(id))}`);
        const requests = [
          () => s.get(scope.path(subject, lower)),
          () => s.put(scope.path(subject, lower), { statement: valueSnak(P, 'case') }),
          () => s.patch(scope.path(subject, lower), { patch: [] }),
          () => s.delete(scope.path(subject, lower)),
        ];
        for (const request of requests) {
          const res = await request();
          assert.equal(res.status, 308);
          assert.equal(res.text, '');
          assert.equal(res.headers.get('location'), expected);
        }
        assert.deepEqual(await snapshot(s, subject), before);
      });

      it(`404 statement-not-found for a missing statement of an existing ${kind}: ${scope.name}`, async () => {
        const { subject } = await subjectWithStatement(kind);
        const missing = `${subject}$${MISSING_GUID}`;
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
          const body = method === 'PUT' ? { statement: valueSnak(P, 'x') } : method === 'PATCH' ? { patch: [] } : undefined;
          const res = await s.request(method, scope.path(subject, missing), { body });
          assert.equal(res.status, 404, method);
          assert.deepEqual(res.body, { code: 'statement-not-found', message: `Could not find a statement with the ID: ${missing}` });
        }
      });
    }
  }
});

describe('statement ids in paths', () => {
  it('answers 400 invalid-statement-id for malformed ids on every route', async () => {
    const subject = await createItem(s);
    for (const bad of ['not-a-valid-format', 'X123$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9', 'L123$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9',
      `${subject}$nope`, `${subject}$$F078E5B3-F9A8-480E-B7AC-D97778CBBEF9`]) {
      for (const path of [`/v1/statements/${encodeURIComponent(bad)}`, `${entityPath(subject)}/statements/${encodeURIComponent(bad)}`]) {
        for (const [method, body] of [['GET'], ['PUT', { statement: valueSnak(P, 'x') }], ['PATCH', { patch: [] }], ['DELETE']] as const) {
          const res = await s.request(method, path, { body });
          assert.equal(res.status, 400, `${method} ${path}`);
          assert.deepEqual(res.body, { code: 'invalid-statement-id', message: `Not a valid statement ID: ${bad}` });
        }
      }
    }
  });

  it('checks the entity id of a long route first', async () => {
    let res = await s.get('/v1/entities/items/X123/statements/nonsense');
    assert.deepEqual(res.body, { code: 'invalid-item-id', message: 'Not a valid item ID: X123' });
    res = await s.put('/v1/entities/properties/Q1/statements/nonsense', { statement: {} });
    assert.equal(res.body.code, 'invalid-property-id');
  });

  it('answers item-not-found / property-not-found when the path entity is missing', async () => {
    let res = await s.get(`/v1/entities/items/Q99999999/statements/Q99999999$${MISSING_GUID}`);
    assert.deepEqual(res.body, { code: 'item-not-found', message: 'Could not find an item with the ID: Q99999999' });
    res = await s.delete(`/v1/entities/properties/P99999999/statements/P99999999$${MISSING_GUID}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'property-not-found');
  });

  it("answers 404 statement-not-found for another entity's statement under a path (D6), before existence", async () => {
    const { subject, id } = await subjectWithStatement('item');
    const other = await createItem(s);
    const property = await createProperty(s, 'string');
    const before = await snapshot(s, subject);
    for (const path of [
      `${entityPath(other)}/statements/${id}`,
      `${entityPath(property)}/statements/${id}`,
      `/v1/entities/items/Q99999999/statements/${id}`, // the mismatch wins over the missing item
    ]) {
      for (const [method, body] of [['GET'], ['PUT', { statement: valueSnak(P, 'x') }], ['PATCH', { patch: [] }], ['DELETE']] as const) {
        const res = await s.request(method, path, { body });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.deepEqual(res.body, { code: 'statement-not-found', message: `Could not find a statement with the ID: ${id}` });
      }
    }
    assert.deepEqual(await snapshot(s, subject), before);
  });

  it('answers 404 statement-not-found on the global route when the subject does not exist', async () => {
    for (const id of [`Q99999999$${MISSING_GUID}`, `P99999999$${MISSING_GUID}`]) {
      const res = await s.get(`/v1/statements/${id}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'statement-not-found');
    }
  });

  it('serves imported statements whose ids keep a lower-case prefix, and redirects the upper-case spelling', async () => {
    const subject = await createItem(s);
    const stored = `${subject.toLowerCase()}$B3580D37-D30E-4BC6-A591-2CE49253CAB4`;
    const entity = (await s.get(entityPath(subject))).body as Entity;
    entity.statements = { [P]: [{ id: stored, rank: 'normal', qualifiers: [], references: [],
      property: { id: P, 'data-type': 'string' }, value: { type: 'value', content: 'imported' } }] };
    await s.store.importEntities([entity], { user: 'import', comment: null, tags: [], bot: true });
    for (const path of [`/v1/statements/${stored}`, `${entityPath(subject)}/statements/${stored}`]) {
      assert.equal((await s.get(path)).body.value.content, 'imported');
    }
    const res = await s.get(`/v1/statements/${stored.toUpperCase()}`);
    assert.equal(res.status, 308);
    assert.equal(res.headers.get('location'), `${s.url}/v1/statements/${stored}`);
    const patched = await s.patch(`/v1/statements/${stored}`, { patch: [{ op: 'replace', path: '/value/content', value: 'edited' }] });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.id, stored);
  });
});

/** An item with a statement, turned into a redirect to another item as a merge would (no route does this). */
async function redirectedItem() {
  const { subject, id } = await subjectWithStatement('item');
  const target = await createItem(s);
  await s.store.redirectEntity(subject, target, { user: 'merge', comment: null, tags: [], bot: false });
  return { subject, id, target };
}

describe('statements of a redirected item (§9.1)', () => {
  it('answers 404 statement-not-found on every verb of the entity and global routes', async () => {
    const { subject, id } = await redirectedItem();
    for (const path of [`/v1/entities/items/${subject}/statements/${id}`, `/v1/statements/${id}`]) {
      for (const [method, body] of [['GET'], ['PUT', { statement: valueSnak(P, 'x') }], ['PATCH', { patch: [] }], ['DELETE']] as const) {
        const res = await s.request(method, path, { body });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.body.code, 'statement-not-found');
      }
    }
  });
});

describe('conditional requests on statements (§8: the subject entity decides)', () => {
  for (const scope of SCOPES) {
    it(`answers 304 / 412 against the subject's revision: ${scope.name}`, async () => {
      const { subject, id } = await subjectWithStatement('item');
      const path = scope.path(subject, id);
      const { etag } = await snapshot(s, subject);
      let res = await s.get(path, { 'if-none-match': etag! });
      assert.equal(res.status, 304);
      assert.equal(res.headers.get('etag'), etag);
      const before = await snapshot(s, subject);
      res = await s.put(path, { statement: valueSnak(P, 'stale') }, { 'if-match': '"1"' });
      assert.equal(res.status, 412);
      res = await s.delete(path, undefined, { 'if-match': '"1"' });
      assert.equal(res.status, 412);
      res = await s.post(`${entityPath(subject)}/statements`, { statement: valueSnak(P, 'stale') }, { 'if-match': '"1"' });
      assert.equal(res.status, 412);
      assert.deepEqual(await snapshot(s, subject), before);
      res = await s.patch(path, { patch: [{ op: 'replace', path: '/value/content', value: 'fresh' }] }, { 'if-match': etag! });
      assert.equal(res.status, 200);
    });
  }
});

describe('edit metadata and permissions on statement routes', () => {
  it('refuses bad tags and over-long comments without editing', async () => {
    const { subject, id } = await subjectWithStatement('item');
    const before = await snapshot(s, subject);
    let res = await s.put(`/v1/statements/${id}`, { statement: valueSnak(P, 'x'), tags: ['nope'] });
    assert.deepEqual(res.body, { code: 'invalid-value', message: "Invalid value at '/tags/0'", context: { path: '/tags/0' } });
    res = await s.delete(`/v1/statements/${id}`, { comment: 'x'.repeat(501) });
    assert.deepEqual(res.body.context, { path: '/comment', limit: 500 });
    res = await s.post(`${entityPath(subject)}/statements`, { statement: valueSnak(P, 'x'), bot: 'yes' });
    assert.deepEqual(res.body.context, { path: '/bot' });
    assert.deepEqual(await snapshot(s, subject), before);
  });

  it('asks the guard about the subject entity, and a 403 changes nothing', async () => {
    const protectedIds = new Set<string>();
    const guarded = await startServer({
      guard: {
        async authorize(_ctx, id) {
          if (id !== null && protectedIds.has(id)) fail('permission-denied', { denial_reason: 'resource-protected', denial_context: '' });
        },
        async consume() {},
      },
    });
    try {
      const property = await createProperty(guarded, 'string');
      const subject = await createItem(guarded);
      const { id } = await addStatement(guarded, subject, valueSnak(property, 'guarded'));
      protectedIds.add(subject);
      const before = await snapshot(guarded, subject);
      for (const res of [
        await guarded.post(`${entityPath(subject)}/statements`, { statement: valueSnak(property, 'x') }),
        await guarded.put(`/v1/statements/${id}`, { statement: valueSnak(property, 'x') }),
        await guarded.patch(`${entityPath(subject)}/statements/${id}`, { patch: [] }),
        await guarded.delete(`/v1/statements/${id}`),
      ]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'permission-denied');
      }
      assert.deepEqual(await snapshot(guarded, subject), before);
    } finally {
      await guarded.close();
    }
  });
});

describe('statement routes in the route table', () => {
  it('are documented in the OpenAPI document, and other methods answer 405 with Allow', async () => {
    const { paths } = (await s.get('/v1/openapi.json')).body;
    for (const path of ['/v1/statements/{statement_id}', '/v1/entities/items/{item_id}/statements/{statement_id}',
      '/v1/entities/properties/{property_id}/statements/{statement_id}']) {
      assert.deepEqual(Object.keys(paths[path]).sort(), ['delete', 'get', 'patch', 'put'], path);
    }
    assert.deepEqual(Object.keys(paths['/v1/entities/items/{item_id}/statements']).sort(), ['get', 'post']);
    const res = await s.post(`/v1/statements/Q1$${MISSING_GUID}`, { statement: {} });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, PUT, PATCH, DELETE');
  });
});
