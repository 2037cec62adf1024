// `entia export`: streams the store out (docs/api.md Part 2, "Exporting"), in constant memory: entity ids are
// read a page at a time, each entity converted and written before the next is read. `wikidata` is
// latest-all.json's layout (an array, one entity per line), `jsonl` the one-entity-per-line stream (both in the
// dump format, readable by `entia import` and other dump tools), `rest` one entity per line as GET returns it.
// `--since CURSOR` exports only the entities changed after that cursor of the change feed and says the cursor
// to go on from: what a mirror runs to stay in sync.
import { spawn } from 'node:child_process';
import { createWriteStream, openSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { SiteTable } from '../domain/sites.js';
import { toWikidata } from '../domain/wikidata-export.js';
import { dumpHeader, revisionTriples, redirectTriple, type RdfFlavor } from '../domain/rdf.js';
import type { RdfVocabulary } from '../domain/rdf-vocabulary.js';
import { renderEntity } from '../domain/render.js';
import { InvalidCursor, pagesById, type EntityStore, type ChangeFeed } from '../store/store.js';
import { CliError } from './errors.js';

export const EXPORT_FORMATS = ['wikidata', 'jsonl', 'rest', 'nt', 'ttl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const PAGE = 1000;

export interface ExportOptions {
  format: ExportFormat;
  /** Only these ids (upper case). */
  ids?: ReadonlySet<string>;
  /** Only entities changed after this cursor. */
  since?: string;
  onProgress?: (written: number) => void;
  /** `nt` and `ttl`: where the nodes live and which flavour (domain/rdf.ts). */
  rdf?: { vocabulary: RdfVocabulary; flavor: RdfFlavor };
}

const isRdf = (format: ExportFormat) => format === 'nt' || format === 'ttl';

export interface ExportSummary {
  entities: number;
  /** With --since: the cursor to export from next time (the last change seen, or the one given). */
  next: string | null;
}

/** Where the lines go: a file (`.gz` and `.bz2` compressed by name) or standard output. */
export function exportTarget(path: string | undefined): { out: Writable; done: () => Promise<void> } {
  if (!path || path === '-') return { out: process.stdout, done: async () => {} };
  // Opened here, so that a missing directory or a refused permission is one line, not an unhandled stream error.
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new CliError(`${path}: ${code === 'ENOENT' ? `the directory ${dirname(resolve(path))} does not exist`
      : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  }
  const file = createWriteStream(path, { fd });
  const finished = new Promise<void>((resolve, reject) => { file.on('finish', resolve); file.on('error', reject); });
  if (path.endsWith('.gz')) {
    const gzip = createGzip();
    gzip.pipe(file);
    return { out: gzip, done: () => finished };
  }
  if (path.endsWith('.bz2')) {
    const child = spawn('bzip2', ['-c'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.on('error', () => file.destroy(new CliError(`${path}: writing .bz2 needs bzip2 (install bzip2)`)));
    child.stdout.pipe(file);
    return { out: child.stdin, done: () => finished };
  }
  return { out: file, done: () => finished };
}

/** Writes `text`, waiting for the stream to drain when it asks (memory stays flat however long the output). */
export async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}

/** Ids to export with --since: every entity of a change after the cursor, once, in the order of its first change. */
async function changedIds(store: ChangeFeed, since: string): Promise<{ ids: string[]; next: string }> {
  const ids = new Set<string>();
  let cursor = since;
  for (;;) {
    let page;
    try {
      page = await store.changes({ since: cursor === '0' ? null : cursor, limit: PAGE });
    } catch (e) {
      if (e instanceof InvalidCursor) throw new CliError(`--since ${since}: not a cursor of this store's change feed`, 2);
      throw e;
    }
    if (page.length === 0) return { ids: [...ids], next: cursor };
    for (const change of page) ids.add(change.entity);
    cursor = page[page.length - 1].cursor;
  }
}

async function* allIds(store: EntityStore): AsyncGenerator<string> {
  for await (const page of pagesById((after, limit) => store.entityIds(after, limit), (id) => id, PAGE)) yield* page;
}

export async function exportStore(store: EntityStore & ChangeFeed, out: Writable, sites: SiteTable, options: ExportOptions): Promise<ExportSummary> {
  const changed = options.since !== undefined ? await changedIds(store, options.since) : null;
  const ids = changed ? changed.ids : allIds(store);
  let written = 0;
  if (options.format === 'wikidata') await write(out, '[\n');
  if (isRdf(options.format)) await write(out, `${dumpHeader(new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')).join('\n')}\n`);
  for await (const id of ids) {
    if (options.ids && !options.ids.has(id)) continue;
    const read = await store.readEntity(id);
    // A redirect is one triple in an RDF dump (as in Wikibase's); the JSON dumps leave redirects out.
    if (read.status === 'redirect' && isRdf(options.format)) await write(out, `${redirectTriple(options.rdf!.vocabulary, id, read.target)}\n`);
    if (read.status !== 'found') continue;
    if (isRdf(options.format)) {
      const triples = revisionTriples(read.entity, read.head, { ...options.rdf!, sites });
      await write(out, `${triples.join('\n')}\n`);
      written++;
      if (written % 1000 === 0) options.onProgress?.(written);
      continue;
    }
    const doc = options.format === 'rest' ? renderEntity(read.entity, sites, false)
      : toWikidata(read.entity, { id: read.head.revision, modified: read.head.modified });
    const separator = options.format === 'wikidata' && written > 0 ? ',\n' : '';
    await write(out, `${separator}${JSON.stringify(doc)}${options.format === 'wikidata' ? '' : '\n'}`);
    written++;
    if (written % 1000 === 0) options.onProgress?.(written);
  }
  if (options.format === 'wikidata') await write(out, written > 0 ? '\n]\n' : ']\n');
  // The whole store's redirects, which the entity ids leave out (an export --since met its own above).
  if (isRdf(options.format) && !changed) {
    for await (const page of pagesById((after, limit) => store.redirects(after, limit), (r) => r.id, PAGE)) {
      for (const { id, target } of page) {
        if (!options.ids || options.ids.has(id)) await write(out, `${redirectTriple(options.rdf!.vocabulary, id, target)}\n`);
      }
    }
  }
  return { entities: written, next: changed ? changed.next : null };
}

export function readIdsFile(path: string): Set<string> {
  try {
    return new Set(readFileSync(path, 'utf8').split(/\s+/).filter(Boolean).map((id) => id.toUpperCase()));
  } catch (e) {
    throw new CliError(`--ids ${path}: ${(e as Error).message}`);
  }
}
