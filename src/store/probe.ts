// What a store tells about itself for GET /ready and GET /metrics (store.ts, StoreLifecycle).
import type { KindName } from '../domain/entity.js';

export interface StoreProbe {
  backend: 'sqlite' | 'postgres';
  /** PostgreSQL: the connection pool of this process. */
  pool?: { total: number; idle: number; waiting: number };
  /** Documents served from memory (SQLite: parsed; PostgreSQL: their text, the head checked), if the backend keeps them. */
  entityCache?: { hits: number; misses: number };
  /** PostgreSQL with ENTIA_DB_REPLICAS: each replica's state and replay lag. */
  replicas?: { replica: string; up: boolean; lagSeconds: number | null }[];
}

/** What GET /metrics reports of the store's contents. */
export interface StoreStatistics {
  /** Entities of each kind, redirects left out. */
  entities: Record<KindName, number>;
  /** Redirects of each kind. */
  redirects: Record<KindName, number>;
  /** Imported entities whose search, term and value rows wait for an import's build (finishImport). */
  unindexed: number;
  /** Imports that started and have not finished: each keeps a checkpoint until its build ends. */
  importsUnfinished: number;
}
