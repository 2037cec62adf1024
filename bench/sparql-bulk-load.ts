// The external engine's two ways in (issue #34), timed on the four Wikidata sample files imported into a fresh
// SQLite store: `entia sparql-sync --dump` + Virtuoso's bulk loader (ld_dir, rdf_loader_run, checkpoint) + the
// sync's first follow, against `entia sparql-sync --once` loading an empty Virtuoso over SPARQL Update. Needs
// Debian's virtuoso-opensource-7 (as the tests); builds dist/ first. Not a bench phase.
//
//   npm run build && node --import tsx bench/sparql-bulk-load.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startVirtuoso } from '../test/helpers/virtuoso.js';
const dir = mkdtempSync(join(tmpdir(), 'bulk-'));
const db = join(dir, 'e.db');
const env = { ...process.env, ENTIA_DB: db, ENTIA_SPARQL: 'full' };
const samples = process.env.ENTIA_WIKIDATA_SAMPLES ?? join(import.meta.dirname, '../../shared/data/wikidata');
const files = readdirSync(samples).filter((f) => /\.(json|jsonl|json\.gz|bz2)$/.test(f)).map((f) => join(samples, f));
for (const f of files) execFileSync(process.execPath, ['dist/cli/main.js', 'import', f], { env, stdio: 'ignore' });
const file = join(dir, 'engine.nq.gz');
let t = performance.now();
execFileSync(process.execPath, ['dist/cli/main.js', 'sparql-sync', '--dump', file], { env, stdio: 'ignore' });
const dumpMs = performance.now() - t;
const v = await startVirtuoso();
t = performance.now();
await v.bulkLoad(file);
const loadMs = performance.now() - t;
t = performance.now();
execFileSync(process.execPath, ['dist/cli/main.js', 'sparql-sync', '--once'], { env: { ...env, ENTIA_SPARQL_URL: v.url }, stdio: ['ignore', 'pipe', 'pipe'] });
const syncMs = performance.now() - t;
const count = await (await fetch(`${v.url}?query=${encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }')}`, { headers: { accept: 'application/sparql-results+json' } })).json() as any;
console.log({ files: files.length, dumpMs: Math.round(dumpMs), bytes: statSync(file).size, loadMs: Math.round(loadMs), syncOnceMs: Math.round(syncMs), quadsInEngine: count.results.bindings[0].n.value });
// the SPARQL Update path, for comparison, into a fresh engine
const w = await startVirtuoso();
t = performance.now();
execFileSync(process.execPath, ['dist/cli/main.js', 'sparql-sync', '--once'], { env: { ...env, ENTIA_SPARQL_URL: w.url }, stdio: ['ignore', 'pipe', 'pipe'] });
console.log({ updateLoadMs: Math.round(performance.now() - t) });
await v.stop();
await w.stop();
rmSync(dir, { recursive: true, force: true });
