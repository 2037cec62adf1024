// The real Pywikibot (shared/clients/python, no install step) against a started Entia, configured as its
// documentation says: `generate_family_file` with the server's URL writes the family file, a `user-config.py`
// names it, and a script reads the data repository and an item. Skips with its reason where Python or the client
// folder is absent.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const CLIENTS = process.env.ENTIA_PYTHON_CLIENTS ?? join(import.meta.dirname, '../../../shared/clients/python');
const python = (() => { try { execFileSync('python3', ['--version']); return true; } catch { return false; } })();
const skip = !python ? 'python3 is not installed' : !existsSync(join(CLIENTS, 'pywikibot')) ? `no Pywikibot at ${CLIENTS}` : false;

let s: TestServer;
let dir: string;
let item: string;

async function pywikibot(args: string[], env: Record<string, string> = {}) {
  return run('python3', args, { cwd: dir, timeout: 120_000,
    env: { ...process.env, PYTHONPATH: CLIENTS, PYWIKIBOT_DIR: dir, ...env } });
}

describe('Pywikibot against Entia', { skip }, () => {
  before(async () => {
    s = await startServer();
    item = (await s.post('/v1/entities/items', { item: { labels: { en: 'read by pywikibot', de: 'von Pywikibot gelesen' } } })).body.id;
    dir = mkdtempSync(join(tmpdir(), 'entia-pywikibot-'));
  });
  after(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('generate_family_file with the server\'s URL writes a working family; a script reads an item', async () => {
    // As a user does: the family generator with the wiki's URL, then a user-config naming it.
    const generated = await pywikibot(['-m', 'pywikibot.scripts.generate_family_file', `${s.url}/`, 'entia', 'n'], { PYWIKIBOT_NO_USER_CONFIG: '2' });
    assert.match(generated.stdout, /MediaWiki version: 1\.43/);
    writeFileSync(join(dir, 'user-config.py'), "family = 'entia'\nmylang = 'en'\nput_throttle = 0\n");
    writeFileSync(join(dir, 'read.py'), [
      'import json, pywikibot',
      "site = pywikibot.Site('en', 'entia')",
      'repo = site.data_repository()',
      `item = pywikibot.ItemPage(repo, '${item}')`,
      'data = item.get()',
      "print(json.dumps({'repo': str(repo), 'labels': dict(data['labels'])}))",
    ].join('\n'));
    const read = await pywikibot(['read.py']);
    const out = JSON.parse(read.stdout.trim().split('\n').pop()!);
    assert.deepEqual(out.labels, { en: 'read by pywikibot', de: 'von Pywikibot gelesen' });
  });
});
