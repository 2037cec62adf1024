// Keeps an external SPARQL engine in step with the store (`entia sparql-sync`): loads it from the store, then
// follows the change feed. Every request is one SPARQL Update that writes some entities and, in the same
// request, where the sync stands (the feed cursor, or how far a load got) in the engine itself, as the Query
// Service keeps its `schema:dateModified`, so a sync killed at any moment goes on from what the engine holds:
// nothing lost, nothing applied twice. (An engine commits a request as one transaction; that Virtuoso does not
// roll back one it fails half-way is what `settle` below is for.)
//
// A killed sync's last request may still be running in the engine when the next sync starts, and commit after
// the next sync has read the engine. So every request is guarded by a token: its data is staged in scratch
// graphs unconditionally, then moved into place only if the engine's token is still the one this sync read, and
// the token changes with it; a request that lost the race changes nothing but its scratch graphs (removed in the
// same request), and the sync reads the engine again.
//
// The layout is the embedded mirror's (mirror-triples.ts), with what a second process cannot keep in memory
// written into the engine: each entity's own triples in its graph, with one `urn:entia:uses` triple for each
// value, reference or site node it uses; each shared node in a graph named by itself, so that writing it again
// changes nothing; a shared node goes when the last entity using it stops using it.
import type { EngineSetup } from './engine-protocol.js';
import { randomUUID } from 'node:crypto';
import { mirrorLayout, type MirrorLayout } from './mirror-triples.js';
import { readMirrorEntities } from './mirror.js';
import { RemoteRefused, RemoteTimeout, RemoteUnavailable, type RemoteEndpoint } from './remote-endpoint.js';
import { compareCursors, pagesById, type ChangeFeed, type EntityStore } from '../store/store.js';
import {
  entityWrite, onlyUsersQuery, readSyncState, remoteEntity, soleUseQuery, STATE_KEYS, syncRequest, usesQuery, type RemoteEntity, type SyncState,
  type SyncWrite,
} from './remote-updates.js';
// What other modules read of a sync: its state in the engine, and the requests (for the tests).
export { entityWrite, readSyncState, SYNC_GRAPH, syncRequest, type SyncState } from './remote-updates.js';

/**
 * Entities per update request, and the most triple text one request carries (a larger entity goes alone):
 * Virtuoso refuses a request over 10 MB, and form encoding makes the text up to three times longer.
 */
const BATCH = 50;
const MAX_REQUEST_CHARS = 2 << 20;
/** Nodes checked by one soleUseQuery. */
const SOLE_USE_CHUNK = 500;
/** Changes read from the feed at once, and how often an idle follower looks again. */
const PAGE = 500;
const TICK_MS = 250;

export type SyncStore = EntityStore & ChangeFeed;

/** The engine was filled for another flavour or other concept URIs: syncing into it would mix the two. */
export class SyncMismatch extends Error {}

export interface SyncOptions {
  log: (message: string) => void;
  /** Whether to stop (checked between requests: a request once sent is applied whole). */
  stopped?: () => boolean;
  /** How long the engine must be still before a sync goes on after one that did not stop cleanly. */
  settleMs: number;
}

/** The sync of one store into one engine. */
export class RemoteSync {
  private readonly layout: MirrorLayout;
  private state: SyncState = {};

  constructor(private readonly store: SyncStore, private readonly endpoint: RemoteEndpoint, private readonly setup: EngineSetup,
    private readonly options: SyncOptions) {
    this.layout = mirrorLayout(setup.vocabulary);
  }

  /** Reads where the engine stands, refusing an engine filled for another flavour or concept URI. */
  async open(): Promise<SyncState> {
    this.state = await readSyncState(this.endpoint);
    const mismatch = (this.state.flavor && this.state.flavor !== this.setup.flavor ? `the ${this.state.flavor} flavour` : null)
      ?? (this.state.conceptBase && this.state.conceptBase !== this.setup.vocabulary.conceptBase ? `concept URIs under ${this.state.conceptBase}` : null);
    if (mismatch) {
      throw new SyncMismatch(`the engine holds ${mismatch}, this store's sync writes the ${this.setup.flavor} flavour under `
        + `${this.setup.vocabulary.conceptBase}: empty the engine, or set ENTIA_SPARQL and ENTIA_CONCEPT_URI as they were`);
    }
    if (!this.state.token) {
      // A new engine: the first token (no earlier sync can have a request under way: it would hold one).
      await this.send(stateWrite({ token: randomUUID() }), false);
    }
    return this.state;
  }

