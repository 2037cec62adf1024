// Real `entia serve` processes for tests that need more than one process: started with `node --import tsx`,
// ready once they answer HTTP, stopped with SIGTERM. Their output is kept for failure messages.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { ENTIA } from './entia-command.js';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves when `pattern` appears in the output (or rejects after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then the exit code (SIGKILL and an error after 15 s). */
  stop(): Promise<number | null>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
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

export async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(url + path, init);
  const text = await res.text();
  let parsed: unknown;
  try { parsed = text === '' ? undefined : JSON.parse(text); } catch { parsed = undefined; }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Starts `entia serve` with the given environment on a free port; resolves once it answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...ENTIA, 'serve'], {
    env: { ...process.env, ENTIA_LOG: '0', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;

  const waitFor = (pattern: RegExp, ms = 30_000) => new Promise<RegExpMatchArray>((resolve, reject) => {
    const check = () => {
      const match = output.match(pattern);
      if (!match) return;
      listeners.delete(check);
      clearTimeout(timer);
      resolve(match);
    };
    const timer = setTimeout(() => {
      listeners.delete(check);
      reject(new Error(`no ${pattern} within ${ms} ms; output:\n${output}`));
    }, ms);
    listeners.add(check);
    check();
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`entia serve exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await call(url, 'GET', '/v1/property-data-types')).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`entia serve did not answer on ${url} within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, output: () => output, waitFor, stop };
}
