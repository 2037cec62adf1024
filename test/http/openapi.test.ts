// The OpenAPI document describes the server as it is: every route of the table is exercised over real HTTP
// with a valid request, a malformed parameter and a missing entity, and each real response is validated
// against the document (status documented for the route, error code listed, body matching its schema).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bindRoutes, type BoundRoute } from '../../src/http/rest/route.js';
import { ROUTES } from '../../src/http/rest/routes.js';
import { responseChecker, type ResponseCheck } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let check: ResponseCheck;
let property: string;
let pageNumber = 0;

before(async () => {
  s = await startServer();
  check = responseChecker((await s.get('/v1/openapi.json')).body);
  property = (await s.post('/v1/entities/properties', { property: { data_type: 'string', labels: { en: 'openapi property' } } })).body.id;
});
after(async () => { await s.close(); });

/** A fresh item (or property) with a term of each kind, a statement and (items) a sitelink, so any route can act on it. */
async function subject(kind: 'item' | 'property'): Promise<{ id: string; statement: string }> {
  const n = ++pageNumber;
  const data: Record<string, unknown> = {
    labels: { en: `${kind} ${n}` }, descriptions: { en: `described ${n}` }, aliases: { en: [`alias ${n}`] },
    statements: { [property]: [{ property: { id: property }, value: { type: 'value', content: `value ${n}` } }] },
  };
  if (kind === 'item') data.sitelinks = { enwiki: { title: `OpenAPI page ${n}` } };
  else data.data_type = 'string';
  const res = await s.post(`/v1/entities/${kind === 'item' ? 'items' : 'properties'}`, { [kind]: data });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.id, statement: res.body.statements[property][0].id };
}

/** A valid body for a write route, by what its path ends with. */
function validBody(b: BoundRoute): unknown {
  const { method } = b.route;
  const p = b.path;
  if (method === 'DELETE') return {};
  if (method === 'POST' && p === '/v1/entities/items') return { item: { labels: { en: `created ${++pageNumber}` } } };
  if (method === 'POST' && p === '/v1/entities/properties') return { property: { data_type: 'string' } };
  if (method === 'POST' && p === '/v1/entities') return { ids: [property, 'Q999999999'] };
  if (p === '/v1/quickstatements') return { commands: `CREATE\nLAST\tLen\t"quickstatements ${++pageNumber}"` };
  const statement = { property: { id: property }, value: { type: 'value', content: 'new value' } };
  if (p.endsWith('/statements')) return { statement };
  if (p.includes('{statement_id}')) {
    return method === 'PUT' ? { statement } : { patch: [{ op: 'replace', path: '/value/content', value: 'patched' }] };
  }
  if (p.endsWith('/aliases/{language_code}')) return { aliases: ['another alias'] };
  if (p.endsWith('/labels/{language_code}')) return { label: `new label ${++pageNumber}` };
  if (p.endsWith('/descriptions/{language_code}')) return { description: `new description ${++pageNumber}` };
  if (p.endsWith('/sitelinks/{site_id}')) return { sitelink: { title: `Put page ${++pageNumber}` } };
  if (p.endsWith('/labels') || p.endsWith('/descriptions')) return { patch: [{ op: 'add', path: '/de', value: `de ${++pageNumber}` }] };
  if (p.endsWith('/aliases')) return { patch: [{ op: 'add', path: '/de', value: ['de alias'] }] };
  if (p.endsWith('/sitelinks')) return { patch: [{ op: 'add', path: '/dewiki', value: { title: `De page ${++pageNumber}` } }] };
  if (p.endsWith('/revert')) return { revision: 'REVISION' }; // the subject's own revision, filled in by exercise()
  // The subject's latest revision, which took its label in a third language (filled in by exercise()).
  if (p.endsWith('/undo')) return { revision: 'UNDO_REVISION' };
  // Into an item of its own; its description and sitelink conflict with the subject's, so those are left behind.
  if (p.endsWith('/merge')) return { into: 'NEW_ITEM', ignore_conflicts: ['description', 'sitelink'] };
  return { patch: [{ op: 'add', path: '/labels/fr', value: `fr ${++pageNumber}` }] };
}

async function pathFor(b: BoundRoute, override: Record<string, string> = {}): Promise<string> {
  const kind = b.path.includes('{property_id}') ? 'property' : 'item';
  const needsSubject = /\{(item_id|property_id|statement_id)\}/.test(b.path);
  const fresh = needsSubject ? await subject(kind) : { id: '', statement: '' };
  const values: Record<string, string> = {
    item_id: fresh.id, property_id: fresh.id, statement_id: encodeURIComponent(fresh.statement),
    language_code: 'en', site_id: 'enwiki', revision_id: 'REVISION', ...override,
  };
  let path = b.path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name]);
  if (b.path.includes('/search/') || b.path.includes('/suggest/')) path += '?q=openapi&lang=en';
  if (b.path === '/v1/entities' && b.route.method === 'GET') path += `?ids=${property},Q999999999`;
  if (/^\/v1\/entities\/(items|properties)$/.test(b.path) && b.route.method === 'GET') path += '?statement=P1:*&limit=2';
  return path;
}

