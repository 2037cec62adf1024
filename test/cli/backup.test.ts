// Backup and restore as an operator runs them (README "Backup and restore"): `entia backup` of a live SQLite
// store while a real server writes to it and is killed with SIGKILL in the middle, then `entia restore` and a
// server on the restored store serving the same entities, revisions, accounts, tokens and protections. On
// PostgreSQL, the README's pg_dump/pg_restore recipe, run as written.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { call, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { postgresSkipReason, postgresUrl } from '../helpers/store.js';
import { ENTIA } from '../helpers/entia-command.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'entia-backup-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function entia(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...ENTIA, ...args], { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Makes an editor with a token and a few items with history on a running server; returns what a restore must give back. */
async function populate(server: ServerProcess, env: Record<string, string>) {
  assert.equal((await entia(['user', 'add', 'editor'], env)).code, 0);
  const token = (await entia(['user', 'token', 'editor'], env)).stdout.trim().split(/\s+/).pop()!;
  const auth = { authorization: `Bearer ${token}` };
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const created = await call(server.url, 'POST', '/v1/entities/items', { item: { labels: { en: `backed up ${i}` } } }, auth);
    assert.equal(created.status, 201, created.text);
    ids.push(created.body.id);
    const edited = await call(server.url, 'PUT', `/v1/entities/items/${created.body.id}/descriptions/en`, { description: `revision two of ${i}` }, auth);
    assert.equal(edited.status, 200, edited.text);
  }
  assert.equal((await entia(['protect', ids[0]], env)).code, 0);
  const snapshot = async (url: string) => Object.fromEntries(await Promise.all(ids.map(async (id) =>
    [id, { entity: (await call(url, 'GET', `/v1/entities/items/${id}`)).body, history: (await call(url, 'GET', `/v1/entities/items/${id}/history`)).body }])));
  return { auth, ids, before: await snapshot(server.url), snapshot };
}

/** What a restored server must do: the same documents and histories, the token accepted, the protection kept. */
async function checkRestored(url: string, state: Awaited<ReturnType<typeof populate>>, unchanged: string[]) {
  const after = await state.snapshot(url);
  for (const id of unchanged) assert.deepEqual(after[id], state.before[id], id);
  const edit = await call(url, 'PUT', `/v1/entities/items/${state.ids[1]}/labels/de`, { label: 'nach der Wiederherstellung' }, state.auth);
  assert.equal(edit.status, 200, `the restored token must be accepted: ${edit.text}`);
  const anonymous = await call(url, 'PUT', `/v1/entities/items/${state.ids[1]}/labels/fr`, { label: 'anonyme' });
  assert.equal(anonymous.body.context.denial_reason, 'unauthenticated', anonymous.text);
  const protectedEdit = await call(url, 'PUT', `/v1/entities/items/${state.ids[0]}/labels/de`, { label: 'geschützt' }, state.auth);
  assert.equal(protectedEdit.status, 403, `the protection must be restored: ${protectedEdit.text}`);
}

