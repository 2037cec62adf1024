// A faithful copy (issue #33): `entia import` of every Wikidata sample, then `entia export`, gives back each
// source entity field by field, except the fields docs/api.md ("Exporting: what a copy keeps") names, each for
// its reason. Run as an operator runs it (CLI processes) on the test backend; the fixture excerpt stands in for
// the samples where they are absent.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../helpers/store.js';
import { ENTIA } from '../helpers/entia-command.js';

const FIXTURE = new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url).pathname;
const SAMPLES = process.env.ENTIA_WIKIDATA_SAMPLES ?? join(import.meta.dirname, '../../../shared/data/wikidata');
const SAMPLE_FILES = ['Q31.json', 'Q8502.json', 'short_stream.json.bz2', 'sample_wikidata_items.json.bz2'].map((f) => join(SAMPLES, f));
const dir = mkdtempSync(join(tmpdir(), 'entia-round-trip-'));
const dbs: TestDb[] = [];
after(async () => {
  for (const db of dbs) await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

function entia(db: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => execFile(process.execPath, [...ENTIA, ...args], { env: { ...process.env, ENTIA_DB: db }, maxBuffer: 1 << 28 },
    (error, stdout, stderr) => done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr })));
}

/** The entities of an input file, the latest line of each id winning (as the import keeps them). */
function sourceEntities(files: string[]): Map<string, any> {
  const out = new Map<string, any>();
  for (const file of files) {
    const text = file.endsWith('.bz2') ? execFileSync('bzcat', [file], { maxBuffer: 1 << 30 }).toString('utf8') : readFileSync(file, 'utf8');
    const trimmed = text.trim();
    // A .json file is one Special:EntityData document; the others hold one entity per line.
    const document = file.endsWith('.json') ? JSON.parse(trimmed) : null;
    const entities = document ? (document.entities ? Object.values(document.entities) : [document])
      : trimmed.split('\n').map((l) => l.trim().replace(/,$/, '')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    for (const e of entities as any[]) {
      const known = out.get(e.id);
      if (!known || (known.lastrevid ?? 0) <= (e.lastrevid ?? 0)) out.set(e.id, e);
    }
  }
  return out;
}

/**
 * Where an export may differ from its source, and why (docs/api.md, "Exporting: what a copy keeps"):
 * - `lastrevid`, `modified`: Entia's own revision and time; the source's are `source_lastrevid` and `source_modified`;
 * - `pageid`: Entia has no wiki pages;
 * - `ns`, `title`, and a snak's `hash` are written even where the source left them out (older dumps did).
 */
function differences(source: any, exported: any): string[] {
  const found: string[] = [];
  const walk = (a: any, b: any, path: string) => {
    if (a === b) return;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
      const last = path.slice(path.lastIndexOf('/') + 1);
      if (a === undefined && ['ns', 'title', 'hash'].includes(last)) return; // written where the source had none
      found.push(`${path}: ${JSON.stringify(a)?.slice(0, 100)} → ${JSON.stringify(b)?.slice(0, 100)}`);
      return;
    }
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (path === '' && ['lastrevid', 'modified', 'pageid', 'source_lastrevid', 'source_modified'].includes(key)) continue;
      walk(a[key], b[key], `${path}/${key}`);
    }
  };
  walk(source, exported, '');
  if (source.lastrevid !== undefined && exported.source_lastrevid !== source.lastrevid) found.push(`source_lastrevid ${exported.source_lastrevid}`);
  if (source.modified !== undefined && exported.source_modified !== source.modified) found.push(`source_modified ${exported.source_modified}`);
  return found;
}

describe('a faithful copy', () => {
  const samples = SAMPLE_FILES.every((f) => existsSync(f));
  it(`import then export gives back every entity of ${samples ? 'the Wikidata samples' : 'the excerpt (the samples are absent)'} field by field`, async () => {
    const files = samples ? SAMPLE_FILES : [FIXTURE];
    const db = (await createTestDb()).location;
    dbs.push({ location: db, drop: async () => {} } as TestDb);
    for (const file of files) {
      const run = await entia(db, ['import', file]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /dropped 0 terms, 0 sitelinks, 0 statements/);
    }
    const out = join(dir, 'export.jsonl');
    const exported = await entia(db, ['export', out, '--format', 'jsonl']);
    assert.equal(exported.code, 0, exported.stderr);
    const copy = new Map(readFileSync(out, 'utf8').trim().split('\n').map((l) => { const e = JSON.parse(l); return [e.id, e]; }));
    const sources = sourceEntities(files);
    const problems: string[] = [];
    for (const [id, source] of sources) {
      const got = copy.get(id);
      if (!got) { problems.push(`${id}: not exported`); continue; }
      problems.push(...differences(source, got).map((d) => `${id} ${d}`));
    }
    assert.ok(sources.size >= (samples ? 600 : 3), `${sources.size} entities`);
    assert.deepEqual(problems.slice(0, 10), [], `${problems.length} differences`);
  });
});
