// Every write route of the route table goes through the guard (docs/api.md §2.5: 403 and 429 apply to all
// writes): one valid request per route, sent as each kind of client that must be refused. The routes come
// from bindRoutes(ROUTES), so a route added later is covered, or this test says which body it needs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bindRoutes, type BoundRoute } from '../../src/http/rest/route.js';
import { buildGuard } from '../../src/http/guard.js';
import type { RateLimiter } from '../../src/http/rate-limit.js';
import { ROUTES } from '../../src/http/rest/routes.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser, snapshot, startSecureServer } from '../helpers/secure.js';

/** Routes that change the store; a read whose parameters travel in a POST body is not one. */
const WRITES = bindRoutes(ROUTES).filter((b) => b.route.method !== 'GET' && !b.route.readOnly);
/**
 * A QuickStatements batch refuses a client that may not edit at all (403) before it runs; a protected entity or a
 * spent budget is reported per command (quickstatements.test.ts), as the batch's other commands still run.
 */
const perCommand = (b: BoundRoute) => b.route.returns === 'QuickStatements';

interface Fixture {
  item: string;
  /** Another item, with nothing that conflicts with the first's: a merge's target. */
  other: string;
  property: string;
  statements: { item: string; property: string };
  /** A revision of each entity whose content differs from the current one (for reverts). */
  revisions: { item: number; property: number };
  /** The latest revision of each, which changed something (for undo). */
  latest: { item: number; property: number };
}

