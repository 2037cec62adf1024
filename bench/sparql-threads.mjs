// Where the CPU of a server with the embedded SPARQL engine goes while it follows edits, thread by thread
// (ADR 0013, "Removing in one update"): starts the built server (dist/, or --dist DIR) over a kept bench store
// with ENTIA_SPARQL=full, waits for the engine, relabels random items at the full rate from 10 connections for
// --duration seconds, sampling how many changes the engine is behind every 100 ms, then times the catch-up. CPU
// per thread comes from /proc (Linux): the server's main thread, V8's helper threads, then the engine's thread
// and the RDF writer's (started in that order).
//   node bench/sparql-threads.mjs --db bench/results/store-seed8-items2000.db --items 2000 [--duration 10]
//     [--dist dist] [--sparql full|off]
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: o } = parseArgs({ options: { db: { type: 'string' }, items: { type: 'string' }, duration: { type: 'string', default: '10' },
  dist: { type: 'string', default: 'dist' }, sparql: { type: 'string', default: 'full' } } });
if (!o.db || !o.items) throw new Error('--db FILE and --items N are required');
const items = Number(o.items);
const root = fileURLToPath(new URL('..', import.meta.url));
const port = 18000 + Math.floor(Math.random() * 1000);
const url = `http://127.0.0.1:${port}`;
const following = o.sparql !== 'off';
const server = spawn(process.execPath, [`${o.dist}/cli/main.js`, 'serve'], { cwd: root, stdio: 'ignore', env: { ...process.env,
  PORT: String(port), HOST: '127.0.0.1', ENTIA_DB: o.db, ENTIA_LOG: '0', ENTIA_SPARQL: o.sparql, ENTIA_SPARQL_SNAPSHOT: 'off', ENTIA_PUBLIC_URL: url } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ask = async () => {
  const res = await fetch(`${url}/sparql?query=ASK%7B%7D`);
  await res.arrayBuffer();
  return res;
};
for (;;) {
  try {
    const res = await ask();
    if (res.status === 200 || (!following && res.status === 503)) break;
  } catch { /* not listening yet */ }
  await sleep(200);
}

/** CPU ms of each of the server's threads so far. */
const cpu = () => Object.fromEntries(readdirSync(`/proc/${server.pid}/task`).map((tid) => {
  const fields = readFileSync(`/proc/${server.pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
  return [tid, (Number(fields[11]) + Number(fields[12])) * 10];
}));
const head = async () => Number((await (await fetch(`${url}/v1/changes?order=newest&limit=1`)).json()).changes[0].cursor);
const applied = async () => Number((await ask()).headers.get('x-entia-sparql-cursor'));

const before = cpu();
const behind = [];
let editing = true;
const sampler = (async () => {
  while (editing && following) {
    const [h, a] = await Promise.all([head(), applied()]);
    behind.push(h - a);
    await sleep(100);
  }
})();
let n = 0;
const result = await autocannon({ url, connections: 10, duration: Number(o.duration), requests: [{ method: 'PUT', setupRequest: (req) => ({ ...req,
  path: `/v1/entities/items/Q${1 + Math.floor(Math.random() * items)}/labels/en`, headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ label: `threads ${++n}` }) }) }] });
editing = false;
await sampler;
const after = cpu();
const stopped = performance.now();
const target = await head();
const left = following ? target - (await applied()) : 0;
while (following && (await applied()) < target) await sleep(20);
const sorted = [...behind].sort((a, b) => a - b);
const edits = result.requests.total;
const threads = Object.entries(after).map(([tid, ms]) => [tid, ms - (before[tid] ?? 0)]).filter(([, ms]) => ms > 50);
console.log(JSON.stringify({
  sparql: o.sparql, editsPerSecond: result.requests.average, edits, non2xx: result.non2xx,
  behind: following ? { p50: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1), atEnd: left, caughtUpInS: +((performance.now() - stopped) / 1000).toFixed(2) } : null,
  cpuMsPerEdit: Object.fromEntries(threads.map(([tid, ms]) => [tid, +(ms / edits).toFixed(3)])),
}));
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
