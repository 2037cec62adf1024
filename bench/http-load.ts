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
  /** At most this many requests per second over all connections (autocannon's overallRate); unset: as fast as it answers. */
  rate?: number;
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
    ...(options.rate ? { overallRate: options.rate } : {}),
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

/**
 * A server and its baseline measured in alternation: both warmed up, then `rounds` pairs of runs of
 * duration / rounds each. On a shared machine the background load drifts over a measurement; alternating
 * puts both servers under the same drift, so their ratio moves much less than with one long run each.
 * Rates are totals over the rounds; percentiles are the medians of the rounds'.
 */
export async function measurePair(a: LoadOptions, b: LoadOptions, rounds: number): Promise<[HttpFigures, HttpFigures]> {
  const warm = await Promise.all([a, b].map(async (o) => (o.warmup > 0 ? (await run(o, { duration: o.warmup })).ok : 0)));
  const runs: [HttpFigures[], HttpFigures[]] = [[], []];
  for (let i = 0; i < rounds; i++) {
    runs[0].push(await run(a, { duration: a.duration / rounds }));
    runs[1].push(await run(b, { duration: b.duration / rounds }));
  }
  return [combine(runs[0], warm[0]), combine(runs[1], warm[1])];
}

function combine(runs: HttpFigures[], warmupOk: number): HttpFigures {
  const sum = (f: (r: HttpFigures) => number) => runs.reduce((n, r) => n + f(r), 0);
  const median = (f: (r: HttpFigures) => number) => runs.map(f).sort((x, y) => x - y)[Math.floor(runs.length / 2)];
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const seconds = sum((r) => r.seconds);
  return {
    rps: sum((r) => r.ok) / seconds, p50: median((r) => r.p50), p99: median((r) => r.p99), ok: sum((r) => r.ok),
    non2xx: sum((r) => r.non2xx), errors: sum((r) => r.errors), seconds, statuses, warmupOk,
  };
}
