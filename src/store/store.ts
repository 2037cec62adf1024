// The one storage interface. Every backend (sqlite/, postgres/) implements it and runs the same contract
// suite (test/store/). It is asynchronous so that a networked backend fits behind it unchanged.
// See docs/adr/0001-store-interface.md for why an edit is one call carrying its own policy checks.
import type { Entity, KindName } from '../domain/entity.js';

/** The validators of an entity's latest revision (REFERENCE §2.3). `modified` has one-second resolution. */
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

export interface EditMeta {
  /** Account name, or the client address for anonymous edits. */
  user: string;
  comment: string | null;
  tags: string[];
  bot: boolean;
}

/** Uniqueness rules the store enforces atomically with the write (REFERENCE §6.1, §6.4). */
export interface PolicyChecks {
  /** Items: languages whose label or description the edit sets; no other item may have the same pair. */
  labelDescriptionLanguages?: string[];
  /** Properties: languages whose label the edit sets; no other property may have the same label. */
  propertyLabelLanguages?: string[];
  /** Items: sites whose sitelink the edit sets; no other item may link the same (site, title). */
  sitelinkSites?: string[];
}

export type Violation =
  | { violation: 'item-label-description-duplicate'; language: string; conflictingId: string }
  | { violation: 'property-label-duplicate'; language: string; conflictingId: string }
  | { violation: 'sitelink-conflict'; siteId: string; conflictingId: string };

export interface EditInput {
  /** The entity as it will be stored (its id already allocated). */
  entity: Entity;
  /** The entity the edit was computed from, with its head; null for a creation. */
  previous: { entity: Entity; head: Head } | null;
  meta: EditMeta;
  checks: PolicyChecks;
}

/** The entity's head moved since `previous` was read: the caller re-reads and decides again. */
export class EditConflict extends Error {
  constructor(readonly entityId: string) {
    super(`concurrent edit of ${entityId}`);
  }
}

/** A uniqueness rule failed inside the transaction. Nothing was written. */
export class PolicyViolation extends Error {
  constructor(readonly detail: Violation) {
    super(detail.violation);
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
}

export interface Store {
  readEntity(id: string): Promise<ReadResult>;
  /** Hands out the next Q/P id. Committed on its own: an id is never handed out twice, even if the edit fails. */
  allocateId(kind: KindName): Promise<string>;
  /** Writes the entity, its index rows and its revision in one transaction; returns the new head. */
  applyEdit(edit: EditInput): Promise<Head>;
  /** Read-only check of the same rules applyEdit enforces, so callers can report violations in spec order. */
  findViolation(entity: Entity, checks: PolicyChecks): Promise<Violation | null>;
  /** The entity holding a statement, found through the statement index (case-insensitive id match). */
  statementSubject(statementId: string): Promise<{ subjectId: string; statementId: string } | null>;
  /** For each id that exists: its data type for properties, null for items. Missing ids are absent. */
  lookupEntities(ids: readonly string[]): Promise<Map<string, string | null>>;
  /**
   * Bulk load (import, benchmarks): writes entities that carry their own ids, each as a new revision with
   * `meta`, in large transactions; raises the id counters past the highest imported id. Existing entities
   * with the same id are replaced. Skips the data-policy checks: the source is trusted.
   */
  importEntities(entities: readonly Entity[], meta: EditMeta): Promise<void>;
  /** Newest first. */
  revisions(entityId: string, limit: number): Promise<RevisionRecord[]>;
  close(): Promise<void>;
}
