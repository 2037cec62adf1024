// `entia import` as an operator runs it, as a child process against a fresh database of the test backend:
// update modes, filters, every input layout and compression, bad input, sitelinks two items claim, and an
// import killed with SIGKILL that the same command then finishes, ending with exactly the store an
// uninterrupted import makes.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Store } from '../../src/store/store.js';
import { emptyEntity } from '../../src/domain/entity.js';
import { createTestDb, openTestStore, type TestDb } from '../helpers/store.js';
import { ENTIA } from '../helpers/entia-command.js';

const FIXTURE = readFileSync(new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const dir = mkdtempSync(join(tmpdir(), 'entia-import-'));
const dbs: TestDb[] = [];
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const db of dbs) await db.drop();
});

async function freshDb(): Promise<string> {
  const db = await createTestDb();
  dbs.push(db);
  return db.location;
}

interface Run { code: number; stdout: string; stderr: string }

function entia(db: string, args: string[], stdin?: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [...ENTIA, ...args], { env: { ...process.env, ENTIA_DB: db, ...env }, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr }));
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

/** A dump entity made from a real one (the fixture's first item), with another id, label, revision and sitelinks. */
function entity(n: number, opts: { lastrevid?: number; label?: string; sitelink?: string; claims?: Record<string, unknown> } = {}) {
  const base = structuredClone(FIXTURE[1]);
  const claims = structuredClone(opts.claims ?? base.claims ?? {}) as Record<string, any[]>;
  // Statement ids name their entity: each copy gets its own.
  let statement = 0;
  for (const list of Object.values(claims)) {
    for (const claim of list) claim.id = `Q${n}$00000000-0000-4000-8000-${String(++statement).padStart(12, '0')}`;
  }
  return {
    ...base, id: `Q${n}`, title: `Q${n}`, lastrevid: opts.lastrevid ?? 1000 + n, claims,
    labels: { en: { language: 'en', value: opts.label ?? `entity ${n}` }, de: { language: 'de', value: `Ding ${n}` } },
    descriptions: { en: { language: 'en', value: `made for the import test ${n}` } },
    sitelinks: opts.sitelink ? { enwiki: { site: 'enwiki', title: opts.sitelink, badges: [] } } : {},
  };
}

function dumpFile(name: string, entities: unknown[], layout: 'lines' | 'array' = 'lines'): string {
  const lines = entities.map((e) => JSON.stringify(e));
  const text = layout === 'array' ? `[\n${lines.join(',\n')}\n]\n` : `${lines.join('\n')}\n`;
  const path = join(dir, name);
  writeFileSync(path, name.endsWith('.gz') ? gzipSync(text) : text);
  return path;
}