async function exercise(b: BoundRoute, path: string, body?: unknown, headers?: Record<string, string>) {
  // A revert or a revision route names one of the subject's revisions: its current one.
  const needsRevision = (body as { revision?: unknown } | undefined)?.revision === 'REVISION' || path.includes('/revisions/REVISION');
  const revision = needsRevision ? await currentRevision(path) : null;
  if (revision !== null) {
    path = path.replace('/revisions/REVISION', `/revisions/${revision}`);
    if ((body as { revision?: unknown } | undefined)?.revision === 'REVISION') body = { revision };
  }
  if ((body as { into?: unknown } | undefined)?.into === 'NEW_ITEM') body = { ...body as object, into: (await subject('item')).id };
  if ((body as { revision?: unknown } | undefined)?.revision === 'UNDO_REVISION') body = { revision: await editToUndo(path) };
  const res = await fetch(s.url + path, {
    method: b.route.method, redirect: 'manual',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const problem = check(b.path, b.route.method, res.status, text);
  return { status: res.status, text, problem };
}

/** A revision that gave the entity a path names an Esperanto label, to be undone (none: one no entity has). */
async function editToUndo(path: string): Promise<number> {
  const entity = /^\/v1\/entities\/(items|properties)\/([^/]+)/.exec(path);
  const res = entity ? await s.put(`/v1/entities/${entity[1]}/${entity[2]}/labels/eo`, { label: `undo me ${++pageNumber}` }) : null;
  return res?.status === 200 || res?.status === 201 ? Number(res.headers.get('etag')!.replaceAll('"', '')) : 999_999_999;
}

/** The current revision of the entity a path names (0 when it has none, so that the route answers 404). */
async function currentRevision(path: string): Promise<number> {
  const entity = /^\/v1\/entities\/(items|properties)\/([^/]+)/.exec(path);
  const res = entity ? await s.get(`/v1/entities/${entity[1]}/${entity[2]}`) : null;
  return res?.status === 200 ? Number(res.headers.get('etag')!.replaceAll('"', '')) : 999_999_999;
}

const bound = bindRoutes(ROUTES);

describe('every route answers as its OpenAPI operation says', () => {
  for (const b of bound) {
    const label = `${b.route.method} ${b.path}`;
    it(`${label}: success`, async () => {
      const body = b.route.method === 'GET' ? undefined : validBody(b);
      const res = await exercise(b, await pathFor(b), body);
      assert.ok(res.status < 300, `${label}: ${res.status} ${res.text}`);
      assert.equal(res.problem, null);
    });

    const params = [...b.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (params.length > 0) {
      it(`${label}: a malformed and a missing parameter`, async () => {
        const body = b.route.method === 'GET' ? undefined : validBody(b);
        const malformed = await exercise(b, await pathFor(b, { [params[0]]: 'X%20not%20valid' }), body);
        assert.ok(malformed.status >= 400, `${label}: ${malformed.status}`);
        assert.equal(malformed.problem, null);
        const missing = { item_id: 'Q999999999', property_id: 'P999999999', statement_id: 'Q999999999%24F078E5B3-F9A8-480E-B7AC-D97778CBBEF9',
          language_code: 'de', site_id: 'dewiki', revision_id: '999999999' }[params[0]]!;
        const absent = await exercise(b, await pathFor(b, { [params[0]]: missing }), body);
        assert.equal(absent.problem, null, `${label}: ${absent.status} ${absent.text}`);
      });
    }
  }

  it('documents 304 and 412 with empty bodies', async () => {
    const entity = bound.find((b) => b.route.method === 'GET' && b.path === '/v1/entities/items/{item_id}')!;
    const { id } = await subject('item');
    const etag = (await s.get(`/v1/entities/items/${id}`)).headers.get('etag')!;
    const notModified = await exercise(entity, `/v1/entities/items/${id}`, undefined, { 'if-none-match': etag });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.problem, null);
    const patch = bound.find((b) => b.route.method === 'PATCH' && b.path === '/v1/entities/items/{item_id}')!;
    const failed = await exercise(patch, `/v1/entities/items/${id}`, { patch: [] }, { 'if-match': '"1"' });
    assert.equal(failed.status, 412);
    assert.equal(failed.problem, null);
  });

  it('the check itself refuses what the document does not allow', () => {
    const item = '/v1/entities/items/{item_id}';
    assert.equal(check(item, 'GET', 200, '{"id":"Q1","labels":{}}'), null);
    assert.match(check(item, 'GET', 200, '{"labels":{}}')!, /must have required property 'id'/);
    assert.match(check(item, 'GET', 200, '{"id":"Q1","labels":{"en":7}}')!, /must be string/);
    assert.match(check(item, 'GET', 404, '{"code":"sitelink-not-defined","message":"x"}')!, /must be equal to one of the allowed values/);
    assert.match(check(item, 'GET', 201, '{}')!, /does not document status 201/);
    assert.match(check(item, 'GET', 304, '{"x":1}')!, /documents an empty body/);
  });

  it('describes itself, conditional headers and the JSON Patch media type', async () => {
    const doc = (await s.get('/v1/openapi.json')).body;
    assert.ok(doc.paths['/v1/openapi.json'].get);
    const patchItem = doc.paths['/v1/entities/items/{item_id}'].patch;
    assert.ok(patchItem.requestBody.content['application/json-patch+json']);
    assert.deepEqual(patchItem.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name).sort(),
      ['If-Match', 'If-None-Match', 'If-Unmodified-Since']);
    assert.ok(doc.paths['/v1/entities/items/{item_id}'].get.responses['200'].content['application/json'].schema.$ref);
    // Only what the route can answer: no sitelink codes on a label route.
    const codes = JSON.stringify(doc.paths['/v1/entities/items/{item_id}/labels/{language_code}'].get.responses);
    assert.doesNotMatch(codes, /sitelink-not-defined|patch-test-failed/);
    assert.match(codes, /label-not-defined/);
  });
});
