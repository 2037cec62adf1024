// `entia backup FILE` and `entia restore FILE` (README "Backup and restore"). On SQLite a backup is a
// consistent copy of the whole store, history, accounts, tokens and protections included, taken while a server
// goes on serving; a restore puts one in ENTIA_DB's place. On PostgreSQL the database's own tools do both
// (pg_dump/pg_restore), and these commands say so instead of doing something weaker.
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DEFAULTS, sparqlSnapshotPath, type Config } from '../config.js';
import { backupSqlite, restoreSqlite, type BackupFacts } from '../store/sqlite/backup.js';
import { CliError } from './errors.js';
import { checkStoreLocation, describeStore, isPostgresUrl, missingStore } from './open-store.js';

const POSTGRES_RECIPE = 'on PostgreSQL, back up with pg_dump and restore with pg_restore (README, "Backup and restore")';

const describeFacts = (f: BackupFacts) =>
  `${f.entities} entities, ${f.revisions} revisions, ${f.users} accounts, ${(f.bytes / 2 ** 20).toFixed(1)} MB`;

function sqliteOnly(config: Config, verb: string): void {
  checkStoreLocation(config.db);
  if (isPostgresUrl(config.db)) throw new CliError(`entia ${verb} copies SQLite stores; ${POSTGRES_RECIPE}`, 2);
}

function checkDirectory(path: string): void {
  const directory = dirname(resolve(path));
  if (!existsSync(directory)) throw new CliError(`${path}: the directory ${directory} does not exist`);
}

export async function backupCommand(config: Config, target: string, values: Record<string, unknown>): Promise<void> {
  sqliteOnly(config, 'backup');
  if (!existsSync(config.db)) throw missingStore(config.db);
  checkDirectory(target);
  if (existsSync(target) && values.force !== true) throw new CliError(`${target} exists: choose another name, or pass --force to replace it`);
  const started = Date.now();
  console.error(`entia: backing up ${describeStore(config.db)} to ${resolve(target)}`);
  let facts: BackupFacts;
  try {
    facts = backupSqlite(config.db, target);
  } catch (e) {
    throw new CliError(`backup of ${describeStore(config.db)} failed: ${(e as Error).message}`);
  }
  console.error(`entia: backed up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`backup ${resolve(target)}: ${describeFacts(facts)}`);
}

export async function restoreCommand(config: Config, source: string, values: Record<string, unknown>): Promise<void> {
  sqliteOnly(config, 'restore');
  if (!existsSync(source)) throw new CliError(`${source}: no such file`);
  if (config.db !== DEFAULTS.db) checkDirectory(config.db);
  const exists = existsSync(config.db);
  if (exists && values.force !== true) {
    throw new CliError(`a store exists at ${describeStore(config.db)}: stop the server, then pass --force to replace it `
      + '(the store it replaces is kept beside it)');
  }
  const keptAs = exists ? `${config.db}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}` : null;
  let facts: BackupFacts;
  try {
    facts = restoreSqlite(source, config.db, keptAs);
  } catch (e) {
    throw new CliError(`restore from ${source} failed, nothing was changed: ${(e as Error).message}`);
  }
  if (keptAs) console.error(`entia: the store it replaces is kept as ${resolve(keptAs)}`);
  // The SPARQL engine's snapshot described the replaced store: the next start builds the engine from this one.
  const snapshot = sparqlSnapshotPath(config);
  if (snapshot && existsSync(snapshot)) {
    rmSync(snapshot, { force: true });
    console.error(`entia: removed the SPARQL snapshot ${resolve(snapshot)} of the replaced store`);
  }
  console.log(`restored ${describeStore(config.db)} from ${resolve(source)}: ${describeFacts(facts)}`);
}
