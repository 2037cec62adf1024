// Runtime configuration. `configFromEnv` is the only reader of process.env (called by the CLI); everything
// else receives a Config, so tests build one directly.
import type { KindName } from './domain/entity.js';
import { totalmem } from 'node:os';
import { parseEntityId, parseIdOfKind, perKind, PROPERTY } from './domain/kinds.js';
import { readFileSync } from 'node:fs';
import { constraintVocabulary, WIKIDATA_CONSTRAINTS, type ConstraintVocabulary } from './domain/constraints/vocabulary.js';

/** A budget: at most `count` requests per `windowSeconds` (issue #7). */
export interface Rate {
  count: number;
  windowSeconds: number;
}

/** `open`: anyone may edit, anonymous edits are recorded with the client address; `token`: writes need a token. */
export type EditMode = 'open' | 'token';

export interface Config {
  host: string;
  port: number;
  /** SQLite file path, or a postgres:// URL. */
  db: string;
  /** PostgreSQL: most connections one process opens (ENTIA_PG_POOL). */
  pgPoolSize: number;
  /** PostgreSQL: schema for Entia's tables, created when missing; null: the URL's search_path. */
  pgSchema: string | null;
  /** PostgreSQL: named prepared statements (ENTIA_PG_PREPARED, on or off); off behind a pooler that loses them. */
  pgPrepared: boolean;
  /** PostgreSQL: streaming replicas that reads go to (ENTIA_DB_REPLICAS, comma-separated postgres:// URLs). */
  dbReplicas: string[];
  /** Processes serving one port (node:cluster); 1 serves from the main process. */
  workers: number;
  /** Absolute base of Location headers; never taken from the request's Host header. */
  publicUrl: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Seconds a client has to send a whole request, headers and body (ENTIA_REQUEST_TIMEOUT); then 408. */
  requestTimeoutSeconds: number;
  /** Open connections one process accepts (ENTIA_MAX_CONNECTIONS); further ones are closed at once. */
  maxConnections: number;
  /** Bytes a change-stream follower may leave unread before it is disconnected (ENTIA_STREAM_BUFFER). */
  streamBufferBytes: number;
  /** docs/api.md §6.2: largest stored entity, in kB. */
  maxEntitySizeKb: number;
  /** docs/api.md §2.4: edit tags a client may send (default none). */
  allowedTags: string[];
  /** docs/api.md §6.4: items that may be used as sitelink badges (default none). */
  allowedBadges: string[];
  /** Path of a JSON file overriding the site table (docs/api.md §6.4), or null. */
  sitesFile: string | null;
  /** docs/api.md D13: answer 400 missing-user-agent when User-Agent is absent. */
  requireUserAgent: boolean;
  /** Log requests (pino, JSON lines). */
  log: boolean;
  /** Serve GET /metrics (ENTIA_METRICS=0 turns it off). */
  metrics: boolean;
  /** Serve the web interface at / and the API reference at /docs (ENTIA_UI=0 turns them off). */
  ui: boolean;
  /** Who may edit (README "Security model"); `token` is the default when NODE_ENV=production. */
  editMode: EditMode;
  /** Key of the token hashes; null: a random one generated once and kept in the store. */
  secret: string | null;
  /** Per-user (per-address when anonymous) budgets; null: unlimited. */
  rateCreate: Rate | null;
  rateEdit: Rate | null;
  rateRead: Rate | null;
  /** Bots and admins get this many times each budget. */
  rateMultiplier: number;
  /** Origins that may write cross-origin (['*']: any); reads are open to any origin. */
  corsOrigins: string[];
  /** Fastify's trustProxy: whether X-Forwarded-For is believed (true: always; a string: from these addresses/CIDRs). */
  trustProxy: boolean | string;
  /** redis:// URL: rate-limit counters shared by every process using it (ENTIA_REDIS), or null. */
  redis: string | null;
  /** Reconciliation: the property saying what an item is an instance of (ENTIA_INSTANCE_OF; Wikidata's P31). */
  instanceOf: string;
  /** Reconciliation: the property saying what a class is a subclass of (ENTIA_SUBCLASS_OF; Wikidata's P279). */
  subclassOf: string;
  /** Reconciliation's identifierSpace: the URI prefix of entity ids (ENTIA_CONCEPT_URI; Wikidata's by default). */
  conceptUri: string;
  /** Where the REST API is served again in upstream Wikibase's spelling (ENTIA_WIKIBASE_PREFIX); null: nowhere. */
  wikibasePrefix: string | null;
  /**
   * The first local id of each kind in a store that imports from a source (ENTIA_LOCAL_IDS_FROM), proposed to
   * the store's first import, which records it for good (README, "Local ids").
   */
  localIdsFrom: Record<KindName, number>;
  /** The embedded SPARQL engine's content (ENTIA_SPARQL): every triple, the truthy ones, or no engine. */
  sparql: 'full' | 'truthy' | 'off';
  /** Seconds a SPARQL query may run (ENTIA_SPARQL_TIMEOUT). */
  sparqlTimeoutSeconds: number;
  /** Bytes the embedded engine may take (ENTIA_SPARQL_MEMORY, in MB); a larger store is not loaded. */
  sparqlMemoryBytes: number;
  /** Queries running or waiting at once (ENTIA_SPARQL_QUEUE); more are answered 503. */
  sparqlQueue: number;
  /** Largest result sent, in bytes (ENTIA_SPARQL_MAX_RESULT, in MB). */
  sparqlMaxResultBytes: number;
  /**
   * The engine's snapshot file (ENTIA_SPARQL_SNAPSHOT); null: beside a SQLite store, none for PostgreSQL; false
   * (the setting's off): none, every start builds.
   */
  sparqlSnapshot: string | false | null;
  /** An external SPARQL engine's query endpoint (ENTIA_SPARQL_URL); null: the embedded engine. */
  sparqlUrl: string | null;
  /**
   * Property constraints (ENTIA_CONSTRAINTS): checked on demand (`report`), also refusing an edit that adds a
   * mandatory violation (`enforce`), or not at all (`off`).
   */
  constraints: 'off' | 'report' | 'enforce';
  /** The ids constraints are stated with: Wikidata's, with ENTIA_CONSTRAINTS_FILE's replacing any of them. */
  constraintVocabulary: ConstraintVocabulary;
  /** Where `entia sparql-sync` sends SPARQL Update (ENTIA_SPARQL_UPDATE_URL); the query endpoint by default. */
  sparqlUpdateUrl: string | null;
  /** The Authorization header sent with those updates (ENTIA_SPARQL_UPDATE_AUTH), never logged. */
  sparqlUpdateAuth: string | null;
}

