// The RDF phase (issue #33): an entity as Turtle next to the same entity as JSON, and the store exported as
// N-Triples next to the same store exported as JSON lines, each pair in one run.
// - `GET /wiki/Special:EntityData/{typical}.ttl` against `GET /v1/entities/items/{typical}` on the same server,
//   measured in alternation (measurePair).
// - `entia export - --format nt` against `entia export - --format jsonl` of the same store, entities/s, each
//   process's peak RSS sampled while it runs (a stream: memory stays flat however large the store).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { measurePair } from './http-load.js';
import { row, type Row } from './report.js';
import { processMemory } from './servers.js';

const ROOT = new URL('..', import.meta.url).pathname;

export interface RdfBenchOptions {
  db: string;
  items: number;
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  typical: string;
}

/** `entia export - --format FORMAT` of the store to nowhere: seconds, entities and the process's peak RSS. */
async function exportRun(db: string, format: string): Promise<{ seconds: number; entities: number; peakMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'export', '-', '--format', format],
    { env: { ...process.env, ENTIA_DB: db }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  let peakMb = 0;
  const sampler = setInterval(() => { peakMb = Math.max(peakMb, processMemory(child.pid!)?.hwmMb ?? 0); }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`entia export --format ${format} exited with ${code}: ${stderr}`);
  const entities = Number(/exported (\d+) entities/.exec(stderr)?.[1] ?? NaN);
  return { seconds: (performance.now() - started) / 1000, entities, peakMb };
}

export async function rdfRows(server: { url: string }, o: RdfBenchOptions, log: (m: string) => void): Promise<Row[]> {
  log(`rdf: Special:EntityData/${o.typical}.ttl against GET of the same item`);
  const load = (path: string) => ({ url: server.url, path, duration: o.duration, warmup: o.warmup, connections: o.connections });
  const [ttl, json] = await measurePair(load(`/wiki/Special:EntityData/${o.typical}.ttl`), load(`/v1/entities/items/${o.typical}`), o.rounds);
  const rows: Row[] = [row('read', `Special:EntityData/${o.typical}.ttl (typical item as Turtle)`, 'req/s',
    { rate: ttl.rps, p50: ttl.p50, p99: ttl.p99 }, { name: 'GET of the same item (JSON), same server', rate: json.rps, p50: json.p50, p99: json.p99 },
    (_f, ratio) => ({ text: '≥ 50% of GET', met: (ratio ?? 0) >= 0.5 }))];
  log('rdf: entia export --format nt against --format jsonl');
  const jsonl = await exportRun(o.db, 'jsonl');
  const nt = await exportRun(o.db, 'nt');
  rows.push({
    ...row('load', 'entia export --format nt', 'entities/s', { rate: nt.entities / nt.seconds },
      { name: 'entia export --format jsonl, same store', rate: jsonl.entities / jsonl.seconds },
      (_f, ratio) => ({ text: '≥ 50% of the JSON export; memory flat', met: (ratio ?? 0) >= 0.5 })),
    note: `peak RSS ${Math.round(nt.peakMb)} MB (nt) and ${Math.round(jsonl.peakMb)} MB (jsonl) for ${nt.entities} entities`,
  });
  return rows;
}
