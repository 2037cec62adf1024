// The only place that chooses a storage backend: a postgres:// URL selects PostgreSQL, anything else is a
// SQLite file path.
import type { Config } from '../config.js';
import { openPostgresStore } from '../store/postgres/index.js';
import { openSqliteStore, type SqliteOptions } from '../store/sqlite/index.js';
import type { Store } from '../store/store.js';

export type StoreConfig = Pick<Config, 'db' | 'pgPoolSize' | 'pgSchema'>;

export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//.test(db);

/** `tuning`: settings for one use of a SQLite file (ignored on PostgreSQL), e.g. a bulk import's page cache. */
export async function openStore(config: StoreConfig, tuning: Pick<SqliteOptions, 'pageCacheMb' | 'checkpointMb' | 'importThread'> = {}): Promise<Store> {
  if (isPostgresUrl(config.db)) {
    return openPostgresStore({ url: config.db, poolSize: config.pgPoolSize, schema: config.pgSchema });
  }
  return openSqliteStore({ path: config.db, ...tuning });
}
