// `entia import`: loads a Wikidata dump into the store (docs/api.md Part 2, "Importing"). It streams the input
// (dump-reader.ts), filters and converts each entity (domain/wikidata.ts), decides per entity what the update
// mode allows, settles sitelinks that two items claim, adds placeholder properties for the properties the
// statements use, and writes batches, each with a checkpoint in the same transaction: an import stopped at any
// point (kill -9 included) goes on from its last committed batch when the same command runs again.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { emptyEntity, type Entity } from '../domain/entity.js';
import type { SiteTable } from '../domain/sites.js';
import { fromWikidata, newReport, passesFilter, type DumpFilter } from '../domain/wikidata.js';
import type { EditMeta, ImportExtras, ImportState, BulkImport, EntityStore, LocalIdStart } from '../store/store.js';
import { checkReadable, openDump, type DumpLine } from './dump-reader.js';
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

interface Candidate {
  entity: Entity;
  /** The input line it came from. */
  line: number;
  /** The dump's `lastrevid`; 0 when it has none. */
  sourceRevision: number;
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
  const localStart = await store.localIdStart(options.localIdStart ?? DEFAULTS.localIdsFrom);
  const input = await openDump(path, summary.resumedAfterLine);
  const report = newReport();
  const placeholdersMade = new Set<string>();
  /** Sitelinks of the batch handed over last, which may still be being written. */
  let inFlight = new Map<string, string>();
  const writer = new BatchWriter<{ entities: Entity[]; extras: ImportExtras }>(
    ({ entities, extras }) => store.importEntities(entities, meta, extras));

  let batch: Candidate[] = [];
  let line = summary.resumedAfterLine;
  /** False once the input yields entities that share a line (a whole document): no checkpoint can name a place in it. */
  let resumable = true;
  const flush = async () => {
    const { entities, sources } = await settleBatch(store, batch, options, summary, inFlight);
    const placeholders = await placeholdersFor(store, entities, placeholdersMade);
    summary.imported += entities.length;
    summary.placeholders += placeholders.length;
    Object.assign(summary, { droppedTerms: summary.droppedTerms + report.droppedTerms,
      droppedSitelinks: summary.droppedSitelinks + report.droppedSitelinks,
      droppedStatements: summary.droppedStatements + report.droppedStatements });
    Object.assign(report, { droppedTerms: 0, droppedSitelinks: 0, droppedStatements: 0 });
    summary.seconds = (Date.now() - started) / 1000;
    const checkpoint = key && file && resumable ? { key, value: JSON.stringify({ file, line, summary } satisfies Checkpoint) } : undefined;
    await writer.add({ entities: [...entities, ...placeholders],
      extras: { sourceRevisions: [...sources, ...placeholders.map((p) => [p.id, 0] as const)], checkpoint } });
    inFlight = new Map(entities.flatMap((e) => Object.entries(e.sitelinks ?? {}).map(([site, l]) => [linkKey(site, l.title), e.id])));
    batch = [];
    options.onProgress?.(summary, input.progress());
  };

