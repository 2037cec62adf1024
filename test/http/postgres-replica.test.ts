// Read replicas for real: a streaming standby of the test server made with `pg_basebackup -R` into a scratch
// directory and started as a second `postgres` on another port. Two Entia processes read from it
// (ENTIA_DB_REPLICAS) and write to the primary. With the standby's replay paused, the test proves that GETs
// are served by the replica, that a process never serves an entity older than what it wrote, that a client
// naming its revision in If-None-Match reads it on any process, and that reads fall back to the primary
// when the replica is down, with no 5xx. The standby is stopped and its directory removed at the end.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { call, freePort, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { createScratchDatabase, postgresSkipReason, postgresUrl, type ScratchDatabase } from '../helpers/store.js';

const skip = postgresSkipReason ?? (process.env.ENTIA_TEST_REPLICATION === '1' ? false
  : 'ENTIA_TEST_REPLICATION=1 is not set (the PostgreSQL server must accept replication connections from 127.0.0.1; .ci/run configures it)');

/** The server's binaries (pg_basebackup, postgres), from the Debian layout of the machine's version. */
function binary(name: string): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  return version ? join(root, version, 'bin', name) : name;
}

const asRoot = process.getuid?.() === 0;
/** PostgreSQL refuses to run as root: as root, its tools run as the postgres user. */
const asPostgres = (command: string, args: string[]): [string, string[]] =>
  (asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]);

