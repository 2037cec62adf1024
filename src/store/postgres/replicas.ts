// Reads from streaming replicas (ENTIA_DB_REPLICAS). A replica lags the primary by its replay delay, so two
// rules keep what a client sees consistent (docs/adr/0002, "Read replicas"):
// - a process never serves an entity at a revision older than one it wrote or already served (RevisionFloor),
//   nor older than the revision a client names in If-None-Match / If-Match: such a read is repeated on the
//   primary, so an editor reads its own write on whichever process it lands;
// - a replica that fails to answer is left alone for a few seconds and its reads go to the primary.
import pg from 'pg';
import type { Db } from './queries.js';
import type { DocumentRead } from '../store.js';

/** How long a replica that failed is skipped before it is tried again. */
const RETRY_AFTER_MS = 5_000;
/** Entities whose floor one process remembers; the oldest are forgotten first (a forgotten floor only costs a stale read being possible again on another process's terms). */
const MAX_FLOORS = 100_000;

/** Errors that say "this server cannot answer now", not "this query is wrong". */
function isUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true; // socket, DNS, timeouts
  // 08: connection exceptions; 57: operator intervention (shutdown, cannot connect now); 53: out of resources;
  // 40001: a standby cancelled the query because of a conflict with recovery.
  return /^(08|57|53)/.test(code) || code === '40001';
}

export interface ReplicaStatus {
  replica: string;
  up: boolean;
  /** Seconds the replica's replay is behind its last received change; null when it could not be asked. */
  lagSeconds: number | null;
}

/** A Db whose queries go to a healthy replica in turn, or to the primary when none answers. */
export class ReadReplicas implements Db {
  private turn = 0;
  private readonly downUntil: number[];

  constructor(private readonly primary: Db, private readonly pools: readonly pg.Pool[], private readonly names: readonly string[]) {
    this.downUntil = pools.map(() => 0);
  }

  static open(urls: readonly string[], primary: Db, poolSize: number, withSchema: (url: string) => string,
    Client: typeof pg.Client = pg.Client): ReadReplicas {
    const pools = urls.map((url) => {
      const pool = new pg.Pool({ Client, connectionString: withSchema(url), max: poolSize, connectionTimeoutMillis: 2_000,
        idleTimeoutMillis: 30_000 });
      pool.on('error', () => {});
      return pool;
    });
    return new ReadReplicas(primary, pools, urls.map(redactedHost));
  }

  async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    for (let tried = 0; tried < this.pools.length; tried++) {
      const i = (this.turn = (this.turn + 1) % this.pools.length);
      if (this.downUntil[i] > Date.now()) continue;
      try {
        return await this.pools[i].query<R>(text, values);
      } catch (e) {
        if (!isUnavailable(e)) throw e;
        this.downUntil[i] = Date.now() + RETRY_AFTER_MS;
      }
    }
    return this.primary.query<R>(text, values);
  }

  /** Asks every replica how far behind it is (for /metrics); a replica that does not answer is down. */
  async status(): Promise<ReplicaStatus[]> {
    return Promise.all(this.pools.map(async (pool, i) => {
      try {
        const { rows } = await pool.query<{ lag: number | null }>(`SELECT CASE
            WHEN pg_last_wal_receive_lsn() IS NULL OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
            ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 END AS lag`);
        return { replica: this.names[i], up: true, lagSeconds: rows[0]?.lag ?? null };
      } catch {
        return { replica: this.names[i], up: false, lagSeconds: null };
      }
    }));
  }

  async end(): Promise<void> {
    await Promise.all(this.pools.map((p) => p.end()));
  }
}

/** host:port/database of a URL: enough to tell replicas apart in metrics, without credentials. */
function redactedHost(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
}

/** The newest revision of each entity this process wrote or served: reads must not go back before it. */
export class RevisionFloor {
  private readonly floors = new Map<string, number>();

  get(id: string): number {
    return this.floors.get(id) ?? 0;
  }

  raise(id: string, revision: number): void {
    const known = this.floors.get(id);
    if (known !== undefined && known >= revision) return;
    this.floors.delete(id); // re-inserted last: the map's order is the order of last change
    this.floors.set(id, revision);
    if (this.floors.size > MAX_FLOORS) this.floors.delete(this.floors.keys().next().value!);
  }
}

/** A replica's answer older than a revision already written or seen: missing, or found at a lower revision. */
export function isBehind(read: DocumentRead, floor: number): boolean {
  if (floor === 0) return false;
  return read.status === 'missing' || (read.status === 'found' && read.head.revision < floor);
}
