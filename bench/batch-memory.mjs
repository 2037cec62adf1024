// node bench/batch-memory.mjs --db STORE.db --items N: where the server's memory goes while clients fetch
// batches of 500 random items (GET /v1/entities?ids=…), the read that sets the bench's peak RSS (issue #38 asks
// < 300 MB serving). Serves the store kept by `npm run bench -- --keep` (its items are Q1…QN) with the built
// JavaScript, as `npm start` does, and samples its /metrics (resident memory, V8 heap, memory outside the heap:
// Buffers) every 100 ms: idle, then under the batches. Not a bench phase; run from the project's root after
// `npm run build`. Prints one JSON object of peaks, in MB.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, items: { type: 'string' }, clients: { type: 'string', default: '10' },
  seconds: { type: 'string', default: '8' }, port: { type: 'string', default: '18556' },
  // What the clients accept: none by default, as the bench's load generator (fetch would ask for gzip).
  'accept-encoding': { type: 'string', default: 'identity' },
} });
const positive = (name) => Number.isInteger(Number(values[name])) && Number(values[name]) > 0;
if (!values.db || !values.items || !['items', 'clients', 'seconds', 'port'].every(positive)) {
  console.error('usage: node bench/batch-memory.mjs --db STORE.db --items N [--clients 10] [--seconds 8] [--accept-encoding gzip]');
  process.exit(2);
}
const items = Number(values.items);
const base = `http://127.0.0.1:${values.port}`;
const server = spawn(process.execPath, [new URL('../dist/cli/main.js', import.meta.url).pathname, 'serve'], {
  env: { ...process.env, ENTIA_DB: values.db, PORT: values.port, HOST: '127.0.0.1', ENTIA_SPARQL: 'off', ENTIA_LOG: '0' },
  stdio: 'ignore',
});
process.on('exit', () => server.kill());
for (;;) {
  try { if ((await fetch(`${base}/health`)).ok) break; } catch { /* not listening yet */ }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const GAUGES = { rss: 'entia_process_resident_memory_bytes', heap: 'entia_nodejs_heap_size_total_bytes',
  outsideHeap: 'entia_nodejs_external_memory_bytes' };
/** The gauges' peaks over `during` (a promise), sampled every 100 ms. */
async function peaks(during) {
  const peak = { rss: 0, heap: 0, outsideHeap: 0 };
  let done = false;
  const sampling = (async () => {
    while (!done) {
      const text = await (await fetch(`${base}/metrics`)).text();
      for (const [name, metric] of Object.entries(GAUGES)) {
        const value = Number(text.match(new RegExp(`^${metric} (\\S+)`, 'm'))?.[1] ?? 0);
        peak[name] = Math.max(peak[name], Math.round(value / 2 ** 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const result = await during;
  done = true;
  await sampling;
  return { ...peak, ...result };
}

const randomIds = () => Array.from({ length: 500 }, () => `Q${1 + Math.floor(Math.random() * items)}`).join(',');
async function batches() {
  const end = Date.now() + Number(values.seconds) * 1000;
  let requests = 0;
  await Promise.all(Array.from({ length: Number(values.clients) }, async () => {
    while (Date.now() < end) {
      const headers = { 'accept-encoding': values['accept-encoding'] };
      await (await fetch(`${base}/v1/entities?ids=${randomIds()}`, { headers })).arrayBuffer();
      requests++;
    }
  }));
  return { requests };
}

const idle = await peaks(new Promise((resolve) => setTimeout(() => resolve({}), 1000)));
const loaded = await peaks(batches());
const hwm = Number(readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)[1]);
console.log(JSON.stringify({ idle, batches: loaded, peakRssMB: Math.round(hwm / 1024) }));
process.exit(0);
