// The storage contract, on the SQLite backend.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeContract } from './contract.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dirs: string[] = [];
storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'entia-store-'));
  dirs.push(dir);
  return openSqliteStore({ path: join(dir, 'store.db') });
}, async () => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
