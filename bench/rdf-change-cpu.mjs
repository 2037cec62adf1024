// node bench/rdf-change-cpu.mjs: what a follower of the change feed adds to the server CPU of an edit, for a JSON
// follower and an rdf_change follower (issue #33: an rdf_change follower should add at most 10%). Not a bench
// phase; run from the project's root.
//
// Two servers on scratch SQLite stores, set up alike, take the same edits at the same time; one of them has the
// follower. Each figure is the CPU per edit of the server with the follower over that of the server without,
// measured over the same seconds, so the machine's speed (which drifts by 2x over a run here: single-server
// rounds without a follower spread from 0.4 to 1.2 ms per edit) cancels out. The servers swap roles every round,
// so neither server's own difference counts either; the figure given is the median of the rounds.
//
// Each server holds 100 items of 30 statements each (quantities, with a label and a description); each edit
// replaces the value of one statement (PUT /v1/statements/{id}), from 4 clients per server, so that items keep
// their size from round to round: a follower in step meets each item again and again. CPU is read from
// /proc/PID/stat (user and system).
//
// With `--db FILE --items N` (a store a bench run kept: `npm run bench -- --items N --only load --keep`), each
// server instead serves its own copy of that store of Wikidata-shaped items, and each edit relabels a random
// item (PUT /v1/entities/items/{id}/labels/en), as the bench's edit phase does: a follower then meets items it
// has not rendered before, as one following a large store does.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, readFileSync, mkdtempSync } from 'node:fs';
import { parseArgs } from 'node:util';

// Measured as `npm start` runs it: the JavaScript `npm run build` emits (tsx's loader wraps every closure).
execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const MAIN = new URL('../dist/cli/main.js', import.meta.url).pathname;
const STATEMENTS = 30;
const ITEMS = 100;
const EDITS = 2000;
const ROUNDS = 6;
const { values: args } = parseArgs({ options: { db: { type: 'string' }, items: { type: 'string' } } });
const STORE = args.db ? { path: args.db, items: Number(args.items) } : null;
if (STORE && !(STORE.items > 1)) throw new Error('--db needs --items N, the number of items of the store');

async function startServer(port) {
  const dir = mkdtempSync('/tmp/rdfcpu-');
  if (STORE) copyFileSync(STORE.path, `${dir}/e.db`);
  const child = spawn(process.execPath, [MAIN, 'serve'], { env: { ...process.env, ENTIA_DB: `${dir}/e.db`, PORT: String(port), ENTIA_SPARQL: 'off', ENTIA_LOG: '0' }, stdio: 'ignore' });
  process.on('exit', () => child.kill()); // also when the bench fails half-way
  const base = `http://127.0.0.1:${port}`;
  for (;;) { try { if ((await fetch(`${base}/health`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
  const stat = () => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  /** The server's CPU time in ms: user and system (utime, stime), in ticks of 10 ms. */
  const cpu = () => { const f = stat(); return (Number(f[11]) + Number(f[12])) * 10; };
  const send = (method) => async (path, body) => (await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const server = { base, cpu, put: send('PUT'), post: send('POST'), stop: () => child.kill(), edited: 0 };
  if (STORE) {
    // Both servers relabel the same items in the same order (a seeded sequence), one item per edit.
    let seed = 8;
    const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return 1 + Math.floor((seed / 2147483648) * STORE.items); };
    server.edits = async (count) => {
      await Promise.all(Array.from({ length: 4 }, async () => {
        for (let k = 0; k < count / 4; k++) await server.put(`/v1/entities/items/Q${next()}/labels/en`, { label: `relabelled ${server.edited++}` });
      }));
    };
    return server;
  }
  const quantity = (amount) => ({ type: 'value', content: { amount: `+${amount}`, unit: '1' } });
  server.prop = (await server.post('/v1/entities/properties', { property: { data_type: 'quantity', labels: { en: 'n' } } })).id;
  server.statementIds = [];
  for (let i = 0; i < ITEMS; i++) {
    const statements = { [server.prop]: Array.from({ length: STATEMENTS }, (_, k) => ({ property: { id: server.prop }, value: quantity(k) })) };
    const item = await server.post('/v1/entities/items', { item: { labels: { en: `item ${i}` }, descriptions: { en: 'a thing' }, statements } });
    server.statementIds.push(item.statements[server.prop].map((st) => st.id));
  }
  /** `count` edits from 4 clients. */
  server.edits = async (count) => {
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let k = 0; k < count / 4; k++) {
        const i = server.edited++;
        const id = server.statementIds[i % ITEMS][Math.floor(i / ITEMS) % STATEMENTS];
        await server.put(`/v1/statements/${id}`, { statement: { property: { id: server.prop }, value: quantity(100000 + i) } });
      }
    }));
  };
  return server;
}

async function follower(server, format) {
  const c = new AbortController();
  const res = await fetch(`${server.base}/v1/changes/stream${format ? `?format=${format}` : ''}`, { headers: { accept: 'text/event-stream' }, signal: c.signal });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let events = 0;
  let tail = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.length;
        const text = tail + decoder.decode(value, { stream: true });
        events += text.split('\ndata:').length - 1;
        tail = text.slice(-6);
      }
    } catch {}
  })();
  return { stop: () => c.abort(), bytes: () => bytes, events: () => events };
}

