// The one storage interface. Every backend (sqlite/, postgres/) implements it and runs the same contract
// suite (test/store/). It is asynchronous so that a networked backend fits behind it unchanged.
// See docs/adr/0001-store-interface.md for why an edit is one call carrying its own policy checks.
import type { Entity, KindName } from '../domain/entity.js';
import type { SearchHit } from '../search/hits.js';
import type { StatementCondition } from '../domain/statement-values.js';
import type { PolicyChecks, UniquenessViolation } from '../domain/policy.js';
import type { AccountStore } from './accounts.js';
import type { BuildStep, ImportExtras, ImportState, LocalIdStart } from './import-records.js';
import type { StoreProbe, StoreStatistics } from './probe.js';

export { LOCAL_ID_START_KEY, type BuildStep, type ImportExtras, type ImportState, type LocalIdStart } from './import-records.js';
export type { StoreProbe, StoreStatistics } from './probe.js';

// The data policy's types are the domain's; a store answers its queries (PolicyLookup) inside each edit.
export { PolicyViolation, type PolicyChecks, type PolicyQuery, type UniquenessViolation } from '../domain/policy.js';

export type { SearchHit };
// Accounts, and walking pages of the feed or of ids, have files of their own.
export { USER_GROUPS, type Account, type AccountStore, type UserGroup } from './accounts.js';
export { compareCursors, pagesById } from './paging.js';

/** The validators of an entity's latest revision (docs/api.md §2.3). `modified` has one-second resolution. */
export interface Head {
  revision: number;
  modified: Date;
}

/**
 * A found entity may be shared: a backend may cache it and hand the same deeply frozen object (domain/entity.ts
 * freezeJson) to every reader of that revision. Callers build changed copies and never edit it in place.
 */
export type ReadResult =
  | { status: 'found'; entity: Entity; head: Head }
  | { status: 'redirect'; target: string }
  | { status: 'missing' };

/**
 * The same read without parsing: the head revision's document as stored (JSON text), fetched only when
 * `json()` is called, so that a reader already holding what it derives from that revision skips it.
 */
export type DocumentRead =
  | { status: 'found'; head: Head; json: () => string }
  | { status: 'redirect'; target: string }
  | { status: 'missing' };

export type ReadPurpose = 'read' | 'edit';

export interface EditMeta {
  /** Account name, or the client address for anonymous edits. */
  user: string;
  comment: string | null;
  tags: string[];
  bot: boolean;
  /** What the change feed calls a revision that is neither a creation nor a plain edit. */
  action?: 'revert' | 'redirect';
}

/** One entry of the change feed (docs/api.md §10.10). */
export interface Change {
  /** Opaque, and valid forever: the position of this revision in the store's commit order. */
  cursor: string;
  entity: string;
  type: 'create' | 'edit' | 'redirect' | 'revert';
  revision: number;
  /**
   * The entity's revision before this one (null for its first), read with the page: an rdf_change follower
   * compares the two, and asking for it per change cost a query each.
   */
  previous: number | null;
  timestamp: Date;
  user: string;
  comment: string | null;
}

export interface ChangeQuery {
  /** A cursor of an earlier page, or null for the first change. */
  since: string | null;
  limit: number;
  entities?: readonly string[];
  kinds?: readonly KindName[];
  /** Newest first: the changes before `since` (null: from the latest), for people reading what happened lately. */
  newestFirst?: boolean;
  /** Only the revisions of these users (account names or addresses, as recorded). */
  users?: readonly string[];
  /** false: leave bot edits out; true: only them. */
  bot?: boolean;
}

export interface EditInput {
  /** The entity as it will be stored (its id already allocated). */
  entity: Entity;
  /** The entity the edit was computed from, with its head; null for a creation. */
  previous: { entity: Entity; head: Head } | null;
  meta: EditMeta;
  checks: PolicyChecks;
}

/**
 * A merge (docs/api.md §9.4): two edits committed together or not at all. The source is written first, so that
 * what it gives up (sitelinks, label and description pairs) is free when the target's policy checks run.
 */
export interface MergeInput {
  /** What is left of the source, against the source as read; `redirect`: it becomes a redirect to the target. */
  source: EditInput & { redirect: boolean };
  target: EditInput & { previous: NonNullable<EditInput['previous']> };
}

/**
 * A redirect the store refused, checked inside the transaction that would write it: the target is not an item
 * that exists and is not itself a redirect (two redirects sent at once must not make a cycle).
 */
export class RedirectRefused extends Error {
  constructor(readonly targetId: string, readonly reason: 'target-missing' | 'target-is-redirect' | 'target-not-item') {
    super(`${targetId}: ${reason}`);
  }
}

