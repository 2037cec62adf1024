// The RDF of one entity kept part by part (its head, each term, sitelink and statement: domain/rdf.ts's
// entityRdfParts), so that the next revision's difference is found by rendering only the parts that changed.
// A revision that edits one statement of a large item renders that statement, not the item twice (issue #33:
// an rdf_change follower should cost an edit little). Each triple and each shared node is counted by the parts
// that hold it: two statements with one value share a truthy triple and a value node, and the triple goes only
// when neither holds it. Pure.
import { sameJson, type Entity, type Statement } from '../domain/entity.js';
import { entityRdfParts, redirectTriple, type EntityRdfParts } from '../domain/rdf.js';
import { toWikidataClaim } from '../domain/wikidata-export.js';
import type { RevisionContent } from '../store/store.js';
import type { EngineSetup } from './engine-protocol.js';
import { groupTriples, type MirrorLayout } from './mirror-triples.js';

interface RenderedPart {
  /** What the part was rendered from (a term, a sitelink, a statement) and how (`tag`): the same renders the same. */
  from: unknown;
  tag: string;
  /** The last update that saw the part: one that did not has lost it. */
  generation: number;
  own: string[];
  /** Shared nodes (values, references, sites' roots) the part uses, each with its N-Triples. */
  shared: Map<string, string>;
}

/** What one revision adds and removes: own triples, and shared nodes (their lines) linked and unlinked. */
export interface RdfDelta {
  added: string[];
  deleted: string[];
  linked: string[];
  unlinked: string[];
}

/**
 * Visits each part of a revision: its key, what it is rendered from (`from`, a JSON value; `tag`, anything else
 * that changes its triples), and how to render it when those are new.
 */
type Visit = (key: string, from: unknown, tag: string, render: () => string[]) => void;

/**
 * Whether a part is rendered from the same as before. An edit derives its entity from the one before, so an
 * unchanged statement is the same object in both revisions (store/recent-writes.ts): compared in O(1). Parts
 * read from the store apart are compared value by value.
 */
function unchanged(held: RenderedPart, from: unknown, tag: string): boolean {
  return held.tag === tag && (held.from === from || sameJson(held.from, from));
}

/** The parts of one revision's content: an entity's head, terms, sitelinks and statements; a redirect's link. */
function visitParts(setup: EngineSetup, id: string, content: RevisionContent | null, visit: Visit): void {
  if (!content) return;
  if (content.kind === 'redirect') {
    const line = redirectTriple(setup.vocabulary, id, content.target);
    visit('redirect', line, '', () => [line]);
    return;
  }
  const { entity, head } = content;
  const modified = head.modified.toISOString().replace('.000Z', 'Z');
  const parts = entityRdfParts(id, { ...setup, revision: { id: head.revision, modified } });
  visit('head', entity.type, '', () => parts.head(entity.type));
  visit('version', `${head.revision} ${modified}`, '', () => parts.version());
  for (const [language, value] of Object.entries(entity.labels)) visit(`l ${language}`, value, '', () => parts.label(language, value));
  for (const [language, value] of Object.entries(entity.descriptions)) visit(`d ${language}`, value, '', () => parts.description(language, value));
  for (const [language, values] of Object.entries(entity.aliases)) visit(`a ${language}`, values, '', () => parts.alias(language, values));
  for (const [site, link] of Object.entries(entity.sitelinks ?? {})) visit(`s ${site}`, link, '', () => parts.sitelink(site, link));
  if (entity.data_type !== undefined) {
    const dataType = entity.data_type;
    visit('datatype', dataType, '', () => parts.components(dataType));
  }
  visitStatements(entity, parts, visit);
}

/** Each statement, keyed by its id (which holds a `$`, unlike the other parts' keys). */
function visitStatements(entity: Entity, parts: EntityRdfParts, visit: Visit): void {
  // Source details (an import's time zones) change how a statement's times are written: they are part of the
  // tag (one string per revision, compared in O(1) when an edit left them alone).
  const details = entity.source?.times ? detailsTag(entity.source.times) : '';
  const bestTag = `best ${details}`;
  for (const group of Object.values(entity.statements)) {
    const best = bestOf(group);
    for (const statement of group) {
      const isBest = best === null || best.has(statement);
      visit(statement.id, statement, isBest ? bestTag : details, () => {
        const claim = toWikidataClaim(statement, entity.source);
        return claim ? parts.claim(claim, isBest) : [];
      });
    }
  }
}