async function withStore<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openTestStore(db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function label(db: string, id: string): Promise<string | undefined> {
  return withStore(db, async (store) => {
    const read = await store.readEntity(id);
    return read.status === 'found' ? read.entity.labels.en : undefined;
  });
}

describe('entia import: update modes', () => {
  it('newer (the default) takes a later revision, never overwrites a local edit; overwrite does; skip-existing skips', async () => {
    const db = await freshDb();
    assert.equal((await entia(db, ['import', dumpFile('v1.jsonl', [entity(501, { lastrevid: 10 }), entity(502, { lastrevid: 10 })])])).code, 0);
    await withStore(db, async (store) => {
      const read = await store.readEntity('Q502', 'edit');
      assert.equal(read.status, 'found');
      if (read.status !== 'found') return;
      await store.applyEdit({ entity: { ...read.entity, labels: { ...read.entity.labels, en: 'edited locally' } }, previous: read,
        meta: { user: 'alice', comment: null, tags: [], bot: false }, checks: {} });
    });
    const v2 = dumpFile('v2.jsonl', [entity(501, { lastrevid: 20, label: 'v2' }), entity(502, { lastrevid: 20, label: 'v2' })]);
    const newer = await entia(db, ['import', v2]);
    assert.equal(newer.code, 0, newer.stderr);
    assert.match(newer.stdout, /imported 1 entity .*skipped 1 \(0 existing, 1 edited locally, 0 not newer/);
    assert.equal(await label(db, 'Q501'), 'v2');
    assert.equal(await label(db, 'Q502'), 'edited locally');
    const again = await entia(db, ['import', v2]);
    assert.match(again.stdout, /imported 0 entities .*1 edited locally, 1 not newer/);
    const skip = await entia(db, ['import', dumpFile('v3.jsonl', [entity(501, { lastrevid: 30, label: 'v3' }), entity(503)]), '--mode', 'skip-existing']);
    assert.match(skip.stdout, /imported 1 entity .*skipped 1 \(1 existing/);
    assert.equal(await label(db, 'Q501'), 'v2');
    const overwrite = await entia(db, ['import', v2, '--mode', 'overwrite']);
    assert.match(overwrite.stdout, /imported 2 entities/);
    assert.equal(await label(db, 'Q502'), 'v2');
    assert.equal((await entia(db, ['import', v2, '--mode', 'sometimes'])).code, 2);
    const threads = await entia(db, ['import', v2, '--threads', '0']);
    assert.equal(threads.code, 2);
    assert.match(threads.stderr, /--threads must be a whole number from 1 to 64/);
  });
});

/** Creates an item in the store as an editor would (not an import), with the id the store allocates. */
async function createLocally(db: string, label: string, id?: string): Promise<string> {
  return withStore(db, async (store) => {
    const newId = id ?? await store.allocateId('item');
    await store.applyEdit({ entity: { ...emptyEntity(newId, 'item'), labels: { en: label } }, previous: null,
      meta: { user: 'alice', comment: null, tags: [], bot: false }, checks: {} });
    return newId;
  });
}

describe('entia import: a local copy\'s ids', () => {
  it('local creations take ids from ENTIA_LOCAL_IDS_FROM, decided by the first import, never a source id', async () => {
    const db = await freshDb();
    const first = await entia(db, ['import', dumpFile('ids1.jsonl', [entity(1101)])], undefined, { ENTIA_LOCAL_IDS_FROM: 'Q5000' });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(await createLocally(db, 'made here'), 'Q5000');
    // A later import with another setting does not move the range, and a later source id below it imports.
    const second = await entia(db, ['import', dumpFile('ids2.jsonl', [entity(1102), entity(4999)])], undefined, { ENTIA_LOCAL_IDS_FROM: 'Q9000' });
    assert.match(second.stdout, /imported 2 entities/);
    assert.equal(await createLocally(db, 'made here too'), 'Q5001');
    assert.equal(await label(db, 'Q5000'), 'made here');
  });

  it('the default range starts at Q1000000000; a source id inside it is skipped and named', async () => {
    const db = await freshDb();
    const run = await entia(db, ['import', dumpFile('ids3.jsonl', [entity(1103), entity(1000000001)])]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /imported 1 entity .*1 in the local id range.*in the local id range: Q1000000001/);
    assert.equal(await createLocally(db, 'first local'), 'Q1000000000');
  });

  it('an entity created here under a source id is never replaced, in any mode, and is reported by id', async () => {
    const db = await freshDb();
    await createLocally(db, 'mine', 'Q1201');
    const source = dumpFile('ids4.jsonl', [entity(1201), entity(1202)]);
    for (const mode of ['newer', 'skip-existing', 'overwrite']) {
      const run = await entia(db, ['import', source, '--mode', mode]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /1 created locally under a source id.*\(created locally under a source id: Q1201\)/, mode);
      assert.equal(await label(db, 'Q1201'), 'mine', mode);
    }
  });
});

describe('entia import: what it says', () => {
  it('counts superseded lines, names every skip, conflict and malformed line in --report, and publishes no path', async () => {
    const db = await freshDb();
    await createLocally(db, 'mine', 'Q1301');
    const source = dumpFile('report.jsonl', [entity(1302, { lastrevid: 1 }), entity(1302, { lastrevid: 2, label: 'later' }), entity(1301),
      entity(1303, { sitelink: 'Shared page', lastrevid: 3 }), entity(1304, { sitelink: 'Shared page', lastrevid: 4 })]);
    writeFileSync(source, `${readFileSync(source, 'utf8')}{"id": "Q1305", "ty\n${JSON.stringify(entity(1306))}\n`);
    const reportPath = join(dir, 'report.jsonl.out');
    const run = await entia(db, ['import', source, '--report', reportPath]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /imported 4 entities .*1 line superseded by a later line of the same entity; 1 malformed line; 1 sitelink conflict;/);
    assert.equal(await label(db, 'Q1302'), 'later');
    const entries = readFileSync(reportPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const reasons = entries.map((e) => `${e.reason} ${e.id ?? e.line}`).sort();
    assert.deepEqual(reasons, ['localEntity Q1301', 'malformed 6', 'sitelinkConflict Q1303', 'superseded Q1302']);
    assert.deepEqual(entries.find((e) => e.reason === 'sitelinkConflict'), { reason: 'sitelinkConflict', id: 'Q1303', site: 'enwiki', title: 'Shared page', held_by: 'Q1304' });
    assert.deepEqual(entries.find((e) => e.reason === 'superseded'), { reason: 'superseded', id: 'Q1302', line: 1, by_line: 2 });
    await withStore(db, async (store) => {
      const [revision] = await store.revisions('Q1302', 1);
      assert.equal(revision.comment, 'import report.jsonl', 'the file\'s name, not the server\'s path to it');
    });
  });
});

describe('entia import: filters', () => {
  it('keeps only the languages, sites, types, statements and ids asked for', async () => {
    const human = { P31: [{ mainsnak: { snaktype: 'value', property: 'P31', datatype: 'wikibase-item',
      datavalue: { type: 'wikibase-entityid', value: { 'entity-type': 'item', id: 'Q5', 'numeric-id': 5 } } }, type: 'statement', rank: 'normal' }] };
    const source = dumpFile('filters.jsonl', [entity(601, { sitelink: 'Six hundred one', claims: human }), entity(602, { sitelink: 'Six hundred two', claims: {} }),
      entity(603, { claims: human })]);
    const db = await freshDb();
    const run = await entia(db, ['import', source, '--languages', 'de', '--no-sitelinks', '--has', 'P31=Q5', '--types', 'item']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /imported 2 entities .*1 filtered out/);
    await withStore(db, async (store) => {
      const read = await store.readEntity('Q601');
      assert.equal(read.status, 'found');
      if (read.status !== 'found') return;
      assert.deepEqual(read.entity.labels, { de: 'Ding 601' });
      assert.deepEqual(read.entity.descriptions, {});
      assert.deepEqual(read.entity.sitelinks, {});
      assert.equal((await store.readEntity('Q602')).status, 'missing');
    });
    const ids = join(dir, 'ids.txt');
    writeFileSync(ids, 'Q602\nq603\n');
    const db2 = await freshDb();
    const byIds = await entia(db2, ['import', source, '--ids', ids, '--sites', 'enwiki']);
    assert.match(byIds.stdout, /imported 2 entities .*1 filtered out/);
    assert.equal(await label(db2, 'Q601'), undefined);
    assert.equal((await entia(db2, ['import', source, '--has', 'nonsense'])).code, 2);
  });
});

describe('entia import: inputs', () => {
  it('reads the array layout, gzip, standard input, and lines whose first key is not type or id', async () => {
    const db = await freshDb();
    assert.match((await entia(db, ['import', dumpFile('array.json', [entity(701), entity(702)], 'array')])).stdout, /imported 2 entities/);
    assert.match((await entia(db, ['import', dumpFile('lines.json.gz', [entity(703)])])).stdout, /imported 1 entity/);
    const nsFirst = JSON.stringify({ ns: 0, ...entity(704) });
    assert.match((await entia(db, ['import', '-'], `${nsFirst}\n`)).stdout, /imported 1 entity/);
    for (const id of ['Q701', 'Q702', 'Q703', 'Q704']) assert.equal(await label(db, id), `entity ${id.slice(1)}`);
  });

  it('skips and counts a malformed line, or stops at it with --strict naming the file and line', async () => {
    const db = await freshDb();
    const path = join(dir, 'broken.jsonl');
    writeFileSync(path, `${JSON.stringify(entity(801))}\n{"id": "Q802", "type": "it\n${JSON.stringify(entity(803))}\n`);
    const lenient = await entia(db, ['import', path]);
    assert.equal(lenient.code, 0);
    assert.match(lenient.stdout, /imported 2 entities .*1 malformed line;/);
    assert.match(lenient.stderr, /broken\.jsonl:2/);
    const strict = await entia(await freshDb(), ['import', path, '--strict']);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /broken\.jsonl:2: .*--strict/);
  });

  it('says that an input cut off in its last line ends early, exits non-zero, and keeps what came before', async () => {
    const db = await freshDb();
    const path = join(dir, 'cut.jsonl');
    const whole = `${JSON.stringify(entity(1401))}\n${JSON.stringify(entity(1402))}\n`;
    writeFileSync(path, whole.slice(0, whole.length - 40));
    const run = await entia(db, ['import', path]);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /imported 1 entity .*0 malformed lines/);
    assert.match(run.stderr, /cut\.jsonl: the input ends early: its last line \(2\) is cut off/);
    assert.equal(await label(db, 'Q1401'), 'entity 1401');

    const bz2 = join(dir, 'cut.json.bz2');
    const compressed = await new Promise<Buffer>((done) => {
      const child = spawn('bzip2', ['-c'], { stdio: ['pipe', 'pipe', 'inherit'] });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (c) => chunks.push(c));
      child.on('close', () => done(Buffer.concat(chunks)));
      child.stdin.end(Array.from({ length: 200 }, (_, i) => JSON.stringify(entity(1500 + i))).join('\n'));
    });
    writeFileSync(bz2, compressed.subarray(0, Math.floor(compressed.length / 2)));
    const truncated = await entia(db, ['import', bz2]);
    assert.equal(truncated.code, 1);
    assert.match(truncated.stderr, /cut\.json\.bz2: the compressed file ends unexpectedly: it is cut off \(an interrupted download\?\) or damaged \(bzcat: Compressed file ends unexpectedly\)/);
    assert.doesNotMatch(truncated.stderr, /undamaged sections/);
  });

  it('suggests --languages for --langs, and Ctrl-C says where the import stopped and how to go on', async () => {
    const db = await freshDb();
    const langs = await entia(db, ['import', '-', '--langs', 'en'], '');
    assert.equal(langs.code, 2);
    assert.match(langs.stderr, /Unknown option '--langs'.* Did you mean --languages\?/);
    const child = spawn(process.execPath, [...ENTIA, 'import', '-'], { env: { ...process.env, ENTIA_DB: db }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => { stderr += c; });
    child.stdin.write(`${JSON.stringify(entity(1601))}\n`); // standard input stays open: the import waits for more
    while (!stderr.includes('importing standard input')) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    assert.equal(code, 130, stderr);
    assert.match(stderr, /interrupted.*Run the same command again to go on after the last batch written/s);
  });

  it('fails with one clear line and a non-zero status for a missing, corrupt or unreadable input', async () => {
    const db = await freshDb();
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.json.bz2'), /missing\.json\.bz2: no such file/],
      [(() => { const p = join(dir, 'corrupt.json.bz2'); writeFileSync(p, 'not bzip2'); return p; })(), /not a valid bzip2 file/],
      [(() => { const p = join(dir, 'corrupt.json.gz'); writeFileSync(p, 'not gzip'); return p; })(), /not a valid gzip file/],
      [dir, /not a file/],
    ];
    for (const [path, message] of cases) {
      const run = await entia(db, ['import', path]);
      assert.equal(run.code, 1, path);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    }
  });
});

describe('entia import: sitelinks two items claim', () => {
  it('never aborts: the newer revision keeps the page, and a page another item holds stays with it', async () => {
    const db = await freshDb();
    const run = await entia(db, ['import', dumpFile('conflict.jsonl', [
      entity(901, { lastrevid: 5, sitelink: 'Contested page' }), entity(902, { lastrevid: 9, sitelink: 'Contested page' })])]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /imported 2 entities .*1 sitelink conflict;/);
    await withStore(db, async (store) => {
      assert.deepEqual([...await store.sitelinkOwners([['enwiki', 'Contested page']])], [['enwiki\u0000Contested page', 'Q902']]);
    });
    const later = await entia(db, ['import', dumpFile('conflict2.jsonl', [entity(903, { sitelink: 'Contested page' })])]);
    assert.match(later.stdout, /imported 1 entity .*1 sitelink conflict;/);
    await withStore(db, async (store) => {
      assert.deepEqual([...await store.sitelinkOwners([['enwiki', 'Contested page']])], [['enwiki\u0000Contested page', 'Q902']]);
    });
  });
});

describe('entia import: interrupted and resumed', () => {
  /**
   * Every entity's document and revision count, and what search, the uniqueness rules and the sitelink table
   * find of them (the index rows a bulk import builds at its end on SQLite), for comparing two stores.
   */
  async function contents(db: string, ids: string[]): Promise<string> {
    return withStore(db, async (store) => {
      const out: unknown[] = [];
      for (const id of ids) {
        const read = await store.readEntity(id);
        out.push([id, read.status === 'found' ? read.entity : read.status, (await store.revisions(id, 10)).length]);
      }
      for (const [mode, text] of [['search', 'entity 10042'], ['suggest', 'ding 12'], ['suggest', 'entity 1']] as const) {
        const folded = text.toLowerCase();
        out.push(await store.search({ kind: 'item', mode, text: { folded, words: folded.split(' ') }, entityId: null,
          languages: ['en', 'de'], limit: 50, offset: 0 }));
      }
      const probe = { id: 'Q1', type: 'item', labels: { en: 'entity 12345' }, descriptions: { en: 'made for the import test 12345' },
        aliases: {}, statements: {}, sitelinks: { enwiki: { title: 'Resumable page 2345', badges: [] } } } as const;
      out.push(await store.findViolation(probe as never, { labelDescriptionLanguages: ['en'] }));
      out.push(await store.findViolation(probe as never, { sitelinkSites: ['enwiki'] }));
      return JSON.stringify(out);
    });
  }

  it('a kill -9 mid-import loses nothing committed, and the same command finishes it: the store an uninterrupted import makes', async () => {
    const entities = Array.from({ length: 3000 }, (_, i) => entity(10_000 + i, { sitelink: `Resumable page ${i}` }));
    const path = dumpFile('big.jsonl', entities);
    const ids = entities.map((e) => e.id);
    const reference = await freshDb();
    assert.equal((await entia(reference, ['import', path, '--batch-size', '100', '--threads', '1'])).code, 0);

    const db = await freshDb();
    // Killed while reading on three threads, finished on one.
    const child = spawn(process.execPath, [...ENTIA, 'import', path, '--batch-size', '100', '--threads', '3'], { env: { ...process.env, ENTIA_DB: db } });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const key = `import:${resolve(path)}`;
    const watcher = await openTestStore(db);
    let killedAt: string | null = null;
    try {
      for (let i = 0; i < 2000 && killedAt === null; i++) {
        const checkpoint = await watcher.importCheckpoint(key).catch(() => null);
        if (checkpoint && JSON.parse(checkpoint).line >= 300) {
          child.kill('SIGKILL');
          killedAt = checkpoint;
        } else {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    } finally {
      await watcher.close();
    }
    await exited;
    assert.ok(killedAt, 'the import was killed after a few batches');
    assert.ok(JSON.parse(killedAt!).line < 3000, 'and before its end');
    const resumed = await entia(db, ['import', path, '--batch-size', '100', '--threads', '1']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /resuming .*big\.jsonl after line \d+/);
    assert.match(resumed.stdout, /imported 3000 entities .*resumed after line/);
    // SQLite builds the search and term indexes at the end of an import: the killed run's staged rows are gone
    // with it, and the rows of what it committed are derived again from the stored documents.
    if (!db.startsWith('postgres')) assert.match(resumed.stderr, /deriving the rows of entities an earlier run left unindexed \(\d[\d,]* rows\)/);
    const expected = await contents(reference, ids);
    assert.match(expected, /item-label-description-duplicate.*sitelink-conflict/, 'the reference store has its indexes');
    assert.equal(await contents(db, ids), expected);
    await withStore(db, async (store) => assert.equal(await store.importCheckpoint(key), null));
  });
});
