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
import type { EngineSetup, MirrorEntity } from './engine-protocol.js';
import { randomUUID } from 'node:crypto';
import { groupTriples, mirrorLayout, mirrorLines, type MirrorLayout } from './mirror-triples.js';
import { readMirrorEntities } from './mirror.js';
import { RemoteRefused, RemoteTimeout, RemoteUnavailable, type RemoteEndpoint } from './remote-endpoint.js';
import { compareCursors, pagesById, type ChangeFeed, type EntityStore } from '../store/store.js';

/** Entia's bookkeeping in the engine: one graph, one subject, one predicate per fact. */
export const SYNC_GRAPH = 'urn:entia:sparql-sync';
const USES = 'urn:entia:uses';
const STATE_KEYS = ['token', 'running', 'cursor', 'loading', 'loadedUpTo', 'flavor', 'conceptBase'] as const;
type StateKey = typeof STATE_KEYS[number];
export type SyncState = Partial<Record<StateKey, string>>;
const keyIri = (key: StateKey) => `urn:entia:${key}`;
const SCHEMA_DATE_MODIFIED = 'http://schema.org/dateModified';
const XSD_DATE_TIME = 'http://www.w3.org/2001/XMLSchema#dateTime';

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

const literal = (value: string) => JSON.stringify(value);
const usesSubject = (id: string) => `<urn:entia:uses:${id}>`;

/** The query that reads the sync's state from the engine. */
const STATE_QUERY = `SELECT ?key ?value WHERE { GRAPH <${SYNC_GRAPH}> { <${SYNC_GRAPH}> ?key ?value } }`;

export async function readSyncState(endpoint: RemoteEndpoint): Promise<SyncState> {
  const state: SyncState = {};
  for (const row of await endpoint.selectRows(STATE_QUERY)) {
    const key = STATE_KEYS.find((k) => keyIri(k) === row.key);
    if (key) state[key] = row.value;
  }
  return state;
}

/** One entity's triples laid out for the engine. */
export interface RemoteEntity {
  id: string;
  own: string[];
  shared: Map<string, string>;
  /** Characters of triple text: what the entity adds to a request. */
  size: number;
}

export function remoteEntity(layout: MirrorLayout, setup: EngineSetup, entity: MirrorEntity): RemoteEntity {
  const { own, shared } = groupTriples(layout, mirrorLines(entity, setup));
  let size = 0;
  for (const line of own) size += line.length;
  for (const lines of shared.values()) size += lines.length + 80;
  return { id: entity.id, own, shared, size };
}

/** The shared nodes these entities use as the engine holds them now, with who uses them. */
export function usesQuery(ids: readonly string[]): string {
  return `SELECT ?user ?node WHERE { VALUES ?user { ${ids.map(usesSubject).join(' ')} } ?user <${USES}> ?node }`;
}

/**
 * Of the nodes given with their one user, those no other entity uses. (NOT EXISTS stops at the first other
 * user: a node every item uses, as a site's root, costs no more than one used twice.)
 */
export function soleUseQuery(pairs: readonly [node: string, user: string][]): string {
  return `SELECT ?node WHERE { VALUES (?node ?user) { ${pairs.map(([node, user]) => `(<${node}> ${user})`).join(' ')} } `
    + `FILTER NOT EXISTS { ?other <${USES}> ?node FILTER (?other != ?user) } }`;
}

/** The node, if it has no user beyond these (several of the entities written together used it). */
export function onlyUsersQuery(node: string, users: readonly string[]): string {
  return `SELECT ?node WHERE { VALUES ?node { <${node}> } FILTER NOT EXISTS { ?other <${USES}> ?node FILTER (?other NOT IN (${users.join(', ')})) } }`;
}

/** What one request writes: graphs emptied, then each entity's own graph and the shared nodes, and state. */
export interface SyncWrite {
  /** Graphs emptied first: the entities' own, and the shared nodes no entity uses any more. */
  empty: string[];
  /** Each entity graph's triples (N-Triples lines). */
  own: Map<string, string[]>;
  /** The shared nodes' triples: each in the graph named by its subject. */
  shared: string[];
  /** Facts of the sync's state to set, or with null remove (the token only unguarded: a guard sets its own). */
  state: Partial<Record<StateKey, string | null>>;
  /** The time of the last change included, for `schema:dateModified`. */
  modified?: Date;
}

/** What writing these entities takes: `unused` are the shared nodes only their old versions used (RemoteSync.entityWrite). */
export function entityWrite(layout: MirrorLayout, entities: readonly RemoteEntity[], unused: readonly string[] = []): SyncWrite {
  const own = new Map<string, string[]>();
  const shared = new Map<string, string>();
  for (const entity of entities) {
    const uses = [...entity.shared.keys()].map((node) => `${usesSubject(entity.id)} <${USES}> <${node}> .`);
    own.set(layout.graphOf(entity.id), [...entity.own, ...uses]);
    for (const [node, lines] of entity.shared) shared.set(node, lines);
  }
  return { empty: [...own.keys(), ...unused], own, shared: [...shared.values()].flatMap((lines) => lines.trimEnd().split('\n')), state: {} };
}