describe('entia backup and restore (SQLite)', () => {
  it('backs up a live store while a server writes and is killed with SIGKILL; the restore serves it all', async () => {
    const live = join(dir, 'live.db');
    const env = { ENTIA_DB: live, ENTIA_SECRET: '' };
    const server = await startServerProcess({ ...env, ENTIA_EDIT: 'token' });
    let restored: ServerProcess | null = null;
    try {
      const state = await populate(server, env);
      // Edits keep coming on two items while the backup runs; the server is killed mid-way.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        for (let n = 0; writing; n++) {
          try {
            const res = await call(server.url, 'PUT', `/v1/entities/items/${state.ids[2 + (n % 2)]}/labels/en`, { label: `busy ${n}` }, state.auth);
            if (res.status === 200) written++;
          } catch { /* the server is gone */ }
        }
      })();
      while (written < 50) await new Promise((r) => setTimeout(r, 5));
      const backupFile = join(dir, 'live-backup.db');
      const backup = spawn(process.execPath, [...ENTIA, 'backup', backupFile], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let backupOutput = '';
      backup.stdout.on('data', (c) => { backupOutput += c; });
      backup.stderr.on('data', (c) => { backupOutput += c; });
      const backupExit = new Promise<number | null>((resolve) => backup.once('exit', resolve));
      // The kill comes once the backup has opened the store and starts copying, while the edits go on.
      while (!backupOutput.includes('backing up')) await new Promise((r) => setTimeout(r, 5));
      server.child.kill('SIGKILL');
      assert.equal(await backupExit, 0, backupOutput);
      writing = false;
      await writer;
      assert.match(backupOutput, /backup .*live-backup\.db: 4 entities, \d+ revisions, 1 accounts/);

      // Every revision the backup holds is the one the killed store holds under that id, byte for byte.
      const original = new Database(live);
      const copy = new Database(backupFile, { readonly: true });
      const rows = (db: Database.Database) => db.prepare('SELECT rev_id, entity_id, content FROM revisions ORDER BY rev_id').all() as { rev_id: number }[];
      const originalRows = new Map(rows(original).map((r) => [r.rev_id, r]));
      for (const row of rows(copy)) assert.deepEqual(row, originalRows.get(row.rev_id));
      const dangling = copy.prepare('SELECT count(*) AS n FROM entities e LEFT JOIN revisions r ON r.rev_id = e.head_rev WHERE r.rev_id IS NULL').get() as { n: number };
      assert.equal(dangling.n, 0, 'every head is a revision of the backup');
      original.close();
      copy.close();

      const target = join(dir, 'restored.db');
      const restore = await entia(['restore', backupFile], { ENTIA_DB: target });
      assert.equal(restore.code, 0, restore.stderr);
      assert.match(restore.stdout, /restored SQLite .*restored\.db from .*live-backup\.db: 4 entities/);
      restored = await startServerProcess({ ENTIA_DB: target, ENTIA_EDIT: 'token', ENTIA_SECRET: '' });
      await checkRestored(restored.url, state, [state.ids[0], state.ids[1]]);
    } finally {
      await server.stop();
      await restored?.stop();
    }
  });

  it('refuses to replace a store without --force, keeps the replaced one, and refuses a damaged or foreign file', async () => {
    const target = join(dir, 'existing.db');
    const backupFile = join(dir, 'small-backup.db');
    const source = join(dir, 'small.db');
    new Database(source).close();
    const notAStore = await entia(['restore', source], { ENTIA_DB: target });
    assert.equal(notAStore.code, 1);
    assert.match(notAStore.stderr, /not an Entia store/);
    const garbage = join(dir, 'garbage.db');
    await import('node:fs').then((fs) => fs.writeFileSync(garbage, 'this is not a database'.repeat(100)));
    assert.match((await entia(['restore', garbage], { ENTIA_DB: target })).stderr, /not a SQLite file|cannot be opened/);

    const server = await startServerProcess({ ENTIA_DB: target });
    await call(server.url, 'POST', '/v1/entities/items', { item: { labels: { en: 'kept' } } });
    await server.stop();
    assert.equal((await entia(['backup', backupFile], { ENTIA_DB: target })).code, 0);
    const again = await entia(['backup', backupFile], { ENTIA_DB: target });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /exists: choose another name, or pass --force/);
    const refused = await entia(['restore', backupFile], { ENTIA_DB: target });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /a store exists at SQLite .*existing\.db: stop the server, then pass --force/);
    // The server's SPARQL snapshot describes the store being replaced: the restore removes it.
    const snapshot = `${target}.sparql.nq`;
    if (!existsSync(snapshot)) writeFileSync(snapshot, '# a snapshot of the replaced store\n');
    const forced = await entia(['restore', backupFile, '--force'], { ENTIA_DB: target });
    assert.equal(forced.code, 0, forced.stderr);
    assert.ok(!existsSync(snapshot), 'the replaced store\'s SPARQL snapshot is gone');
    const kept = /kept as (\S+)/.exec(forced.stderr)![1];
    const old = new Database(kept, { readonly: true });
    assert.equal((old.prepare('SELECT count(*) AS n FROM entities').get() as { n: number }).n, 1);
    old.close();
  });

  it('says how to back up PostgreSQL instead of doing something weaker', async () => {
    const res = await entia(['backup', join(dir, 'pg.db')], { ENTIA_DB: 'postgres://nobody@127.0.0.1:1/none' });
    assert.equal(res.code, 2);
    assert.match(res.stderr, /pg_dump .*pg_restore/);
  });
});

describe('backup and restore on PostgreSQL: the README recipe', { skip: postgresSkipReason ?? false }, () => {
  it('pg_dump of the store\'s schema, pg_restore into a new database, serves the same entities, revisions and accounts', async () => {
    const schema = `backup_${process.pid}`;
    const restoredDb = `entia_restore_${process.pid}`;
    const source = new URL(postgresUrl!);
    const target = new URL(postgresUrl!);
    target.pathname = `/${restoredDb}`;
    const admin = new pg.Client({ connectionString: postgresUrl! });
    await admin.connect();
    const env = { ENTIA_DB: postgresUrl!, ENTIA_PG_SCHEMA: schema, ENTIA_SECRET: '' };
    const server = await startServerProcess({ ...env, ENTIA_EDIT: 'token' });
    let restored: ServerProcess | null = null;
    try {
      const state = await populate(server, env);
      const dump = join(dir, 'entia.dump');
      // The README's commands, as written there.
      await run('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${dump}`, source.toString()]);
      await admin.query(`CREATE DATABASE ${restoredDb}`);
      await run('pg_restore', ['--no-owner', `--dbname=${target.toString()}`, dump]);
      restored = await startServerProcess({ ENTIA_DB: target.toString(), ENTIA_PG_SCHEMA: schema, ENTIA_EDIT: 'token', ENTIA_SECRET: '' });
      await checkRestored(restored.url, state, state.ids);
      // The restored database allocates new ids after the restored ones.
      const created = await call(restored.url, 'POST', '/v1/entities/items', { item: { labels: { en: 'after restore' } } }, state.auth);
      assert.equal(created.status, 201, created.text);
      assert.ok(!state.ids.includes(created.body.id));
    } finally {
      await server.stop();
      await restored?.stop();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.query(`DROP DATABASE IF EXISTS ${restoredDb} WITH (FORCE)`);
      await admin.end();
    }
  });
});
