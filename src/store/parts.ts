// The parts a backend composes rather than writes in its store class (store.ts): each backend builds one object
// per part from its own files and this class forwards the Store's methods to them, so that the backend's
// index.ts holds only the EntityStore part and the wiring.
import type { Entity } from '../domain/entity.js';
import type { EntityFilter } from '../search/rank.js';
import { searchFilter } from './search-filter.js';
import { RecentWrites } from './recent-writes.js';
import type {
  BuildStep, BulkImport, Change, ChangeFeed, ChangeQuery, CounterHit, Counters, EditMeta, ImportExtras, ImportState, LocalIdStart, PackedImports,
  SearchHit, SearchQuery, StatementValueIndex, WrittenRevision,
} from './store.js';

/** A backend's search: the text index, asked with the statement filter the value index answers. */
export interface TextSearch {
  search(query: SearchQuery, filter?: EntityFilter): Promise<SearchHit[]>;
}

export abstract class StoreParts {
  abstract readonly searchIndex: TextSearch;
  abstract readonly statementValues: StatementValueIndex;
  abstract readonly imports: BulkImport;
  protected abstract readonly feed: ChangeFeed;
  protected abstract readonly counters: Counters;
  /** What this process wrote last, for the change feed's readers, and who to tell of a commit (recent-writes.ts). */
  protected recent = new RecentWrites();

  // SearchIndex

  search(query: SearchQuery): Promise<SearchHit[]> {
    return this.searchIndex.search(query, searchFilter(query, this.statementValues));
  }

  // ChangeFeed

  changes(query: ChangeQuery): Promise<Change[]> { return this.feed.changes(query); }
  changesHead(): Promise<string> { return this.feed.changesHead(); }
  changesCommitted(): Promise<string> { return this.feed.changesCommitted(); }
  watchCommits(listener: () => void): () => void { return this.recent.watch(listener); }
  writtenRevision(entityId: string, revision: number): WrittenRevision | undefined { return this.recent.written(entityId, revision); }

  // Counters

  countHit(key: string, windowSeconds: number): Promise<CounterHit> { return this.counters.countHit(key, windowSeconds); }

  // BulkImport

  importEntities(entities: readonly Entity[], meta: EditMeta, extras?: ImportExtras): Promise<void> {
    return this.imports.importEntities(entities, meta, extras);
  }
  finishImport(onStep?: (step: BuildStep) => void): Promise<void> { return this.imports.finishImport(onStep); }
  unindexedCount(): Promise<number> { return this.imports.unindexedCount(); }
  importStates(ids: readonly string[]): Promise<Map<string, ImportState>> { return this.imports.importStates(ids); }
  sitelinkOwners(links: readonly (readonly [string, string])[]): Promise<Map<string, string>> { return this.imports.sitelinkOwners(links); }
  localIdStart(proposed: LocalIdStart): Promise<LocalIdStart> { return this.imports.localIdStart(proposed); }
  importCheckpoint(key: string): Promise<string | null> { return this.imports.importCheckpoint(key); }
  clearImportCheckpoint(key: string): Promise<void> { return this.imports.clearImportCheckpoint(key); }
  get packedImports(): PackedImports { return this.imports.packedImports; }
}