/** A `since` that is not a cursor of this store. */
export class InvalidCursor extends Error {}

/** The entity's head moved since `previous` was read: the caller re-reads and decides again. */
export class EditConflict extends Error {
  constructor(readonly entityId: string) {
    super(`concurrent edit of ${entityId}`);
  }
}

export interface RevisionRecord {
  revision: number;
  entityId: string;
  timestamp: Date;
  user: string;
  comment: string | null;
  tags: string[];
  bot: boolean;
  /** Bytes of the entity's JSON document after this revision. */
  size: number;
}

/** One revision of an entity as it was: its document, or the target for a revision that made it a redirect. */
export type RevisionContent =
  | { kind: 'entity'; entity: Entity; head: Head }
  | { kind: 'redirect'; target: string; head: Head };

/**
 * A search or suggest request (docs/api.md §10.7), already parsed by src/search/: the store answers it from its
 * search index with the shared ranking rules of src/search/rank.ts.
 */
export interface SearchQuery {
  kind: KindName;
  /** search: every word of q is a whole word of the term; suggest: the term starts with q. */
  mode: 'search' | 'suggest';
  /** q folded by search/text.ts `foldText`, and its words (`wordsOf`). */
  text: { folded: string; words: string[] };
  /** The numeric id q spells for this kind (`q42` → 42), tried first; null when q is no such id. */
  entityId: number | null;
  /** Languages searched and shown, in preference order: lang, its fallbacks, mul, en. */
  languages: string[];
  /** 0..500 */
  limit: number;
  offset: number;
  /** CirrusSearch's `haswbstatement:` keywords in q: every `all` must hold and no `none` (docs/api.md §10.7). */
  statements?: StatementFilter;
}

export interface StatementFilter {
  all: StatementCondition[];
  none: StatementCondition[];
}

/** Lookup by statement value (docs/api.md §10.12): a page of one kind's entities meeting every condition. */
export interface StatementLookup {
  kind: KindName;
  /** 1..MAX_CONDITIONS conditions, all of which must hold. */
  conditions: StatementCondition[];
  /** Numeric id of the last entity of the page before, or null for the first page. */
  after: number | null;
  limit: number;
}

/**
 * The statement-value index (ADR 0007): kept in each edit's transaction beside the other index rows, read in
 * entity-id order so that a page costs the same however deep into a large match it starts.
 */
export interface StatementValueIndex {
  /** Numeric ids, ascending, of the entities after `after` that meet every condition. */
  find(lookup: StatementLookup): Promise<number[]>;
  /** Whether one entity meets every condition of `filter.all` and none of `filter.none`. */
  holds(kind: KindName, entity: number, filter: StatementFilter): Promise<boolean>;
  /**
   * What links here: the entities with a statement whose value is the entity `target` (an id), items before
   * properties, each in id order after `after`, with the properties that link. Rows whose value only looks like
   * an id (a string property holding `Q42`) are included: the caller knows the data types.
   */
  linksTo(target: string, after: EntityNumber | null, limit: number): Promise<IncomingLink[]>;
}

/** An entity as the index tables hold it: its kind and the number of its id. */
export interface EntityNumber {
  kind: KindName;
  entity: number;
}

/** One entity that links to another, and the numbers of the properties whose values do. */
export interface IncomingLink extends EntityNumber {
  properties: number[];
}

/** One hit on a shared fixed-window counter. */
export interface CounterHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** When the current window ends. */
  resetAt: Date;
}

/** Entities and their revisions: reads, edits (each one atomic with its revision), ids, redirects, the
 * lookups validation and the data policy need. */
