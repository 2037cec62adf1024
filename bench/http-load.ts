// The load generator: autocannon over real HTTP on loopback, from the harness process (the servers under
// test run in their own processes). Each measurement is preceded by a discarded warm-up run.
import autocannon, { type Request } from 'autocannon';

export interface HttpFigures {
  /** Successful (2xx) responses per second. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  statuses: Record<string, number>;
  /** Successful responses during the warm-up run (edits write revisions then too). */
  warmupOk: number;
}

export interface LoadOptions {
  url: string;
  /** A fixed GET path, or a request with a setupRequest that varies path and body. */
  path?: string;
  request?: Request;
  duration: number;
  warmup: number;
  connections: number;
}

/**
 * One autocannon run, for a duration or (`amount`) until that many responses have arrived. The time is taken
 * from the start to the last response: autocannon reports its result on its next one-second tick, so its own
 * duration is rounded up to whole seconds (an `amount` run of 2.1 s read as 3 s, a third too slow).
 */
export async function run(options: LoadOptions, length: { duration: number } | { amount: number }): Promise<HttpFigures> {
  const requests: Request[] = [options.request ?? { method: 'GET', path: options.path }];
  const started = performance.now();
  let lastResponse = started;
  const instance = autocannon({
    url: options.url, connections: options.connections, pipelining: 1, requests, timeout: 30, ...length,
  });
  instance.on('response', () => { lastResponse = performance.now(); });
  const result = await instance;
  const seconds = (lastResponse - started) / 1000;
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = Number(count);
  return {
    rps: seconds > 0 ? result['2xx'] / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    seconds,
    statuses,
    warmupOk: 0,
  };
}

export async function measure(options: LoadOptions): Promise<HttpFigures> {
  const warmup = options.warmup > 0 ? await run(options, { duration: options.warmup }) : null;
  return { ...await run(options, { duration: options.duration }), warmupOk: warmup?.ok ?? 0 };
}
