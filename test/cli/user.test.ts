// The account and protection commands, run as child processes against a temporary database, exactly
// as an operator would run them; then the server sees the result.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildGuard } from '../../src/http/guard.js';
import { startServer } from '../helpers/server.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { ENTIA } from '../helpers/entia-command.js';

const run = promisify(execFile);

let dir: string;
let db: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'entia-cli-'));
  db = join(dir, 'cli.db');
  openSqliteStore({ path: db }).close(); // the store exists: user and protect never create one
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function entia(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...ENTIA, ...args], {
      env: { ...process.env, ENTIA_DB: db, ENTIA_SECRET: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('entia user / protect', () => {
  it('adds users with a group and refuses a taken or malformed name', async () => {
    assert.deepEqual(await entia('user', 'add', 'alice'), { code: 0, stdout: 'created user alice (user)\n',
      stderr: `entia: store: SQLite ${db}\n` });
    assert.equal((await entia('user', 'add', 'robot', '--group', 'bot')).stdout, 'created user robot (bot)\n');
    assert.equal((await entia('user', 'add', 'root', '--group', 'admin')).code, 0);
    const taken = await entia('user', 'add', 'alice');
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /already exists/);
    assert.equal((await entia('user', 'add', '10.0.0.1')).code, 2);
    assert.equal((await entia('user', 'add', 'x', '--group', 'god')).code, 2);
    assert.equal((await entia('user', 'frobnicate')).code, 2);
    assert.equal((await entia('user', 'add', 'y', '--colour', 'red')).code, 2);
  });

  it('prints a new token once, which the server accepts, and which replaces the previous one', async () => {
    const first = await entia('user', 'token', 'alice');
    assert.equal(first.code, 0);
    const token1 = first.stdout.trim();
    assert.match(token1, /^[A-Za-z0-9_-]{43}$/);
    assert.match(first.stderr, /shown once/);
    const token2 = (await entia('user', 'token', 'alice')).stdout.trim();
    assert.notEqual(token1, token2);
    assert.equal((await entia('user', 'token', 'nobody')).code, 1);

    const s = await startServer({ dbPath: db, config: { editMode: 'token' },
      guard: (store, config) => buildGuard({ config, accounts: store.accounts }) });
    try {
      let res = await s.post('/v1/entities/items', { item: {} }, { authorization: `Bearer ${token2}` });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('x-authenticated-user'), 'alice');
      res = await s.post('/v1/entities/items', { item: {} }, { authorization: `Bearer ${token1}` });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body.context, { denial_reason: 'invalid-token', denial_context: '' });
    } finally {
      await s.close({ keepFiles: true });
    }
  });

  it('blocks with a reason, unblocks, and lists users', async () => {
    assert.equal((await entia('user', 'block', 'robot', '--reason', 'runaway bot')).stdout, 'blocked robot\n');
    let list = (await entia('user', 'list')).stdout.split('\n');
    assert.match(list[0], /^NAME\s+GROUP\s+TOKEN\s+BLOCKED$/);
    assert.match(list.find((l) => l.startsWith('alice'))!, /^alice\s+user\s+yes$/);
    assert.match(list.find((l) => l.startsWith('robot'))!, /^robot\s+bot\s+no\s+yes: runaway bot$/);
    assert.match(list.find((l) => l.startsWith('root'))!, /^root\s+admin\s+no$/);
    assert.equal((await entia('user', 'unblock', 'robot')).stdout, 'unblocked robot\n');
    list = (await entia('user', 'list')).stdout.split('\n');
    assert.match(list.find((l) => l.startsWith('robot'))!, /^robot\s+bot\s+no$/);
    assert.equal((await entia('user', 'block', 'nobody')).code, 1);
  });

  it('protects and unprotects entities by id', async () => {
    assert.equal((await entia('protect', 'q1')).stdout, 'protected Q1\n');
    assert.equal((await entia('protect', 'P77')).stdout, 'protected P77 (no such entity yet)\n');
    assert.equal((await entia('protect', 'nonsense')).code, 2);
    const s = await startServer({ dbPath: db, guard: (store, config) => buildGuard({ config, accounts: store.accounts }) });
    try {
      assert.equal(await s.store.accounts.isProtected('Q1'), true);
      const res = await s.patch('/v1/entities/items/Q1', { patch: [{ op: 'add', path: '/labels/en', value: 'x' }] });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body.context, { denial_reason: 'resource-protected', denial_context: 'Q1' });
    } finally {
      await s.close({ keepFiles: true });
    }
    assert.equal((await entia('unprotect', 'Q1')).stdout, 'unprotected Q1\n');
  });
});