const rev = (res: { headers: Headers }) => Number(res.headers.get('etag')?.replaceAll('"', ''));
const until = async (what: string, check: () => Promise<boolean>) => {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('PostgreSQL read replicas (ENTIA_DB_REPLICAS)', { skip }, () => {
  let scratch: ScratchDatabase;
  let database: string;
  let standby: pg.Client;
  let dir: string;
  let standbyProcess: ChildProcess | null = null;
  let standbyPort: number;
  let servers: ServerProcess[] = [];

  before(async () => {
    scratch = await createScratchDatabase('entia_replica');
    database = scratch.name;
    const primary = new URL(postgresUrl!);
    dir = mkdtempSync(join(tmpdir(), 'entia-standby-'));
    if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres']).stdout), Number(spawnSync('id', ['-g', 'postgres']).stdout));
    const data = join(dir, 'data');
    const [backup, backupArgs] = asPostgres(binary('pg_basebackup'), ['-h', primary.hostname, '-p', primary.port || '5432',
      '-U', primary.username || 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast']);
    const made = spawnSync(backup, backupArgs, { encoding: 'utf8' });
    assert.equal(made.status, 0, `pg_basebackup failed: ${made.stderr}`);
    // Debian keeps the server's configuration outside the data directory: the standby gets its own.
    writeFileSync(join(data, 'postgresql.conf'), 'hot_standby = on\n');
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    if (asRoot) spawnSync('chown', ['postgres:postgres', join(data, 'postgresql.conf'), join(data, 'pg_hba.conf')]);
    standbyPort = await freePort();
    const [server, serverArgs] = asPostgres(binary('postgres'), ['-D', data, '-p', String(standbyPort), '-k', dir,
      '-c', 'listen_addresses=127.0.0.1', '-c', `hba_file=${join(data, 'pg_hba.conf')}`]);
    standbyProcess = spawn(server, serverArgs, { stdio: 'ignore' });
    const standbyUrl = `postgres://${primary.username || 'postgres'}@127.0.0.1:${standbyPort}/${database}`;
    standby = new pg.Client({ connectionString: standbyUrl });
    await until('the standby to accept connections', async () => {
      try {
        await standby.connect();
        return true;
      } catch {
        standby = new pg.Client({ connectionString: standbyUrl });
        return false;
      }
    });
    assert.equal((await standby.query('SELECT pg_is_in_recovery() AS r')).rows[0].r, true);
    const primaryUrl = new URL(postgresUrl!);
    primaryUrl.pathname = `/${database}`;
    servers = await Promise.all([0, 1].map(() =>
      startServerProcess({ ENTIA_DB: primaryUrl.toString(), ENTIA_DB_REPLICAS: standbyUrl, ENTIA_PG_POOL: '4' })));
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await standby?.end().catch(() => {});
    await stopStandby();
    await scratch?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** pg_ctl stop: a signal to the process started through runuser would not reach the server. */
  const stopStandby = async () => {
    if (!standbyProcess || standbyProcess.exitCode !== null) return;
    const exited = new Promise((r) => standbyProcess!.once('exit', r));
    const [ctl, args] = asPostgres(binary('pg_ctl'), ['-D', join(dir, 'data'), 'stop', '-m', 'fast', '-w']);
    spawnSync(ctl, args, { stdio: 'ignore' });
    await exited;
  };

  const onStandby = async (id: string) =>
    Number((await standby.query('SELECT head_rev FROM entities WHERE id = $1', [id])).rows[0]?.head_rev ?? 0);

  it('serves GETs from the replica, yet never older than a process wrote or a client names', async () => {
    const [writer, reader] = servers;
    const created = await call(writer.url, 'POST', '/v1/entities/items', { item: { labels: { en: 'replicated' } } });
    assert.equal(created.status, 201);
    const id = created.body.id;
    await until('the standby to replay the creation', async () => (await onStandby(id)) === rev(created));
    await standby.query('SELECT pg_wal_replay_pause()');
    try {
      const edited = await call(writer.url, 'PUT', `/v1/entities/items/${id}/labels/en`, { label: 'replicated kingfisher' });
      assert.equal(edited.status, 200);
      // The writer reads its own write (its floor sends the read to the primary).
      const own = await call(writer.url, 'GET', `/v1/entities/items/${id}`);
      assert.equal(rev(own), rev(edited));
      assert.equal(own.body.labels.en, 'replicated kingfisher');
      // Another process answers from the paused replica: the revision before the edit.
      const stale = await call(reader.url, 'GET', `/v1/entities/items/${id}`);
      assert.equal(rev(stale), rev(created));
      assert.equal((await call(reader.url, 'GET', '/v1/search/items?q=kingfisher&lang=en')).body.results.length, 0);
      assert.equal((await call(reader.url, 'GET', `/v1/entities/items/${id}/history`)).body.revisions.length, 1);
      // A client that names the revision it was given reads it there too (304: its copy is current)...
      const named = await call(reader.url, 'GET', `/v1/entities/items/${id}`, undefined, { 'if-none-match': `"${rev(edited)}"` });
      assert.equal(named.status, 304);
      // ...and from then on that process never goes back to the replica's older revision.
      const after = await call(reader.url, 'GET', `/v1/entities/items/${id}`);
      assert.equal(rev(after), rev(edited));
      // Writes go to the primary even while the replica is behind.
      const again = await call(reader.url, 'PUT', `/v1/entities/items/${id}/labels/de`, { label: 'Eisvogel' }, { 'if-match': `"${rev(edited)}"` });
      assert.equal(again.status, 200, again.text);
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()');
    }
    await until('the replica to catch up', async () =>
      (await call(reader.url, 'GET', '/v1/search/items?q=kingfisher&lang=en')).body.results.length === 1);
  });

  it('reports each replica and its lag in /metrics', async () => {
    const metrics = await call(servers[0].url, 'GET', '/metrics');
    assert.match(metrics.text, new RegExp(`entia_db_replica_up\\{replica="127.0.0.1:${standbyPort}/${database}"\\} 1`));
    assert.match(metrics.text, new RegExp(`entia_db_replica_lag_seconds\\{replica="127.0.0.1:${standbyPort}/${database}"\\} [0-9.e-]+`));
    assert.doesNotMatch(metrics.text, /postgres:\/\//, 'no URL, so no password, in the metrics');
  });

  it('falls back to the primary when the replica is down, without a 5xx', async () => {
    const created = await call(servers[0].url, 'POST', '/v1/entities/items', { item: { labels: { en: 'outlived the replica' } } });
    await standby.end();
    await stopStandby();
    for (const server of servers) {
      const read = await call(server.url, 'GET', `/v1/entities/items/${created.body.id}`);
      assert.equal(read.status, 200, read.text);
      assert.equal((await call(server.url, 'GET', '/v1/search/items?q=outlived&lang=en')).body.results[0]?.id, created.body.id);
      const edit = await call(server.url, 'PUT', `/v1/entities/items/${created.body.id}/labels/fr`, { label: `survécu ${server.url.slice(-5)}` });
      assert.equal(edit.status, 200);
    }
    const metrics = await call(servers[1].url, 'GET', '/metrics');
    assert.match(metrics.text, /entia_db_replica_up\{replica="[^"]+"\} 0/);
  });
});
