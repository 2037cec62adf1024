// `entia import --threads`: reading threads parse, convert and pack the entities, and the import decides
// everything else on its own thread, in input order. The same input imported with one thread and with
// three (requests of three lines, so that one batch spreads over every thread) must give the same summary,
// the same report, line for line, and the same store, on SQLite and on PostgreSQL (when ENTIA_TEST_POSTGRES
// is set), for a first import and for one that replaces entities.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chunkLinesFor } from '../../src/cli/import-pool.js';
import { IMPORT_BATCH, importDump, IMPORT_TUNING, type ImportOptions, type ImportSummary, type ReportEntry } from '../../src/cli/import.js';
import { openStore } from '../../src/cli/open-store.js';
import { DEFAULTS } from '../../src/config.js';
import { buildSiteTable } from '../../src/domain/sites.js';
import type { Store } from '../../src/store/store.js';
import { createTestDb, postgresSkipReason, type Backend, type TestDb } from '../helpers/store.js';

const FIXTURE = readFileSync(new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const dir = mkdtempSync(join(tmpdir(), 'entia-import-threads-'));
const dbs: TestDb[] = [];
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const db of dbs) await db.drop();
});

/** A copy of a real item under another id, revision and label, with the sitelinks given. */
function item(n: number, lastrevid: number, sitelinks: Record<string, string> = {}) {
  const copy = structuredClone(FIXTURE[n % FIXTURE.length]);
  for (const claims of Object.values<any[]>(copy.claims ?? {})) for (const claim of claims) claim.id = claim.id.replace(/^[^$]*/, `Q${n}`);
  return { ...copy, id: `Q${n}`, title: `Q${n}`, lastrevid, labels: { en: { language: 'en', value: `copy ${n} r${lastrevid}` } },
    sitelinks: Object.fromEntries(Object.entries(sitelinks).map(([site, title]) => [site, { site, title, badges: [] }])) };
}

/**
 * Every case a batch settles: an entity twice in one batch and across batches, two items claiming a page
 * (the newer revision keeps it) and a page an item of the store holds, a sitelink to an unknown site
 * (dropped), a filtered-out entity, an id in the local range, a malformed line, and properties that the
 * statements use but the input does not define (placeholders).
 */
function input(): string[] {
  const lines: unknown[] = [];
  for (let n = 1; n <= 40; n++) lines.push(item(100 + n, 1000 + n, n % 5 === 0 ? { enwiki: `Page ${n}` } : {}));
  lines.splice(5, 0, item(105, 2000, { enwiki: 'Page 5' })); // a later line of Q105, in the same batch
  lines.splice(20, 0, item(103, 500)); // an earlier revision of Q103, a batch later: not newer
  lines.splice(12, 0, item(150, 3000, { enwiki: 'Page 10', dewiki: 'Seite' })); // claims Q110's page, newer
  lines.splice(14, 0, item(151, 1, { enwiki: 'Held page' })); // the store's Q99 holds it
  lines.splice(16, 0, item(152, 1, { nosuchwiki: 'Nowhere' }));
  lines.splice(18, 0, { ...item(153, 1), type: 'lexeme' }); // filtered out by --types item
  lines.splice(22, 0, item(1_000_000_007, 1)); // in the local id range
  const text = lines.map((l) => JSON.stringify(l));
  text.splice(25, 0, '{"id": "Q999", "labels": ');
  return text;
}

interface Outcome { summary: Omit<ImportSummary, 'seconds' | 'indexSeconds'>; reports: ReportEntry[]; notes: string[]; store: string }

/** A summary without its times, which differ from run to run. */
function withoutTimes(summary: ImportSummary): Outcome['summary'] {
  const { seconds: _seconds, indexSeconds: _indexSeconds, ...rest } = summary;
  return rest;
}

/** Imports each of `paths` in turn into a fresh store holding Q99; the last import's outcome. */
async function importWith(threads: number | undefined, paths: string | string[], backend: Backend = 'sqlite'): Promise<Outcome> {
  const db = await createTestDb(backend);
  dbs.push(db);
  const store = await openStore({ ...DEFAULTS, db: db.location, pgPoolSize: 4, pgSchema: null }, IMPORT_TUNING, 'create');
  try {
    const seed = join(dir, 'seed.jsonl');
    writeFileSync(seed, `${JSON.stringify(item(99, 1, { enwiki: 'Held page' }))}\n`);
    await importDump(store, seed, buildSiteTable(), { user: 'seed', comment: null, tags: [], bot: true },
      { mode: 'newer', filter: {}, strict: true, batchSize: 10, restart: true, threads: 1 });
    const reports: ReportEntry[] = [];
    const notes: string[] = [];
    const options: ImportOptions = { mode: 'newer', filter: { types: new Set(['item']) }, strict: false, batchSize: 7, restart: true,
      threads, chunkLines: 3, onReport: (r) => reports.push(r), onNote: (n) => notes.push(n) };
    let summary!: Outcome['summary'];
    for (const path of [paths].flat()) {
      reports.length = 0;
      summary = withoutTimes(await importDump(store, path, buildSiteTable(), { user: 'import', comment: 'test', tags: [], bot: true }, options));
    }
    return { summary, reports, notes: notes.filter((n) => !/^building|^sorting|^deriving|^dropping|^making|^analy/i.test(n)), store: await contents(store) };
  } finally {
    await store.close();
  }
}