export const DEFAULTS: Config = {
  host: '127.0.0.1',
  port: 8080,
  db: './data/entia.db',
  pgPoolSize: 10,
  pgSchema: null,
  pgPrepared: true,
  dbReplicas: [],
  workers: 1,
  publicUrl: 'http://127.0.0.1:8080',
  bodyLimit: 4 * 1024 * 1024,
  requestTimeoutSeconds: 30,
  maxConnections: 1024,
  streamBufferBytes: 1 << 20,
  maxEntitySizeKb: 2048,
  allowedTags: [],
  allowedBadges: [],
  sitesFile: null,
  requireUserAgent: false,
  log: true,
  metrics: true,
  ui: true,
  editMode: 'open',
  secret: null,
  rateCreate: null,
  rateEdit: null,
  rateRead: null,
  rateMultiplier: 10,
  corsOrigins: [],
  trustProxy: false,
  redis: null,
  instanceOf: 'P31',
  subclassOf: 'P279',
  conceptUri: 'http://www.wikidata.org/entity/',
  wikibasePrefix: '/w/rest.php/wikibase',
  localIdsFrom: perKind(() => 1_000_000_000),
  sparql: 'full',
  sparqlTimeoutSeconds: 60,
  // WebAssembly's 32-bit memory holds at most 4 GiB; a quarter of the machine on smaller ones.
  sparqlMemoryBytes: Math.min(3 * 2 ** 30, Math.floor(totalmem() / 4)),
  sparqlQueue: 8,
  sparqlMaxResultBytes: 64 * 2 ** 20,
  sparqlSnapshot: null,
  sparqlUrl: null,
  constraints: 'report',
  constraintVocabulary: WIKIDATA_CONSTRAINTS,
  sparqlUpdateUrl: null,
  sparqlUpdateAuth: null,
};

/** `Q1000000000` or `Q1000000000,P1000000000`: a kind not named keeps its default. */
function localIdsFrom(v: string | undefined): Record<KindName, number> {
  if (v === undefined || v === '') return DEFAULTS.localIdsFrom;
  const start = { ...DEFAULTS.localIdsFrom };
  for (const part of v.split(',').map((p) => p.trim())) {
    const parsed = parseEntityId(part);
    if (!parsed || parsed.id !== part.toUpperCase()) {
      throw new Error(`ENTIA_LOCAL_IDS_FROM must be ids such as Q1000000000 or Q1000000000,P1000000000, got '${v}'`);
    }
    start[parsed.kind.name] = Number(parsed.id.slice(1));
  }
  return start;
}

