// `entia import`: loads a Wikidata dump into the store (docs/api.md Part 2, "Importing"). It streams the input
// (dump-reader.ts), filters and converts each entity (domain/wikidata.ts), decides per entity what the update
// mode allows, settles sitelinks that two items claim, adds placeholder properties for the properties the
// statements use, and writes batches, each with a checkpoint in the same transaction: an import stopped at any
// point (kill -9 included) goes on from its last committed batch when the same command runs again.
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { emptyEntity, type Entity } from '../domain/entity.js';
import type { SiteTable } from '../domain/sites.js';
import { newReport, type DumpFilter } from '../domain/wikidata.js';
import type { EditMeta, ImportExtras, ImportState, BulkImport, EntityStore, LocalIdStart, PackedImports } from '../store/store.js';
import { checkReadable, holdsEntityLines, openDump, openDumpText, type DumpInput, type DumpLine } from './dump-reader.js';
import { chunkLinesFor, ReadingPool } from './import-pool.js';
import { readEntity, type Candidate, type Reading, type ReadingSetup } from './import-reading.js';
import { CliError } from './errors.js';
import { DEFAULTS } from '../config.js';

/**
 * Entities per batch, each one transaction. Every batch adds rows at random places of the term, statement and
 * search indexes, so its commit writes out most of their pages whatever its size: fewer, larger batches write
 * them fewer times (issue #8, with the cache below: 1,037 entities/s into 100,000 items against 568 with batches
 * of 2,000 and a 256 MB cache; bench/notes-bulk.md). A batch's parsed entities are held in memory until it is
 * handed over, a few hundred MB at 5,000.
 */
export const IMPORT_BATCH = 5000;

/**
 * How `entia import` opens its store (PostgreSQL takes deferIndexes only); the memory and disk are the import
 * process's, not a server's (about 2.3 GB resident at its peak importing 100,000 items).
 * - pageCacheMb: a cache that holds the pages a batch changes writes each of them once per commit instead of
 *   spilling and re-reading them (SQLite's default is 2 MB); it fills only as far as the indexes need.
 * - checkpointMb: the log is copied into the database file once it holds 1 GB instead of after every batch, so
 *   a page that several batches change is copied once. Durability is unchanged (WAL, synchronous=NORMAL); the
 *   log file grows to that size, and the last connection to close folds it in and removes it.
 * - importThread: SQLite writes each batch on a thread of its own while this one prepares and reads the next
 *   (src/store/sqlite/import-thread.ts).
 * - deferIndexes: the batches stage their search, term and value rows, and the end of the import builds those
 *   indexes in key order (src/store/{sqlite,postgres}/deferred-index.ts, ADR 0008).
 */
export const IMPORT_TUNING = { pageCacheMb: 1024, checkpointMb: 1024, importThread: true, deferIndexes: true } as const;

/** `--threads`' bound: past the cores of large machines, more threads only hold more entities in memory. */
export const MAX_IMPORT_THREADS = 64;

/**
 * `--threads` by default: every core but one. On SQLite two on two cores, where two reading threads still beat
 * one at 100,000 real entities (2,214–2,278 against 1,880–2,072 entities/s); on PostgreSQL, whose server needs
 * a core too, two were slower there (1,002–1,117 against 1,219–1,331/s at 20,000), so one (ADR 0022).
 */
export function defaultImportThreads(packer: PackedImports['packer']): number {
  const cores = availableParallelism();
  const atLeast = packer === 'sqlite' && cores >= 2 ? 2 : 1;
  return Math.min(MAX_IMPORT_THREADS, Math.max(atLeast, cores - 1));
}

