// How a PostgreSQL store is opened (index.ts): its settings, and the connection URLs made from them.

export interface PostgresOptions {
  /** postgres://user:password@host:port/database?sslmode=… (libpq-style URL, as `pg` reads it). */
  url: string;
  /** Most connections this process opens (ENTIA_PG_POOL). */
  poolSize?: number;
  /** Schema for Entia's tables, created when missing (ENTIA_PG_SCHEMA); default: the URL's search_path. */
  schema?: string | null;
  /** Streaming replicas that GET requests read from (ENTIA_DB_REPLICAS); the schema is the primary's. */
  replicas?: readonly string[];
  /** importEntities stages the search, term and value rows of new entities and finishImport builds them (ADR 0008). */
  deferIndexes?: boolean;
  /** Folded terms a language needs for a deferred import's build to make its prefix rows (prefix-languages.ts). */
  prefixLanguageMin?: number;
  /**
   * Named prepared statements (ENTIA_PG_PREPARED, default on; prepared.ts): off behind a pooler in transaction
   * mode that does not keep them (PgBouncer before 1.21, or without max_prepared_statements).
   */
  preparedStatements?: boolean;
  /** Whether a schema without a store gets one (the default) or is refused with NoStoreError. */
  create?: boolean;
  /** Called when this open made a new, empty store. */
  onCreated?: () => void;
}

/** The URL with `-c search_path=<schema>` added to its startup options. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  const options = [u.searchParams.get('options'), `-c search_path=${schema}`].filter(Boolean).join(' ');
  u.searchParams.set('options', options);
  return u.toString();
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}
