// The SPARQL mirror: fills the engine (engine.ts) from the store and keeps it in step by following the change
// feed, in feed order, each change applied once: the entities of a page of changes are read at their current
// state and written together, then the cursor moves past the page. Nothing here is on the write path: an edit
// commits without waiting for the mirror, which reads the feed on its own timer.
//
// A snapshot (the engine's content as N-Quads, with the cursor it includes) is written after a build, every
// few minutes while changes arrive, and on shutdown, so that a restart loads it and follows the feed from its
// cursor instead of building again.
import { existsSync } from 'node:fs';
import { KINDS } from '../domain/kinds.js';
import { compareCursors, InvalidCursor, pagesById, type Change, type ChangeFeed, type CommitWatch, type EntityStore, type StoreStatistics } from '../store/store.js';
import { entityChange } from './entity-change.js';
import type { EngineSetup, MirrorEntity } from './engine-protocol.js';
import { mirrorTriples, tripleCount } from './mirror-triples.js';
import { EngineRestarted, type SparqlEngine } from './engine.js';

/** How often the feed is read while the mirror is in step, and how many changes one read takes. */
const TICK_MS = 100;
/** How soon after a commit of this process the feed is read (the commits of that while share the read). */
const WAKE_MS = 10;
const PAGE = 500;
/** Entities written to the engine per message during a build, and while following the feed. */
const BUILD_BATCH = 200;
const SYNC_BATCH = 25;
const SYNC_BATCH_BEHIND = 100;
const SYNC_IN_FLIGHT = 1;
/** The least time between two snapshots while changes arrive. */
const SNAPSHOT_EVERY_MS = 10 * 60_000;
const SNAPSHOT_VERSION = 1;

export type MirrorStore = EntityStore & ChangeFeed & CommitWatch & { statistics(): Promise<StoreStatistics> };

export interface MirrorOptions {
  /** Where the snapshot lives; null: none (every start builds). */
  snapshotPath: string | null;
  /** The most bytes the engine may take; a store estimated larger is not built. */
  memoryLimit: number;
  /** Says what the mirror does (start, ready, refusals); the server's log. */
  log: (message: string) => void;
}

export type MirrorState =
  | { status: 'building'; done: number; total: number }
  | { status: 'ready' }
  | { status: 'refused'; reason: string };

/**
 * Bytes the engine takes per triple: the server's resident memory with the engine filled, less without, over
 * the triples, on bench stores of Wikidata-sized items (docs/adr/0013-sparql-engine.md).
 */
export const BYTES_PER_TRIPLE = 700;
/** Entities of each kind whose triples are counted to estimate the engine's size before it is built. */
const SAMPLE = 100;

export class SparqlMirror {
  state: MirrorState = { status: 'building', done: 0, total: 0 };
  /** The last change the engine includes ('0': none). */
  cursor = '0';
  /** Triples in the engine, as of its last write. */
  triples = 0;
  /** Seconds between the oldest change not yet applied and now (0 when in step). */
  lagSeconds = 0;
  private timer: NodeJS.Timeout | null = null;
  /** When the pending read is due (performance.now()). */
  private due = 0;
  private stopWatching: (() => void) | null = null;
  /** A commit of this process was heard since the last read began. */
  private heard = false;
  private stopped = false;
  private following: Promise<void> = Promise.resolve();
  private lastSnapshot = Date.now();
  private changedSinceSnapshot = false;
  /** The snapshot being written, if one is: stopping waits for it (a stopped engine would leave half a file). */
  private saving: Promise<void> | null = null;
  private readonly waiters = new Set<{ cursor: string; resolve: () => void }>();

  constructor(private readonly store: MirrorStore, private readonly engine: SparqlEngine, private readonly setup: EngineSetup,
    private readonly options: MirrorOptions) {
    engine.on('restarted', () => { if (!this.stopped) void this.start(); });
    engine.on('failed', (error: Error) => {
      this.stopTimer();
      this.state = { status: 'refused', reason: `the SPARQL engine failed repeatedly and was stopped (${error.message}); `
        + 'restart the server to try again, or set ENTIA_SPARQL=truthy or a lower ENTIA_SPARQL_MEMORY' };
      this.options.log(this.state.reason);
    });
  }

