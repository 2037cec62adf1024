// The processes under test: Entia as `entia serve` (the real composition root) and the bare-Fastify
// baseline (bench/bare-server.ts), each in its own process on loopback, with its memory sampled from
// /proc/<pid>/status while it runs.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  /** Highest VmRSS seen by the sampler, and the kernel's VmHWM, in MB. */
  memory(): { peakRssMb: number; hwmMb: number; rssMb: number };
  /**
   * The same over the process and its descendants (the primary and its workers under ENTIA_WORKERS):
   * the highest sampled sum of their VmRSS, and the sum of their VmHWMs (an upper bound of that peak).
   */
  treeMemory(): { peakRssMb: number; hwmSumMb: number; processes: number };
  /** Restarts the peak tracking (e.g. before a phase whose own peak is wanted). */
  resetPeak(): void;
  stop(): Promise<void>;
}

/** A free loopback port (bound then released; the short race is acceptable for a benchmark). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** VmRSS and VmHWM of a process in MB, or null when it has gone. */
export function processMemory(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, all threads) a process has used so far, in seconds; null when it has gone. On a
 * shared machine this moves much less from run to run than a rate does: the edit rows report it per edit.
 */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields 14 and 15 (utime, stime) in clock ticks, counted after the parenthesised command name.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds used so far by all of `pids` (those gone meanwhile count nothing). */
export function cpuSecondsOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
}

/**
 * The local PostgreSQL server's processes (postmaster, backends, background workers): their command name is
 * `postgres`. A backend started during a measurement is counted from its start, one that ends is lost: the
 * servers under test keep their connections open, so neither happens while one is measured.
 */
export function postgresPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(name));
    } catch { /* gone meanwhile */ }
  }
  return pids;
}

/** USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

/** The pid and every descendant of it, found through the parent pid in /proc/<pid>/stat. */
export function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (2nd field) is in parentheses and may contain spaces: the ppid follows the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch { /* gone meanwhile */ }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]) ?? []));
  return tree;
}

async function waitUntilUp(url: string, child: ChildProcess, stderr: () => string,
  ready: (stderr: string) => boolean = () => true): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr()}`);
    try {
      if (ready(stderr())) {
        const res = await fetch(url);
        await res.arrayBuffer();
        return;
      }
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not start: ${stderr()}`);
}

/** `node [nodeArgs] script …`; TypeScript scripts run through tsx, built JavaScript as it is. */
async function startProcess(args: string[], env: NodeJS.ProcessEnv, url: string, probePath: string,
  nodeArgs: string[] = [], ready?: (stderr: string) => boolean): Promise<ServerProcess> {
  const loader = args[0].endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => { errors = (errors + chunk.toString()).slice(-4000); });
  await waitUntilUp(url + probePath, child, () => errors, ready);
  let peak = 0;
  let treePeak = 0;
  const sample = () => {
    const m = processMemory(child.pid!);
    if (m) peak = Math.max(peak, m.rssMb);
    let sum = 0;
    for (const pid of processTree(child.pid!)) sum += processMemory(pid)?.rssMb ?? 0;
    treePeak = Math.max(treePeak, sum);
  };
  const timer = setInterval(sample, 200);
  timer.unref();
  return {
    url,
    pid: child.pid!,
    memory() {
      sample();
      const m = processMemory(child.pid!) ?? { rssMb: 0, hwmMb: 0 };
      return { peakRssMb: peak, hwmMb: m.hwmMb, rssMb: m.rssMb };
    },
    treeMemory() {
      sample();
      const tree = processTree(child.pid!);
      const hwmSumMb = tree.reduce((sum, pid) => sum + (processMemory(pid)?.hwmMb ?? 0), 0);
      return { peakRssMb: treePeak, hwmSumMb, processes: tree.length };
    },
    resetPeak() {
      peak = 0;
      treePeak = 0;
      sample();
    },
    async stop() {
      clearInterval(timer);
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface EntiaOptions {
  /** ENTIA_WORKERS (default 1); with more, the server is up once every worker has said it listens. */
  workers?: number;
  /** More environment, e.g. ENTIA_PG_SCHEMA. */
  env?: NodeJS.ProcessEnv;
}

let built = false;

/**
 * Entia is measured as `npm start` runs it: the JavaScript that `npm run build` emits to dist/, not through
 * tsx (whose loader thread alone adds some 27 MB to the server's RSS). Built once per harness run, so that
 * the figures are always those of the current source.
 */
function buildEntia(): void {
  if (built) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: ROOT, stdio: 'inherit' });
  built = true;
}

/**
 * `entia serve` (dist/cli/main.js, built first) over the given database (a file or a postgres:// URL), request
 * log off; `profileDir`: write a CPU profile there on exit.
 */
export async function startEntia(db: string, profileDir?: string, options: EntiaOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const workers = options.workers ?? 1;
  // The supervisor logs one `worker <pid> listening` line per worker (src/cli/workers.ts).
  const ready = workers > 1 ? (stderr: string) => (stderr.match(/ listening on /g)?.length ?? 0) >= workers : undefined;
  buildEntia();
  return startProcess(['dist/cli/main.js', 'serve'],
    // SPARQL off unless a phase asks for it (bench/sparql.ts): the other phases measure what they always did.
    // ENTIA_PUBLIC_URL is the server's own address unless a phase keeps one across restarts (its RDF names it).
    { ENTIA_SPARQL: 'off', ENTIA_PUBLIC_URL: url, ...options.env, PORT: String(port), HOST: '127.0.0.1', ENTIA_DB: db, ENTIA_LOG: '0',
      ENTIA_WORKERS: String(workers) },
    url, '/v1/property-data-types', profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [], ready);
}

/** The bare-Fastify baseline serving the payloads in `routesFile` (see bare-server.ts). */
export async function startBare(routesFile: string): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startProcess(['bench/bare-server.ts', routesFile, String(port)], {}, url, '/ready');
}