export interface EntityStore {
  /**
   * `purpose` 'edit': the caller reads the entity to replace its revision, so a backend that caches documents
   * need not keep this one (it would be stale once the edit commits, and only cost memory and collection).
   */
  readEntity(id: string, purpose?: ReadPurpose, atLeast?: number): Promise<ReadResult>;
  /** `atLeast`: a revision the client has seen; a backend reading from a lagging replica reads the primary instead. */
  readDocument(id: string, atLeast?: number): Promise<DocumentRead>;
  /** readDocument for many ids in one round trip (batch reads); ids that are neither entities nor redirects are absent. */
  readDocuments(ids: readonly string[]): Promise<Map<string, DocumentRead>>;
  /** The entity as it was after one of its revisions; null when the entity has no such revision. */
  readRevision(entityId: string, revision: number): Promise<RevisionContent | null>;
  /** The entity's revision just before `revision`, or null: what the change feed's readers compare it with. */
  revisionBefore(entityId: string, revision: number): Promise<number | null>;
  /** Newest first; `before`: only revisions older than that one (paging backwards through history). */
  revisions(entityId: string, limit: number, before?: number): Promise<RevisionRecord[]>;
  /** Ids of the entities the store holds (redirects left out), in id order after `after`: for exports. */
  entityIds(after: string | null, limit: number): Promise<string[]>;
  /** Numbers of the entities of one kind (redirects left out), ascending after `after`: for browsing lists. */
  entityNumbers(kind: KindName, after: number | null, limit: number): Promise<number[]>;
  /** The redirects the store holds, as source and target, in source id order after `after`: for exports. */
  redirects(after: string | null, limit: number): Promise<{ id: string; target: string }[]>;
  /** Hands out the next Q/P id. Committed on its own: an id is never handed out twice, even if the edit fails. */
  allocateId(kind: KindName): Promise<string>;
  /**
   * Writes the entity, its index rows and its revision atomically; returns the new head once they are committed.
   * A backend may commit several concurrent edits in one transaction (SQLite: group commit), each still all or
   * nothing on its own.
   */
  applyEdit(edit: EditInput): Promise<Head>;
  /**
   * Runs `task` while no other task given for the same entity runs, in any process using this store. The HTTP
   * layer re-runs an edit that lost the compare-and-set inside it, so that edits crowding one entity take turns
   * instead of colliding again until their retries run out (ADR 0002).
   */
  inTurn<T>(entityId: string, task: () => Promise<T>): Promise<T>;
  /** Read-only check of the same rules applyEdit enforces, so callers can report violations in spec order. */
  findViolation(entity: Entity, checks: PolicyChecks): Promise<UniquenessViolation | null>;
  /** For each id that exists: its data type for properties, null for items. Missing ids are absent. */
  lookupEntities(ids: readonly string[]): Promise<Map<string, string | null>>;
  /**
   * Turns an item into a redirect to another item, as a merge does (docs/api.md §9.1): its index rows are
   * dropped (its sitelinks free, its terms no longer found) and a revision records the redirect. The source
   * need not exist yet (imported redirects). The target must be an existing item that is not a redirect.
   */
  redirectEntity(sourceId: string, targetId: string, meta: EditMeta): Promise<void>;
  /**
   * Writes both halves of a merge in one transaction: the source's revision (a redirect, or what an ignored
   * conflict left of it), then the target's. Each half is compare-and-set against the head it was read at
   * (EditConflict) and the target's policy checks run after the source is written (PolicyViolation).
   */
  applyMerge(merge: MergeInput): Promise<{ source: Head; target: Head }>;
}

/** Every committed revision, in commit order (docs/api.md §10.10, ADR 0006). */
export interface ChangeFeed {
  /**
   * Revisions in commit order after `since`: every committed revision exactly once, across pages, processes and
   * concurrent writers. Throws InvalidCursor for a cursor this store never handed out.
   */
  changes(query: ChangeQuery): Promise<Change[]>;
  /** The cursor after the last change committed so far (`0` for an empty store): where "from now on" starts. */
  changesHead(): Promise<string>;
  /**
   * The cursor of the newest change committed so far, which `changes` may not hand out yet (PostgreSQL hands a
   * change out once every transaction that began before it has ended): a follower that has passed it has seen
   * every write committed before this call, the caller's own included.
   */
  changesCommitted(): Promise<string>;
}

/** Search and suggest over labels and aliases (ADR 0003); lookup by statement value is `statementValues`. */
export interface SearchIndex {
  /** Entries offset .. offset+limit of the ranked matches; each entity at most once. */
  search(query: SearchQuery): Promise<SearchHit[]>;
  /** Lookup by statement value. */
  readonly statementValues: StatementValueIndex;
}

/** Fixed-window counters shared by every process using the store: rate limits without another service. */
export interface Counters {
  /**
   * Counts a hit on `key` in a fixed window of `windowSeconds` that starts with the key's first hit, shared by
   * every process using this store: rate limits across workers without another service (issue #9).
   */
  countHit(key: string, windowSeconds: number): Promise<CounterHit>;
}

