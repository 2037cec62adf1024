// A slice of a bulk import made ready for writing: documents serialised and every index and search row of
// each entity derived as if it were new, as plain data that can cross to the import thread (import-thread.ts).
// Preparing is the JavaScript half of an import, about as costly as parsing the documents; writing them is
// SQLite's half (SqliteBulkImport.writePrepared), which uses the rows only when none of the entities exists yet.
import { deserialize, serialize } from 'node:v8';
import type { Entity, KindName } from '../../domain/entity.js';
import { indexRows, popularity, SEARCH_TABLES, STAGED_SEARCH_TABLES, valueRows, visitSearchRows, type SearchTable } from '../index-rows.js';
import { decodeDocument, encodeDocument } from './documents.js';
import { RowGroups } from './write-order.js';

export interface PreparedEntity {
  id: string;
  type: KindName;
  /**
   * The revision's document as JSON text, which the writing side compresses (documents.ts): on the import
   * thread, which waits for this one most of the time, instead of here (issue #15's profile). A slice
   * packed on a reading thread (packImportSlice) brings `content` instead, compressed there: one of them is set.
   */
  json?: string;
  /** The document as `revisions.content` stores it (encodeDocument). */
  content?: string | Uint8Array;
  sitelinks: number;
  statements: number;
}

/** Rows as lists of flat column values, in the order to insert them (write-order.ts). */
export interface PreparedRows {
  /** Per search table: kind, lang, key, type, rank, entity. */
  search: Record<SearchTable, unknown[][]>;
  /** entity_id, kind, type, lang, text */
  terms: unknown[][];
  /** property, value, kind, entity: by property. */
  values: unknown[][];
  /** id, entity_id */
  /** site, title, item_id, by site. */
  sitelinks: [string, string, string][];
}

export interface PreparedImport {
  entities: PreparedEntity[];
  rows: PreparedRows;
}

/** What every revision of one import batch shares. */
export interface ImportRevision {
  user: string;
  comment: string | null;
  /** JSON array. */
  tags: string;
  bot: boolean;
  timestamp: number;
}

/**
 * `deferred`: the rows will be staged for the build (ADR 0008), which makes the prefix rows itself
 * (prefix-languages.ts), so none are derived here.
 */
export function prepareImport(entities: readonly Entity[], deferred = false, encode = false): PreparedImport {
  const tables = deferred ? STAGED_SEARCH_TABLES : SEARCH_TABLES;
  const search = { terms: new RowGroups(), prefixes: new RowGroups(), tokens: new RowGroups() };
  const terms = new RowGroups();
  const values = new RowGroups();
  const sitelinks: [string, string, string][] = [];
  const prepared: PreparedEntity[] = [];
  for (const entity of entities) {
    const { id, type } = entity;
    const json = JSON.stringify(entity);
    prepared.push({ id, type, ...(encode ? { content: encodeDocument(json, type) } : { json }), ...popularity(entity) });
    visitSearchRows(entity, (table, kind, lang, key, termType, rank, number) => {
      search[table].of(lang).push(kind, lang, key, termType, rank, number);
    }, undefined, tables);
    const rows = indexRows(entity);
    for (const t of rows.terms) terms.of(t.lang).push(id, type, t.type, t.lang, t.text);
    for (const row of valueRows(entity, rows.values)) values.of(String(row[0])).push(...row);
    for (const s of rows.sitelinks) sitelinks.push([s.site, s.title, id]);
  }
  // Stable: of two entities given the same page, the first keeps it and the second is refused.
  sitelinks.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    entities: prepared,
    rows: {
      search: { terms: search.terms.inOrder(), prefixes: search.prefixes.inOrder(), tokens: search.tokens.inOrder() },
      terms: terms.inOrder(),
      values: values.inOrder(),
      sitelinks,
    },
  };
}

/**
 * Entities per prepared slice. On the import thread SQLite writes a slice while this thread prepares the next,
 * so slices overlap the two halves; larger ones group more rows per language, smaller ones start sooner.
 */
const SLICE = 500;

/** The batch in slices, each prepared only when it is asked for. */
export function* preparedSlices(entities: readonly Entity[], deferred: boolean): Generator<PreparedImport> {
  for (let i = 0; i < entities.length; i += SLICE) yield prepareImport(entities.slice(i, i + SLICE), deferred);
}

/**
 * A slice prepared on one of `entia import --threads`' reading threads, documents compressed there too, packed
 * into one buffer that crosses to the import thread without a copy (the main thread only passes it on).
 */
export function packImportSlice(entities: readonly Entity[], deferred: boolean): Uint8Array {
  return serialize(prepareImport(entities, deferred, true));
}

/** The JSON text of a prepared entity, whichever form it came in. */
export const preparedJson = (e: PreparedEntity): string => e.json ?? decodeDocument(e.content!);

/** A slice as packImportSlice packed it, or one prepared on this thread. */
export const unpackSlice = (slice: PreparedImport | Uint8Array): PreparedImport =>
  (slice instanceof Uint8Array ? deserialize(slice) as PreparedImport : slice);
