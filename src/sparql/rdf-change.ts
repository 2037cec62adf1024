// The change feed as Wikimedia's `rdf_change` events (schema mediawiki/wikibase/entity/rdf_change/2.0.0), the
// stream Wikidata's Query Service updater publishes: each revision as the RDF it adds and removes. The triples
// are the SPARQL mirror's (mirror-triples.ts: blank nodes as skolem IRIs), found part by part (rdf-diff.ts);
// the nodes entities share (values, references, sites' roots) are given apart, as the schema has them: `rdf_linked_shared_data` when this entity
// starts using one, `rdf_unlinked_shared_data` when it stops. A consumer adds the first and removes an unlinked
// node's triples when nothing else in its graph points at the node, as the Query Service's consumer does. Pure.
import { hash } from 'node:crypto';
import type { RdfDelta } from './rdf-diff.js';

export const RDF_CHANGE_SCHEMA = '/mediawiki/wikibase/entity/rdf_change/2.0.0';
/** The stream Wikidata's updater writes these events to. */
export const RDF_CHANGE_STREAM = 'rdf-streaming-updater.mutation';

export type RdfChangeOperation = 'import' | 'diff' | 'delete';

interface RdfData { data: string; mime_type: 'text/turtle' }

export interface RdfChangeEvent {
  $schema: string;
  meta: { stream: string; domain: string; dt: string; id: string; request_id: string };
  dt: string;
  entity_id: string;
  operation: RdfChangeOperation;
  rev_id: number;
  sequence: number;
  sequence_length: number;
  rdf_added_data?: RdfData;
  rdf_deleted_data?: RdfData;
  rdf_linked_shared_data?: RdfData;
  rdf_unlinked_shared_data?: RdfData;
}

/** One change of the feed, as an event names it. */
export interface ChangeOfEntity {
  cursor: string;
  entity: string;
  revision: number;
  timestamp: Date;
}

/** N-Triples lines (valid Turtle), or nothing when there are none. */
function turtle(lines: readonly string[]): RdfData | undefined {
  const text = lines.join('\n');
  return text ? { data: `${text}\n`, mime_type: 'text/turtle' } : undefined;
}

/** A UUID derived from the change (the same event read twice is the same event). */
function eventId(cursor: string, entity: string): string {
  const hex = hash('sha1', `${cursor} ${entity}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `operation`: `import` for an entity's first revision, `delete` when it is gone, `diff` otherwise. */
export function rdfChangeEvent(change: ChangeOfEntity, operation: RdfChangeOperation, delta: RdfDelta, domain: string): RdfChangeEvent {
  const dt = change.timestamp.toISOString().replace(/\.\d+Z$/, 'Z');
  const id = eventId(change.cursor, change.entity);
  const event: RdfChangeEvent = {
    $schema: RDF_CHANGE_SCHEMA,
    meta: { stream: RDF_CHANGE_STREAM, domain, dt, id, request_id: id },
    dt, entity_id: change.entity, operation, rev_id: change.revision, sequence: 0, sequence_length: 1,
  };
  // An entity's first rendering may name a line twice (rdf-diff.ts); an event names each once.
  const added = turtle([...new Set(delta.added)]);
  const deleted = turtle(delta.deleted);
  const linked = turtle(delta.linked);
  const unlinked = turtle(delta.unlinked);
  if (added) event.rdf_added_data = added;
  if (deleted) event.rdf_deleted_data = deleted;
  if (linked) event.rdf_linked_shared_data = linked;
  if (unlinked) event.rdf_unlinked_shared_data = unlinked;
  return event;
}

/** The characters of RDF an event holds: about what it weighs written out. */
export function rdfChangeSize(event: RdfChangeEvent): number {
  return (event.rdf_added_data?.data.length ?? 0) + (event.rdf_deleted_data?.data.length ?? 0)
    + (event.rdf_linked_shared_data?.data.length ?? 0) + (event.rdf_unlinked_shared_data?.data.length ?? 0);
}
