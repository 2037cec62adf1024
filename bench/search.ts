// Search benchmark (issue #6). Builds a store of N generated items (seeded, so every run indexes the same
// bytes), then measures search and suggest in process (store.search) and over HTTP on loopback, with a
// baseline from the same run: GET of one item by id over the same server.
//
//   node --import tsx bench/search.ts --items 1000000 [--db path] [--queries 2000]
//
// The database file (--db, default entia-search-bench-N.db in the temp directory) is reused when it exists, so
// the queries can be re-measured without a rebuild; delete it after a change to the index format.
// --slowest K prints the K slowest in-process queries instead of running the HTTP part.
// --json ends the output with one JSON line of the figures (read by bench/run.ts).
import { existsSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { DEFAULTS } from '../src/config.js';
import type { Entity, Statement } from '../src/domain/entity.js';
import { buildApp } from '../src/http/app.js';
import { buildServices } from '../src/http/services.js';
import { parseText } from '../src/search/query.js';
import { searchLanguages } from '../src/search/languages.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { SearchQuery } from '../src/store/store.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const N = Number(arg('items', '100000'));
const QUERIES = Number(arg('queries', '2000'));
const DB = arg('db', join(tmpdir(), `entia-search-bench-${N}.db`));
/** Also print the slowest in-process queries, to see what dominates. */
const SLOWEST = Number(arg('slowest', '0'));

// ---------------------------------------------------------------- deterministic data
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let rnd = mulberry32(20261122);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
/** Zipf-like: index i with probability ∝ 1/(i+1). */
function zipf(n: number): number {
  return Math.min(n - 1, Math.floor(Math.exp(rnd() * Math.log(n + 1)) - 1));
}

const LATIN_SYLLABLES = ['ka', 'ri', 'mo', 'sen', 'ta', 'lu', 'ber', 'ne', 'vi', 'do', 'ga', 'fel', 'zu', 'rich', 'an',
  'el', 'mar', 'tin', 'so', 'pa', 'lo', 'we', 'ho', 'stein', 'burg', 'ü', 'é', 'ia', 'or', 'qu', 'xe', 'jo', 'yan'];
const CYRILLIC: Record<string, string> = { a: 'а', b: 'б', d: 'д', e: 'е', f: 'ф', g: 'г', h: 'х', i: 'и', j: 'й', k: 'к',
  l: 'л', m: 'м', n: 'н', o: 'о', p: 'п', q: 'к', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', w: 'в', x: 'кс', y: 'ы', z: 'з',
  ü: 'ю', é: 'э', c: 'ц' };
const GREEK: Record<string, string> = { a: 'α', b: 'β', d: 'δ', e: 'ε', f: 'φ', g: 'γ', h: 'χ', i: 'ι', j: 'ι', k: 'κ',
  l: 'λ', m: 'μ', n: 'ν', o: 'ο', p: 'π', q: 'κ', r: 'ρ', s: 'σ', t: 'τ', u: 'υ', v: 'β', w: 'ω', x: 'ξ', y: 'υ', z: 'ζ',
  ü: 'ύ', é: 'έ', c: 'κ' };
const ARABIC: Record<string, string> = { a: 'ا', b: 'ب', d: 'د', e: 'ي', f: 'ف', g: 'غ', h: 'ه', i: 'ي', j: 'ج', k: 'ك',
  l: 'ل', m: 'م', n: 'ن', o: 'و', p: 'ب', q: 'ق', r: 'ر', s: 'س', t: 'ت', u: 'و', v: 'ف', w: 'و', x: 'كس', y: 'ي', z: 'ز',
  ü: 'و', é: 'ي', c: 'ك' };
const HAN = Array.from('東京都大阪府北海道神奈川県愛知埼玉千葉兵庫福岡静岡茨城広島京都宮城新潟長野岐阜栃木群馬岡山三重熊本鹿児島山口'
  + '中国人民共和上海天津重庆香港台湾省市区县山水河湖海江南西学校公司银行医院图书馆博物馆火车站机场大学电影音乐');
const KANA = Array.from('アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワンガギグゲゴ');

const translit = (word: string, map: Record<string, string>) => Array.from(word).map((c) => map[c] ?? c).join('');
const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

const VOCABULARY = Array.from({ length: 30000 }, () => {
  const n = 2 + Math.floor(rnd() * 3);
  return Array.from({ length: n }, () => pick(LATIN_SYLLABLES)).join('');
});
const word = () => VOCABULARY[zipf(VOCABULARY.length)];
const phrase = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => capital(word())).join(' ');
const han = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => HAN[zipf(HAN.length)]).join('');

function statements(id: string, count: number): Record<string, Statement[]> {
  if (count === 0) return {};
  const list: Statement[] = Array.from({ length: count }, (_, i) => ({
    id: `${id}$${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`, rank: 'normal',
    property: { id: 'P1', 'data-type': 'string' }, value: { type: 'value', content: word() }, qualifiers: [], references: [],
  }));
  return { P1: list };
}

