// Backup and restore of a SQLite store (README "Backup and restore"). A backup is `VACUUM INTO` a file beside
// the target: one read transaction, so the copy is a consistent snapshot of every table (entities, revisions,
// accounts and their token hashes, the secret, protections, the change feed, import checkpoints) while a server
// goes on writing through the write-ahead log, which readers never block. The copy is checked and only then
// renamed into place, so an interrupted backup never leaves a half-written file under the name asked for.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { MIGRATIONS } from './migrations.js';

export interface BackupFacts {
  bytes: number;
  entities: number;
  revisions: number;
  users: number;
  /** The schema version the file is at (PRAGMA user_version). */
  version: number;
}

/** What an intact store file holds; throws, saying why, for a file that is not one this Entia can open. Read-only. */
function inspect(path: string): BackupFacts {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new Error(`${path}: cannot be opened as a SQLite file (${(e as Error).message})`);
  }
  try {
    const check = db.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw new Error(`${path}: the file is damaged (SQLite's quick_check: ${check})`);
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    if (version < 1 || !tables.has('entities') || !tables.has('revisions')) throw new Error(`${path}: not an Entia store`);
    if (version > MIGRATIONS.length) {
      throw new Error(`${path}: made by a newer Entia (schema version ${version}; this one knows ${MIGRATIONS.length})`);
    }
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { bytes: statSync(path).size, entities: count('entities'), revisions: count('revisions'),
      users: tables.has('users') ? count('users') : 0, version };
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_NOTADB') throw new Error(`${path}: not a SQLite file`);
    throw e;
  } finally {
    db.close();
  }
}

const partialName = (target: string) => `${target}.partial-${process.pid}`;

/** Writes a consistent copy of the store at `source` to `target` (which must not exist) and describes it. */
export function backupSqlite(source: string, target: string): BackupFacts {
  const partial = partialName(target);
  rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
  try {
    const facts = inspect(partial);
    renameSync(partial, target);
    return facts;
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
}

/** What a backup file holds, after checking that it is an intact store this Entia can open. */
export const describeBackup = inspect;

/**
 * Makes the store at `target` a copy of the backup at `source`. A store already at `target` (with its
 * write-ahead log) is moved aside to `keptAs`, never deleted; the server must be stopped (README).
 */
export function restoreSqlite(source: string, target: string, keptAs: string | null): BackupFacts {
  const facts = inspect(source);
  const partial = partialName(target);
  copyFileSync(source, partial);
  try {
    if (keptAs !== null) {
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(target + suffix)) renameSync(target + suffix, keptAs + suffix);
      }
    }
    renameSync(partial, target);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
  return facts;
}
