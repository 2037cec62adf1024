// A slice of a bulk import packed on one of `entia import --threads`' reading threads for PostgreSQL (ADR
// 0022): documents serialised, counts and sitelinks taken, and the rows the import stages for its index build
// derived, as if every entity were new. The batch's transaction (PostgresBulkImport.importPacked) uses them
// as they are when none of the slice's entities exists yet, the common case of an import; otherwise it reads
// the documents back and imports them as importEntities does.
import { deserialize, serialize } from 'node:v8';
import type { Entity, KindName } from '../../domain/entity.js';
import { appendDeferredRows, emptyDeferredRows, indexRows, popularity, type DeferredRows, type SitelinkRow } from '../index-rows.js';

export interface PostgresSlice {
  ids: string[];
  types: KindName[];
  /** The documents as JSON text, as revisions store them. */
  documents: string[];
  sitelinkCounts: number[];
  statementCounts: number[];
  sitelinks: { link: SitelinkRow; itemId: string }[];
  /** The staged search, term and value rows of every entity of the slice. */
  staged: DeferredRows;
}

export function packPostgresSlice(entities: readonly Entity[]): Uint8Array {
  const slice: PostgresSlice = { ids: [], types: [], documents: [], sitelinkCounts: [], statementCounts: [], sitelinks: [], staged: emptyDeferredRows() };
  for (const entity of entities) {
    const rows = indexRows(entity);
    const { sitelinks, statements } = popularity(entity);
    slice.ids.push(entity.id);
    slice.types.push(entity.type);
    slice.documents.push(JSON.stringify(entity));
    slice.sitelinkCounts.push(sitelinks);
    slice.statementCounts.push(statements);
    for (const link of rows.sitelinks) slice.sitelinks.push({ link, itemId: entity.id });
    appendDeferredRows(slice.staged, entity, rows);
  }
  return serialize(slice);
}

export const unpackPostgresSlice = (packed: Uint8Array): PostgresSlice => deserialize(packed) as PostgresSlice;