/** A path prefix: `/a/b` (no trailing slash); empty or `off` for none; unset for the default. */
function pathPrefix(name: string, v: string | undefined, fallback: string | null): string | null {
  if (v === undefined) return fallback;
  if (v === '' || v === 'off') return null;
  if (!/^(\/[A-Za-z0-9._-]+)+$/.test(v)) throw new Error(`${name} must be a path such as /w/rest.php/wikibase, or off; got '${v}'`);
  return v;
}

function propertyId(name: string, v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  const id = parseIdOfKind(PROPERTY, v);
  if (id === null) throw new Error(`${name} must be a property id such as P31, got '${v}'`);
  return id;
}

const list = (v: string | undefined): string[] | undefined =>
  v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean);

function replicaUrls(urls: string[]): string[] {
  for (const url of urls) {
    let valid = /^postgres(ql)?:\/\//.test(url);
    try { new URL(url); } catch { valid = false; }
    // The URL itself is not repeated: it may carry a password.
    if (!valid) throw new Error('ENTIA_DB_REPLICAS must be comma-separated postgres:// URLs');
  }
  return urls;
}

/** The spellings every switch takes (README, "Configuration"); case does not matter. */
const SWITCH_ON = ['1', 'true', 'on', 'yes'];
const SWITCH_OFF = ['0', 'false', 'off', 'no'];

/** A switch: 1/true/on/yes or 0/false/off/no; unset or empty: undefined (the default); anything else stops the server. */
function onOff(name: string, v: string | undefined): boolean | undefined {
  if (v === undefined || v === '') return undefined;
  const word = v.trim().toLowerCase();
  if (SWITCH_ON.includes(word)) return true;
  if (SWITCH_OFF.includes(word)) return false;
  throw new Error(`${name} must be on or off (${SWITCH_ON.join('/')} or ${SWITCH_OFF.join('/')}), got '${v}'`);
}

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${v}'`);
  return n;
}

function positive(name: string, v: string | undefined): number | undefined {
  const n = int(name, v);
  if (n === 0) throw new Error(`${name} must be at least 1`);
  return n;
}

/** `N/SECONDS`, e.g. `30/60`; empty, `0` or `off` disables. */
export function parseRate(name: string, v: string | undefined): Rate | null {
  if (v === undefined || v === '' || v === '0' || v === 'off') return null;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(v);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`${name} must look like N/SECONDS (e.g. 30/60), got '${v}'`);
  return { count: Number(m[1]), windowSeconds: Number(m[2]) };
}

function editMode(env: NodeJS.ProcessEnv): EditMode {
  const v = env.ENTIA_EDIT;
  if (v === undefined || v === '') return env.NODE_ENV === 'production' ? 'token' : 'open';
  if (v !== 'open' && v !== 'token') throw new Error(`ENTIA_EDIT must be 'open' or 'token', got '${v}'`);
  return v;
}

/**
 * A switch (on: trust any proxy; off: none), or a comma-separated list of proxy addresses or CIDRs (e.g.
 * `127.0.0.1,10.0.0.0/8`, or `loopback`): each entry must look like an address, so a word that is neither
 * stops the server instead of reaching the HTTP layer.
 */
function trustProxy(v: string | undefined): boolean | string {
  if (v === undefined || v === '') return false;
  const word = v.trim().toLowerCase();
  if (SWITCH_ON.includes(word)) return true;
  if (SWITCH_OFF.includes(word)) return false;
  const entries = v.split(',').map((e) => e.trim());
  const PROXY = /^(loopback|linklocal|uniquelocal|[0-9.]+(\/\d{1,2})?|[0-9a-f:]+(\/\d{1,3})?)$/i;
  if (entries.some((e) => !PROXY.test(e))) {
    throw new Error(`ENTIA_TRUST_PROXY must be on, off, or proxy addresses/CIDRs such as 127.0.0.1,10.0.0.0/8, got '${v}'`);
  }
  return entries.join(',');
}

/** A setting that is one of some words or off (any of the switch's off spellings); empty means the default. */
function modeSetting<T extends string>(name: string, v: string | undefined, words: readonly T[], fallback: T | 'off'): T | 'off' {
  if (v === undefined || v === '') return fallback;
  const word = v.trim().toLowerCase();
  if ((words as readonly string[]).includes(word)) return word as T;
  if (SWITCH_OFF.includes(word)) return 'off';
  throw new Error(`${name} must be ${words.join(', ')} or off, got '${v}'`);
}