/** Source details as a tag, computed once per details object (they are frozen: an edit keeps the same object). */
const detailTags = new WeakMap<object, string>();
function detailsTag(times: object): string {
  let tag = detailTags.get(times);
  if (tag === undefined) {
    tag = JSON.stringify(times);
    detailTags.set(times, tag);
  }
  return tag;
}

/**
 * A property's best statements: the preferred ones, else the normal ones (as domain/rdf.ts decides them); null
 * when every statement is best (all of one rank, not deprecated), the common case, with no set to build.
 */
function bestOf(group: readonly Statement[]): Set<Statement> | null {
  const rank = group[0]?.rank;
  if (rank !== 'deprecated' && group.every((s) => s.rank === rank)) return null;
  const preferred = group.filter((s) => s.rank === 'preferred');
  return new Set(preferred.length ? preferred : group.filter((s) => s.rank === 'normal'));
}

/** Counts of each own triple and each shared node over the parts held, and each part's rendering. */
export class EntityRdf {
  private readonly parts = new Map<string, RenderedPart>();
  private readonly own = new Map<string, number>();
  private readonly shared = new Map<string, { lines: string; count: number }>();
  /** Characters held: what keeping this costs. */
  size = 0;
  private generation = 0;

  constructor(private readonly layout: MirrorLayout, private readonly setup: EngineSetup, private readonly id: string) {}

  /** Moves to `content` (null: the entity is gone) and says what that added and removed. */
  update(content: RevisionContent | null): RdfDelta {
    const ownWas = new Map<string, boolean>();
    const sharedWas = new Map<string, string | undefined>();
    const generation = ++this.generation;
    visitParts(this.setup, this.id, content, (key, from, tag, render) => {
      const held = this.parts.get(key);
      if (held && unchanged(held, from, tag)) {
        held.from = from; // the newer object: the next revision most likely shares it
        held.generation = generation;
        return;
      }
      const { own, shared } = groupTriples(this.layout, render());
      if (held) this.count(held, -1, ownWas, sharedWas);
      const part = { from, tag, own, shared, generation };
      this.parts.set(key, part);
      this.count(part, 1, ownWas, sharedWas);
    });
    for (const [key, part] of this.parts) {
      if (part.generation === generation) continue;
      this.count(part, -1, ownWas, sharedWas);
      this.parts.delete(key);
    }
    return this.delta(ownWas, sharedWas);
  }

  /** Adds (+1) or removes (-1) a part's triples and nodes, noting what each was before its first change. */
  private count(part: RenderedPart, by: 1 | -1, ownWas: Map<string, boolean>, sharedWas: Map<string, string | undefined>): void {
    for (const line of part.own) {
      const n = this.own.get(line) ?? 0;
      if (!ownWas.has(line)) ownWas.set(line, n > 0);
      if (n + by > 0) this.own.set(line, n + by);
      else this.own.delete(line);
      if (n === 0 || n + by === 0) this.size += by * line.length;
    }
    for (const [node, lines] of part.shared) {
      const held = this.shared.get(node);
      if (!sharedWas.has(node)) sharedWas.set(node, held?.lines);
      const n = (held?.count ?? 0) + by;
      if (n > 0) this.shared.set(node, { lines: held?.lines ?? lines, count: n });
      else this.shared.delete(node);
      if (!held || n === 0) this.size += by * lines.length;
    }
  }

  private delta(ownWas: Map<string, boolean>, sharedWas: Map<string, string | undefined>): RdfDelta {
    const delta: RdfDelta = { added: [], deleted: [], linked: [], unlinked: [] };
    for (const [line, was] of ownWas) {
      const is = this.own.has(line);
      if (is && !was) delta.added.push(line);
      else if (!is && was) delta.deleted.push(line);
    }
    for (const [node, was] of sharedWas) {
      const is = this.shared.get(node);
      if (is && was === undefined) delta.linked.push(is.lines.trimEnd());
      else if (!is && was !== undefined) delta.unlinked.push(was.trimEnd());
    }
    return delta;
  }
}