/** What a re-import does with an entity the store holds already. */
export const IMPORT_MODES = ['newer', 'skip-existing', 'overwrite'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export interface ImportOptions {
  mode: ImportMode;
  filter: DumpFilter;
  /** A malformed line stops the import instead of being skipped and counted. */
  strict: boolean;
  batchSize: number;
  /** Start from the beginning even if an earlier run of the same input left a checkpoint. */
  restart: boolean;
  /** Called after each batch is handed over and every few thousand lines. */
  onProgress?: (summary: ImportSummary, read: { read: number; total: number | null }) => void;
  /** Called with a note for the operator (resuming, a malformed line). */
  onNote?: (note: string) => void;
  /** The first local id of each kind, proposed to the store's first import (README, "Local ids"); default DEFAULTS'. */
  localIdStart?: LocalIdStart;
  /** Called once for every entity or line of the input that was not imported whole, with the reason (--report). */
  onReport?: (entry: ReportEntry) => void;
  /**
   * Threads that parse, convert and prepare the entities (`--threads`, ADR 0022; default defaultImportThreads);
   * 1, or an input that cannot use more (standard input, a whole document), reads on this thread, with a note
   * when more were asked for.
   */
  threads?: number;
  /** Lines per request to a reading thread (default chunkLinesFor); tests make it small to spread a batch over threads. */
  chunkLines?: number;
}

/** Why an entity of the input was not written, or was written without part of it. */
export type SkipReason = keyof ImportSummary['skipped'];

/** One line of `--report FILE`: an entity (or a line) with what happened to it and why. */
export type ReportEntry =
  | { reason: Exclude<SkipReason, 'filteredOut'>; id: string; line: number }
  | { reason: 'superseded'; id: string; line: number; by_line: number }
  | { reason: 'malformed'; line: number; message: string }
  | { reason: 'sitelinkConflict'; id: string; site: string; title: string; held_by: string }
  | { reason: 'dropped'; id: string; line: number; terms: number; sitelinks: number; statements: number };

/** Ids named in the summary line for each reason; the report file names all of them. */
const NAMED = 5;

export interface ImportSummary {
  imported: number;
  placeholders: number;
  /** Entities of the input not written, by reason. */
  skipped: {
    existing: number; editedLocally: number; notNewer: number; filteredOut: number; notStorable: number;
    /** An entity created in this store (no import wrote it) under the source's id: never replaced. */
    localEntity: number;
    /** A source id at or past the store's first local id (README, "Local ids"). */
    inLocalRange: number;
  };
  /** Lines replaced by a later line of the same entity in the input (the later one is imported). */
  superseded: number;
  /** The first few ids of each reason (skips and sitelink conflicts), for the summary line. */
  named: Partial<Record<SkipReason | 'sitelinkConflict', string[]>>;
  /** The line the input was cut off at (its last line is incomplete: an interrupted download), or null. */
  endsEarlyAt: number | null;
  malformedLines: number;
  /** Sitelinks left out because another item holds (or, in the dump, claims with a newer revision) that page. */
  sitelinkConflicts: number;
  droppedTerms: number;
  droppedSitelinks: number;
  droppedStatements: number;
  /** Entities read from the input (this run and the runs it continues). */
  read: number;
  /** The line this run started after (0: the beginning). */
  resumedAfterLine: number;
  seconds: number;
  /** Of `seconds`, the time spent building the indexes the batches deferred (SQLite). */
  indexSeconds: number;
}

/**
 * Hands batches to `write` without waiting for each to be written: the next batch is read and parsed while the
 * last one is written (on SQLite's import thread). A batch is handed over only once the one before it is
 * written, so the first batch that fails stops the import with nothing after it written.
 */
export class BatchWriter<B = Entity[]> {
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly write: (batch: B) => Promise<void>) {}

  async add(batch: B): Promise<void> {
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

interface Checkpoint {
  /** The input file's size and modification time: a checkpoint of another file is not used. */
  file: { size: number; mtimeMs: number };
  line: number;
  summary: ImportSummary;
}

function emptySummary(): ImportSummary {
  return { imported: 0, placeholders: 0, malformedLines: 0, sitelinkConflicts: 0, droppedTerms: 0, droppedSitelinks: 0,
    droppedStatements: 0, read: 0, resumedAfterLine: 0, seconds: 0, indexSeconds: 0, superseded: 0, named: {}, endsEarlyAt: null,
    skipped: { existing: 0, editedLocally: 0, notNewer: 0, filteredOut: 0, notStorable: 0, localEntity: 0, inLocalRange: 0 } };
}

/** Counts a skip (or a sitelink conflict) and keeps its id among the first few named in the summary. */
function name(summary: ImportSummary, reason: SkipReason | 'sitelinkConflict', id: string): void {
  const named = (summary.named[reason] ??= []);
  if (named.length < NAMED && !named.includes(id)) named.push(id);
}

/**
 * The update mode's decision for one entity the store may hold: write it, or why not. An entity no import
 * wrote was created here under the source's id: no mode replaces it, it is reported by id.
 */
export function decide(mode: ImportMode, state: ImportState | undefined, sourceRevision: number):
  'write' | 'existing' | 'editedLocally' | 'notNewer' | 'localEntity' {
  if (state && state.importedAs === null) return 'localEntity';
  if (!state || mode === 'overwrite') return 'write';
  if (mode === 'skip-existing') return 'existing';
  // newer: never over a local edit, and only a later revision of the source.
  if (state.head !== state.importedAs) return 'editedLocally';
  return sourceRevision > (state.sourceRevision ?? 0) ? 'write' : 'notNewer';
}

const linkKey = (site: string, title: string) => `${site}\u0000${title}`;

export async function importDump(store: BulkImport & EntityStore, path: string, sites: SiteTable, meta: EditMeta, options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const key = path === '-' ? null : `import:${resolve(path)}`;
  if (path !== '-') await checkReadable(path); // fails here, with the file's name, if it cannot be read
  const file = path === '-' ? null : fileIdentity(path);
  const summary = key && file && !options.restart ? await resumedSummary(store, key, file, path, options) : emptySummary();
  const setup: ReadingSetup = { sites, filter: options.filter, localStart: await store.localIdStart(options.localIdStart ?? DEFAULTS.localIdsFrom) };
  const report = newReport();
  const placeholdersMade = new Set<string>();
  /** Sitelinks of the batch handed over last, which may still be being written. */
  let inFlight = new Map<string, string>();
  const threads = options.threads ?? defaultImportThreads(store.packedImports.packer);
  const packed = threads > 1 ? await packingStore(store, path, threads, options) : null;
  const pool = packed ? new ReadingPool(threads, { ...setup, path, packer: packed.packer, deferIndexes: packed.deferIndexes },
    options.chunkLines ?? chunkLinesFor(threads, options.batchSize)) : null;
  /** A batch's slices: packed on the reading threads, or its entities, prepared by the store. */
  type Handover = { packs: Promise<Uint8Array>[] | null; entities: Entity[]; extras: ImportExtras };
  const writer = new BatchWriter<Handover>(({ packs, entities, extras }) =>
    (packs ? packed!.importPacked(packs, entities, meta, extras) : store.importEntities(entities, meta, extras)));

  let batch: Candidate[] = [];
  let line = summary.resumedAfterLine;
  /** False once the input yields entities that share a line (a whole document): no checkpoint can name a place in it. */
  let resumable = true;
  let progress: DumpInput['progress'] = () => ({ read: 0, total: null });
  const flush = async () => {
    const { kept, leftOut } = await settleBatch(store, batch, options, summary, inFlight);
    const placeholders = await placeholdersFor(store, kept, placeholdersMade);
    summary.imported += kept.length;
    summary.placeholders += placeholders.length;
    Object.assign(summary, { droppedTerms: summary.droppedTerms + report.droppedTerms,
      droppedSitelinks: summary.droppedSitelinks + report.droppedSitelinks,
      droppedStatements: summary.droppedStatements + report.droppedStatements });
    Object.assign(report, { droppedTerms: 0, droppedSitelinks: 0, droppedStatements: 0 });
    summary.seconds = (Date.now() - started) / 1000;
    const checkpoint = key && file && resumable ? { key, value: JSON.stringify({ file, line, summary } satisfies Checkpoint) } : undefined;
    const extras = { sourceRevisions: [...kept.map((c) => [c.id, c.sourceRevision] as const), ...placeholders.map((p) => [p.id, 0] as const)], checkpoint };
    // Packing starts at once, on the reading threads, while the batch before may still be being written.
    const packs = pool ? pool.pack(kept, leftOut, line) : null;
    if (!pool) for (const [c, sites] of leftOut) for (const site of sites) delete c.entity!.sitelinks![site];
    await writer.add({ packs, entities: [...(pool ? [] : kept.map((c) => c.entity!)), ...placeholders], extras });
    inFlight = new Map(kept.flatMap((c) => c.sitelinks.map(([site, title]) => [linkKey(site, title), c.id])));
    batch = [];
    options.onProgress?.(summary, progress());
  };
  const take = async (reading: Reading, lastLine: number | null) => {
    line = reading.line;
    const candidate = admit(reading, report, summary, options, lastLine);
    if (!candidate) return;
    batch.push(candidate);
    if (batch.length >= options.batchSize) await flush();
    else if (summary.read % 2000 === 0) options.onProgress?.(summary, progress());
  };

  try {
    if (pool) {
      const input = await openDumpText(path);
      progress = input.progress;
      await pool.readAll(input.batches, summary.resumedAfterLine, take);
    } else {
      const input = await openDump(path, summary.resumedAfterLine);
      progress = input.progress;
      for await (const item of input.lines) {
        resumable &&= item.resumable;
        await take(readLine(item, setup), item.endsEarly ? item.line : null);
      }
    }
    await flush();
    await writer.finish();
  } finally {
    await pool?.close();
  }
  // The indexes this run (or an earlier, stopped one) left to the end; the checkpoint stays until they are
  // built, so a run stopped during the build goes straight back to it.
  const building = Date.now();
  await store.finishImport(({ step, rows }) => {
    if (rows > 0) options.onNote?.(`${step} (${rows.toLocaleString('en')} rows)`);
  });
  summary.indexSeconds = (Date.now() - building) / 1000;
  if (key) await store.clearImportCheckpoint(key);
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/**
 * The store's packed imports when reading threads can be used, on a file of one entity per line; otherwise
 * null, with a note saying why when `--threads` asked for them.
 */
async function packingStore(store: BulkImport, path: string, threads: number, options: ImportOptions): Promise<PackedImports | null> {
  const why = path === '-' ? 'standard input is read on one thread'
    : !(await holdsEntityLines(path)) ? 'a whole JSON document is read on one thread' : null;
  if (why && options.threads !== undefined) options.onNote?.(`--threads ${threads}: ${why}`);
  return why ? null : store.packedImports;
}

/** The summary an earlier, unfinished import of the same file left, to go on from; an empty one otherwise. */
async function resumedSummary(store: BulkImport, key: string, file: Checkpoint['file'], path: string, options: ImportOptions): Promise<ImportSummary> {
  const saved = await store.importCheckpoint(key);
  const checkpoint = saved ? (JSON.parse(saved) as Checkpoint) : null;
  if (checkpoint && checkpoint.file.size === file.size && checkpoint.file.mtimeMs === file.mtimeMs) {
    options.onNote?.(`resuming ${path} after line ${checkpoint.line} (${checkpoint.summary.imported} entities imported by an earlier run)`);
    return { ...emptySummary(), ...checkpoint.summary, resumedAfterLine: checkpoint.line };
  }
  if (checkpoint) options.onNote?.(`${path} changed since an earlier, unfinished import of it: starting from the beginning`);
  return emptySummary();
}

/**
 * Counts and reports what reading a line decided, in input order; returns the candidate to batch, if any.
 * `lastLine`: the input's last line when it is known (a malformed last line means the input was cut off).
 */
function admit(reading: Reading, report: ReturnType<typeof newReport>, summary: ImportSummary, options: ImportOptions,
  lastLine: number | null): Candidate | null {
  if (reading.outcome === 'malformed') {
    if (reading.line === lastLine) {
      // The input stops in the middle of its last line: what came before is imported, and the run fails.
      summary.endsEarlyAt = reading.line;
      return null;
    }
    if (options.strict) throw new CliError(`${reading.message} (the import stops here: --strict)`);
    summary.malformedLines++;
    options.onReport?.({ reason: 'malformed', line: reading.line, message: reading.message });
    if (summary.malformedLines <= 10) options.onNote?.(`skipped malformed ${reading.message}`);
    return null;
  }
  summary.read++;
  if (reading.outcome === 'filteredOut') { summary.skipped.filteredOut++; return null; }
  if (reading.outcome === 'notStorable') {
    summary.skipped.notStorable++;
    name(summary, 'notStorable', reading.id);
    options.onReport?.({ reason: 'notStorable', id: reading.id, line: reading.line });
    return null;
  }
  const id = reading.outcome === 'candidate' ? reading.candidate.id : reading.id;
  if (reading.dropped) {
    report.droppedTerms += reading.dropped.terms;
    report.droppedSitelinks += reading.dropped.sitelinks;
    report.droppedStatements += reading.dropped.statements;
    options.onReport?.({ reason: 'dropped', id, line: reading.line, ...reading.dropped });
  }
  if (reading.outcome === 'inLocalRange') {
    summary.skipped.inLocalRange++;
    name(summary, 'inLocalRange', id);
    options.onReport?.({ reason: 'inLocalRange', id, line: reading.line });
    return null;
  }
  return reading.candidate;
}

/** A line as openDump gives it, read on this thread. */
function readLine(item: DumpLine, setup: ReadingSetup): Reading {
  if (item.malformed) return { line: item.line, outcome: 'malformed', message: item.malformed };
  return readEntity(item.entity!, item.line, setup);
}

function fileIdentity(path: string): Checkpoint['file'] {
  const stat = statSync(path);
  return { size: stat.size, mtimeMs: stat.mtimeMs };
}

/**
 * The batch as it will be written: what the update mode lets through (the last of an id the batch holds twice),
 * with sitelinks that another item holds, or that a newer revision in the same batch claims, taken out of the
 * candidates (`leftOut` names them by candidate, for whoever holds the entity).
 */
async function settleBatch(store: BulkImport, batch: Candidate[], options: Pick<ImportOptions, 'mode' | 'onReport'>,
  summary: ImportSummary, inFlight: Map<string, string>): Promise<{ kept: Candidate[]; leftOut: Map<Candidate, string[]> }> {
  const latest = new Map<string, Candidate>();
  for (const c of batch) {
    const earlier = latest.get(c.id);
    if (earlier) {
      summary.superseded++;
      options.onReport?.({ reason: 'superseded', id: c.id, line: earlier.line, by_line: c.line });
    }
    latest.set(c.id, c);
  }
  const states = await store.importStates([...latest.keys()]);
  const kept: Candidate[] = [];
  for (const c of latest.values()) {
    const decision = decide(options.mode, states.get(c.id), c.sourceRevision);
    if (decision === 'write') { kept.push(c); continue; }
    summary.skipped[decision]++;
    name(summary, decision, c.id);
    options.onReport?.({ reason: decision, id: c.id, line: c.line });
  }
  // Claims in this batch: the newest revision of the source keeps a page two items link (a dump is written
  // over hours, and a sitelink that moved meanwhile appears on both).
  const claims = new Map<string, Candidate>();
  for (const c of kept) {
    for (const [site, title] of c.sitelinks) {
      const key = linkKey(site, title);
      const other = claims.get(key);
      if (!other || c.sourceRevision > other.sourceRevision) claims.set(key, c);
    }
  }
  const links = [...claims.keys()].map((k) => k.split('\u0000') as [string, string]);
  const owners = await store.sitelinkOwners(links);
  for (const [k, id] of inFlight) if (claims.has(k)) owners.set(k, id);
  const rewritten = new Set(kept.map((c) => c.id));
  const leftOut = new Map<Candidate, string[]>();
  for (const c of kept) {
    c.sitelinks = c.sitelinks.filter(([site, title]) => {
      const key = linkKey(site, title);
      const owner = owners.get(key);
      // Taken by an item this batch does not rewrite (a rewritten one lets go of it unless it claims it again).
      const heldElsewhere = owner !== undefined && owner !== c.id && !rewritten.has(owner);
      if (claims.get(key) === c && !heldElsewhere) return true;
      summary.sitelinkConflicts++;
      name(summary, 'sitelinkConflict', c.id);
      options.onReport?.({ reason: 'sitelinkConflict', id: c.id, site, title, held_by: heldElsewhere ? owner! : claims.get(key)!.id });
      leftOut.set(c, [...(leftOut.get(c) ?? []), site]);
      return false;
    });
  }
  return { kept, leftOut };
}

/**
 * Properties the batch's statements use that neither the store nor the import holds: created empty, with the
 * data type the snaks declare, so that later edits of those statements validate. A property the dump defines
 * later replaces its placeholder (a placeholder counts as source revision 0).
 */
async function placeholdersFor(store: EntityStore, kept: Candidate[], made: Set<string>): Promise<Entity[]> {
  const used = new Map<string, string>();
  const inBatch = new Set(kept.map((c) => c.id));
  for (const c of kept) {
    for (const [id, type] of c.uses) if (!inBatch.has(id) && !made.has(id)) used.set(id, type);
  }
  if (used.size === 0) return [];
  const existing = await store.lookupEntities([...used.keys()]);
  const placeholders: Entity[] = [];
  for (const [id, type] of used) {
    made.add(id);
    if (!existing.has(id)) placeholders.push(emptyEntity(id, 'property', type));
  }
  return placeholders;
}

/** `1 entity`, `2 entities`. */
export const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The edit summary of an import's revisions: the file's name, never the server's path to it. */
export const importComment = (path: string): string => `import ${path === '-' ? 'standard input' : basename(path)}`;