/** ENTIA_CONSTRAINTS_FILE: a JSON file replacing some of the constraint vocabulary's ids. */
function constraintsFile(path: string | undefined): ConstraintVocabulary {
  if (!path) return DEFAULTS.constraintVocabulary;
  try {
    return constraintVocabulary(JSON.parse(readFileSync(path, 'utf8')));
  } catch (e) {
    throw new Error(`ENTIA_CONSTRAINTS_FILE ${path}: ${(e as Error).message}`);
  }
}

/** The embedded engine's memory is WebAssembly's, which holds at most 4 GiB; some of it is the engine's own. */
const SPARQL_MEMORY_MAX_MB = 3584;

function sparqlMemory(v: string | undefined): number {
  const bytes = megabytes('ENTIA_SPARQL_MEMORY', v);
  if (bytes === undefined) return DEFAULTS.sparqlMemoryBytes;
  if (bytes > SPARQL_MEMORY_MAX_MB * 2 ** 20) {
    throw new Error(`ENTIA_SPARQL_MEMORY can be at most ${SPARQL_MEMORY_MAX_MB} (MB): the embedded engine runs in WebAssembly, `
      + `which holds 4 GB at most; for a larger store use ENTIA_SPARQL=truthy or an external engine (README, "SPARQL"), got '${v}'`);
  }
  return bytes;
}

/** An http(s) URL without credentials in it (they would be logged with it: ENTIA_SPARQL_UPDATE_AUTH carries them). */
function httpUrl(name: string, v: string | undefined): string | null {
  if (v === undefined || v === '') return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error(`${name} must be an http(s) URL such as http://127.0.0.1:8890/sparql, got '${v}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got '${v}'`);
  if (url.username || url.password) throw new Error(`${name} must not hold credentials: set ENTIA_SPARQL_UPDATE_AUTH instead`);
  return url.toString();
}

function megabytes(name: string, v: string | undefined): number | undefined {
  const n = positive(name, v);
  return n === undefined ? undefined : n * 2 ** 20;
}

