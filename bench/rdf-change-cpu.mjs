// node bench/rdf-change-cpu.mjs: server CPU per edit (POST statement), with no follower, with a JSON follower, and with an rdf_change follower.
// (issue #33: an rdf_change follower should add at most 10%). Starts its own server on a scratch SQLite store; run
// from the project's root. Not a bench phase: one server, CPU read from /proc/PID/stat.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
const dir = mkdtempSync('/tmp/rdfcpu-');
const PORT = 18555;
const srv = spawn(process.execPath, ['--import', 'tsx', new URL('../src/cli/main.ts', import.meta.url).pathname, 'serve'], { env: { ...process.env, ENTIA_DB: `${dir}/e.db`, PORT: String(PORT), ENTIA_SPARQL: 'off', ENTIA_LOG: '0' }, stdio: 'ignore' });
const base = `http://127.0.0.1:${PORT}`;
for (;;) { try { if ((await fetch(`${base}/health`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
const cpu = () => { const f = readFileSync(`/proc/${srv.pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const post = async (path, body) => (await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
const prop = (await post('/v1/entities/properties', { property: { data_type: 'quantity', labels: { en: 'n' } } })).id;
const items = [];
for (let i = 0; i < 100; i++) items.push((await post('/v1/entities/items', { item: { labels: { en: `item ${i}` }, descriptions: { en: 'a thing' } } })).id);
let n = 0;
async function edits(count) {
  const before = cpu();
  const t = Date.now();
  await Promise.all(Array.from({ length: 4 }, async () => { for (let k = 0; k < count / 4; k++) { const i = n++; await post(`/v1/entities/items/${items[i % 100]}/statements`, { statement: { property: { id: prop }, value: { type: 'value', content: { amount: `+${i % 37}`, unit: '1' } } } }); } }));
  await new Promise((r) => setTimeout(r, 1500)); // the follower's last tick
  return { msPerEdit: (cpu() - before) / count, editsPerSecond: Math.round(count / ((Date.now() - t - 0) / 1000)) };
}
async function follower(format) {
  const c = new AbortController();
  const res = await fetch(`${base}/v1/changes/stream${format ? `?format=${format}` : ''}`, { headers: { accept: 'text/event-stream' }, signal: c.signal });
  const reader = res.body.getReader();
  let bytes = 0;
  void (async () => { try { for (;;) { const { value, done } = await reader.read(); if (done) break; bytes += value.length; } } catch {} })();
  return { stop: () => c.abort(), bytes: () => bytes };
}
await edits(400); // warm-up
const results = {};
for (const round of [1, 2]) {
  results[`none ${round}`] = await edits(2000);
  const j = await follower(null); results[`json follower ${round}`] = { ...(await edits(2000)), bytes: j.bytes() }; j.stop();
  const r = await follower('rdf'); results[`rdf follower ${round}`] = { ...(await edits(2000)), bytes: r.bytes() }; r.stop();
}
console.log(JSON.stringify(results, null, 1));
srv.kill();
