#!/usr/bin/env node
// The composition root: reads the environment, chooses the store backend, dispatches the command.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { configFromEnv, type Config } from '../config.js';
import { buildApp } from '../http/app.js';
import { Redis } from 'ioredis';
import { buildGuard } from '../http/guard.js';
import { memoryRateLimiter, storeRateLimiter, type RateLimiter } from '../http/rate-limit.js';
import { redisRateLimiter } from '../http/rate-limit-redis.js';
import type { Store } from '../store/store.js';
import { buildServices } from '../http/services.js';
import { ITEM, parseIdOfKind } from '../domain/kinds.js';
import { buildSiteTable } from '../domain/sites.js';
import { IMPORT_TUNING, importDump } from './import.js';
import { isPostgresUrl, openStore } from './open-store.js';
import { PROTECT_USAGE, protectCommand } from './protect.js';
import { USER_USAGE, userCommand } from './user.js';
import { CliError } from './with-store.js';
import { superviseWorkers } from './workers.js';

/**
 * Where rate-limit budgets live: Redis when ENTIA_REDIS is set; otherwise the store's shared counters when
 * several processes may serve one database (PostgreSQL, or ENTIA_WORKERS > 1); process memory for a single
 * SQLite process, where nothing else could share them.
 */
function chooseLimiter(config: Config, store: Store, redis: Redis | null): RateLimiter {
  if (redis) return redisRateLimiter(redis);
  if (isPostgresUrl(config.db) || config.workers > 1) return storeRateLimiter(store);
  return memoryRateLimiter();
}

async function serve(config: Config): Promise<void> {
  if (config.workers > 1 && cluster.isPrimary) {
    // Migrate once before forking, so the workers find the schema current (SQLite's start-up migration
    // does not guard against several processes starting together; PostgreSQL's does, under a lock).
    await (await openStore(config)).close();
    return superviseWorkers(config.workers);
  }
  const store = await openStore(config);
  const sites = config.sitesFile ? JSON.parse(readFileSync(config.sitesFile, 'utf8')) : undefined;
  const redis = config.redis ? new Redis(config.redis, { lazyConnect: true, maxRetriesPerRequest: 2 }) : null;
  if (redis) await redis.connect();
  const guard = await buildGuard({ config, accounts: store.accounts, limiter: chooseLimiter(config, store, redis) });
  const app = buildApp({ store, services: buildServices(config, sites, guard) });
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await store.close();
    await redis?.quit();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  // A worker whose primary is gone stops too, rather than serving on unsupervised.
  if (cluster.isWorker) process.once('disconnect', shutdown);
  await app.listen({ host: config.host, port: config.port });
}

async function importCommand(config: Config, path: string | undefined): Promise<void> {
  if (!path) throw new Error('usage: entia import FILE|-   (Wikidata JSON dump lines, .json or .json.bz2)');
  const store = await openStore(config, IMPORT_TUNING);
  try {
    const started = Date.now();
    const result = await importDump(store, path, loadSites(config), { user: 'import', comment: `import ${path}`, tags: [], bot: true });
    const seconds = (Date.now() - started) / 1000;
    console.log(`imported ${result.entities} entities (+${result.placeholders} placeholder properties) in ${seconds.toFixed(1)} s; ` +
      `skipped ${result.skipped}; dropped ${result.droppedTerms} terms, ${result.droppedSitelinks} sitelinks, ` +
      `${result.droppedStatements} statements Entia cannot store`);
  } finally {
    await store.close();
  }
}

/** `entia redirect Q1 Q2`: Q1 becomes a redirect to Q2, as after a merge (REFERENCE §9.1). */
async function redirectCommand(config: Config, source: string | undefined, target: string | undefined): Promise<void> {
  const from = source ? parseIdOfKind(ITEM, source) : null;
  const to = target ? parseIdOfKind(ITEM, target) : null;
  if (!from || !to || from === to) throw new Error('usage: entia redirect FROM_ITEM_ID TO_ITEM_ID');
  const store = await openStore(config);
  try {
    await store.redirectEntity(from, to, { user: 'cli', comment: `redirect ${from} to ${to}`, tags: [], bot: false });
    console.log(`${from} now redirects to ${to}`);
  } finally {
    await store.close();
  }
}

function loadSites(config: Config) {
  return buildSiteTable(config.sitesFile ? JSON.parse(readFileSync(config.sitesFile, 'utf8')) : undefined);
}

const USAGE = `Usage: entia <command>   (every command uses ENTIA_DB; see README for the environment)
  serve                               start the HTTP API (PORT, HOST, ENTIA_DB, ENTIA_EDIT, …)
  import FILE|-                       load Wikidata JSON dump data (.json, .json.bz2, or - for stdin) into ENTIA_DB
  redirect Q1 Q2                      make item Q1 a redirect to item Q2 (as after a merge)
${USER_USAGE}
${PROTECT_USAGE}`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(configFromEnv(process.env));
    case 'import':
      return importCommand(configFromEnv(process.env), argv[1]);
    case 'redirect':
      return redirectCommand(configFromEnv(process.env), argv[1], argv[2]);
    case 'user':
      return userCommand(configFromEnv(process.env), rest);
    case 'protect':
    case 'unprotect':
      return protectCommand(configFromEnv(process.env), rest, command === 'protect');
    default:
      console.error(USAGE);
      process.exitCode = command ? 2 : 0;
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(e instanceof CliError ? e.exitCode : 1);
});
