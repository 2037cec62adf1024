// `entia import FILE|-`: loads Wikidata dump data (one entity per line as in latest-all.json or the
// line-per-entity stream, a single Special:EntityData document, or .bz2 of either) into the store.
// Properties that statements use but the data does not define are created as placeholders with the
// data type their snaks declare, so later edits of those statements validate.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { emptyEntity, type Entity } from '../domain/entity.js';
import type { SiteTable } from '../domain/sites.js';
import { fromWikidata, newReport, type ConversionReport } from '../domain/wikidata.js';
import type { EditMeta, Store } from '../store/store.js';

/**
 * Entities per importEntities call, each one transaction. Every batch adds rows at random places of the term,
 * statement and search indexes, so its commit writes out most of their pages whatever its size: fewer, larger
 * batches write them fewer times (issue #8, with the cache below: 1,037 entities/s into 100,000 items against
 * 568 with batches of 2,000 and a 256 MB cache; bench/notes-bulk.md). A batch's parsed entities are held in
 * memory until it is handed over, a few hundred MB at 5,000.
 */
export const IMPORT_BATCH = 5000;

/**
 * How `entia import` opens a SQLite store (ignored on PostgreSQL); the memory and disk are the import
 * process's, not a server's (about 2.3 GB resident at its peak importing 100,000 items).
 * - pageCacheMb: a cache that holds the pages a batch changes writes each of them once per commit instead of
 *   spilling and re-reading them (SQLite's default is 2 MB); it fills only as far as the indexes need.
 * - checkpointMb: the log is copied into the database file once it holds 1 GB instead of after every batch, so
 *   a page that several batches change is copied once. Durability is unchanged (WAL, synchronous=NORMAL); the
 *   log file grows to that size, and the last connection to close folds it in and removes it.
 * - importThread: SQLite writes each batch on a thread of its own while this one prepares and reads the next
 *   (src/store/sqlite/import-thread.ts).
 */
export const IMPORT_TUNING = { pageCacheMb: 1024, checkpointMb: 1024, importThread: true } as const;

/**
 * Hands batches to `write` without waiting for each to be written: the next batch is read and parsed while the
 * last one is written (on SQLite's import thread). A batch is handed over only once the one before it is
 * written, so the first batch that fails stops the import with nothing after it written.
 */
export class BatchWriter {
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly write: (batch: Entity[]) => Promise<void>) {}

  async add(batch: Entity[]): Promise<void> {
    await this.last;
    const written = this.write(batch);
    written.catch(() => {}); // a failure is seen by the next add() or by finish()
    this.last = written;
  }

  /** Resolves once every batch is written; rejects with the first failure. */
  finish(): Promise<void> {
    return this.last;
  }
}

export interface ImportResult extends ConversionReport {
  entities: number;
  placeholders: number;
  skipped: number;
}

function open(path: string): Readable {
  if (path === '-') return process.stdin;
  if (!path.endsWith('.bz2')) return createReadStream(path);
  const child = spawn('bzcat', [path], { stdio: ['ignore', 'pipe', 'inherit'] });
  return child.stdout;
}

/** Yields the JSON objects of a dump: one per line, or the entities of one whole document. */
async function* entitiesIn(input: Readable): AsyncGenerator<Record<string, unknown>> {
  let whole = '';
  let lineMode: boolean | null = null;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    const line = raw.trim().replace(/,$/, '');
    if (lineMode === null && line !== '' && line !== '[') {
      lineMode = line.startsWith('{"type"') || line.startsWith('{"pageid"') || line.startsWith('{"id"');
      if (lineMode) whole = ''; // only the opening '[' of a latest-all.json layout was buffered
    }
    if (lineMode) {
      if (line === '' || line === '[' || line === ']') continue;
      yield JSON.parse(line);
    } else {
      whole += raw + '\n';
    }
  }
  if (whole.trim()) {
    const doc = JSON.parse(whole);
    if (doc.entities) yield* Object.values<Record<string, unknown>>(doc.entities);
    else if (Array.isArray(doc)) yield* doc;
    else yield doc;
  }
}

export async function importDump(store: Store, path: string, sites: SiteTable, meta: EditMeta): Promise<ImportResult> {
  const report = newReport();
  const result: ImportResult = { ...report, entities: 0, placeholders: 0, skipped: 0 };
  const imported = new Set<string>();
  let batch: Entity[] = [];
  const writer = new BatchWriter((entities) => store.importEntities(entities, meta));
  const flush = async () => {
    if (batch.length === 0) return;
    await writer.add(batch);
    result.entities += batch.length;
    batch = [];
  };
  for await (const raw of entitiesIn(open(path))) {
    const entity = fromWikidata(raw, sites, report);
    if (!entity) { result.skipped++; continue; }
    imported.add(entity.id);
    batch.push(entity);
    if (batch.length >= IMPORT_BATCH) await flush();
  }
  await flush();
  await writer.finish();
  const missing = [...report.propertyTypes.keys()].filter((p) => !imported.has(p));
  const existing = await store.lookupEntities(missing);
  const placeholders = missing.filter((p) => !existing.has(p))
    .map((p) => emptyEntity(p, 'property', report.propertyTypes.get(p)));
  if (placeholders.length) await store.importEntities(placeholders, meta);
  return { ...result, ...report, placeholders: placeholders.length };
}
