// The SPARQL phase (issue #34): the embedded engine on the bench's store, each figure against a baseline from
// the same run.
// - Build: entities/s from `entia serve` start to /sparql answering, against the engine's own bulk load of the
//   same store's N-Triples (`entia export --format nt`, loaded by Oxigraph in a bare process). Restart from the
//   snapshot is timed too.
// - Memory: the server's RSS with the engine filled less its RSS with SPARQL off, per entity, full and truthy.
// - Queries: one entity's triples (`wd:Q… ?p ?o`, random items) and a 100-row label-service query, one client
//   at a time, against GET of the same items by id on the same server.
// - Sync: edits/s with the engine following the feed against edits/s with it off, and the lag of each edit
//   (an edit, then a query with `after=latest`, while the load edits at its full rate).
//
//   node --import tsx bench/sparql.ts --db STORE --items N [--duration 10] [--warmup 2] [--connections 10]
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from 'autocannon';
import { flagReader } from './args.js';
import { RESULTS_DIR } from './dataset.js';
import { measure, measurePair } from './http-load.js';
import { row, type Row } from './report.js';
import { startEntia, type ServerProcess } from './servers.js';

export interface SparqlBenchOptions {
  db: string;
  items: number;
  duration: number;
  warmup: number;
  connections: number;
}

const ROOT = new URL('..', import.meta.url).pathname;
const randomItem = (items: number) => `Q${1 + Math.floor(Math.random() * items)}`;

async function ready(server: ServerProcess, timeoutMs = 30 * 60_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${server.url}/sparql?query=ASK%7B%7D`);
    const body = await res.text();
    if (res.status === 200) return (performance.now() - started) / 1000;
    if (res.status !== 503 || /ENTIA_SPARQL_MEMORY|is off/.test(body) || performance.now() - started > timeoutMs) {
      throw new Error(`SPARQL did not become ready: ${res.status} ${body}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function metric(server: ServerProcess, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/**
 * Oxigraph's own load of an N-Triples file (or an N-Quads one: the mirror's snapshot), in a process of its own:
 * seconds and triples. Its fastest way, measured on the 2,000-item store's N-Triples (2026-11-29): the file's
 * bytes as they are, in calls of about 1 MB cut after a line (1.53-1.65 s; 8 MB calls 1.73-1.76 s; the same
 * text as strings of 1 M characters 1.95-2.00 s, since each string is encoded into the engine's memory).
 */
function engineLoad(file: string, format = 'application/n-triples'): { seconds: number; triples: number } {
  const script = `
    const ox = require('oxigraph'); const fs = require('fs');
    const options = { format: ${JSON.stringify(format)}, lenient: true, no_transaction: true };
    const store = new ox.Store(); const started = performance.now();
    const fd = fs.openSync(${JSON.stringify(file)}, 'r'); const buf = Buffer.alloc(1 << 20); let kept = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, kept, buf.length - kept); const end = kept + n;
      if (n === 0) { if (end > 0) store.load(buf.subarray(0, end), options); break; }
      const cut = buf.lastIndexOf(0x0a, end - 1) + 1;
      if (cut === 0) throw new Error('a line longer than 1 MB');
      store.load(buf.subarray(0, cut), options);
      buf.copy(buf, 0, cut, end); kept = end - cut;
    }
    console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, triples: store.size }));`;
  const out = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout.trim());
}

/** p50/p99 of one client's requests, in ms. */
async function latencies(count: number, request: () => Promise<void>): Promise<{ p50: number; p99: number; rate: number }> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await request();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(count * 0.5)], p99: times[Math.floor(count * 0.99)], rate: count / ((performance.now() - started) / 1000) };
}

