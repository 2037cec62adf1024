// The SPARQL Update requests `entia sparql-sync` sends (remote-sync.ts), and the queries that read what an
// engine holds: where the sync stands, which shared nodes each entity uses, which of them only it uses. Each
// request writes entities and the sync's state together, guarded by the token (remote-sync.ts says why).
import type { EngineSetup, MirrorEntity } from './engine-protocol.js';
import { mirrorTriples, type MirrorLayout } from './mirror-triples.js';
import { type RemoteEndpoint } from './remote-endpoint.js';

/** Entia's bookkeeping in the engine: one graph, one subject, one predicate per fact. */
export const SYNC_GRAPH = 'urn:entia:sparql-sync';
const USES = 'urn:entia:uses';
export const STATE_KEYS = ['token', 'running', 'cursor', 'loading', 'loadedUpTo', 'flavor', 'conceptBase'] as const;
type StateKey = typeof STATE_KEYS[number];
export type SyncState = Partial<Record<StateKey, string>>;
const keyIri = (key: StateKey) => `urn:entia:${key}`;
const SCHEMA_DATE_MODIFIED = 'http://schema.org/dateModified';
const XSD_DATE_TIME = 'http://www.w3.org/2001/XMLSchema#dateTime';

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

/** The sync's state as N-Quads lines in its graph: how a dump for the engine's bulk loader (remote-dump.ts) says it. */
export function stateQuads(state: SyncState): string[] {
  return Object.entries(state).map(([key, value]) => `<${SYNC_GRAPH}> <${keyIri(key as StateKey)}> ${literal(value!)} <${SYNC_GRAPH}> .`);
}

/** One entity's triples laid out for the engine. */
export interface RemoteEntity {
  id: string;
  own: readonly string[];
  shared: ReadonlyMap<string, string>;
  /** Characters of triple text: what the entity adds to a request. */
  size: number;
}

export function remoteEntity(layout: MirrorLayout, setup: EngineSetup, entity: MirrorEntity): RemoteEntity {
  const { own, shared } = mirrorTriples(entity, setup);
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

/** An entity graph's lines: its own triples, and one `uses` triple for each shared node it uses. */
export function ownGraphLines(entity: RemoteEntity): string[] {
  return [...entity.own, ...[...entity.shared.keys()].map((node) => `${usesSubject(entity.id)} <${USES}> <${node}> .`)];
}

/** What writing these entities takes: `unused` are the shared nodes only their old versions used (RemoteSync.entityWrite). */
export function entityWrite(layout: MirrorLayout, entities: readonly RemoteEntity[], unused: readonly string[] = []): SyncWrite {
  const own = new Map<string, string[]>();
  const shared = new Map<string, string>();
  for (const entity of entities) {
    own.set(layout.graphOf(entity.id), ownGraphLines(entity));
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