  /**
   * Fills the engine from the store, going on from where an interrupted load stopped. The feed's head is noted
   * first, so that the changes made while the load runs are applied after it.
   */
  async load(): Promise<number> {
    if (this.state.cursor) return 0;
    if (!this.state.loading) {
      const head = await this.store.changesHead();
      await this.send(stateWrite({ loading: head, loadedUpTo: null, flavor: this.setup.flavor, conceptBase: this.setup.vocabulary.conceptBase }), false);
    }
    // Entities by id, then redirects by id (`~` sorts after every id: the entities are done).
    let done = 0;
    let lastLog = Date.now();
    const progress = (n: number) => {
      done += n;
      if (Date.now() - lastLog > 10_000) { lastLog = Date.now(); this.options.log(`loaded ${done} entities and redirects`); }
    };
    const upTo = this.state.loadedUpTo ?? null;
    if (upTo === null || !upTo.startsWith('~')) {
      for await (const ids of pagesById((after, limit) => this.store.entityIds(after, limit), (id) => id, BATCH, upTo)) {
        if (this.options.stopped?.()) return done;
        await this.writeLoadBatch(ids, ids[ids.length - 1]);
        progress(ids.length);
      }
    }
    const redirectsFrom = upTo?.startsWith('~') ? upTo.slice(1) || null : null;
    for await (const rows of pagesById((after, limit) => this.store.redirects(after, limit), (r) => r.id, BATCH, redirectsFrom)) {
      if (this.options.stopped?.()) return done;
      await this.writeLoadBatch(rows.map((r) => r.id), `~${rows[rows.length - 1].id}`);
      progress(rows.length);
    }
    await this.send(stateWrite({ cursor: this.state.loading!, loading: null, loadedUpTo: null }));
    return done;
  }

  /** Writes a page of the load in requests of at most MAX_REQUEST_CHARS, each saying how far the load got. */
  private async writeLoadBatch(ids: string[], upTo: string): Promise<void> {
    const entities = await this.prepare(ids);
    for (let i = 0; i < entities.length;) {
      const end = fitting(entities, i);
      const last = end === entities.length ? upTo : `${upTo.startsWith('~') ? '~' : ''}${entities[end - 1].id}`;
      await this.send({ ...await this.entityWrite(entities.slice(i, end)), state: { loadedUpTo: last } }, false);
      i = end;
    }
  }

  /** Applies every change the feed holds after the engine's cursor; the number of changes applied. */
  async catchUp(): Promise<number> {
    let applied = 0;
    for (;;) {
      const page = await this.store.changes({ since: this.state.cursor === '0' ? null : this.state.cursor!, limit: PAGE });
      if (page.length === 0 || this.options.stopped?.()) return applied;
      await this.applyPage(page);
      applied += page.length;
      if (page.length < PAGE) return applied;
    }
  }

  /**
   * Applies a page of changes: each entity it names written once, at its current state, in as many requests as
   * their size takes; the last request moves the cursor past the page. (Moving it with each request would
   * stop at the first change of an entity not yet written: edits of a few entities in turn would then rewrite
   * each of them once per request.) A sync stopped within a page writes the page again: the same state.
   */
  private async applyPage(page: readonly { cursor: string; entity: string; timestamp: Date }[]): Promise<void> {
    const ids = [...new Set(page.map((c) => c.entity))];
    const last = page[page.length - 1];
    for (let i = 0; i < ids.length; i += BATCH) {
      const entities = await this.prepare(ids.slice(i, i + BATCH));
      for (let j = 0; j < entities.length;) {
        const end = fitting(entities, j);
        const final = i + BATCH >= ids.length && end === entities.length;
        const write = await this.entityWrite(entities.slice(j, end));
        await this.send(final ? { ...write, state: { cursor: last.cursor }, modified: last.timestamp } : write);
        j = end;
      }
    }
  }

  /** Loads if needed, then follows the feed until stopped (or, with `once`, until it has caught up). */
  async run(once: boolean): Promise<void> {
    await this.open();
    await this.settle();
    await this.send(stateWrite({ running: randomUUID() }), false);
    for (;;) {
      try {
        await this.loadAndFollow(once);
        break;
      } catch (e) {
        if (!(e instanceof SyncOvertaken)) throw e;
        this.options.log(`${e.message}; going on from what it holds now`);
        await this.open();
      }
    }
    // A clean stop: the next run need not wait for a request of this one.
    await this.send(stateWrite({ running: null }), false);
  }

