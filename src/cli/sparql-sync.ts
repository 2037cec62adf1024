// `entia sparql-sync`: loads an external SPARQL engine (ENTIA_SPARQL_URL) from the store and keeps it in step
// with the change feed (sparql/remote-sync.ts). Ctrl-C or SIGTERM stops it between two requests; a kill at any
// moment is safe too: the engine holds where the sync stands, and the next run goes on from there.
import type { Config } from '../config.js';
import { conceptVocabulary } from '../http/vocabulary.js';
import type { SiteTable } from '../domain/sites.js';
import { RemoteEndpoint, RemoteRefused, RemoteTimeout, RemoteUnavailable } from '../sparql/remote-endpoint.js';
import { RemoteSync, SyncMismatch } from '../sparql/remote-sync.js';
import { syncDump, type DumpProgress } from '../sparql/remote-dump.js';
import { exportTarget, write } from './export.js';
import { describeStore, openStore } from './open-store.js';
import { CliError } from './errors.js';

export const SPARQL_SYNC_HELP = `Needs ENTIA_SPARQL_URL (the engine's query endpoint); updates go to ENTIA_SPARQL_UPDATE_URL (the
same by default) with ENTIA_SPARQL_UPDATE_AUTH as their Authorization header. ENTIA_SPARQL=full|truthy
chooses the triples. The first run loads every entity; later runs, and a run after any interruption, go on
from what the engine holds (README, "SPARQL on an external engine").

  --once              apply what the feed holds now, then exit (for cron, or to check)
  --dump FILE         instead of loading the engine through SPARQL Update, write what it would hold as N-Quads
                      (.gz compressed by name) for the engine's own bulk loader, then exit; load the file into
                      an empty engine and run sparql-sync: it follows the feed from where the dump began
  --settle SECONDS    after a sync that was killed, wait until the engine has been still this long before
                      going on: its last request may still be running there (default 10)`;

/** Seconds the engine must be still after a sync that did not stop cleanly (--settle, default 10). */
function settleSeconds(value: unknown): number {
  if (value === undefined) return 10;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 3600) throw new CliError(`--settle must be a number of seconds from 0 to 3600, got '${String(value)}'`, 2);
  return n;
}

function remoteEndpoint(config: Config): RemoteEndpoint {
  if (!config.sparqlUrl) throw new CliError('ENTIA_SPARQL_URL is not set: point it at the engine\'s SPARQL endpoint (README, "SPARQL on an external engine")', 2);
  return new RemoteEndpoint({ queryUrl: config.sparqlUrl, updateUrl: config.sparqlUpdateUrl ?? config.sparqlUrl, updateAuth: config.sparqlUpdateAuth });
}

export async function sparqlSyncCommand(config: Config, sites: SiteTable, values: Record<string, unknown>): Promise<void> {
  if (typeof values.dump === 'string') return dumpCommand(config, sites, values.dump);
  const endpoint = remoteEndpoint(config);
  if (config.sparql === 'off') throw new CliError('ENTIA_SPARQL is off: set it to full or truthy to choose what the engine holds', 2);
  const settleMs = settleSeconds(values.settle) * 1000;
  const store = await openStore(config, {}, 'existing');
  console.error(`entia: syncing ${describeStore(config.db)} into the SPARQL engine at ${new URL(config.sparqlUrl!).host} (${config.sparql})`);
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(130);
    stopping = true;
    console.error('entia: stopping after the request under way (again to stop at once; the engine stays consistent either way)');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const sync = new RemoteSync(store, endpoint, { vocabulary: conceptVocabulary(config), sites, flavor: config.sparql },
    { log: (message) => console.error(`entia: ${message}`), stopped: () => stopping, settleMs });
  try {
    await sync.run(values.once === true);
  } catch (e) {
    if (e instanceof RemoteRefused || e instanceof RemoteUnavailable || e instanceof RemoteTimeout) {
      throw new CliError(`the SPARQL engine: ${e.message}`);
    }
    if (e instanceof SyncMismatch) throw new CliError(e.message);
    throw e;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await store.close();
  }
}

/** `--dump FILE`: the engine's contents for its bulk loader (sparql/remote-dump.ts). */
async function dumpCommand(config: Config, sites: SiteTable, path: string): Promise<void> {
  if (config.sparql === 'off') throw new CliError('ENTIA_SPARQL is off: set it to full or truthy to choose what the engine holds', 2);
  const target = exportTarget(path);
  const store = await openStore(config, {}, 'existing');
  console.error(`entia: writing ${describeStore(config.db)} as the SPARQL engine's N-Quads (${config.sparql}) to ${path}`);
  let last: DumpProgress = { entities: 0, quads: 0 };
  let logged = Date.now();
  try {
    const setup = { vocabulary: conceptVocabulary(config), sites, flavor: config.sparql };
    for await (const text of syncDump(store, setup, (progress) => { last = progress; })) {
      await write(target.out, text);
      if (Date.now() - logged > 10_000) {
        logged = Date.now();
        console.error(`entia: ${last.entities} entities and redirects, ${last.quads} quads`);
      }
    }
    if (target.out !== process.stdout) target.out.end();
    await target.done();
  } finally {
    await store.close();
  }
  console.error(`entia: wrote ${last.entities} entities and redirects, ${last.quads} quads; load the file into an empty engine `
    + 'with its bulk loader, then run entia sparql-sync (README, "SPARQL on an external engine")');
}
