// How a SQLite store is opened (index.ts), apart so that the import thread (import-thread.ts) can say it too.

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** Parsed documents kept in memory, in MB of their JSON (default 4; 0 turns the cache off). */
  entityCacheMb?: number;
  /** SQLite's page cache in MB (default: SQLite's own, 2 MB). Bulk imports want much more (cli/import.ts). */
  pageCacheMb?: number;
  /**
   * Size in MB the write-ahead log may reach before this connection copies it into the database file (default:
   * SQLite's, 4 MB). A bulk import raises it: its batches change pages all over the indexes, and copying after
   * every batch writes most of those pages twice per batch (cli/import.ts).
   */
  checkpointMb?: number;
  /**
   * importEntities writes from a worker thread with a connection of its own, while this thread prepares the
   * next slice and the caller reads the next batch (import-thread.ts). Files only; for `entia import`.
   */
  importThread?: boolean;
  /**
   * importEntities stages the index rows of new entities and finishImport builds the indexes from them in key
   * order (deferred-index.ts, ADR 0008): for `entia import`. Sorting needs temporary files beside SQLite's
   * other temporary files (SQLITE_TMPDIR, else /var/tmp or /tmp), about the size of the indexes built.
   */
  deferIndexes?: boolean;
  /**
   * Folded terms a language needs (per kind) for a deferred import's build to make its prefix rows (default
   * 50,000; prefix-languages.ts). Smaller languages are recorded and suggested by range.
   */
  prefixLanguageMin?: number;
}
