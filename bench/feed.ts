// The change feed and history under load (issue: history, change feed and export): reads of an entity's
// history and of the change feed next to GET of the entity, and edits per second with 0 and with N followers
// of /v1/changes/stream, all against one server in the same run. Followers are real SSE connections that read
// every event; the edit rate with them is reported as a ratio to the rate without.
//
//   node --import tsx bench/feed.ts [--items 20000] [--followers 200] [--duration 5] [--warmup 1] [--connections 10]
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from 'autocannon';
import { flagReader } from './args.js';
import { ensureDataset, RESULTS_DIR } from './dataset.js';
import { measure, type HttpFigures } from './http-load.js';
import { processCpuSeconds, startEntia } from './servers.js';

const { num } = flagReader(process.argv.slice(2));
const items = num('items', 20_000);
const followersWanted = num('followers', 200);
const duration = num('duration', 5);
const warmup = num('warmup', 1);
const connections = num('connections', 10);
const log = (m: string) => console.error(`[feed ${new Date().toISOString().slice(11, 19)}] ${m}`);

const data = await ensureDataset(8, items);
const db = join(RESULTS_DIR, `feed-${items}.db`);
for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
log(`loading ${data.entities} entities`);
execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'bulk-load.ts'), '--data', data.path, '--db', db], { stdio: ['ignore', 'ignore', 'inherit'] });
const server = await startEntia(db);

let counter = 0;
/** PUT of the English label of a random item: one revision each. */
const edit: Request = {
  method: 'PUT',
  setupRequest: (req) => {
    const id = `Q${1 + Math.floor(Math.random() * items)}`;
    return { ...req, path: `/v1/entities/items/${id}/labels/en`, headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: `feed bench ${++counter}` }) };
  },
};
const load = (path: string | undefined, request?: Request) => measure({ url: server.url, path, request, duration, warmup, connections });

/** N SSE connections reading every event; resolves once all are open. */
async function openFollowers(n: number): Promise<{ events: () => number; close: () => void }> {
  let events = 0;
  const requests: http.ClientRequest[] = [];
  await Promise.all(Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
    const req = http.get(`${server.url}/v1/changes/stream`, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { events += chunk.split('\nevent: change\n').length - 1; });
      resolve();
    });
    req.on('error', reject);
    requests.push(req);
  })));
  return { events: () => events, close: () => requests.forEach((r) => r.destroy()) };
}

const rows: [string, HttpFigures, string][] = [];
const get = await load('/v1/entities/items/Q100');
rows.push(['GET item', get, '']);
rows.push(['GET history of the item', await load('/v1/entities/items/Q100/history'), '']);
rows.push(['GET /v1/changes (100 a page)', await load('/v1/changes?since=0&limit=100'), '']);
const cpuBefore = processCpuSeconds(server.pid) ?? 0;
const alone = await load(undefined, edit);
const cpuAlone = (processCpuSeconds(server.pid) ?? 0) - cpuBefore;
rows.push(['PUT label, no followers', alone, `${Math.round(1e6 * cpuAlone / (alone.ok + alone.warmupOk))} µs CPU/edit`]);
const followers = await openFollowers(followersWanted);
const cpuBefore2 = processCpuSeconds(server.pid) ?? 0;
const followed = await load(undefined, edit);
const cpuFollowed = (processCpuSeconds(server.pid) ?? 0) - cpuBefore2;
await new Promise((r) => setTimeout(r, 500));
const received = followers.events();
followers.close();
rows.push([`PUT label, ${followersWanted} stream followers`, followed,
  `${Math.round(1e6 * cpuFollowed / (followed.ok + followed.warmupOk))} µs CPU/edit; ${(100 * followed.rps / alone.rps).toFixed(0)}% of the rate without; followers received ${received} events (${(received / followersWanted).toFixed(0)} each)`]);
await server.stop();
for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });

console.log(`operation | rate | p50 / p99 ms | notes\n---|---|---|---`);
for (const [name, f, note] of rows) console.log(`${name} | ${Math.round(f.rps).toLocaleString('en')}/s | ${f.p50} / ${f.p99} | ${note}`);
