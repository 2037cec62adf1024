// Suggest over the languages a bulk import left out of the prefix index (ADR 0003, issue #15), against the
// same queries answered from prefix rows. Runs on a store `npm run bench -- --only load --keep` built, whose
// languages follow the real samples (hundreds of them, most small):
//
//   node --import tsx bench/suggest-languages.ts --db STORE [--queries 3000] [--seed 1]
//   node --import tsx bench/suggest-languages.ts --db COPY --complete   (then the same run on COPY)
//
// Queries: random items of the store, one of each item's label languages at random, the label's first 1–6
// characters, suggested in that language's chain as the API does; timed in process (store.search), grouped
// by whether the chain's first language is recorded as left out ("small languages"), and by prefix length.
// --complete first gives every recorded language its prefix rows and empties the record, as a build does for
// a language that has grown past the threshold: the A/B baseline on identical data.
import { performance } from 'node:perf_hooks';
import { parseText } from '../src/search/query.js';
import { searchLanguages } from '../src/search/languages.js';
import { prefixRowsSelect } from '../src/store/prefix-languages.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { flagReader } from './args.js';
import { rngFor } from './prng.js';

const { value, num } = flagReader(process.argv.slice(2));
const db = value('db');
if (!db) throw new Error('--db STORE is required');
const queries = num('queries', 3000);
const rng = rngFor(num('seed', 1), 0);

const store = openSqliteStore({ path: db, pageCacheMb: 256 });
// Grouped by the record as it was before --complete, so that both runs group the same queries alike.
const skipped = new Set(store.db.prepare<[], { lang: string }>('SELECT lang FROM search_prefix_skipped WHERE kind = 0').all().map((r) => r.lang));
if (process.argv.includes('--complete')) {
  const started = performance.now();
  store.db.exec(`INSERT OR IGNORE INTO search_prefixes (kind, lang, prefix, type, rank, entity)
    SELECT * FROM (${prefixRowsSelect('search_terms', '(t.kind, t.lang) IN (SELECT kind, lang FROM search_prefix_skipped)')})
    ORDER BY kind, lang, prefix, type, rank, entity;
    DELETE FROM search_prefix_skipped`);
  console.error(`prefix rows made for every recorded language in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const highest = store.db.prepare<[], { n: number }>("SELECT max(CAST(substr(id, 2) AS INTEGER)) AS n FROM entities WHERE kind = 'item'").get()!.n;

interface Query { text: string; lang: string; group: string; length: number }
async function sample(count: number): Promise<Query[]> {
  const out: Query[] = [];
  while (out.length < count) {
    const read = await store.readEntity(`Q${rng.int(1, highest)}`);
    if (read.status !== 'found') continue;
    const langs = Object.keys(read.entity.labels).filter((l) => l !== 'mul');
    if (langs.length === 0) continue;
    const lang = rng.pick(langs);
    const length = 1 + (out.length % 6);
    const text = [...read.entity.labels[lang].toLowerCase()].slice(0, length).join('').trim();
    if (text === '') continue;
    out.push({ text, lang, length, group: skipped.has(lang) ? 'small languages' : 'large languages' });
  }
  return out;
}

const suggest = (x: Query) => store.search({ kind: 'item', mode: 'suggest', text: parseText(x.text), entityId: null,
  languages: searchLanguages(x.lang), limit: 10, offset: 0 });

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2);
  return { n: ms.length, p50: at(0.5), p99: at(0.99), max: at(1) };
};

for (const x of await sample(500)) await suggest(x); // warm-up: other queries of the same kinds
const timed = new Map<string, number[]>();
for (const x of await sample(queries)) {
  const t = performance.now();
  await suggest(x);
  const ms = performance.now() - t;
  for (const key of ['all', x.group, `${x.group}, ${x.length} characters`]) (timed.get(key) ?? timed.set(key, []).get(key)!).push(ms);
}
const left = store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM search_prefix_skipped WHERE kind = 0').get()!.n;
console.log(`${db}: ${left} item languages recorded as left out of the prefix index (${skipped.size} before this run)`);
for (const [key, ms] of [...timed].sort(([a], [b]) => a.localeCompare(b))) {
  const s = stats(ms);
  console.log(`${key.padEnd(40)} n ${String(s.n).padStart(5)}  p50 ${s.p50} ms  p99 ${s.p99} ms  max ${s.max} ms`);
}
await store.close();