export async function sparqlRows(o: SparqlBenchOptions, log: (m: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const snapshot = join(RESULTS_DIR, `sparql-${process.pid}.nq`);
  // One public URL for every start: the engine's data nodes name it, and a snapshot is used only for the same one.
  const env = (mode: string) => ({ env: { ENTIA_SPARQL: mode, ENTIA_SPARQL_SNAPSHOT: snapshot, ENTIA_PUBLIC_URL: 'http://entia.bench' } });
  const nt = join(RESULTS_DIR, `sparql-${process.pid}.nt`);
  // The same store for the server without SPARQL, whose edits are measured in alternation with the engine's.
  const plainDb = join(RESULTS_DIR, `sparql-${process.pid}-off.db`);
  try {
    const off = await startEntia(o.db, undefined, env('off'));
    const offRss = off.memory().rssMb;
    await off.stop();
    copyFileSync(o.db, plainDb);

    log('sparql: build from the store (full)');
    rmSync(snapshot, { force: true });
    let server = await startEntia(o.db, undefined, env('full'));
    // A store the engine cannot hold ends the phase here, with /sparql's reason as the row's note.
    const buildSeconds = await ready(server).catch(async (e) => { await server.stop(); throw e; });
    const triples = await metric(server, 'entia_sparql_triples');
    const fullRss = server.memory().rssMb;
    rows.push({ ...row('sparql', `engine memory, full (${triples.toLocaleString('en-US')} triples)`, 'bytes/entity',
      { rate: ((fullRss - offRss) * 2 ** 20) / o.items }, null), note: `${fullRss} MB RSS with the engine, ${offRss} MB without` });

    const singleQuery = async () => {
      const q = encodeURIComponent(`SELECT ?p ?o WHERE { wd:${randomItem(o.items)} ?p ?o }`);
      await (await fetch(`${server.url}/sparql?query=${q}`)).arrayBuffer();
    };
    // Right after a build the engine writes its snapshot (queries run between its graphs), a few seconds once.
    log('sparql: single-entity queries right after the build, while its snapshot is written');
    const afterBuild = await latencies(1000, singleQuery);
    for (let waited = 0; !existsSync(snapshot); waited += 100) {
      if (waited >= 120_000) throw new Error(`the build's snapshot ${snapshot} was not written within 120 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    log('sparql: queries, one client at a time');
    const get = await latencies(1000, async () => { await (await fetch(`${server.url}/v1/entities/items/${randomItem(o.items)}`)).arrayBuffer(); });
    const single = await latencies(1000, singleQuery);
    rows.push(row('sparql', 'single-entity query (wd:Q… ?p ?o)', 'queries/s', single, { name: 'GET item by id, same server', ...get },
      (f) => ({ text: 'p99 < 10 ms', met: (f.p99 ?? Infinity) < 10 })));
    rows.push(row('sparql', 'the same, right after the build (its snapshot being written)', 'queries/s', afterBuild, null));
    const labelled = await latencies(200, async () => {
      const start = 1 + Math.floor(Math.random() * Math.max(1, o.items - 100));
      const values = Array.from({ length: 100 }, (_, i) => `wd:Q${start + i}`).join(' ');
      const q = encodeURIComponent(`SELECT ?item ?itemLabel WHERE { VALUES ?item { ${values} } SERVICE wikibase:label { bd:serviceParam wikibase:language "en". } }`);
      await (await fetch(`${server.url}/sparql?query=${q}`)).arrayBuffer();
    });
    rows.push(row('sparql', 'label-service query, 100 rows', 'queries/s', labelled, { name: 'GET item by id, same server', ...get },
      (f) => ({ text: 'p99 < 50 ms', met: (f.p99 ?? Infinity) < 50 })));

    log('sparql: edits with the engine following the feed, and their lag');
    let counter = 0;
    const edit: Request = {
      method: 'PUT',
      setupRequest: (req) => ({ ...req, path: `/v1/entities/items/${randomItem(o.items)}/labels/en`,
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ label: `sparql bench ${++counter}` }) }),
    };
    const editLoad = { url: server.url, request: edit, duration: o.duration, warmup: o.warmup, connections: o.connections };
    /** The cursor the engine has applied (SQLite's cursors are revision ids, so their difference counts changes). */
    const cursorNow = async (after?: string) => {
      const res = await fetch(`${server.url}/sparql?query=ASK%7B%7D${after ? `&after=${after}` : ''}`);
      await res.arrayBuffer();
      return res.status === 200 ? Number(res.headers.get('x-entia-sparql-cursor')) : null;
    };
    const head = async () => Number(((await (await fetch(`${server.url}/v1/changes?order=newest&limit=1`)).json()) as
      { changes: { cursor: string }[] }).changes[0].cursor);
    /** Edits at `rate` per second (0: as fast as the server answers), and the lag of probe edits meanwhile. */
    const editsWithLag = async (rate: number) => {
      const lags: number[] = [];
      let editing = true;
      const prober = (async () => {
        while (editing) {
          const res = await fetch(`${server.url}/v1/entities/items/${randomItem(o.items)}/labels/en`, { method: 'PUT',
            headers: { 'content-type': 'application/json' }, body: JSON.stringify({ label: `lag probe ${++counter}` }) });
          await res.arrayBuffer();
          const t = performance.now();
          await (await fetch(`${server.url}/sparql?after=latest&query=ASK%7B%7D`)).arrayBuffer();
          lags.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const figures = await measure({ ...editLoad, rate: rate || undefined });
      // Where the engine is when the edits stop, before the probe's last wait lets it catch up.
      const behindAtEnd = await cursorNow();
      const endedAt = performance.now();
      editing = false;
      await prober;
      lags.sort((a, b) => a - b);
      return { figures, behindAtEnd, endedAt, lag: { rate: lags.length, p50: lags[Math.floor(lags.length * 0.5)], p99: lags[Math.floor(lags.length * 0.99)] } };
    };
    const full = await editsWithLag(0);
    // The backlog the full rate left, and how fast the engine applied it once the edits stopped.
    const behind = (await head()) - (full.behindAtEnd ?? 0);
    while ((await cursorNow('latest')) === null) { /* after=latest waits up to 10 s a time */ }
    const drainSeconds = (performance.now() - full.endedAt) / 1000;
    rows.push({ ...row('sparql', 'changes applied per second while catching up', 'changes/s', { rate: behind / drainSeconds }, null),
      note: `${behind} changes behind when the full-rate edits stopped, applied in ${drainSeconds.toFixed(1)} s` });
    const moderate = await editsWithLag(100);
    // The edit rate with the engine following against the same edits on a server without SPARQL (a copy of the
    // store), in alternation: measured a minute apart, the machine's drift between the two (SPARQL-off rates
    // from 1,133 to 1,517 edits/s within an hour) was larger than the difference.
    log('sparql: edits with and without SPARQL, in alternation');
    const plain = await startEntia(plainDb, undefined, env('off'));
    // As warm as the engine's server, which has served the queries and two rounds of edits above: started cold,
    // it was the slower of the two (the engine's server at 107% and 102% of its rate in two runs).
    await measure({ ...editLoad, url: plain.url, duration: o.duration * 2 });
    const [withSync, withoutSync] = await measurePair({ ...editLoad, duration: o.duration * 2 },
      { ...editLoad, url: plain.url, duration: o.duration * 2 }, 4);
    await plain.stop();
    await server.stop();

    log('sparql: restart from the snapshot');
    server = await startEntia(o.db, undefined, env('full'));
    const restartSeconds = await ready(server);
    await server.stop();
    rows.push({ ...row('sparql', 'restart from the snapshot until /sparql answers', 's', { rate: restartSeconds }, null,
      (f) => ({ text: '< 60 s (100,000 items)', met: f.rate < 60 })), note: `build from the store took ${buildSeconds.toFixed(1)} s` });
    // A second reference for the build: the engine loading what it holds as it holds it, each entity's own
    // triples in a graph of its own (the snapshot), which costs it about twice the N-Triples' load (ADR 0013).
    log('sparql: Oxigraph\'s own load of the snapshot (N-Quads)');
    const quadLoad = engineLoad(snapshot, 'application/n-quads');
    const buildAgainstQuads = row('sparql', 'build of the embedded engine (full), against the same triples in its graphs', 'triples/s',
      { rate: triples / buildSeconds }, { name: 'the engine\'s own load of its snapshot (N-Quads)', rate: quadLoad.triples / quadLoad.seconds });

    rows.push(row('sparql', 'edits with the engine in step (PUT label)', 'edits/s', { rate: withSync.rps, p50: withSync.p50, p99: withSync.p99 },
      { name: 'the same edits, SPARQL off (store copy, alternated)', rate: withoutSync.rps, p50: withoutSync.p50, p99: withoutSync.p99 },
      (_f, ratio) => ({ text: '≥ 90% of the rate without', met: (ratio ?? 0) >= 0.9 })));
    rows.push(row('sparql', 'sync lag of an edit under full edit load (edit → after=latest answers)', 'probes', full.lag, null,
      (f) => ({ text: 'p99 < 1 s', met: (f.p99 ?? Infinity) < 1000 })));
    rows.push({ ...row('sparql', 'sync lag of an edit at 100 edits/s', 'probes', moderate.lag, null), note: `${Math.round(moderate.figures.rps)} edits/s` });

    log('sparql: build (truthy)');
    rmSync(snapshot, { force: true });
    server = await startEntia(o.db, undefined, env('truthy'));
    const truthySeconds = await ready(server);
    const truthyTriples = await metric(server, 'entia_sparql_triples');
    const truthyRss = server.memory().rssMb;
    await server.stop();
    rows.push({ ...row('sparql', `engine memory, truthy (${truthyTriples.toLocaleString('en-US')} triples)`, 'bytes/entity',
      { rate: ((truthyRss - offRss) * 2 ** 20) / o.items }, null), note: `built in ${truthySeconds.toFixed(1)} s; ${truthyRss} MB RSS` });
    // The baseline, last (a store too large for the engine has stopped the phase before this export): the engine
    // loading the same store's triples, which the build adds nothing to.
    log('sparql: entia export --format nt, then Oxigraph\'s own load of it');
    execFileSync(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'export', '--format', 'nt', nt],
      { env: { ...process.env, ENTIA_DB: o.db }, stdio: ['ignore', 'ignore', 'inherit'] });
    const load = engineLoad(nt);
    rows.unshift(row('sparql', 'build of the embedded engine (full)', 'triples/s', { rate: triples / buildSeconds },
      { name: 'the engine\'s own load of the same N-Triples', rate: load.triples / load.seconds },
      (_f, ratio) => ({ text: '≥ 80% of the engine\'s own load', met: (ratio ?? 0) >= 0.8 })), buildAgainstQuads);
  } finally {
    rmSync(snapshot, { force: true });
    rmSync(nt, { force: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${plainDb}${suffix}`, { force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { value, num } = flagReader(process.argv.slice(2));
  const db = value('db');
  if (!db) throw new Error('--db STORE is required (a store `npm run bench -- --keep` left)');
  const rows = await sparqlRows({ db, items: num('items', 100_000), duration: num('duration', 10), warmup: num('warmup', 2),
    connections: num('connections', 10) }, (m) => console.error(m));
  console.log(JSON.stringify(rows));
}
