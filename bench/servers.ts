// The processes under test: Entia as `entia serve` (the real composition root) and the bare-Fastify
// baseline (bench/bare-server.ts), each in its own process on loopback, with its memory sampled from
// /proc/<pid>/status while it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  /** Highest VmRSS seen by the sampler, and the kernel's VmHWM, in MB. */
  memory(): { peakRssMb: number; hwmMb: number; rssMb: number };
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

async function waitUntilUp(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server at ${url} did not start: ${stderr()}`);
}

async function startProcess(args: string[], env: NodeJS.ProcessEnv, url: string, probePath: string,
  nodeArgs: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => { errors = (errors + chunk.toString()).slice(-4000); });
  await waitUntilUp(url + probePath, child, () => errors);
  let peak = 0;
  const sample = () => {
    const m = processMemory(child.pid!);
    if (m) peak = Math.max(peak, m.rssMb);
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
    resetPeak() {
      peak = 0;
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

/** `entia serve` over the given database file, request log off; `profileDir`: write a CPU profile there on exit. */
export async function startEntia(db: string, profileDir?: string): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startProcess(['src/cli/main.ts', 'serve'],
    { PORT: String(port), HOST: '127.0.0.1', ENTIA_DB: db, ENTIA_LOG: '0', ENTIA_PUBLIC_URL: url, ENTIA_WORKERS: '1' },
    url, '/v1/property-data-types', profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
}

/** The bare-Fastify baseline serving the payloads in `routesFile` (see bare-server.ts). */
export async function startBare(routesFile: string): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startProcess(['bench/bare-server.ts', routesFile, String(port)], {}, url, '/ready');
}
