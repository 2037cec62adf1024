// The storage contract on PostgreSQL (ENTIA_TEST_POSTGRES), in a fresh schema dropped afterwards, plus the
// guarantees that only matter with several processes: each PostgresStore below has its own connection pool,
// exactly as separate server processes would. Unset: one named skip. Set but unreachable: the tests fail.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { emptyEntity, type Entity } from '../../src/domain/entity.js';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { EditConflict, PolicyViolation, type EditMeta, type PolicyChecks } from '../../src/store/store.js';
import { dropSchema, postgresSkipReason, postgresUrl, uniqueSchemaName } from '../helpers/store.js';
import { storeContract } from './contract.js';

const META: EditMeta = { user: 'tester', comment: null, tags: ['t'], bot: false };

if (!postgresUrl) {
  it('store contract: postgres', { skip: postgresSkipReason! }, () => {});
} else {
  const url = postgresUrl;
  const schema = uniqueSchemaName();
  storeContract('postgres', () => openPostgresStore({ url, schema, poolSize: 4 }), () => dropSchema(schema));
  describe('postgres: many processes over one database', () => crossProcessTests(url));
}

function crossProcessTests(url: string): void {
  const schema = uniqueSchemaName();
  const open: PostgresStore[] = [];
  const stores = async (n: number): Promise<PostgresStore[]> => {
    const list = await Promise.all(Array.from({ length: n }, () => openPostgresStore({ url, schema, poolSize: 3 })));
    open.push(...list);
    return list;
  };
  after(async () => {
    await Promise.all(open.map((s) => s.close()));
    await dropSchema(schema);
  });

  async function create(store: PostgresStore, entity: Entity, checks: PolicyChecks = {}): Promise<Entity> {
    const withId = { ...entity, id: await store.allocateId(entity.type) };
    await store.applyEdit({ entity: withId, previous: null, meta: META, checks });
    return withId;
  }

  const outcome = (r: PromiseSettledResult<unknown>) =>
    r.status === 'fulfilled' ? 'ok' : r.reason instanceof EditConflict ? 'conflict'
      : r.reason instanceof PolicyViolation ? r.reason.detail.violation : String(r.reason);

  it('migrates once when several processes start together on an empty schema', async () => {
    const [a] = await stores(4);
    const { rows } = await a.pool.query('SELECT version FROM entia_migrations ORDER BY version');
    assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((_, i) => i + 1));
  });

  it('lets exactly one of many edits from the same head win', async () => {
    const [a, b, c] = await stores(3);
    const item = await create(a, emptyEntity('', 'item'));
    const read = await b.readEntity(item.id);
    if (read.status !== 'found') throw new Error('missing');
    const results = await Promise.allSettled([a, b, c, a, b, c].map((s, i) => s.applyEdit({
      entity: { ...item, labels: { en: `v${i}` } }, previous: read, meta: META, checks: {},
    })));
    assert.deepEqual(results.map(outcome).sort(), ['conflict', 'conflict', 'conflict', 'conflict', 'conflict', 'ok']);
    const revisions = await c.revisions(item.id, 10);
    assert.equal(revisions.length, 2);
    assert.ok(revisions[0].revision > revisions[1].revision);
    assert.deepEqual(revisions[0].tags, ['t']);
  });

  it('makes an edit out of turn wait while another process holds the entity\'s turn, so the turn cannot lose', async () => {
    const [a, b] = await stores(2);
    const item = await create(a, { ...emptyEntity('Q0', 'item'), labels: { en: 'turn taker' } });
    const read = await b.readEntity(item.id, 'edit');
    assert.equal(read.status, 'found');
    if (read.status !== 'found') return;
    let released!: () => void;
    const turnHeld = new Promise<void>((resolve) => { released = resolve; });
    let tookTurn!: () => void;
    const turnTaken = new Promise<void>((resolve) => { tookTurn = resolve; });
    const inTurn = a.inTurn(item.id, async () => { tookTurn(); await turnHeld; });
    await turnTaken;
    let done = false;
    const outOfTurn = b.applyEdit({ entity: { ...read.entity, labels: { en: 'out of turn' } }, previous: read, meta: META, checks: {} })
      .then(() => { done = true; });
    await new Promise((r) => setTimeout(r, 300));
    const waited = !done;
    released();
    await inTurn;
    assert.ok(waited, 'the edit out of turn waited for the turn to end');
    await outOfTurn;
    assert.equal(done, true);
  });

  it('allocates distinct ids across processes', async () => {
    const list = await stores(3);
    const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => list[i % 3].allocateId(i % 2 ? 'item' : 'property')));
    assert.equal(new Set(ids).size, 60);
  });

  it('lets one of concurrent creations with the same label and description through', async () => {
    const list = await stores(3);
    const entity = { ...emptyEntity('', 'item'), labels: { en: 'Twin' }, descriptions: { en: 'race' } };
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) =>
      create(list[i % 3], entity, { labelDescriptionLanguages: ['en'] })));
    assert.deepEqual(results.map(outcome).sort(), [
      ...Array(5).fill('item-label-description-duplicate'), 'ok']);
    const winner = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<Entity>).value;
    for (const r of results) {
      if (r.status === 'rejected') assert.equal((r.reason as PolicyViolation).detail.conflictingId, winner.id);
    }
  });

  it('lets one of concurrent properties with the same label through', async () => {
    const list = await stores(2);
    const entity = { ...emptyEntity('', 'property', 'string'), labels: { de: 'Doppel' } };
    const results = await Promise.allSettled(Array.from({ length: 4 }, (_, i) =>
      create(list[i % 2], entity, { propertyLabelLanguages: ['de'] })));
    assert.deepEqual(results.map(outcome).sort(), ['ok', ...Array(3).fill('property-label-duplicate')]);
  });

  it('gives a page to exactly one of the items claiming it at once', async () => {
    const list = await stores(3);
    const items = await Promise.all(list.map((s) => create(s, emptyEntity('', 'item'))));
    const results = await Promise.allSettled(items.map(async (item, i) => {
      const read = await list[i].readEntity(item.id);
      if (read.status !== 'found') throw new Error('missing');
      // Without the policy check: the primary key alone must hold.
      return list[i].applyEdit({
        entity: { ...item, sitelinks: { enwiki: { title: 'Contested', badges: [] }, dewiki: { title: `Own ${i}`, badges: [] } } },
        previous: read, meta: META, checks: {},
      });
    }));
    assert.deepEqual(results.map(outcome).sort(), ['ok', 'sitelink-conflict', 'sitelink-conflict']);
    const winner = items[results.findIndex((r) => r.status === 'fulfilled')];
    for (const r of results) {
      if (r.status === 'rejected') assert.equal((r.reason as PolicyViolation).detail.conflictingId, winner.id);
    }
    // The losers wrote nothing, not even their uncontested page.
    const loserIndex = results.findIndex((r) => r.status === 'rejected');
    assert.equal((await list[0].revisions(items[loserIndex].id, 5)).length, 1);
    const probe = { ...emptyEntity('Q0', 'item'), sitelinks: { dewiki: { title: `Own ${loserIndex}`, badges: [] } } };
    assert.equal(await list[0].findViolation(probe, { sitelinkSites: ['dewiki'] }), null);
  });

  it('keeps the stored JSON byte for byte, key order included', async () => {
    const [a] = await stores(1);
    const item = await create(a, { ...emptyEntity('', 'item'), labels: { zh: '土豆', en: 'potato', de: 'Kartoffel' } });
    const read = await a.readEntity(item.id);
    assert.equal(read.status === 'found' && JSON.stringify(read.entity), JSON.stringify(item));
  });

  it('raises the id sequences on import, and never lowers them', async () => {
    const fresh = uniqueSchemaName();
    const store = await openPostgresStore({ url, schema: fresh, poolSize: 2 });
    try {
      await store.importEntities([emptyEntity('Q1', 'item')], META);
      assert.equal(await store.allocateId('item'), 'Q2');
      for (let i = 0; i < 5; i++) await store.allocateId('item');
      await store.importEntities([emptyEntity('Q3', 'item'), emptyEntity('Q3', 'item')], META);
      assert.equal(await store.allocateId('item'), 'Q8');
      assert.equal((await store.revisions('Q3', 5)).length, 2);
    } finally {
      await store.close();
      await dropSchema(fresh);
    }
  });

  it('gives the newest change as the head when transaction ids cross a power of ten', async () => {
    // Transaction ids are the feed's order (ADR 0006). A fresh cluster passes 10,000 early in a test run: the
    // head was once ordered by the ids' text, so 9988 came after 10001 and the head stayed behind the feed.
    // The two ids must be in the cluster's past, or the feed (which gives only what every reader can see) holds
    // them back: on either side of the largest power of ten below the oldest transaction still running.
    const fresh = uniqueSchemaName();
    const store = await openPostgresStore({ url, schema: fresh, poolSize: 2 });
    try {
      const older = await create(store, emptyEntity('', 'item'));
      const newer = await create(store, emptyEntity('', 'item'));
      const { rows: [{ xmin }] } = await store.pool.query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
      let power = 10n;
      while (power * 10n < BigInt(xmin)) power *= 10n;
      const [below, above] = [String(power - 1n), String(power + 1n)];
      assert.ok(BigInt(above) < BigInt(xmin), `the cluster has run ${xmin} transactions, too few for this test`);
      await store.pool.query(`UPDATE "${fresh}".revisions SET xid = (CASE WHEN entity_id = $1 THEN $2 ELSE $3 END)::xid8`, [older.id, below, above]);
      const [head, committed] = [await store.changesHead(), await store.changesCommitted()];
      const newest = (await store.changes({ since: null, limit: 10 })).at(-1)!;
      assert.equal(newest.entity, newer.id);
      assert.ok(newest.cursor.startsWith(`${above}.`), newest.cursor);
      assert.equal(head, newest.cursor);
      assert.equal(committed, newest.cursor);
    } finally {
      await store.close();
      await dropSchema(fresh);
    }
  });

  it('makes a kind\'s id sequence at open when the schema lacks it (a kind added after the store was made)', async () => {
    const fresh = uniqueSchemaName();
    const first = await openPostgresStore({ url, schema: fresh, poolSize: 1 });
    try {
      await first.pool.query(`DROP SEQUENCE "${fresh}".property_ids`);
      await assert.rejects(first.allocateId('property'), /property_ids/);
      await first.close();
      const reopened = await openPostgresStore({ url, schema: fresh, poolSize: 1 });
      assert.equal(await reopened.allocateId('property'), 'P1');
      await reopened.close();
    } finally {
      await dropSchema(fresh);
    }
  });

  it('builds the incoming-links index again at open when its condition is not the kinds\' (a kind added later)', async () => {
    const fresh = uniqueSchemaName();
    const definition = async (store: Awaited<ReturnType<typeof openPostgresStore>>) => (await store.pool.query<{ indexdef: string }>(
      'SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [fresh, 'statement_values_by_entity_value'])).rows[0]?.indexdef ?? '';
    const first = await openPostgresStore({ url, schema: fresh, poolSize: 1 });
    try {
      assert.match(await definition(first), /value ~ '\^\[QP\]\[1-9\]\[0-9\]\*\$'/, 'migration 16\'s condition is the two kinds\'');
      await first.pool.query(`DROP INDEX "${fresh}".statement_values_by_entity_value;
        CREATE INDEX statement_values_by_entity_value ON "${fresh}".statement_values (value, kind, entity, property) WHERE value ~ '^[P][1-9][0-9]*$'`);
      await first.close();
      const reopened = await openPostgresStore({ url, schema: fresh, poolSize: 1 });
      assert.match(await definition(reopened), /value ~ '\^\[QP\]\[1-9\]\[0-9\]\*\$'/);
      await reopened.close();
    } finally {
      await dropSchema(fresh);
    }
  });

  it('reads an entity with a statement each connection prepares once, unless prepared statements are off', async () => {
    const [writer] = await stores(1);
    const item = await create(writer, { ...emptyEntity('', 'item'), labels: { en: 'prepared' } });
    for (const preparedStatements of [true, false]) {
      // One connection: the reads and the look at the session's prepared statements share it.
      const reader = await openPostgresStore({ url, schema, poolSize: 1, preparedStatements });
      open.push(reader);
      for (let i = 0; i < 3; i++) {
        const read = await reader.readEntity(item.id);
        assert.equal(read.status === 'found' && read.entity.labels.en, 'prepared');
      }
      const { rows } = await reader.pool.query<{ name: string; statement: string }>(
        "SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE '%head_rev%' AND name LIKE 'entia_%'");
      assert.equal(rows.length, preparedStatements ? 1 : 0, JSON.stringify(rows));
    }
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await assert.rejects(openPostgresStore({ url, schema: 'x"; DROP TABLE y; --' }), /ENTIA_PG_SCHEMA/);
  });
}
