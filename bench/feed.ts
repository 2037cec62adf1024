// The change feed and history under load (issue: history, change feed and export): reads of an entity's
// history and of the change feed next to GET of the same entity, and edits per second with no follower and
// with N followers of /v1/changes/stream, all against one server in the same run. Followers are real SSE
// connections that read every event. `npm run bench` runs this as its `feed` phase on the store it loaded;
// alone, it loads a store of its own:
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
import { row, type Row } from './report.js';
import { processCpuSeconds, startEntia } from './servers.js';

export interface FeedOptions {
  items: number;
  followers: number;
  duration: number;
  warmup: number;
  connections: number;
  /** An item of the store, for GET and its history. */
  item: string;
}

/** N SSE connections reading every event; resolves once all are open. */
async function openFollowers(url: string, n: number): Promise<{ events: () => number; close: () => void }> {
  let events = 0;
  const requests: http.ClientRequest[] = [];
  await Promise.all(Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
    const req = http.get(`${url}/v1/changes/stream`, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { events += chunk.split('event: change\n').length - 1; });
      resolve();
    });
    req.on('error', reject);
    requests.push(req);
  })));
  return { events: () => events, close: () => requests.forEach((r) => r.destroy()) };
}

const figure = (f: HttpFigures) => ({ rate: f.rps, p50: f.p50, p99: f.p99 });

/** The rows of the feed phase, against a running server. */
export async function feedRows(server: { url: string; pid: number }, o: FeedOptions): Promise<Row[]> {
  let counter = 0;
  /** PUT of the English label of a random item: one revision each. */
  const edit: Request = {
    method: 'PUT',
    setupRequest: (req) => ({ ...req, path: `/v1/entities/items/Q${1 + Math.floor(Math.random() * o.items)}/labels/en`,
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ label: `feed bench ${++counter}` }) }),
  };
  const load = (path: string | undefined, request?: Request) =>
    measure({ url: server.url, path, request, duration: o.duration, warmup: o.warmup, connections: o.connections });
  const cpuPerEdit = async (): Promise<{ figures: HttpFigures; cpuUs: number }> => {
    const before = processCpuSeconds(server.pid) ?? 0;
    const figures = await load(undefined, edit);
    const cpu = (processCpuSeconds(server.pid) ?? 0) - before;
    return { figures, cpuUs: Math.round(1e6 * cpu / Math.max(1, figures.ok + figures.warmupOk)) };
  };
  const get = await load(`/v1/entities/items/${o.item}`);
  const getBaseline = { name: 'GET item, same item', ...figure(get) };
  const rows: Row[] = [
    row('feed', `GET history of an item (${o.item})`, 'req/s', figure(await load(`/v1/entities/items/${o.item}/history`)), getBaseline),
    row('feed', 'GET /v1/changes, 100 a page', 'req/s', figure(await load('/v1/changes?since=0&limit=100')), getBaseline),
  ];
  const alone = await cpuPerEdit();
  const followers = await openFollowers(server.url, o.followers);
  const followed = await cpuPerEdit();
  await new Promise((r) => setTimeout(r, 500));
  const received = followers.events();
  followers.close();
  const r = row('feed', `PUT label with ${o.followers} stream followers`, 'edits/s', figure(followed.figures),
    { name: 'PUT label, no follower, same server', ...figure(alone.figures) });
  r.note = `server CPU per edit ${followed.cpuUs} µs with followers, ${alone.cpuUs} µs without; `
    + `followers received ${received.toLocaleString('en-US')} events (${Math.round(received / o.followers)} each)`;
  rows.push(r);
  return rows;
}

async function main(): Promise<void> {
  const { num } = flagReader(process.argv.slice(2));
  const o: FeedOptions = { items: num('items', 20_000), followers: num('followers', 200), duration: num('duration', 5),
    warmup: num('warmup', 1), connections: num('connections', 10), item: 'Q100' };
  const data = await ensureDataset(8, o.items);
  const db = join(RESULTS_DIR, `feed-${o.items}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'bulk-load.ts'), '--data', data.path, '--db', db],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  const server = await startEntia(db);
  try {
    for (const r of await feedRows(server, o)) {
      console.log(`${r.name}: ${Math.round(r.entia!.rate)}/s against ${r.baseline!.name} ${Math.round(r.baseline!.rate)}/s `
        + `(${(100 * r.ratio!).toFixed(0)}%)${r.note ? `; ${r.note}` : ''}`);
    }
  } finally {
    await server.stop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
