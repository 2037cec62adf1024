// The command line as an operator meets it: help and version, usage errors, and a mistyped ENTIA_DB that must
// stop the program instead of creating and serving an empty database. Run as child processes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { configFromEnv, sparqlSnapshotPath } from '../../src/config.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { ENTIA } from '../helpers/entia-command.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'entia-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function entia(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // ENTIA names its files by absolute paths, so that a run from another directory (cwd) still finds them.
    const { stdout, stderr } = await run(process.execPath, [...ENTIA, ...args], {
      env: { ...process.env, ENTIA_DB: join(dir, 'cli.db'), PORT: '0', ...env }, timeout: 20_000, cwd,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('entia help and usage', () => {
  it('--help lists every command and exits 0', async () => {
    const res = await entia(['--help']);
    assert.equal(res.code, 0);
    for (const command of ['serve', 'import FILE|-', 'redirect', 'user', 'protect ID', 'unprotect ID']) {
      assert.match(res.stdout, new RegExp(`entia ${command.replace(/[|]/g, '\\|')}`));
    }
  });

  it('each command has its own --help, which runs nothing', async () => {
    const serve = await entia(['serve', '--help']);
    assert.equal(serve.code, 0);
    assert.match(serve.stdout, /^Usage: entia serve\n/);
    const importHelp = await entia(['import', '--help']);
    assert.equal(importHelp.code, 0);
    assert.match(importHelp.stdout, /^Usage: entia import FILE\|-/);
    assert.equal(existsSync(join(dir, 'cli.db')), false, 'no store was opened');
  });

  it('--version prints the package version', async () => {
    const res = await entia(['--version']);
    assert.equal(res.code, 0);
    assert.match(res.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it('usage errors exit 2 with the usage line', async () => {
    for (const args of [[], ['nonsense'], ['import'], ['import', 'a', 'b'], ['user', 'add', 'x', '--colour', 'red'], ['protect', 'nonsense']]) {
      const res = await entia(args);
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, /[Uu]sage|not an item or property id/, args.join(' '));
    }
  });
});

describe('ENTIA_DB_REPLICAS', () => {
  it('refuses what is not a postgres:// URL, without repeating it (it may hold a password)', async () => {
    const res = await entia(['serve'], { ENTIA_DB_REPLICAS: 'postgres://ok@127.0.0.1/x,mysql://secret@h/x' });
    assert.equal(res.code, 1, res.stderr);
    assert.match(res.stderr, /ENTIA_DB_REPLICAS must be comma-separated postgres:\/\/ URLs/);
    assert.doesNotMatch(res.stderr, /secret/);
  });

  it('refuses replicas for a SQLite file', async () => {
    const res = await entia(['serve'], { ENTIA_DB_REPLICAS: 'postgres://replica@127.0.0.1/entia' });
    assert.equal(res.code, 1, res.stderr);
    assert.match(res.stderr, /ENTIA_DB_REPLICAS needs ENTIA_DB to be a postgres:\/\/ URL/);
  });
});

describe('switches: one parser for every setting', () => {
  const SWITCHES = ['ENTIA_METRICS', 'ENTIA_UI', 'ENTIA_LOG', 'ENTIA_REQUIRE_USER_AGENT', 'ENTIA_PG_PREPARED', 'ENTIA_TRUST_PROXY'];
  it('stops the server with one line naming the variable for a value that is not a switch', async () => {
    for (const name of SWITCHES.filter((n) => n !== 'ENTIA_TRUST_PROXY')) {
      const res = await entia(['serve'], { [name]: 'maybe' });
      assert.equal(res.code, 1, `${name}: ${res.stderr}`);
      assert.match(res.stderr, new RegExp(`^entia: ${name} must be on or off`), name);
    }
    const proxy = await entia(['serve'], { ENTIA_TRUST_PROXY: 'sometimes' });
    assert.equal(proxy.code, 1);
    assert.match(proxy.stderr, /^entia: ENTIA_TRUST_PROXY must be on, off, or proxy addresses/);
    const sparql = await entia(['serve'], { ENTIA_SPARQL: 'some' });
    assert.equal(sparql.code, 1);
    assert.match(sparql.stderr, /^entia: ENTIA_SPARQL must be full, truthy or off, got 'some'/);
    // The embedded engine's memory is WebAssembly's: more than it can hold is refused with what to do instead.
    const memory = await entia(['serve'], { ENTIA_SPARQL_MEMORY: '8000' });
    assert.equal(memory.code, 1);
    assert.match(memory.stderr, /^entia: ENTIA_SPARQL_MEMORY can be at most 3584 \(MB\).*ENTIA_SPARQL=truthy or an external engine/);
  });

  it('takes off, no, false and 0 (any case) as off: the metrics and the web interface go away', async () => {
    const { spawn } = await import('node:child_process');
    for (const off of ['off', 'No', 'FALSE', '0']) {
      const child = spawn(process.execPath, [...ENTIA, 'serve'], {
        env: { ...process.env, ENTIA_DB: join(dir, `switch-${off}.db`), PORT: '0', ENTIA_METRICS: off, ENTIA_UI: off, ENTIA_LOG: off,
          ENTIA_TRUST_PROXY: off, ENTIA_REQUIRE_USER_AGENT: off },
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let text = '';
          child.stderr.on('data', (c) => { text += c; const m = /listening on 127\.0\.0\.1:(\d+)/.exec(text); if (m) resolve(`http://127.0.0.1:${m[1]}`); });
          child.on('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
        });
        assert.equal((await fetch(`${url}/metrics`)).status, 404, off);
        assert.equal((await fetch(`${url}/`, { headers: { accept: 'text/html' } })).status, 404, off);
      } finally {
        child.kill('SIGTERM');
      }
    }
  });
});

describe('ENTIA_SPARQL_SNAPSHOT', () => {
  it('puts the snapshot beside a SQLite store by default, where it is told, and nowhere when it is off', () => {
    const db = join(dir, 'snapshot.db');
    const path = (value?: string) => sparqlSnapshotPath(configFromEnv({ ENTIA_DB: db, ENTIA_SPARQL_SNAPSHOT: value }));
    assert.equal(path(), `${db}.sparql.nq`);
    assert.equal(path(''), `${db}.sparql.nq`);
    assert.equal(path(join(dir, 'elsewhere.nq')), join(dir, 'elsewhere.nq'));
    for (const off of ['off', 'OFF', 'no', 'false', '0']) assert.equal(path(off), null, off);
  });
});

describe('ENTIA_PG_PREPARED', () => {
  it('refuses what is not a switch, naming the variable', async () => {
    const res = await entia(['serve'], { ENTIA_PG_PREPARED: 'maybe' });
    assert.equal(res.code, 1, res.stderr);
    assert.match(res.stderr, /ENTIA_PG_PREPARED must be on or off \(1\/true\/on\/yes or 0\/false\/off\/no\), got 'maybe'/);
  });
});

describe('ENTIA_DB', () => {
  const cases: [string, RegExp][] = [
    ['postgress://localhost/x', /unknown scheme 'postgress:'/],
    ['mysql://root@localhost/x', /unknown scheme 'mysql:'/],
    ['/nonexistent/dir/x.db', /directory \/nonexistent\/dir does not exist/],
  ];
  for (const [db, message] of cases) {
    it(`refuses ${db} at start-up, for serve and for every other command`, async () => {
      for (const args of [['serve'], ['user', 'list'], ['protect', 'Q1']]) {
        const res = await entia(args, { ENTIA_DB: db });
        assert.equal(res.code, 1, `${args[0]}: ${res.stderr}`);
        assert.match(res.stderr, message);
      }
    });
  }

  it('every command but serve and import refuses a store that does not exist, and creates nothing', async () => {
    const misspelt = join(dir, 'entai.db');
    const elsewhere = mkdtempSync(join(tmpdir(), 'entia-cwd-'));
    try {
      for (const args of [['export', join(dir, 'out.json')], ['user', 'list'], ['redirect', 'Q1', 'Q2'], ['protect', 'Q1'], ['backup', join(dir, 'b.db')]]) {
        const res = await entia(args, { ENTIA_DB: misspelt });
        assert.equal(res.code, 1, `${args[0]}: ${res.stderr}`);
        assert.match(res.stderr, new RegExp(`no store at SQLite ${misspelt}: set ENTIA_DB to an existing store`), args[0]);
        // Run from another directory with ENTIA_DB unset: the default ./data/entia.db is not there either.
        const unset = await entia(args, { ENTIA_DB: undefined }, elsewhere);
        assert.equal(unset.code, 1, `${args[0]}: ${unset.stderr}`);
        assert.match(unset.stderr, /no store at .*data\/entia\.db.*unset here, so \.\/data\/entia\.db relative to the current directory/);
      }
      assert.equal(existsSync(misspelt), false);
      assert.equal(existsSync(join(elsewhere, 'data')), false);
      assert.equal(existsSync(join(dir, 'out.json')), false, 'no empty export was written');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('export into a directory that does not exist says so in one line, without a stack trace', async () => {
    const db = join(dir, 'exported.db');
    openSqliteStore({ path: db }).close();
    const res = await entia(['export', join(dir, 'no-such-dir', 'out.json')], { ENTIA_DB: db });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /out\.json: the directory .*no-such-dir does not exist/);
    assert.doesNotMatch(res.stderr, /\n\s+at /);
  });

  it('serve says which store it opened, the edit mode and the URL (without a password)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [...ENTIA, 'serve'], {
      env: { ...process.env, ENTIA_DB: join(dir, 'served.db'), PORT: '0', ENTIA_LOG: '0', ENTIA_EDIT: 'token' },
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (chunk) => {
          text += chunk;
          if (text.includes('serving')) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
      });
      assert.match(line, new RegExp(`created a NEW, EMPTY store: SQLite ${join(dir, 'served.db')}`));
      assert.match(line, new RegExp(`serving http://127\\.0\\.0\\.1:0 .*store: SQLite ${join(dir, 'served.db')}; edit mode: token`));
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('entia quickstatements', () => {
  it('runs a batch file against the store, one JSON line per command, exit 1 when one failed', async () => {
    const db = join(dir, 'qs.db');
    const store = await openSqliteStore({ path: db });
    const pid = await store.allocateId('property');
    await store.applyEdit({ entity: { id: pid, type: 'property', data_type: 'string', labels: { en: 'qs code' }, descriptions: {}, aliases: {}, statements: {} },
      previous: null, meta: { user: 'test', comment: null, tags: [], bot: false }, checks: {} });
    await store.close();
    const file = join(dir, 'batch.txt');
    writeFileSync(file, `CREATE\nLAST\tLen\t"from a file"\nLAST\t${pid}\t"X-1"\nLAST\t${pid}\tQ5\n`);
    const res = await entia(['quickstatements', file, '--user', 'Importer', '--comment', 'nightly'], { ENTIA_DB: db });
    assert.equal(res.code, 1, res.stderr);
    const results = res.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(results.map((r) => r.status), ['done', 'done', 'done', 'failed']);
    assert.match(res.stderr, /batch #[0-9a-f]{10}: 3 done, 1 failed/);
    const check = await openSqliteStore({ path: db });
    const read = await check.readEntity(results[0].entity);
    assert.ok(read.status === 'found');
    assert.equal(read.entity.labels.en, 'from a file');
    const [revision] = await check.revisions(results[0].entity, 5);
    assert.equal(revision.user, 'Importer');
    assert.match(revision.comment!, /^quickstatements batch #[0-9a-f]{10}: nightly$/);
    await check.close();
  });
});

describe('entia check-constraints', () => {
  it('reports the violations of the whole store, in CSV, with a knowledge base\'s own constraint ids', async () => {
    const db = join(dir, 'constraints.db');
    const store = await openSqliteStore({ path: db });
    const meta = { user: 'test', comment: null, tags: [], bot: false };
    const put = (entity: Record<string, unknown>) => store.applyEdit({ entity: { labels: {}, descriptions: {}, aliases: {}, statements: {}, ...entity } as never,
      previous: null, meta, checks: {} });
    const st = (id: string, property: string, content: string) =>
      ({ id, rank: 'normal', property: { id: property, 'data-type': null }, value: { type: 'value', content }, qualifiers: [], references: [] });
    await put({ id: 'Q1', type: 'item', sitelinks: {} });
    await put({ id: 'P1', type: 'property', data_type: 'wikibase-item' });
    await put({ id: 'P2', type: 'property', data_type: 'external-id', statements: { P1: [st('P2$00000000-0000-0000-0000-000000000001', 'P1', 'Q1')] } });
    await put({ id: 'Q2', type: 'item', sitelinks: {}, statements: { P2: [st('Q2$00000000-0000-0000-0000-000000000002', 'P2', 'a'),
      st('Q2$00000000-0000-0000-0000-000000000003', 'P2', 'b, "quoted"')] } });
    await put({ id: 'Q3', type: 'item', sitelinks: {}, statements: { P2: [st('Q3$00000000-0000-0000-0000-000000000004', 'P2', 'c')] } });
    await store.close();
    const vocabulary = join(dir, 'constraints.json');
    writeFileSync(vocabulary, JSON.stringify({ properties: { constraint: 'P1' }, types: { 'single-value': 'Q1' } }));
    const res = await entia(['check-constraints', '--format', 'csv'], { ENTIA_DB: db, ENTIA_CONSTRAINTS_FILE: vocabulary });
    assert.equal(res.code, 0, res.stderr);
    const rows = res.stdout.trim().split('\n');
    assert.equal(rows[0], 'entity,statement,property,place,status,constraint,type,message');
    assert.deepEqual(rows.slice(1).map((r) => r.split(',').slice(0, 5).join(',')),
      ['Q2,Q2$00000000-0000-0000-0000-000000000002,P2,main,warning', 'Q2,Q2$00000000-0000-0000-0000-000000000003,P2,main,warning']);
    assert.match(res.stderr, /2 violations in 5 entities/);
    const badFile = join(dir, 'bad-constraints.json');
    writeFileSync(badFile, JSON.stringify({ properties: { constrain: 'P1' } }));
    const refused = await entia(['check-constraints'], { ENTIA_DB: db, ENTIA_CONSTRAINTS_FILE: badFile });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /ENTIA_CONSTRAINTS_FILE .*unknown properties key "constrain"/);
  });
});
