// The only place that chooses a storage backend.
import { openSqliteStore } from '../store/sqlite/index.js';
import type { Store } from '../store/store.js';

export async function openStore(db: string): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(db)) throw new Error('PostgreSQL backend is not available yet (ENTIA_DB must be a file path)');
  return openSqliteStore({ path: db });
}