/** What a reader of the store sees: each entity, its revision count, who holds each page, what search finds. */
async function contents(store: Store): Promise<string> {
  const out: unknown[] = [];
  const ids = ['Q99', ...Array.from({ length: 60 }, (_, i) => `Q${101 + i}`), 'P356', 'P1433', 'P31', 'Q1000000007', 'Q999'];
  for (const id of ids) {
    const read = await store.readEntity(id);
    out.push([id, read.status === 'found' ? read.entity : read.status, (await store.revisions(id, 10)).length]);
  }
  out.push([...await store.sitelinkOwners([['enwiki', 'Page 5'], ['enwiki', 'Page 10'], ['enwiki', 'Held page'], ['dewiki', 'Seite']])]);
  out.push(await store.search({ kind: 'item', mode: 'search', text: { folded: 'copy', words: ['copy'] }, entityId: null,
    languages: ['en'], limit: 100, offset: 0 }));
  return JSON.stringify(out);
}

describe('entia import --threads', () => {
  for (const backend of ['sqlite', 'postgres'] as const) {
    it(`gives the summary, report and store of a one-thread import, reading on three threads (${backend})`,
      { skip: backend === 'postgres' ? postgresSkipReason ?? false : false }, async () => {
        const path = join(dir, 'mixed.jsonl');
        writeFileSync(path, `${input().join('\n')}\n`);
        const first = await sameWithThreads([path], backend);
        // Again over what the first import wrote: later revisions of some items replace them, others are new.
        const update = join(dir, 'update.jsonl');
        writeFileSync(update, `${[...Array.from({ length: 12 }, (_, n) => item(101 + 3 * n, 9000 + n)), item(170, 1)].map((e) => JSON.stringify(e)).join('\n')}\n`);
        const second = await sameWithThreads([path, update], backend);
        assert.equal(second.summary.imported, 13);
        assert.notEqual(second.store, first.store);
      });
  }

  /** The outcome of importing `paths` with one thread, after checking that three give the same. */
  async function sameWithThreads(paths: string[], backend: Backend): Promise<Outcome> {
    const one = await importWith(1, paths, backend);
    const three = await importWith(3, paths, backend);
    assert.deepEqual(three.summary, one.summary);
    assert.deepEqual(three.reports, one.reports);
    assert.equal(three.store, one.store);
    // Reading did go to the threads: where it cannot, the import says so in a note (below).
    assert.deepEqual(three.notes, one.notes);
    return one;
  }

  it('settles every case a batch meets: duplicates, sitelink claims, drops, filters, local ids, bad lines', async () => {
    const path = join(dir, 'mixed.jsonl');
    writeFileSync(path, `${input().join('\n')}\n`);
    const one = await importWith(1, path);
    const three = await importWith(3, path);
    assert.ok(one.summary.imported >= 40 && one.summary.placeholders > 0, JSON.stringify(one.summary));
    assert.deepEqual(one.summary.skipped, { existing: 0, editedLocally: 0, notNewer: 1, filteredOut: 1, notStorable: 0, localEntity: 0, inLocalRange: 1 });
    assert.equal(one.summary.superseded, 1);
    assert.equal(one.summary.malformedLines, 1);
    assert.equal(one.summary.sitelinkConflicts, 2);
    assert.equal(one.summary.droppedSitelinks, 1);
    assert.deepEqual(three.summary, one.summary);
    assert.deepEqual(three.reports, one.reports);
    assert.equal(three.store, one.store);
    // Reading did go to the threads: where it cannot, the import says so in a note (below).
    assert.deepEqual(three.notes, one.notes);
  });

  it('holds about a batch read ahead, whatever the number of threads', () => {
    for (const threads of [2, 3, 8, 16, 64]) {
      const chunk = chunkLinesFor(threads, IMPORT_BATCH);
      // Two chunks under way per thread, their entities held until their batch is packed.
      assert.ok(2 * threads * chunk <= Math.max(IMPORT_BATCH, 2 * threads * 50), `${threads} threads: ${chunk} lines a chunk`);
      assert.ok(chunk >= 50 && chunk <= 500);
    }
    assert.equal(chunkLinesFor(2, IMPORT_BATCH), 500);
  });

  it('reads on one thread where it must (a whole document), and says so when more were asked for', async () => {
    const path = join(dir, 'document.json');
    writeFileSync(path, JSON.stringify({ entities: { Q201: item(201, 1), Q202: item(202, 1) } }, null, 2));
    const three = await importWith(3, path);
    assert.equal(three.summary.imported, 2);
    assert.ok(three.notes.includes('--threads 3: a whole JSON document is read on one thread'), three.notes.join('\n'));
    // Not asked for: the default number of threads, where it cannot be used, says nothing.
    const unasked = await importWith(undefined, path);
    assert.deepEqual([unasked.summary.imported, unasked.notes], [2, []]);
  });

  it('says that an input cut off in its last line ends early, as one thread does', async () => {
    const path = join(dir, 'cut.jsonl');
    writeFileSync(path, `${input().slice(0, 12).join('\n')}\n{"id": "Q777", "type": "item", "lab`);
    const one = await importWith(1, path);
    const three = await importWith(3, path);
    assert.equal(one.summary.endsEarlyAt, 13);
    assert.deepEqual(three.summary, one.summary);
    assert.equal(three.store, one.store);
  });
});
