// node bench/rdf-change-cpu.mjs: server CPU per edit, with no follower, with a JSON follower, and with an
// rdf_change follower (issue #33: an rdf_change follower should add at most 10%). Starts its own server on a
// scratch SQLite store; run from the project's root. Not a bench phase: one server, CPU read from /proc/PID/stat.
// 100 items of 30 statements each (quantities, with a label and a description); each edit replaces the value of
// one statement (PUT /v1/statements/{id}), from 4 clients at once, so that items keep their size from phase to
// phase and the phases compare like with like.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
const dir = mkdtempSync('/tmp/rdfcpu-');
const PORT = 18555;
// Measured as `npm start` runs it: the JavaScript `npm run build` emits (tsx's loader wraps every closure).
execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const srv = spawn(process.execPath, [new URL('../dist/cli/main.js', import.meta.url).pathname, 'serve'], { env: { ...process.env, ENTIA_DB: `${dir}/e.db`, PORT: String(PORT), ENTIA_SPARQL: 'off', ENTIA_LOG: '0' }, stdio: 'ignore' });
process.on('exit', () => srv.kill()); // also when the bench fails half-way
const base = `http://127.0.0.1:${PORT}`;
for (;;) { try { if ((await fetch(`${base}/health`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
const stat = () => readFileSync(`/proc/${srv.pid}/stat`, 'utf8').split(') ')[1].split(' ');
/** The server's CPU time in ms: user and system (utime, stime), in ticks of 10 ms. */
const cpu = () => { const f = stat(); return (Number(f[11]) + Number(f[12])) * 10; };
const systemCpu = () => Number(stat()[12]) * 10;
const send = (method) => async (path, body) => (await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
const post = send('POST');
const put = send('PUT');
const STATEMENTS = 30;
const quantity = (amount) => ({ type: 'value', content: { amount: `+${amount}`, unit: '1' } });
const prop = (await post('/v1/entities/properties', { property: { data_type: 'quantity', labels: { en: 'n' } } })).id;
const items = [];
const statementIds = [];
for (let i = 0; i < 100; i++) {
  const statements = { [prop]: Array.from({ length: STATEMENTS }, (_, k) => ({ property: { id: prop }, value: quantity(k) })) };
  const item = await post('/v1/entities/items', { item: { labels: { en: `item ${i}` }, descriptions: { en: 'a thing' }, statements } });
  items.push(item.id);
  statementIds.push(item.statements[prop].map((st) => st.id));
}
let n = 0;
/** Edits `count` times; with a follower, waits until it has read an event for each edit before reading the CPU. */
async function edits(count, follower) {
  const before = cpu();
  const systemBefore = systemCpu();
  const seen = follower?.events() ?? 0;
  const t = Date.now();
  await Promise.all(Array.from({ length: 4 }, async () => { for (let k = 0; k < count / 4; k++) { const i = n++; await put(`/v1/statements/${statementIds[i % 100][Math.floor(i / 100) % STATEMENTS]}`, { statement: { property: { id: prop }, value: quantity(100000 + i) } }); } }));
  const elapsed = Date.now() - t;
  const deadline = Date.now() + 60_000;
  while (follower && follower.events() - seen < count) {
    if (Date.now() > deadline) throw new Error(`the follower read ${follower.events() - seen} events of ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 200));
  return { msPerEdit: (cpu() - before) / count, systemMsPerEdit: (systemCpu() - systemBefore) / count, editsPerSecond: Math.round(count / (elapsed / 1000)) };
}
async function follower(format) {
  const c = new AbortController();
  const res = await fetch(`${base}/v1/changes/stream${format ? `?format=${format}` : ''}`, { headers: { accept: 'text/event-stream' }, signal: c.signal });
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
await edits(400); // warm-up
// Each round: no follower; a JSON follower; an rdf_change follower connected just before the measured edits
// ("connecting": it first renders each item whole, at the revision before its first edit); and one that has
// followed 400 edits already ("in step", the steady state of a consumer that stays connected).
const results = {};
const ROUNDS = [1, 2, 3, 4, 5];
for (const round of ROUNDS) {
  results[`none ${round}`] = await edits(2000);
  const j = await follower(null); results[`json follower ${round}`] = { ...(await edits(2000, j)), bytes: j.bytes() }; j.stop();
  const c = await follower('rdf'); results[`rdf follower connecting ${round}`] = { ...(await edits(2000, c)), bytes: c.bytes() }; c.stop();
  const r = await follower('rdf'); await edits(400, r); results[`rdf follower in step ${round}`] = { ...(await edits(2000, r)), bytes: r.bytes() }; r.stop();
}
const best = (name) => Math.min(...ROUNDS.map((k) => results[`${name} ${k}`].msPerEdit));
const ratio = (name) => Math.round(100 * (best(name) / best('none') - 1));
// The machine's speed drifts over a run (rounds without a follower have spread from 0.5 to 1.0 ms): each
// round's phases are also compared with that round's own no-follower phase, and the median of those is given.
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const roundRatio = (name) => median(ROUNDS.map((k) => Math.round(100 * (results[`${name} ${k}`].msPerEdit / results[`none ${k}`].msPerEdit - 1))));
results.summary = { 'json follower adds %': ratio('json follower'), 'rdf follower connecting adds %': ratio('rdf follower connecting'),
  'rdf follower in step adds %': ratio('rdf follower in step'), note: `best of ${ROUNDS.length} rounds against the best of ${ROUNDS.length} without a follower`,
  'median of rounds': { 'json follower adds %': roundRatio('json follower'), 'rdf follower connecting adds %': roundRatio('rdf follower connecting'),
    'rdf follower in step adds %': roundRatio('rdf follower in step') } };
console.log(JSON.stringify(results, null, 1));
srv.kill();