/** Bulk load: `entia import` and the benchmarks (ADR 0008). */
export interface BulkImport {
  /**
   * Bulk load (import, benchmarks): writes entities that carry their own ids, each as a new revision with
   * `meta`, in large transactions; raises the id counters past the highest imported id. Existing entities
   * with the same id are replaced. Skips the data-policy checks: the source is trusted.
   */
  importEntities(entities: readonly Entity[], meta: EditMeta, extras?: ImportExtras): Promise<void>;
  /**
   * Ends an import: builds whatever index rows its importEntities calls left to the end (a store opened with
   * `deferIndexes`, ADR 0008), with the steps reported to `onStep`. Until then, search and lookups by value do
   * not see the imported entities. A no-op where nothing was deferred.
   */
  finishImport(onStep?: (step: BuildStep) => void): Promise<void>;
  /** Entities an import wrote whose search, term and value rows wait for finishImport. */
  unindexedCount(): Promise<number>;
  /** For `entia import --mode`: what the store holds of these ids, and what an earlier import wrote. */
  importStates(ids: readonly string[]): Promise<Map<string, ImportState>>;
  /** The item holding each (site, title) that some item links, keyed `site + "\u0000" + title`. */
  sitelinkOwners(links: readonly (readonly [site: string, title: string])[]): Promise<Map<string, string>>;
  /**
   * The first id of each kind that creations take in a store that imports from a source (README, "Local ids"):
   * decided once, by the first import, which stores `proposed` when nothing is stored and raises the id
   * counters to just below it, so that local ids never take ids the source will use. Returns what is stored.
   */
  localIdStart(proposed: LocalIdStart): Promise<LocalIdStart>;
  /** The checkpoint an importEntities call saved under `key`, or null. */
  importCheckpoint(key: string): Promise<string | null>;
  clearImportCheckpoint(key: string): Promise<void>;
  /** Batches prepared on other threads (`entia import --threads`). */
  readonly packedImports: PackedImports;
}

/**
 * Batches prepared on other threads: each slice of entities packed there by the store's packer
 * (src/store/sqlite/prepared-import.ts, src/store/postgres/packed-import.ts), which serialises the documents
 * and derives their rows, so that the importing thread only passes bytes on (ADR 0022).
 */
export interface PackedImports {
  /** Which packer the reading threads run for this store: SQLite's packImportSlice or PostgreSQL's packPostgresSlice. */
  readonly packer: 'sqlite' | 'postgres';
  /** Pack slices for a deferred index build (ADR 0008): packImportSlice's second argument. */
  readonly deferIndexes: boolean;
  /**
   * importEntities for packed slices: the slices, in the order given, then `entities` (prepared here), all as
   * one transaction. A slice that fails to arrive rolls the whole batch back.
   */
  importPacked(slices: readonly Promise<Uint8Array>[], entities: readonly Entity[], meta: EditMeta, extras?: ImportExtras): Promise<void>;
}

/** Health, read routing and closing. */
export interface StoreLifecycle {
  /**
   * One round trip to the database (GET /ready), with the figures GET /metrics reports; rejects when the
   * database cannot be reached. Migrations run when a store opens, so an open store has its schema.
   */
  probe(): Promise<StoreProbe>;
  /** Counts for GET /metrics; SQLite reads counters kept by triggers, PostgreSQL counts (cache the result). */
  statistics(): Promise<StoreStatistics>;
  /**
   * The store as GET requests should use it: on PostgreSQL with ENTIA_DB_REPLICAS, entities, history, search
   * and lookups read from the replicas (never older than what this process wrote or served); otherwise itself.
   */
  forReads?(): Store;
  close(): Promise<void>;
}

/** A revision this process wrote, with the entity and revision it was computed from (null: a creation). */
export interface WrittenRevision {
  entity: Entity;
  head: Head;
  /** What the edit started from: the entity at the revision before, and that revision's head. */
  base: { entity: Entity; head: Head } | null;
}

/** Word of this process's own commits, as they happen (a follower of the feed need not wait for its next poll). */
export interface CommitWatch {
  /** `listener` is called after each edit, merge or redirect this process commits; returns how to stop. */
  watchCommits(listener: () => void): () => void;
  /**
   * A revision of an entity this process just wrote, while it still holds it (store/recent-writes.ts), with the
   * entity the edit started from: what the edit left alone is the same object in both, so a reader finds what
   * it changed by identity. Undefined for another process's revision, or one no longer held.
   */
  writtenRevision(entityId: string, revision: number): WrittenRevision | undefined;
}

/**
 * A whole store, as the server and the CLI open it: the named parts above, each with its own contract suite
 * (test/store/contract/), plus accounts (users, tokens, protection). Code that needs one part asks for that part.
 */
export interface Store extends EntityStore, ChangeFeed, CommitWatch, SearchIndex, Counters, BulkImport, StoreLifecycle {
  /** Users, tokens and protection (issue #7). */
  readonly accounts: AccountStore;
}