function item(n: number): Entity {
  const id = `Q${n}`;
  const en = phrase(1, 3);
  const labels: Record<string, string> = { en };
  if (rnd() < 0.5) labels.de = rnd() < 0.5 ? en : phrase(1, 2);
  if (rnd() < 0.4) labels.fr = rnd() < 0.5 ? en : phrase(1, 2);
  if (rnd() < 0.25) labels.ru = capital(translit(en.toLowerCase(), CYRILLIC));
  if (rnd() < 0.1) labels.el = capital(translit(en.toLowerCase(), GREEK));
  if (rnd() < 0.1) labels.ar = translit(en.toLowerCase(), ARABIC);
  if (rnd() < 0.15) labels.zh = han(2, 5);
  if (rnd() < 0.1) labels.ja = rnd() < 0.5 ? han(2, 4) : Array.from({ length: 3 + Math.floor(rnd() * 3) }, () => pick(KANA)).join('');
  const aliases: Record<string, string[]> = {};
  if (rnd() < 0.3) aliases.en = [...new Set([phrase(1, 2), ...(rnd() < 0.3 ? [phrase(1, 3)] : [])])];
  if (rnd() < 0.05) aliases.mul = [word().toUpperCase()];
  const descriptions: Record<string, string> = {};
  if (rnd() < 0.7) descriptions.en = `${word()} ${word()} ${n}`;
  if (rnd() < 0.3) descriptions.de = `${word()} ${n}`;
  const sitelinkCount = rnd() < 0.8 ? 0 : 1 + zipf(40);
  const sitelinks: Entity['sitelinks'] = {};
  for (const site of ['enwiki', 'dewiki', 'frwiki', 'ruwiki', 'jawiki', 'zhwiki', 'elwiki', 'arwiki', 'itwiki', 'eswiki',
    'nlwiki', 'plwiki', 'svwiki', 'fiwiki', 'cswiki', 'huwiki', 'nowiki', 'dawiki', 'trwiki', 'kowiki'].slice(0, sitelinkCount)) {
    sitelinks[site] = { title: `${en} ${n}`, badges: [] };
  }
  return { id, type: 'item', labels, descriptions, aliases, statements: statements(id, rnd() < 0.5 ? 0 : zipf(8)), sitelinks };
}

// ---------------------------------------------------------------- build
const META = { user: 'bench', comment: null, tags: [], bot: true };