  /**
   * After a sync that did not stop cleanly (killed, crashed), waits until the engine has been still for the
   * settle time: its last request may still be running in the engine, and Virtuoso applies a request it cannot
   * finish (the client gone, a deadlock) in part, so nothing may overlap with it. Then removes the scratch
   * graphs such a request left.
   */
  private async settle(): Promise<void> {
    if (!this.state.running) return;
    this.options.log(`an earlier sync stopped without finishing; waiting until the engine has been still for ${this.options.settleMs / 1000} s`);
    // Compared whole, in one key order (an engine lists a graph's triples in any order).
    const snapshot = (state: SyncState) => JSON.stringify(STATE_KEYS.map((key) => state[key] ?? null));
    let before = snapshot(this.state);
    for (;;) {
      await new Promise((r) => setTimeout(r, this.options.settleMs));
      const now = snapshot(await readSyncState(this.endpoint));
      if (now === before) break;
      before = now;
    }
    await this.endpoint.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } FILTER (STRSTARTS(STR(?g), "urn:entia:staging:")) }');
    await this.open();
  }

  private async loadAndFollow(once: boolean): Promise<void> {
    if (!this.state.cursor) {
      this.options.log(this.state.loading ? `going on with the load after ${this.state.loadedUpTo ?? 'its start'}` : 'loading the store into the engine');
      const started = Date.now();
      const n = await this.load();
      if (this.options.stopped?.()) return;
      this.options.log(`loaded ${n} entities and redirects in ${((Date.now() - started) / 1000).toFixed(1)} s; following the change feed from ${this.state.cursor}`);
    }
    let lastLog = 0;
    let since = 0;
    while (!this.options.stopped?.()) {
      let applied: number;
      try {
        applied = await this.catchUp();
      } catch (e) {
        if (once || !transient(e)) throw e;
        // The engine is restarting or slow: a request that timed out may have been applied or not, so where
        // the sync stands is read from the engine again before going on.
        this.options.log(`the engine did not take the last changes (${(e as Error).message}); trying again in 5 s`);
        await new Promise((r) => setTimeout(r, 5000));
        await this.open().catch(() => {});
        continue;
      }
      since += applied;
      if (since > 0 && (once || Date.now() - lastLog > 10_000)) {
        this.options.log(`applied ${since} changes; the engine includes change ${this.state.cursor}`);
        lastLog = Date.now();
        since = 0;
      }
      if (once) return;
      if (applied === 0) await new Promise((r) => setTimeout(r, TICK_MS));
    }
  }

  /**
   * The operations writing these entities, with the shared nodes that only their old versions used removed. The
   * engine is read first, apart from the update: only this sync writes Entia's graphs (one sync per engine), so
   * nothing changes them in between.
   */
  private async entityWrite(entities: readonly RemoteEntity[]): Promise<SyncWrite> {
    const used = new Set(entities.flatMap((e) => [...e.shared.keys()]));
    const usersOf = new Map<string, string[]>();
    for (const row of await this.endpoint.selectRows(usesQuery(entities.map((e) => e.id)))) {
      if (used.has(row.node)) continue;
      usersOf.set(row.node, [...usersOf.get(row.node) ?? [], `<${row.user}>`]);
    }
    const unused: string[] = [];
    const sole = [...usersOf].filter(([, users]) => users.length === 1).map(([node, [user]]): [string, string] => [node, user]);
    for (let i = 0; i < sole.length; i += SOLE_USE_CHUNK) {
      for (const row of await this.endpoint.selectRows(soleUseQuery(sole.slice(i, i + SOLE_USE_CHUNK)))) unused.push(row.node);
    }
    for (const [node, users] of usersOf) {
      if (users.length > 1 && (await this.endpoint.selectRows(onlyUsersQuery(node, users))).length) unused.push(node);
    }
    return entityWrite(this.layout, entities, unused);
  }

  private async prepare(ids: readonly string[]): Promise<RemoteEntity[]> {
    return (await readMirrorEntities(this.store, ids)).map((entity) => remoteEntity(this.layout, this.setup, entity));
  }

  /**
   * Sends one request guarded by the token read last; then reads the engine to learn whether it applied (its
   * token is the new one) or lost to another writer (an earlier sync's last request, committed late).
   */
  private async send(write: SyncWrite, guarded = true): Promise<void> {
    const next = randomUUID();
    await this.endpoint.update(syncRequest(write, this.setup, guarded ? { token: this.state.token!, next, request: randomUUID() } : null));
    if (!guarded) {
      this.state = { ...this.state, ...Object.fromEntries(Object.entries(write.state).map(([k, v]) => [k, v ?? undefined])) };
      return;
    }
    const now = await readSyncState(this.endpoint);
    if (now.token !== next) {
      this.state = now;
      throw new SyncOvertaken('another writer changed the engine since this sync read it');
    }
    this.state = now;
  }
}

/** A request found the engine changed by another writer: nothing of it applied, and the engine is read again. */
export class SyncOvertaken extends Error {}

function stateWrite(state: SyncWrite['state']): SyncWrite {
  return { empty: [], own: new Map(), shared: [], state };
}

/** The end of the entities from `start` that one request carries: at least one, at most MAX_REQUEST_CHARS. */
function fitting(entities: readonly RemoteEntity[], start: number): number {
  let size = entities[start].size;
  let end = start + 1;
  while (end < entities.length && size + entities[end].size <= MAX_REQUEST_CHARS) size += entities[end++].size;
  return end;
}

function transient(e: unknown): boolean {
  return e instanceof RemoteUnavailable || e instanceof RemoteTimeout || (e instanceof RemoteRefused && e.status >= 500);
}

/** Whether the engine includes the change at `cursor`. */
export function includes(state: SyncState, cursor: string): boolean {
  return state.cursor !== undefined && compareCursors(state.cursor, cursor) >= 0;
}