/**
 * One request. Guarded (while following the feed): the data staged in scratch graphs named by `request`; then,
 * if the engine's token is `token`, the emptied graphs, the staged triples moved into place, the state set, and
 * the token changed to `next`; the scratch graphs removed whatever happened. Unguarded (while loading): written
 * in place. A load's request that commits late writes what was read after the load began, and following the
 * feed from there rewrites whatever changed since, so a load needs no guard and skips the staging's cost.
 */
export function syncRequest(write: SyncWrite, setup: EngineSetup, guard: { token: string; next: string; request: string } | null): string {
  const held = guard ? `GRAPH <${SYNC_GRAPH}> { <${SYNC_GRAPH}> <${keyIri('token')}> ${literal(guard.token)} }` : '';
  const stage = new StagedData(guard?.request ?? null);
  for (const [graph, lines] of write.own) stage.add(lines, graph);
  stage.add(write.shared, null);
  const ops: string[] = [];
  if (write.empty.length) {
    ops.push(`DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { ${held} VALUES ?g { ${write.empty.map((g) => `<${g}>`).join(' ')} } GRAPH ?g { ?s ?p ?o } }`);
  }
  ops.push(...stage.operations);
  // One move per scratch graph, its graphs named: Virtuoso 7.2 fails on a move that takes both from VALUES.
  for (const [staged, target] of stage.targets) {
    ops.push(`INSERT { GRAPH ${target === null ? '?s' : `<${target}>`} { ?s ?p ?o } } WHERE { ${held} GRAPH <${staged}> { ?s ?p ?o } }`);
  }
  const facts: [subject: string, predicate: string, value: string | null][] = Object.entries(write.state)
    .map(([key, value]) => [`<${SYNC_GRAPH}>`, `<${keyIri(key as StateKey)}>`, value === null ? null : literal(value!)]);
  // The Query Service's marker of how recent its data is: `<site> schema:dateModified` the last change's time.
  if (write.modified) {
    facts.push([`<${setup.vocabulary.conceptBase.replace(/\/entity\/$/, '')}>`, `<${SCHEMA_DATE_MODIFIED}>`,
      `${literal(write.modified.toISOString().replace(/\.\d+Z$/, 'Z'))}^^<${XSD_DATE_TIME}>`]);
  }
  for (const [subject, predicate, value] of facts) {
    ops.push(`DELETE { GRAPH <${SYNC_GRAPH}> { ${subject} ${predicate} ?old } } WHERE { ${held} GRAPH <${SYNC_GRAPH}> { ${subject} ${predicate} ?old } }`);
    if (value !== null) ops.push(`INSERT { GRAPH <${SYNC_GRAPH}> { ${subject} ${predicate} ${value} } } WHERE { ${held} }`);
  }
  if (!guard) return ops.join(' ;\n');
  ops.push(`DELETE { GRAPH <${SYNC_GRAPH}> { <${SYNC_GRAPH}> <${keyIri('token')}> ${literal(guard.token)} } } `
    + `INSERT { GRAPH <${SYNC_GRAPH}> { <${SYNC_GRAPH}> <${keyIri('token')}> ${literal(guard.next)} } } WHERE { ${held} }`);
  if (stage.targets.length) {
    ops.push(`DELETE { GRAPH ?stage { ?s ?p ?o } } WHERE { VALUES ?stage { ${stage.targets.map(([st]) => `<${st}>`).join(' ')} } GRAPH ?stage { ?s ?p ?o } }`);
  }
  return ops.join(' ;\n');
}

/**
 * Triples in INSERT DATA operations of at most STAGE_LINES triples each: engines parse an operation whole, and
 * Virtuoso's parser gives up at a few thousand triples ("memory exhausted"); the operations of one request still
 * commit together. Staged (a request name given): each operation fills a scratch graph that moves into one
 * target graph, or (null) each triple into the graph named by its subject. Unstaged: written in place.
 */
const STAGE_LINES = 1000;

class StagedData {
  readonly operations: string[] = [];
  readonly targets: [stage: string, target: string | null][] = [];

  constructor(private readonly request: string | null) {}

  add(lines: readonly string[], target: string | null): void {
    for (let i = 0; i < lines.length; i += STAGE_LINES) {
      const part = lines.slice(i, i + STAGE_LINES);
      if (this.request === null) {
        this.operations.push(`INSERT DATA {\n${target === null ? bySubject(part) : `GRAPH <${target}> {\n${part.join('\n')}\n}`}\n}`);
        continue;
      }
      const stage = `urn:entia:staging:${this.request}:${this.targets.length}`;
      this.targets.push([stage, target]);
      this.operations.push(`INSERT DATA { GRAPH <${stage}> {\n${part.join('\n')}\n} }`);
    }
  }
}

/** N-Triples lines each in the graph named by its subject. */
function bySubject(lines: readonly string[]): string {
  return lines.map((line) => `GRAPH ${line.slice(0, line.indexOf('>') + 1)} { ${line} }`).join('\n');
}

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
