// ENTIA_WORKERS=2: `entia serve` answers on one port from two worker processes over the test backend's
// database (SQLite file or PostgreSQL schema), restarts a worker that dies, and stops cleanly on SIGTERM.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { createTestDb, type TestDb } from '../helpers/store.js';

const LISTENING = /worker (\d+) listening on/g;

function workerPids(output: string): number[] {
  return [...output.matchAll(LISTENING)].map((m) => Number(m[1]));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('ENTIA_WORKERS: several processes on one port', () => {
  let db: TestDb;
  let server: ServerProcess;

  before(async () => {
    db = await createTestDb();
    server = await startServerProcess({ ENTIA_DB: db.location, ENTIA_WORKERS: '2', ENTIA_PG_POOL: '3' });
    await server.waitFor(/listening on[\s\S]*listening on/);
  });
  after(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('answers two crossing redirects sent at once with one redirect and one target-is-redirect, never an internal error', async () => {
    const post = async (from: string, to: string) => (await fetch(`${server.url}/w/api.php`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'wbcreateredirect', from, to, token: '+\\', format: 'json' }).toString() })).json() as Promise<any>;
    for (let pair = 0; pair < 15; pair++) {
      const [a, b] = await Promise.all([0, 1].map(async () => (await call(server.url, 'POST', '/v1/entities/items', { item: {} })).body.id as string));
      const answers = await Promise.all([post(a, b), post(b, a)]);
      assert.equal(answers.filter((x) => x.success === 1).length, 1, JSON.stringify(answers));
      assert.deepEqual(answers.filter((x) => x.error).map((x) => x.error.code), ['target-is-redirect'], JSON.stringify(answers));
    }
  });

  it('serves concurrent creations and edits from both workers without losing any', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, () => call(server.url, 'POST', '/v1/entities/items', { item: {} })));
    assert.ok(created.every((r) => r.status === 201), created.map((r) => r.text).join('\n'));
    assert.equal(new Set(created.map((r) => r.body.id)).size, 12);
    const id = created[0].body.id;
    const langs = ['de', 'fr', 'es', 'it', 'nl', 'pl'];
    const edits = await Promise.all(langs.map((lang) => call(server.url, 'PATCH', `/v1/entities/items/${id}`,
      { patch: [{ op: 'add', path: `/labels/${lang}`, value: lang }] })));
    assert.ok(edits.every((r) => r.status === 200), edits.map((r) => r.text).join('\n'));
    const labels = (await call(server.url, 'GET', `/v1/entities/items/${id}`)).body.labels;
    assert.deepEqual(Object.keys(labels).sort(), [...langs].sort());
  });

  it('starts another worker when one dies, and keeps serving', async () => {
    const [victim] = workerPids(server.output());
    process.kill(victim, 'SIGKILL');
    await server.waitFor(new RegExp(`worker ${victim} exited \\(SIGKILL\\)`));
    await server.waitFor(/(listening on[\s\S]*){3}/);
    const pids = workerPids(server.output());
    assert.equal(pids.length, 3);
    assert.ok(pids.slice(1).every(isAlive));
    for (let i = 0; i < 4; i++) {
      assert.equal((await call(server.url, 'POST', '/v1/entities/items', { item: {} })).status, 201);
    }
  });

  it('stops every worker and exits 0 on SIGTERM', async () => {
    const pids = workerPids(server.output()).filter(isAlive);
    assert.equal(pids.length, 2);
    assert.equal(await server.stop(), 0, server.output());
    assert.deepEqual(pids.filter(isAlive), []);
  });
});