/** Waits until the follower has read `count` events more than `seen`. */
async function caughtUp(f, seen, count) {
  const deadline = Date.now() + 60_000;
  while (f.events() - seen < count) {
    if (Date.now() > deadline) throw new Error(`the follower read ${f.events() - seen} events of ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The same edits on both servers at once; the follower's server waits for it. CPU ms per edit of each. */
async function together(servers, count, f = null) {
  const before = servers.map((s) => s.cpu());
  const seen = f?.events() ?? 0;
  const t = Date.now();
  await Promise.all(servers.map((s) => s.edits(count)));
  const elapsed = Date.now() - t;
  if (f) await caughtUp(f, seen, count);
  await new Promise((r) => setTimeout(r, 200));
  return { msPerEdit: servers.map((s, i) => (s.cpu() - before[i]) / count), editsPerSecond: Math.round(count / (elapsed / 1000)), bytes: f?.bytes() };
}

const servers = [await startServer(18555), await startServer(18556)];
await together(servers, 400); // warm-up
const results = {};
const kinds = {
  // Connected just before the measured edits: it first renders each item whole, at the revision before its first edit.
  'rdf follower connecting': { format: 'rdf', warm: 0 },
  'json follower': { format: null, warm: 0 },
  // Connected and 400 edits followed first: the steady state of a consumer that stays connected.
  'rdf follower in step': { format: 'rdf', warm: 400 },
};
for (let round = 1; round <= ROUNDS; round++) {
  const on = round % 2; // the server with the follower this round
  for (const [name, { format, warm }] of Object.entries(kinds)) {
    const f = await follower(servers[on], format);
    if (warm) {
      const seen = f.events();
      await together(servers, warm);
      await caughtUp(f, seen, warm);
    }
    const r = await together(servers, EDITS, f);
    f.stop();
    results[`${name} ${round}`] = { server: on, withMsPerEdit: r.msPerEdit[on], withoutMsPerEdit: r.msPerEdit[1 - on],
      addsPercent: Math.round(100 * (r.msPerEdit[on] / r.msPerEdit[1 - on] - 1)), editsPerSecond: r.editsPerSecond, bytes: r.bytes };
  }
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
};
const rounds = Array.from({ length: ROUNDS }, (_, i) => i + 1);
results.summary = Object.fromEntries(Object.keys(kinds).map((name) => [`${name} adds %`, median(rounds.map((k) => results[`${name} ${k}`].addsPercent))]));
results.summary.note = `median of ${ROUNDS} rounds, each against the other server's CPU over the same edits at the same time; the servers swap roles each round`;
console.log(JSON.stringify(results, null, 1));
for (const s of servers) s.stop();