export function configFromEnv(env: NodeJS.ProcessEnv): Config {
  const host = env.HOST ?? DEFAULTS.host;
  const port = int('PORT', env.PORT) ?? DEFAULTS.port;
  return {
    host,
    port,
    db: env.ENTIA_DB ?? DEFAULTS.db,
    pgPoolSize: positive('ENTIA_PG_POOL', env.ENTIA_PG_POOL) ?? DEFAULTS.pgPoolSize,
    pgSchema: env.ENTIA_PG_SCHEMA || DEFAULTS.pgSchema,
    pgPrepared: onOff('ENTIA_PG_PREPARED', env.ENTIA_PG_PREPARED) ?? DEFAULTS.pgPrepared,
    dbReplicas: replicaUrls(list(env.ENTIA_DB_REPLICAS) ?? DEFAULTS.dbReplicas),
    workers: positive('ENTIA_WORKERS', env.ENTIA_WORKERS) ?? DEFAULTS.workers,
    publicUrl: (env.ENTIA_PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
    bodyLimit: int('ENTIA_BODY_LIMIT', env.ENTIA_BODY_LIMIT) ?? DEFAULTS.bodyLimit,
    requestTimeoutSeconds: positive('ENTIA_REQUEST_TIMEOUT', env.ENTIA_REQUEST_TIMEOUT) ?? DEFAULTS.requestTimeoutSeconds,
    maxConnections: positive('ENTIA_MAX_CONNECTIONS', env.ENTIA_MAX_CONNECTIONS) ?? DEFAULTS.maxConnections,
    streamBufferBytes: positive('ENTIA_STREAM_BUFFER', env.ENTIA_STREAM_BUFFER) ?? DEFAULTS.streamBufferBytes,
    maxEntitySizeKb: int('ENTIA_MAX_ENTITY_KB', env.ENTIA_MAX_ENTITY_KB) ?? DEFAULTS.maxEntitySizeKb,
    allowedTags: list(env.ENTIA_TAGS) ?? DEFAULTS.allowedTags,
    allowedBadges: list(env.ENTIA_BADGES) ?? DEFAULTS.allowedBadges,
    sitesFile: env.ENTIA_SITES ?? null,
    requireUserAgent: onOff('ENTIA_REQUIRE_USER_AGENT', env.ENTIA_REQUIRE_USER_AGENT) ?? DEFAULTS.requireUserAgent,
    log: onOff('ENTIA_LOG', env.ENTIA_LOG) ?? DEFAULTS.log,
    metrics: onOff('ENTIA_METRICS', env.ENTIA_METRICS) ?? DEFAULTS.metrics,
    ui: onOff('ENTIA_UI', env.ENTIA_UI) ?? DEFAULTS.ui,
    editMode: editMode(env),
    secret: env.ENTIA_SECRET || null,
    rateCreate: parseRate('ENTIA_RATE_CREATE', env.ENTIA_RATE_CREATE),
    rateEdit: parseRate('ENTIA_RATE_EDIT', env.ENTIA_RATE_EDIT),
    rateRead: parseRate('ENTIA_RATE_READ', env.ENTIA_RATE_READ),
    rateMultiplier: Math.max(1, int('ENTIA_RATE_MULTIPLIER', env.ENTIA_RATE_MULTIPLIER) ?? DEFAULTS.rateMultiplier),
    corsOrigins: list(env.ENTIA_CORS_ORIGINS) ?? DEFAULTS.corsOrigins,
    trustProxy: trustProxy(env.ENTIA_TRUST_PROXY),
    redis: env.ENTIA_REDIS || null,
    instanceOf: propertyId('ENTIA_INSTANCE_OF', env.ENTIA_INSTANCE_OF) ?? DEFAULTS.instanceOf,
    subclassOf: propertyId('ENTIA_SUBCLASS_OF', env.ENTIA_SUBCLASS_OF) ?? DEFAULTS.subclassOf,
    conceptUri: env.ENTIA_CONCEPT_URI || DEFAULTS.conceptUri,
    wikibasePrefix: pathPrefix('ENTIA_WIKIBASE_PREFIX', env.ENTIA_WIKIBASE_PREFIX, DEFAULTS.wikibasePrefix),
    localIdsFrom: localIdsFrom(env.ENTIA_LOCAL_IDS_FROM),
    // `full` (every triple), `truthy` (the best-rank values, terms and sitelinks), or off.
    sparql: modeSetting('ENTIA_SPARQL', env.ENTIA_SPARQL, ['full', 'truthy'] as const, DEFAULTS.sparql),
    sparqlTimeoutSeconds: positive('ENTIA_SPARQL_TIMEOUT', env.ENTIA_SPARQL_TIMEOUT) ?? DEFAULTS.sparqlTimeoutSeconds,
    sparqlMemoryBytes: sparqlMemory(env.ENTIA_SPARQL_MEMORY),
    sparqlQueue: positive('ENTIA_SPARQL_QUEUE', env.ENTIA_SPARQL_QUEUE) ?? DEFAULTS.sparqlQueue,
    sparqlMaxResultBytes: megabytes('ENTIA_SPARQL_MAX_RESULT', env.ENTIA_SPARQL_MAX_RESULT) ?? DEFAULTS.sparqlMaxResultBytes,
    sparqlSnapshot: snapshotSetting(env.ENTIA_SPARQL_SNAPSHOT),
    sparqlUrl: httpUrl('ENTIA_SPARQL_URL', env.ENTIA_SPARQL_URL),
    constraints: modeSetting('ENTIA_CONSTRAINTS', env.ENTIA_CONSTRAINTS, ['report', 'enforce'] as const, DEFAULTS.constraints),
    constraintVocabulary: constraintsFile(env.ENTIA_CONSTRAINTS_FILE),
    sparqlUpdateUrl: httpUrl('ENTIA_SPARQL_UPDATE_URL', env.ENTIA_SPARQL_UPDATE_URL) ?? httpUrl('ENTIA_SPARQL_URL', env.ENTIA_SPARQL_URL),
    sparqlUpdateAuth: env.ENTIA_SPARQL_UPDATE_AUTH || null,
  };
}

/** ENTIA_SPARQL_SNAPSHOT: a file, or off (any switch's spelling of it) for none; unset or empty: the default. */
function snapshotSetting(v: string | undefined): string | false | null {
  if (v === undefined || v === '') return null;
  return SWITCH_OFF.includes(v.trim().toLowerCase()) ? false : v;
}

/**
 * Where the SPARQL engine's snapshot lives: ENTIA_SPARQL_SNAPSHOT, else beside a SQLite store; null (none) for
 * PostgreSQL, or when the setting is off.
 */
export function sparqlSnapshotPath(config: Pick<Config, 'db' | 'sparqlSnapshot'>): string | null {
  if (config.sparqlSnapshot === false) return null;
  return config.sparqlSnapshot ?? (/^postgres(ql)?:\/\//.test(config.db) ? null : `${config.db}.sparql.nq`);
}
