// The one place tests choose a storage backend. SQLite by default; PostgreSQL when ENTIA_TEST_STORE=postgres,
// on the server ENTIA_TEST_POSTGRES points at. A test database is a fresh temporary file or a fresh schema;
// its `location` is what ENTIA_DB would be (a file path, or a postgres URL whose search_path is the schema),
// so a child process (`entia serve`, `entia import`) can open the very same database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/cli/open-store.js';
import { DEFAULTS } from '../../src/config.js';
import { withSearchPath } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/store.js';

export type Backend = 'sqlite' | 'postgres';

export const testBackend: Backend = process.env.ENTIA_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** ENTIA_TEST_POSTGRES, or null when PostgreSQL tests are not configured. */
export const postgresUrl: string | null = process.env.ENTIA_TEST_POSTGRES || null;

/** Why PostgreSQL-only tests skip; null when they run. */
export const postgresSkipReason: string | null = postgresUrl ? null
  : 'ENTIA_TEST_POSTGRES is not set (a postgres:// URL of a server the tests may create schemas on)';

export interface TestDb {
  backend: Backend;
  /** The ENTIA_DB value of this database. */
  location: string;
  /** Deletes the database (file or schema). */
  drop(): Promise<void>;
}

const created = new Map<string, TestDb>();

/** A fresh, empty database on the test backend (or the one given). */
export async function createTestDb(backend: Backend = testBackend): Promise<TestDb> {
  const db = backend === 'postgres' ? await createSchemaDb() : createFileDb();
  created.set(db.location, db);
  return db;
}

/** The database createTestDb made at `location` in this process, if any (to drop it later). */
export function createdTestDb(location: string): TestDb | undefined {
  return created.get(location);
}

/** Opens a store on a test database through the same function the CLI uses. */
export function openTestStore(location: string): Promise<Store> {
  return openStore({ ...DEFAULTS, db: location, pgPoolSize: 4, pgSchema: null }, {}, 'create');
}

function createFileDb(): TestDb {
  const dir = mkdtempSync(join(tmpdir(), 'entia-test-'));
  const location = join(dir, 'entia.db');
  return {
    backend: 'sqlite',
    location,
    async drop() {
      created.delete(location);
      rmSync(dirname(location), { recursive: true, force: true });
    },
  };
}

let counter = 0;

/** A schema name no other test process uses. */
export function uniqueSchemaName(): string {
  return `entia_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
}

function requirePostgresUrl(): string {
  if (!postgresUrl) throw new Error(`ENTIA_TEST_STORE=postgres, but ${postgresSkipReason}`);
  return postgresUrl;
}

async function createSchemaDb(): Promise<TestDb> {
  const url = requirePostgresUrl();
  const schema = uniqueSchemaName();
  await adminQuery(`CREATE SCHEMA ${schema}`);
  const location = withSearchPath(url, schema);
  return {
    backend: 'postgres',
    location,
    async drop() {
      created.delete(location);
      await dropSchema(schema);
    },
  };
}

export async function dropSchema(schema: string): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}

/** One statement on its own connection (schema names here are generated, never user input). */
async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: requirePostgresUrl(), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the test server, for tests that need more than a schema (a PgBouncer entry, a
 * standby's copy). `admin` stays connected to the server's own database for the test's queries; `drop`
 * removes the database (forcing its connections closed) and ends `admin`.
 */
export interface ScratchDatabase {
  name: string;
  admin: pg.Client;
  drop(): Promise<void>;
}

export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: requirePostgresUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    name,
    admin,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
  };
}
