// The change feed as Wikimedia's `rdf_change` events (schema mediawiki/wikibase/entity/rdf_change/2.0.0), the
// stream Wikidata's Query Service updater publishes: each revision as the RDF it adds and removes. The triples
// are the SPARQL mirror's (mirror-triples.ts: blank nodes as skolem IRIs); the nodes entities share (values,
// references, sites' roots) are given apart, as the schema has them: `rdf_linked_shared_data` when this entity
// starts using one, `rdf_unlinked_shared_data` when it stops. A consumer adds the first and removes an unlinked
// node's triples when nothing else in its graph points at the node, as the Query Service's consumer does. Pure.
import { createHash } from 'node:crypto';
import type { RevisionContent } from '../store/store.js';
import type { EngineSetup } from './engine-protocol.js';
import { entityLines, groupTriples, mirrorLines, type MirrorLayout } from './mirror-triples.js';

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

/** One revision's triples: the entity's own, and each shared node's by its IRI; null when there is none. */
export type RevisionTriples = { own: Set<string>; shared: Map<string, string> } | null;

/** Characters of a revision's triples: what keeping them costs. */
export function triplesSize(triples: NonNullable<RevisionTriples>): number {
  let size = 0;
  for (const line of triples.own) size += line.length;
  for (const lines of triples.shared.values()) size += lines.length;
  return size;
}

/** One revision of one entity, with the revision before it (null: it is the first), as the feed gives it. */
export interface RevisionPair {
  cursor: string;
  entity: string;
  revision: number;
  timestamp: Date;
  before: RevisionTriples;
  after: RevisionTriples;
}

export function revisionTriples(layout: MirrorLayout, setup: EngineSetup, id: string, content: RevisionContent | null): RevisionTriples {
  if (!content) return null;
  const lines = content.kind === 'redirect' ? mirrorLines({ id, redirect: content.target }, setup) : entityLines(content.entity, content.head, setup);
  const { own, shared } = groupTriples(layout, lines);
  return { own: new Set(own), shared };
}

const NONE = { own: new Set<string>(), shared: new Map<string, string>() };

/** N-Triples lines (valid Turtle), or nothing when there are none. */
function turtle(lines: Iterable<string>): RdfData | undefined {
  const text = [...lines].join('\n');
  return text ? { data: `${text}\n`, mime_type: 'text/turtle' } : undefined;
}

/** A UUID derived from the change (the same event read twice is the same event). */
function eventId(cursor: string, entity: string): string {
  const hex = createHash('sha1').update(`${cursor} ${entity}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function rdfChangeEvent(pair: RevisionPair, domain: string): RdfChangeEvent {
  const before = pair.before ?? NONE;
  const after = pair.after ?? NONE;
  const operation: RdfChangeOperation = !pair.before ? 'import' : !pair.after ? 'delete' : 'diff';
  const dt = pair.timestamp.toISOString().replace(/\.\d+Z$/, 'Z');
  const id = eventId(pair.cursor, pair.entity);
  const event: RdfChangeEvent = {
    $schema: RDF_CHANGE_SCHEMA,
    meta: { stream: RDF_CHANGE_STREAM, domain, dt, id, request_id: id },
    dt, entity_id: pair.entity, operation, rev_id: pair.revision, sequence: 0, sequence_length: 1,
  };
  const added = turtle([...after.own].filter((t) => !before.own.has(t)));
  const deleted = turtle([...before.own].filter((t) => !after.own.has(t)));
  const linked = turtle([...after.shared].filter(([node]) => !before.shared.has(node)).map(([, lines]) => lines.trimEnd()));
  const unlinked = turtle([...before.shared].filter(([node]) => !after.shared.has(node)).map(([, lines]) => lines.trimEnd()));
  if (added) event.rdf_added_data = added;
  if (deleted) event.rdf_deleted_data = deleted;
  if (linked) event.rdf_linked_shared_data = linked;
  if (unlinked) event.rdf_unlinked_shared_data = unlinked;
  return event;
}