  for await (const item of input.lines) {
    line = item.line;
    resumable &&= item.resumable;
    const candidate = candidateOf(item, sites, report, summary, localStart, options);
    if (!candidate) continue;
    batch.push(candidate);
    if (batch.length >= options.batchSize) await flush();
    else if (summary.read % 2000 === 0) options.onProgress?.(summary, input.progress());
  }
  await flush();
  await writer.finish();
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

/** One line of the input as an entity to write, or null when it is not written (counted in the summary, reported). */
function candidateOf(item: DumpLine, sites: SiteTable, report: ReturnType<typeof newReport>, summary: ImportSummary,
  localStart: LocalIdStart, options: ImportOptions): Candidate | null {
  if (item.malformed) {
    if (item.endsEarly) {
      // The input stops in the middle of its last line: what came before is imported, and the run fails.
      summary.endsEarlyAt = item.line;
      return null;
    }
    if (options.strict) throw new CliError(`${item.malformed} (the import stops here: --strict)`);
    summary.malformedLines++;
    options.onReport?.({ reason: 'malformed', line: item.line, message: item.malformed });
    if (summary.malformedLines <= 10) options.onNote?.(`skipped malformed ${item.malformed}`);
    return null;
  }
  summary.read++;
  const raw = item.entity!;
  if (!passesFilter(raw, options.filter)) { summary.skipped.filteredOut++; return null; }
  const dropped = [report.droppedTerms, report.droppedSitelinks, report.droppedStatements];
  const entity = fromWikidata(raw, sites, report, options.filter);
  const id = typeof raw.id === 'string' ? raw.id : '?';
  if (!entity) {
    summary.skipped.notStorable++;
    name(summary, 'notStorable', id);
    options.onReport?.({ reason: 'notStorable', id, line: item.line });
    return null;
  }
  if (report.droppedTerms + report.droppedSitelinks + report.droppedStatements > dropped[0] + dropped[1] + dropped[2]) {
    options.onReport?.({ reason: 'dropped', id: entity.id, line: item.line, terms: report.droppedTerms - dropped[0],
      sitelinks: report.droppedSitelinks - dropped[1], statements: report.droppedStatements - dropped[2] });
  }
  if (Number(entity.id.slice(1)) >= localStart[entity.type]) {
    summary.skipped.inLocalRange++;
    name(summary, 'inLocalRange', entity.id);
    options.onReport?.({ reason: 'inLocalRange', id: entity.id, line: item.line });
    return null;
  }
  return { entity, line: item.line, sourceRevision: Number.isSafeInteger(raw.lastrevid) ? Number(raw.lastrevid) : 0 };
}

function fileIdentity(path: string): Checkpoint['file'] {
  const stat = statSync(path);
  return { size: stat.size, mtimeMs: stat.mtimeMs };
}

/**
 * The batch as it will be written: what the update mode lets through (the last of an id the batch holds twice),
 * with sitelinks that another item holds, or that a newer revision in the same batch claims, left out.
 */
async function settleBatch(store: BulkImport, batch: Candidate[], options: Pick<ImportOptions, 'mode' | 'onReport'>,
  summary: ImportSummary, inFlight: Map<string, string>): Promise<{ entities: Entity[]; sources: [string, number][] }> {
  const latest = new Map<string, Candidate>();
  for (const c of batch) {
    const earlier = latest.get(c.entity.id);
    if (earlier) {
      summary.superseded++;
      options.onReport?.({ reason: 'superseded', id: c.entity.id, line: earlier.line, by_line: c.line });
    }
    latest.set(c.entity.id, c);
  }
  const states = await store.importStates([...latest.keys()]);
  const kept: Candidate[] = [];
  for (const c of latest.values()) {
    const decision = decide(options.mode, states.get(c.entity.id), c.sourceRevision);
    if (decision === 'write') { kept.push(c); continue; }
    summary.skipped[decision]++;
    name(summary, decision, c.entity.id);
    options.onReport?.({ reason: decision, id: c.entity.id, line: c.line });
  }
  // Claims in this batch: the newest revision of the source keeps a page two items link (a dump is written
  // over hours, and a sitelink that moved meanwhile appears on both).
  const claims = new Map<string, Candidate>();
  for (const c of kept) {
    for (const [site, link] of Object.entries(c.entity.sitelinks ?? {})) {
      const key = linkKey(site, link.title);
      const other = claims.get(key);
      if (!other || c.sourceRevision > other.sourceRevision) claims.set(key, c);
    }
  }
  const links = [...claims.keys()].map((k) => k.split('\u0000') as [string, string]);
  const owners = await store.sitelinkOwners(links);
  for (const [k, id] of inFlight) if (claims.has(k)) owners.set(k, id);
  const rewritten = new Set(kept.map((c) => c.entity.id));
  for (const c of kept) {
    const sitelinks = c.entity.sitelinks;
    if (!sitelinks) continue;
    for (const [site, link] of Object.entries(sitelinks)) {
      const key = linkKey(site, link.title);
      const owner = owners.get(key);
      // Taken by an item this batch does not rewrite (a rewritten one lets go of it unless it claims it again).
      const heldElsewhere = owner !== undefined && owner !== c.entity.id && !rewritten.has(owner);
      if (claims.get(key) !== c || heldElsewhere) {
        delete sitelinks[site];
        summary.sitelinkConflicts++;
        name(summary, 'sitelinkConflict', c.entity.id);
        options.onReport?.({ reason: 'sitelinkConflict', id: c.entity.id, site, title: link.title,
          held_by: heldElsewhere ? owner! : claims.get(key)!.entity.id });
      }
    }
  }
  return { entities: kept.map((c) => c.entity), sources: kept.map((c) => [c.entity.id, c.sourceRevision]) };
}

/**
 * Properties the batch's statements use that neither the store nor the import holds: created empty, with the
 * data type the snaks declare, so that later edits of those statements validate. A property the dump defines
 * later replaces its placeholder (a placeholder counts as source revision 0).
 */
async function placeholdersFor(store: EntityStore, entities: Entity[], made: Set<string>): Promise<Entity[]> {
  const used = new Map<string, string>();
  const inBatch = new Set(entities.map((e) => e.id));
  for (const e of entities) {
    for (const statement of Object.values(e.statements).flat()) {
      for (const snak of [statement, ...statement.qualifiers, ...statement.references.flatMap((r) => r.parts)]) {
        const { id, 'data-type': type } = snak.property;
        if (type && !inBatch.has(id) && !made.has(id)) used.set(id, type);
      }
    }
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
