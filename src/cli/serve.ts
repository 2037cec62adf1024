// `entia serve`: the HTTP API and the web pages over the store, in one process or as supervised workers. Its own
// module, loaded only by that command (main.ts): the rest of the CLI starts without the HTTP stack.
import cluster from 'node:cluster';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { servingHeap } from '../heap.js';
import { buildApp } from '../http/app.js';
import { buildGuard } from '../http/guard.js';
import { memoryRateLimiter, storeRateLimiter, type RateLimiter } from '../http/rate-limit.js';
import { redisRateLimiter } from '../http/rate-limit-redis.js';
import { buildServices } from '../http/services.js';
import type { Store } from '../store/store.js';
import { checkStoreLocation, describeStore, isPostgresUrl, openStore, sitesOverride } from './open-store.js';
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

export async function serve(config: Config): Promise<void> {
  checkStoreLocation(config.db);
  servingHeap();
  if (config.workers > 1 && cluster.isPrimary) {
    // Migrate once before forking, so the workers find the schema current (SQLite's start-up migration
    // does not guard against several processes starting together; PostgreSQL's does, under a lock).
    await (await openStore(config, {}, 'create')).close();
    console.error(`entia: store: ${describeStore(config.db)}; edit mode: ${config.editMode}; ${config.workers} workers`);
    return superviseWorkers(config.workers);
  }
  const store = await openStore(config, {}, cluster.isPrimary ? 'create' : 'existing');
  const unindexed = await store.unindexedCount();
  if (unindexed > 0 && cluster.isPrimary) {
    console.error(`entia: ${unindexed} imported entities are not in search yet (an import stopped before building its `
      + 'indexes): run entia import again to finish it (docs/api.md, "Importing")');
  }
  const sites = sitesOverride(config);
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
  if (cluster.isPrimary) {
    // The port bound, which PORT=0 leaves to the system.
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.error(`entia: serving ${config.publicUrl} (listening on ${config.host}:${port}); `
      + `store: ${describeStore(config.db)}; edit mode: ${config.editMode}`);
  }
}
