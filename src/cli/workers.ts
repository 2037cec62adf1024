// ENTIA_WORKERS=N: N worker processes accept connections on one port (node:cluster). Each worker is a full,
// stateless Entia server over the shared database; the primary serves nothing. It restarts a worker that
// exits unexpectedly (with a growing delay while workers keep dying young) and stops them all on
// SIGTERM/SIGINT, exiting once they have closed their connections and their store.
import cluster, { type Worker } from 'node:cluster';

const YOUNG_MS = 5_000;
const MAX_DELAY_MS = 10_000;
const STOP_GRACE_MS = 10_000;

const say = (message: string) => process.stderr.write(`entia: ${message}\n`);

export function superviseWorkers(count: number): void {
  let stopping = false;
  let youngDeaths = 0;
  const startedAt = new Map<number, number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };

  cluster.on('listening', (worker, address) => {
    say(`worker ${worker.process.pid} listening on ${address.address ?? '*'}:${address.port}`);
  });
  cluster.on('exit', (worker: Worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    youngDeaths = lived < YOUNG_MS ? youngDeaths + 1 : 0;
    const delay = youngDeaths === 0 ? 0 : Math.min(MAX_DELAY_MS, 250 * 2 ** (youngDeaths - 1));
    say(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another in ${delay} ms`);
    setTimeout(() => { if (!stopping) fork(); }, delay);
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    say('stopping workers');
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (workers.length === 0) process.exit(0);
    for (const w of workers) w.process.kill('SIGTERM');
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(1);
    }, STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  for (let i = 0; i < count; i++) fork();
}
