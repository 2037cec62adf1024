// Starts a real Entia server on port 0 over a fresh database (a temp file, or a fresh PostgreSQL schema when
// ENTIA_TEST_STORE=postgres: see helpers/store.ts), and talks to it over real HTTP.
import type { FastifyInstance } from 'fastify';
import { DEFAULTS, type Config } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { buildServices, OPEN_GUARD, type EditGuard } from '../../src/http/services.js';
import type { Store } from '../../src/store/store.js';
import { createdTestDb, createTestDb, openTestStore } from './store.js';

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined for an empty body. */
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  store: Store;
  /** The database's ENTIA_DB value: a file path, or a postgres URL naming the schema. */
  dbPath: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  put(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  patch(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  delete(path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** Stops the server and drops its database; `keepFiles` keeps it for a restart on the same database. */
  close(options?: { keepFiles?: boolean }): Promise<void>;
}

export interface ServerOptions {
  config?: Partial<Config>;
  sites?: unknown;
  /**
   * Guard hooks (missing ones let everything through, as OPEN_GUARD), or a builder of a whole guard over
   * this server's store and config (e.g. the real buildGuard).
   */
  guard?: Partial<EditGuard> | ((store: Store, config: Config) => Promise<EditGuard>);
  /** Reuse an existing database, by its ENTIA_DB value (restart tests). */
  dbPath?: string;
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const dbPath = options.dbPath ?? (await createTestDb()).location;
  const store = await openTestStore(dbPath);
  // No SPARQL engine unless a test asks for one (test/http/sparql*.test.ts): each would be a thread and a build.
  const config: Config = { ...DEFAULTS, log: false, db: dbPath, sparql: 'off', ...options.config };
  const guard = typeof options.guard === 'function' ? await options.guard(store, config) : { ...OPEN_GUARD, ...options.guard };
  const services = buildServices(config, options.sites, guard);
  let app: FastifyInstance = buildApp({ store, services });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // Location headers are absolute; point them at this server.
  services.config.publicUrl = url;

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  return {
    url,
    store,
    dbPath,
    request,
    get: (path, headers) => request('GET', path, { headers }),
    post: (path, body, headers) => request('POST', path, { body, headers }),
    put: (path, body, headers) => request('PUT', path, { body, headers }),
    patch: (path, body, headers) => request('PATCH', path, { body, headers }),
    delete: (path, body, headers) => request('DELETE', path, { body, headers }),
    async close({ keepFiles = false } = {}) {
      await app.close();
      await store.close();
      // A database made by createTestDb in this process is dropped, also when a restart reopened it.
      if (!keepFiles) await createdTestDb(dbPath)?.drop();
    },
  };
}

/**
 * Reads until `done` holds or `timeoutMs` passes, and returns the last read. On PostgreSQL the change feed hides a
 * change while an older transaction of another test file is still open (ADR 0006), so a page listing changes may
 * lag a write by a moment; the caller asserts on what it got.
 */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