/** An item and a property with an English label and description, a statement each, and a sitelink. */
async function fixture(s: TestServer): Promise<Fixture> {
  const auth = await addUser(s.store, `setup${Math.random().toString(36).slice(2, 8)}`);
  const post = async (path: string, body: unknown) => {
    const res = await s.post(path, body, auth);
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const property = await post('/v1/entities/properties', { property: {
    data_type: 'string', labels: { en: `prop ${Math.random()}` }, descriptions: { en: 'a property' } } });
  const statement = { [property.id]: [{ property: { id: property.id }, value: { type: 'value', content: 'old' } }] };
  const item = await post('/v1/entities/items', { item: {
    labels: { en: 'guarded' }, descriptions: { en: `an item ${Math.random()}` }, statements: statement,
    sitelinks: { enwiki: { title: `Guarded ${Math.random()}` } } } });
  const withStatement = await s.post(`/v1/entities/properties/${property.id}/statements`,
    { statement: { property: { id: property.id }, value: { type: 'value', content: 'x' } } }, auth);
  const other = await post('/v1/entities/items', { item: { labels: { de: `anderes ${Math.random()}` } } });
  const firstOf = async (path: string) => Number((await s.get(`${path}/history`)).body.revisions.at(-1).id);
  const latestOf = async (path: string) => Number((await s.get(`${path}/history`)).body.revisions[0].id);
  const relabelled = await s.put(`/v1/entities/items/${item.id}/labels/en`, { label: `guarded ${Math.random()}` }, auth);
  assert.equal(relabelled.status, 200, relabelled.text);
  return {
    item: item.id,
    other: other.id,
    property: property.id,
    statements: { item: item.statements[property.id][0].id, property: withStatement.body.id },
    revisions: { item: await firstOf(`/v1/entities/items/${item.id}`), property: await firstOf(`/v1/entities/properties/${property.id}`) },
    latest: { item: await latestOf(`/v1/entities/items/${item.id}`), property: await latestOf(`/v1/entities/properties/${property.id}`) },
  };
}

/** A path with real ids and a body that would succeed and change the entity, for any write route. */
function validRequest(b: BoundRoute, f: Fixture): { path: string; body: Record<string, unknown> } {
  const onProperty = b.kind?.name === 'property';
  const path = b.path
    .replace('{item_id}', f.item).replace('{property_id}', f.property).replace('{language_code}', 'en').replace('{site_id}', 'enwiki')
    .replace('{statement_id}', encodeURIComponent(onProperty ? f.statements.property : f.statements.item));
  const schema = typeof b.route.body === 'function' ? b.route.body(b.kind!) : b.route.body;
  const field = (schema as { required?: string[] } | undefined)?.required?.[0];
  const patchFor = (): unknown[] => {
    if (b.path.includes('{statement_id}')) return [{ op: 'replace', path: '/rank', value: 'preferred' }];
    if (b.path.endsWith('/labels') || b.path.endsWith('/descriptions')) return [{ op: 'add', path: '/fr', value: 'neu' }];
    if (b.path.endsWith('/aliases')) return [{ op: 'add', path: '/fr', value: ['neu'] }];
    if (b.path.endsWith('/sitelinks')) return [{ op: 'add', path: '/frwiki', value: { title: `Neu ${Math.random()}` } }];
    return [{ op: 'add', path: '/labels/fr', value: 'neu' }];
  };
  const payloads: Record<string, () => unknown> = {
    item: () => ({ labels: { en: `new ${Math.random()}` } }),
    property: () => ({ data_type: 'string' }),
    patch: patchFor,
    label: () => 'new label',
    description: () => 'new description',
    aliases: () => ['new alias'],
    statement: () => ({ property: { id: f.property }, value: { type: 'value', content: 'new' } }),
    sitelink: () => ({ title: `New page ${Math.random()}` }),
    // A revert goes back to the first revision; an undo takes back the latest.
    revision: () => (b.path.endsWith('/undo') ? (onProperty ? f.latest.property : f.latest.item)
      : onProperty ? f.revisions.property : f.revisions.item),
    into: () => f.other,
    commands: () => `${f.item}\tLfr\t"neu"`,
  };
  if (field === undefined) return { path, body: {} };
  const make = payloads[field];
  assert.ok(make, `extend validRequest in ${import.meta.url} for the payload field '${field}' of ${b.route.method} ${b.path}`);
  return { path, body: { [field]: make() } };
}

const label = (b: BoundRoute) => `${b.route.method} ${b.path}`;

describe('every write route asks the guard', () => {
  let s: TestServer;
  let f: Fixture;
  let alice: Record<string, string>;
  before(async () => {
    s = await startSecureServer({ editMode: 'token' });
    alice = await addUser(s.store, 'alice');
    f = await fixture(s);
  });
  after(() => s.close());

  async function expectDenied(headers: Record<string, string>, extra: Record<string, unknown>, reason: (b: BoundRoute) => string | null) {
    for (const b of WRITES) {
      const expected = reason(b);
      if (expected === null) continue;
      const { path, body } = validRequest(b, f);
      const before = await snapshot(s.store);
      const res = await s.request(b.route.method, path, { body: { ...body, ...extra }, headers });
      assert.equal(res.status, 403, `${label(b)}: ${res.text}`);
      assert.equal(res.body.context.denial_reason, expected, label(b));
      assert.equal(await snapshot(s.store), before, `${label(b)} changed the store`);
    }
  }

  it('refuses anonymous requests in token mode', async () => {
    await expectDenied({}, {}, () => 'unauthenticated');
  });

  it('refuses edits of protected entities to non-admins', async () => {
    await s.store.accounts.setProtected(f.item, true);
    await s.store.accounts.setProtected(f.property, true);
    await expectDenied(alice, {}, (b) => (b.route.creation || perCommand(b) ? null : 'resource-protected'));
  });
});

describe('every write route spends the budget', () => {
  it('answers 429 with Retry-After when the limiter refuses, writing nothing', async () => {
    // The fixture is written with no limit; then the same file is served with a limiter that refuses all.
    const setup = await startSecureServer();
    const f = await fixture(setup);
    const dbPath = setup.dbPath;
    await setup.close({ keepFiles: true });
    const refusing: RateLimiter = { async hit() { return { allowed: false, retryAfterSeconds: 7 }; } };
    const config = { rateCreate: { count: 1, windowSeconds: 60 }, rateEdit: { count: 1, windowSeconds: 60 } };
    const s = await startServer({ dbPath, config,
      guard: (store, cfg) => buildGuard({ config: cfg, accounts: store.accounts, limiter: refusing }) });
    try {
      for (const b of WRITES.filter((w) => !perCommand(w))) {
        const { path, body } = validRequest(b, f);
        const before = await snapshot(s.store);
        const res = await s.request(b.route.method, path, { body });
        assert.equal(res.status, 429, `${label(b)}: ${res.text}`);
        assert.equal(res.headers.get('retry-after'), '7', label(b));
        assert.equal(await snapshot(s.store), before, `${label(b)} changed the store`);
      }
    } finally {
      await s.close(); // drops the database the setup server made
    }
  });
});