  /**
   * Empties the engine, loads the snapshot or builds, then follows the feed. Resolves when the engine is ready or
   * refused. (A restarted engine is empty already; emptying it again costs nothing and makes start safe to repeat.)
   */
  async start(): Promise<void> {
    this.stopTimer();
    this.state = { status: 'building', done: 0, total: 0 };
    try {
      await this.engine.clear();
      const loaded = await this.loadSnapshot();
      if (!loaded && !(await this.build())) return;
      this.state = { status: 'ready' };
      this.wake();
      this.schedule();
      // A fresh build is saved once it answers (queries run while it is written).
      if (!loaded && this.options.snapshotPath) {
        await this.snapshot().catch((e) => this.options.log(`SPARQL: the snapshot could not be written: ${(e as Error).message}`));
      }
    } catch (e) {
      if (e instanceof EngineRestarted) return; // a newer start is under way
      this.state = { status: 'refused', reason: `the SPARQL engine could not be filled: ${(e as Error).message}` };
      this.options.log(this.state.reason);
    }
  }

  /** Resolves once the engine includes the change at `cursor`, or rejects after `ms`. */
  waitFor(cursor: string, ms: number): Promise<void> {
    if (this.state.status === 'ready' && compareCursors(this.cursor, cursor) >= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = { cursor, resolve: () => { clearTimeout(timer); resolve(); } };
      const timer = setTimeout(() => { this.waiters.delete(waiter); reject(new Error('behind')); }, ms);
      this.waiters.add(waiter);
    });
  }

  /** The newest change committed now: what `after=latest` waits for (the caller's own writes are before it). */
  committed(): Promise<string> {
    return this.store.changesCommitted();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopTimer();
    this.stopWatching?.();
    await this.following;
    await this.saving?.catch(() => {});
    // Without a snapshot path (ENTIA_SPARQL_SNAPSHOT off) nothing is saved: a save to "null" left
    // null.<pid>.partial files in the working directory.
    if (this.state.status === 'ready' && this.changedSinceSnapshot && this.options.snapshotPath) await this.snapshot().catch(() => {});
  }

  private header(): string {
    return JSON.stringify({ entia_sparql: SNAPSHOT_VERSION, cursor: this.cursor, flavor: this.setup.flavor, vocabulary: this.setup.vocabulary });
  }

  /** Loads the snapshot when it was written for this store's feed, flavour and vocabulary; false: build instead. */
  private async loadSnapshot(): Promise<boolean> {
    const path = this.options.snapshotPath;
    if (!path || !existsSync(path)) return false;
    const started = Date.now();
    const loaded = await this.engine.restore(path);
    let header: { entia_sparql?: number; cursor?: string; flavor?: string; vocabulary?: unknown } = {};
    try { header = JSON.parse(loaded.header ?? ''); } catch { /* not ours: rebuilt below */ }
    const head = await this.store.changesHead();
    const usable = header.entia_sparql === SNAPSHOT_VERSION && header.flavor === this.setup.flavor
      && JSON.stringify(header.vocabulary) === JSON.stringify(this.setup.vocabulary) && typeof header.cursor === 'string' && /^[0-9.]+$/.test(header.cursor)
      && compareCursors(header.cursor, head) <= 0 && (await this.validCursor(header.cursor));
    if (!usable) {
      this.options.log(`SPARQL: the snapshot ${path} does not match this store; building again`);
      await this.engine.clear();
      return false;
    }
    this.cursor = header.cursor!;
    this.triples = loaded.triples ?? 0;
    this.options.log(`SPARQL: loaded ${this.triples} triples from ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return true;
  }

  private async validCursor(cursor: string): Promise<boolean> {
    try {
      await this.store.changes({ since: cursor === '0' ? null : cursor, limit: 1 });
      return true;
    } catch (e) {
      if (e instanceof InvalidCursor) return false;
      throw e;
    }
  }

  /**
   * Fills an empty engine from the store: the feed's head first, so that nothing after it is missed. False: the
   * store is too large for the memory allowed, and the state says so.
   */
  private async build(): Promise<boolean> {
    const started = Date.now();
    const head = await this.store.changesHead();
    const stats = await this.store.statistics();
    const total = stats.entities.item + stats.entities.property;
    const estimate = (await this.estimateTriples(stats.entities)) * BYTES_PER_TRIPLE;
    if (estimate > this.options.memoryLimit) {
      const gb = (n: number) => `${(n / 2 ** 30).toFixed(1)} GB`;
      this.state = { status: 'refused', reason: `SPARQL is off: the ${this.setup.flavor} RDF of ${total} entities would take about `
        + `${gb(estimate)}, over ENTIA_SPARQL_MEMORY (${gb(this.options.memoryLimit)}); set ENTIA_SPARQL=truthy for the smaller `
        + 'flavour, or load an external engine from entia export --format nt (README, "SPARQL")' };
      this.options.log(this.state.reason);
      // Nothing will run on the engine's threads: their memory goes back to the server (a large store's default).
      this.stopped = true;
      await this.engine.close();
      return false;
    }
    this.state = { status: 'building', done: 0, total };
    let done = 0;
    // Two batches in flight: the writer's thread makes one's triples while the engine loads the other.
    await this.write(pagesById((after, limit) => this.store.entityIds(after, limit), (id) => id, BUILD_BATCH), { fresh: true, inFlight: 2, written: (ids) => {
      done += ids.length;
      this.state = { status: 'building', done, total };
    } });
    // Redirects are not among entityIds: each is read as what it is, and written as its owl:sameAs.
    const redirects = pagesById((after, limit) => this.store.redirects(after, limit), (r) => r.id, BUILD_BATCH);
    await this.write(mapPages(redirects, (r) => r.id));
    this.cursor = head;
    this.triples = (await this.engine.count()).triples ?? this.triples;
    this.options.log(`SPARQL: built from ${total} entities in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return true;
  }

  /**
   * The engine's size in triples, estimated from the first entities of each kind (ids sort properties before
   * items, and a property has a tenth of an item's triples), weighted by how many of each the store holds.
   */
  private async estimateTriples(counts: StoreStatistics['entities']): Promise<number> {
    let triples = 0;
    for (const kind of KINDS) {
      if (counts[kind.name] === 0) continue;
      const ids = (await this.store.entityIds(kind.prefix, SAMPLE)).filter((id) => id.startsWith(kind.prefix));
      const sampled = (await this.readEntities(ids)).reduce((n, entity) => n + tripleCount(mirrorTriples(entity, this.setup)), 0);
      if (ids.length) triples += (sampled / ids.length) * counts[kind.name];
    }
    return triples;
  }

  /**
   * Writes the entities of each batch of ids, read by `read` (their documents unless told), with at most
   * `inFlight` batches sent and not yet applied (the next is read from the store meanwhile); resolves when every
   * batch is applied. `fresh`: a build, the engine holds none of them yet.
   */
  private async write(batches: AsyncIterable<string[]> | Iterable<string[]>, { fresh = false, inFlight = 1, written, read }: {
    fresh?: boolean; inFlight?: number; written?: (ids: string[]) => void; read?: (ids: readonly string[]) => Promise<MirrorEntity[]>;
  } = {}): Promise<void> {
    const sent: Promise<void>[] = [];
    for await (const ids of batches) {
      const entities = await (read ?? ((batch) => this.readEntities(batch)))(ids);
      if (sent.length >= inFlight) await sent.shift();
      sent.push(handled(this.put(entities, fresh).then(() => written?.(ids))));
    }
    await Promise.all(sent);
  }

  /** Puts entities; those sent as changes the writer cannot apply (it holds another revision) go again whole. */
  private async put(entities: MirrorEntity[], fresh: boolean): Promise<void> {
    let reply = await this.engine.put(entities, fresh);
    if (reply.missing?.length) {
      const whole = new Map((await this.readEntities(reply.missing)).map((e) => [e.id, e]));
      reply = await this.engine.put(entities.map((e) => whole.get(e.id) ?? e), fresh);
    }
    this.triples = reply.triples ?? this.triples;
  }

  private readEntities(ids: readonly string[]): Promise<MirrorEntity[]> {
    return readMirrorEntities(this.store, ids);
  }

  /**
   * The entities of a page of changes: revisions this process just wrote go as what their edits changed
   * (entity-change.ts), from the entity the first of them started from to the last, when the store still holds
   * both; any other, as its current document.
   */
  private async readChanged(ids: readonly string[], span: ReadonlyMap<string, { first: Change; last: Change }>): Promise<MirrorEntity[]> {
    const changed = new Map<string, MirrorEntity>();
    for (const id of ids) {
      const { first, last } = span.get(id)!;
      // Each edit started from the revision the one before it wrote, so what neither touched is shared from the
      // first's start to the last's end.
      const to = this.store.writtenRevision(id, last.revision);
      const from = (first === last ? to : this.store.writtenRevision(id, first.revision))?.base;
      if (!from || !to) continue;
      const head = { revision: to.head.revision, modified: to.head.modified.getTime() };
      changed.set(id, { id, head, changed: { base: from.head.revision, json: JSON.stringify(entityChange(from.entity, to.entity)) } });
    }
    const rest = ids.filter((id) => !changed.has(id));
    const documents = new Map(rest.length ? (await this.readEntities(rest)).map((e) => [e.id, e]) : []);
    return ids.map((id) => changed.get(id) ?? documents.get(id)!);
  }

  /**
   * The next read of the feed in `ms`, unless one is due sooner: a restart while the feed is read makes no second
   * loop. This process's commits bring the read forward to WAKE_MS; other processes' are read at the tick.
   */
  private schedule(ms = TICK_MS): void {
    if (this.stopped) return;
    this.stopWatching ??= this.store.watchCommits(() => {
      this.heard = true;
      if (this.timer) this.schedule(WAKE_MS);
    });
    if (this.timer && this.due <= performance.now() + ms) return;
    this.stopTimer();
    this.due = performance.now() + ms;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.heard = false;
      // A commit heard while the feed was read is read next, without waiting for the tick.
      this.following = this.follow().finally(() => this.schedule(this.heard ? WAKE_MS : TICK_MS));
    }, ms);
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Applies every change after the cursor, a page at a time, then wakes the readers waiting for them. */
  private async follow(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped || this.state.status !== 'ready') return;
        const page = await this.store.changes({ since: this.cursor === '0' ? null : this.cursor, limit: PAGE });
        if (page.length === 0) break;
        this.lagSeconds = Math.max(0, (Date.now() - page[0].timestamp.getTime()) / 1000);
        // Each entity once, with the first and last of its changes in the page (in the order entities first appear).
        const span = new Map<string, { first: Change; last: Change }>();
        for (const c of page) span.set(c.entity, { first: span.get(c.entity)?.first ?? c, last: c });
        const ids = [...span.keys()];
        // A few entities per message: a query waits for one message's writes at most, never a whole page's.
        // Behind (a full page), larger batches: the engine's cost per call is then spread over more changes.
        // One batch at a time (a build has two in flight): the server's own requests keep the other core
        // (docs/adr/0013-sparql-engine.md, "Sync and the edit rate").
        const size = page.length < PAGE ? SYNC_BATCH : SYNC_BATCH_BEHIND;
        const batches = Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, (i + 1) * size));
        await this.write(batches, { inFlight: SYNC_IN_FLIGHT, read: (batch) => this.readChanged(batch, span) });
        this.cursor = page[page.length - 1].cursor;
        this.changedSinceSnapshot = true;
        this.wake();
        if (page.length < PAGE) break;
      }
      this.lagSeconds = 0;
      this.wake();
      if (this.changedSinceSnapshot && this.options.snapshotPath && Date.now() - this.lastSnapshot > SNAPSHOT_EVERY_MS) await this.snapshot();
    } catch (e) {
      // The store or the engine is briefly unavailable (a restart is reloading it): the next tick tries again.
      if (!(e instanceof EngineRestarted)) this.options.log(`SPARQL: following the change feed failed: ${(e as Error).message}`);
    }
  }

  private wake(): void {
    for (const waiter of this.waiters) {
      if (compareCursors(this.cursor, waiter.cursor) >= 0) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /**
   * Saves the engine with the cursor it includes at least: a change applied while it is written may be in it
   * too, and is applied again after a restart, which writes the same state.
   */
  private snapshot(): Promise<void> {
    this.saving ??= this.save().finally(() => { this.saving = null; });
    return this.saving;
  }

  private async save(): Promise<void> {
    const cursor = this.cursor;
    await this.engine.save(this.options.snapshotPath!, this.header());
    this.lastSnapshot = Date.now();
    this.changedSinceSnapshot = this.cursor !== cursor;
  }
}

/** The entities as an engine writes them: their stored documents, read in one round trip. */
export async function readMirrorEntities(store: EntityStore, ids: readonly string[]): Promise<MirrorEntity[]> {
  const documents = await store.readDocuments(ids);
  return ids.map((id): MirrorEntity => {
    const read = documents.get(id);
    if (read?.status === 'found') return { id, json: read.json(), head: { revision: read.head.revision, modified: read.head.modified.getTime() } };
    if (read?.status === 'redirect') return { id, redirect: read.target };
    return { id };
  });
}

/**
 * A promise awaited later, marked handled now: if an earlier one fails first, this one's failure is not an
 * unhandled rejection (which would stop the process); whoever awaits it still gets the error.
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

async function* mapPages<T, U>(pages: AsyncIterable<T[]>, map: (row: T) => U): AsyncGenerator<U[]> {
  for await (const page of pages) yield page.map(map);
}
