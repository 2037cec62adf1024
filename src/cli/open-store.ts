// The only place that chooses a storage backend: a postgres:// URL selects PostgreSQL, a path selects a SQLite
// file. Anything else is refused before a store is opened, so a mistyped ENTIA_DB never creates and serves a
// new, empty database.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DEFAULTS, type Config } from '../config.js';
import { NoStoreError, openPostgresStore } from '../store/postgres/index.js';
import { openSqliteStore, type SqliteOptions } from '../store/sqlite/index.js';
import type { Store } from '../store/store.js';
import { buildSiteTable, type SiteTable } from '../domain/sites.js';
import { CliError } from './errors.js';

export type StoreConfig = Pick<Config, 'db' | 'pgPoolSize' | 'pgSchema'> & Partial<Pick<Config, 'dbReplicas' | 'pgPrepared'>>;

export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//.test(db);

/** `scheme:` at the start, as in a URL (a Windows drive letter `C:` has one letter and is a path). */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

/** Throws a CliError naming what is wrong with ENTIA_DB, or returns without a word. */
export function checkStoreLocation(db: string): void {
  if (isPostgresUrl(db)) {
    try {
      new URL(db);
    } catch {
      throw new CliError(`ENTIA_DB: '${describeStore(db)}' is not a valid postgres:// URL`);
    }
    return;
  }
  const scheme = URL_SCHEME.exec(db);
  if (scheme) {
    throw new CliError(`ENTIA_DB: unknown scheme '${scheme[1]}:' (use postgres://… for PostgreSQL or a file path for SQLite)`);
  }
  if (db === '' || db === ':memory:') throw new CliError('ENTIA_DB: give a file path for SQLite or a postgres:// URL');
  const directory = dirname(resolve(db));
  // The default location is created on first start; any other must exist, so a typo is an error.
  if (db === DEFAULTS.db) return;
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new CliError(`ENTIA_DB: the directory ${directory} does not exist (create it, or fix the path)`);
  }
}

/** The store in words for logs: the file's absolute path, or host, port and database without credentials. */
export function describeStore(db: string): string {
  if (!isPostgresUrl(db)) return `SQLite ${resolve(db)}`;
  try {
    const url = new URL(db);
    return `PostgreSQL ${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL (unparseable URL)';
  }
}

/**
 * Whether a command may make a new store: only `serve` and `import` do (and say so); every other command refuses
 * a store that does not exist, so a misspelt ENTIA_DB or a run from another directory never exports, backs up or
 * edits a new, empty store while reporting success.
 */
export type StoreAccess = 'create' | 'existing';

/** Says on stderr that a new store was made: an operator who expected their data sees it at once. */
function announceCreated(db: string): void {
  console.error(`entia: created a NEW, EMPTY store: ${describeStore(db)} (if you expected existing data, check ENTIA_DB`
    + `${db === DEFAULTS.db ? ', unset here, so ./data/entia.db relative to the current directory' : ''})`);
}

export function missingStore(db: string): CliError {
  return new CliError(`no store at ${describeStore(db)}: set ENTIA_DB to an existing store`
    + `${db === DEFAULTS.db ? ' (unset here, so ./data/entia.db relative to the current directory)' : ''}`
    + '; only entia serve and entia import create one');
}

/**
 * `tuning`: settings for one use of the store, e.g. a bulk import's page cache; PostgreSQL takes only
 * `deferIndexes`, the rest are SQLite's.
 */
export async function openStore(config: StoreConfig, tuning: Pick<SqliteOptions, 'pageCacheMb' | 'checkpointMb' | 'importThread' | 'deferIndexes'> = {},
  access: StoreAccess = 'existing'): Promise<Store> {
  checkStoreLocation(config.db);
  if (isPostgresUrl(config.db)) {
    try {
      return await openPostgresStore({ url: config.db, poolSize: config.pgPoolSize, schema: config.pgSchema, replicas: config.dbReplicas,
        preparedStatements: config.pgPrepared, deferIndexes: tuning.deferIndexes, create: access === 'create',
        onCreated: () => announceCreated(config.db) });
    } catch (e) {
      if (e instanceof NoStoreError) throw missingStore(config.db);
      throw e;
    }
  }
  if (config.dbReplicas?.length) throw new CliError('ENTIA_DB_REPLICAS needs ENTIA_DB to be a postgres:// URL (SQLite has no replicas)');
  const exists = existsSync(config.db);
  if (!exists && access === 'existing') throw missingStore(config.db);
  if (config.db === DEFAULTS.db) mkdirSync(dirname(config.db), { recursive: true });
  const store = openSqliteStore({ path: config.db, ...tuning });
  if (!exists) announceCreated(config.db);
  return store;
}

/** The sites table override of ENTIA_SITES_FILE, as read from the file (undefined: none). */
export function sitesOverride(config: Pick<Config, 'sitesFile'>): unknown {
  return config.sitesFile ? JSON.parse(readFileSync(config.sitesFile, 'utf8')) : undefined;
}

/** The sites table: Wikidata's, or the one ENTIA_SITES_FILE names. */
export function loadSites(config: Pick<Config, 'sitesFile'>): SiteTable {
  return buildSiteTable(sitesOverride(config));
}