async function build(): Promise<{ seconds: number; built: boolean }> {
  const reuse = existsSync(DB);
  const store = openSqliteStore({ path: DB });
  // A bulk load touches every page of the indexes: a large page cache keeps them in memory.
  store.db.pragma('cache_size = -524288');
  const started = performance.now();
  if (!reuse) {
    await store.importEntities([{ id: 'P1', type: 'property', data_type: 'string', labels: { en: 'name' }, descriptions: {}, aliases: {}, statements: {} }], META);
    const BATCH = 5000;
    for (let from = 1; from <= N; from += BATCH) {
      const batch: Entity[] = [];
      for (let n = from; n < Math.min(from + BATCH, N + 1); n++) batch.push(item(n));
      await store.importEntities(batch, META);
      if ((from - 1 + BATCH) % 100000 === 0) console.error(`  built ${from - 1 + batch.length} items, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  await store.close();
  return { seconds: (performance.now() - started) / 1000, built: !reuse };
}

// ---------------------------------------------------------------- queries
interface Q { mode: 'search' | 'suggest'; q: string; lang: string; label: string }

function queries(seed: number): Q[] {
  rnd = mulberry32(seed);
  const out: Q[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const sample = item(1 + Math.floor(rnd() * N));
    const langs = Object.keys(sample.labels);
    const lang = pick(langs);
    const text = sample.labels[lang].toLowerCase();
    const len = 1 + (i % 6);
    out.push({ mode: 'suggest', q: Array.from(text).slice(0, len).join(''), lang: lang === 'mul' ? 'en' : lang, label: `prefix ${len}` });
  }
  for (let i = 0; i < QUERIES; i++) {
    const kind = i % 4;
    if (kind === 0) out.push({ mode: 'search', q: VOCABULARY[Math.floor(rnd() * 20)], lang: 'en', label: 'common word' });
    else if (kind === 1) out.push({ mode: 'search', q: VOCABULARY[5000 + Math.floor(rnd() * 25000)], lang: pick(['en', 'de', 'fr']), label: 'rare word' });
    else if (kind === 2) out.push({ mode: 'search', q: `${VOCABULARY[Math.floor(rnd() * 200)]} ${VOCABULARY[Math.floor(rnd() * 2000)]}`, lang: 'en', label: 'two words' });
    else out.push({ mode: 'search', q: han(1, 2), lang: pick(['zh', 'ja']), label: 'CJK substring' });
  }
  return out;
}

// ---------------------------------------------------------------- measure
function stats(ms: number[]): { p50: number; p99: number; qps: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), qps: 1000 * ms.length / ms.reduce((a, b) => a + b, 0) };
}

const fmt = (s: { p50: number; p99: number; qps: number }) =>
  `p50 ${s.p50.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms  ${s.qps.toFixed(0)} q/s`;

async function main(): Promise<void> {
  console.log(`search benchmark: ${N} items, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}`);
  const built = await build();
  console.log(built.built ? `built in ${built.seconds.toFixed(0)} s (${DB})` : `reused ${DB}`);
  const store = openSqliteStore({ path: DB });
  const list = queries(42);
  // Warm-up uses other queries of the same kinds: JIT and caches warm, the measured queries not seen before.
  const warmUp = queries(7);
  const toQuery = (x: Q): SearchQuery => ({
    kind: 'item', mode: x.mode, text: parseText(x.q), entityId: null, languages: searchLanguages(x.lang), limit: 10, offset: 0,
  });

  // In process: store.search.
  for (const x of warmUp) await store.search(toQuery(x));
  const inProcess = new Map<string, number[]>();
  const results: number[] = [];
  const timed: [number, Q][] = [];
  for (const x of list) {
    const t = performance.now();
    const hits = await store.search(toQuery(x));
    const ms = performance.now() - t;
    results.push(hits.length);
    timed.push([ms, x]);
    for (const key of [x.mode, `${x.mode}: ${x.label}`]) (inProcess.get(key) ?? inProcess.set(key, []).get(key)!).push(ms);
  }

  for (const [ms, x] of timed.sort((a, b) => b[0] - a[0]).slice(0, SLOWEST)) {
    console.log(`  slow: ${ms.toFixed(2)} ms ${x.mode} ${x.label} lang=${x.lang} q=${JSON.stringify(x.q)}`);
  }
  if (SLOWEST > 0) return;

  // Over HTTP on loopback, one client at a time (latency) and four at a time (throughput).
  // The server runs in its own thread (its own core), as it would in its own process, so the client's work
  // does not queue behind it on one event loop.
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const server = new Worker(boot, { eval: true, workerData: { serve: DB } });
  const port = await new Promise<number>((resolve, reject) => server.once('message', resolve).once('error', reject));
  const url = (x: Q) => `/v0/${x.mode}/items?q=${encodeURIComponent(x.q)}&lang=${x.lang}`;
  // node:http with keep-alive: the client's own cost stays small next to the server's.
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const get = (path: string) => new Promise<number>((resolve, reject) => {
    const t = performance.now();
    httpGet({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`${path}: ${res.statusCode}`))));
    }).on('error', reject);
  });
  for (const x of warmUp) await get(url(x));
  const http = new Map<string, number[]>();
  for (const x of list) (http.get(x.mode) ?? http.set(x.mode, []).get(x.mode)!).push(await get(url(x)));
  const baseline: number[] = [];
  for (let i = 0; i < 1000; i++) baseline.push(await get(`/v1/entities/items/Q${1 + ((i * 7919) % N)}`));
  const concurrent = async (mode: string) => {
    const urls = list.filter((x) => x.mode === mode).map(url);
    let next = 0;
    const t = performance.now();
    await Promise.all(Array.from({ length: 4 }, async () => { while (next < urls.length) await get(urls[next++]); }));
    return urls.length * 1000 / (performance.now() - t);
  };
  const qps = { suggest: await concurrent('suggest'), search: await concurrent('search') };
  agent.destroy();
  await server.terminate();

  const base50 = stats(baseline);
  console.log(`\nbaseline GET /v1/entities/items/{id} over HTTP: ${fmt(base50)}`);
  for (const mode of ['suggest', 'search']) {
    const h = stats(http.get(mode)!);
    console.log(`\n${mode}: HTTP p50 ${(h.p50 / base50.p50).toFixed(2)}x the baseline GET`);
    console.log(`  HTTP, 1 client:      ${fmt(h)}`);
    console.log(`  HTTP, 4 clients:     ${qps[mode as 'search' | 'suggest'].toFixed(0)} q/s`);
    for (const [key, ms] of inProcess) if (key === mode || key.startsWith(`${mode}:`)) console.log(`  store.search ${key.padEnd(26)} ${fmt(stats(ms))}`);
  }
  const empty = results.filter((n) => n === 0).length;
  console.log(`\n${list.length} queries, ${empty} with no result, limit 10`);
  // --json: one summary line last, for the bench harness (bench/run.ts, issue #8).
  if (process.argv.includes('--json')) {
    const modes = Object.fromEntries(['suggest', 'search'].map((mode) => [mode, {
      http: stats(http.get(mode)!), clients4Qps: qps[mode as 'search' | 'suggest'], inProcess: stats(inProcess.get(mode)!),
    }]));
    console.log(JSON.stringify({ items: N, built: built.built, buildSeconds: built.seconds, queries: list.length, empty,
      baseline: base50, ...modes }));
  }
  await store.close();
}

/** Worker side: serve the benchmark database over HTTP and report the port. */
async function serve(db: string): Promise<void> {
  const store = openSqliteStore({ path: db });
  const app = buildApp({ store, services: buildServices({ ...DEFAULTS, log: false, db }) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  parentPort!.postMessage(typeof address === 'object' && address ? address.port : 0);
}

if (isMainThread) await main();
else await serve((workerData as { serve: string }).serve);
