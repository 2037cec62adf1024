// The RDF of one entity kept part by part (its head, each term, sitelink and statement: domain/rdf.ts's
// entityRdfParts), in sections (the labels, one property's statements, …), so that the next revision's
// difference is found by visiting only the sections that changed and rendering only their parts that changed.
// A revision that edits one statement of a large item renders that statement, not the item twice (issue #33:
// an rdf_change follower should cost an edit little). Each triple and each shared node is counted by the parts
// that hold it: two statements with one value share a truthy triple and a value node, and the triple goes only
// when neither holds it. Pure.
import { sameJson, type Entity, type Statement } from '../domain/entity.js';
import { entityRdfParts, redirectTriple, type EntityRdfParts, type PartTriples } from '../domain/rdf.js';
import { toWikidataClaim } from '../domain/wikidata-export.js';
import type { Head, RevisionContent } from '../store/store.js';
import type { EngineSetup } from './engine-protocol.js';
import type { MirrorLayout } from './mirror-triples.js';

interface RenderedPart {
  /** What the part was rendered from (a term, a sitelink, a statement) and how (`tag`): the same renders the same. */
  from: unknown;
  tag: string;
  /** The last update that saw the part: one that did not has lost it. */
  generation: number;
  /** Lines no other part states (Graph.own): added and removed with the part, never counted. */
  own: readonly string[];
  /** Lines other parts may state too (Graph.common: truthy triples), counted across the parts. */
  common: readonly string[];
  /** Shared nodes (values, references, sites' roots) the part uses, each with its N-Triples. */
  shared: ReadonlyMap<string, string>;
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
 * that changes its triples), and how to render it from those when they are new (one function for all the parts
 * of a section: no closure per part, since every update visits every part of the sections that changed).
 */
type Visit = <T>(key: string, from: T, tag: string, render: (key: string, from: T, tag: string) => PartTriples) => void;

/**
 * Visits each section of a revision: a group of parts an edit changes together or leaves alone (the labels,
 * the sitelinks, one property's statements, …), with what the whole section is rendered from. An edit derives
 * its entity from the one before, so a section it left alone is the same object in both revisions
 * (store/recent-writes.ts): skipped whole, and an edit of one statement costs that property's statements, not
 * the entity's.
 */
type VisitSection = (key: string, from: unknown, tag: string, parts: VisitParts) => void;

/**
 * Visits a section's parts. `before`: what the section was last rendered from (nothing at a first rendering). A
 * section may visit only the parts that changed since `before` and answer `true`: those it does not visit stay
 * as they are (without it, every part is visited, and those not visited are gone).
 */
type VisitParts = (visit: Visit, before?: unknown) => boolean | void;

/**
 * Whether a part is rendered from the same as before: the same object (an edit's unchanged statement), else the
 * same value (parts read from the store apart).
 */
function unchanged(held: RenderedPart, from: unknown, tag: string): boolean {
  return held.tag === tag && (held.from === from || sameJson(held.from, from));
}

/**
 * Visits a group of sections (every property's statements) with what the whole group is rendered from: an update
 * that finds the group as it held it leaves its sections alone without visiting them (an edit of a label keeps
 * the entity's statements object, and a Wikidata-sized item has dozens of properties).
 */
type VisitGroup = (key: string, from: unknown, tag: string, sections: () => void) => void;
const VISIT_EVERY_SECTION: VisitGroup = (_key, _from, _tag, sections) => sections();

/** The sections of one revision's content: an entity's head, terms, sitelinks and statements; a redirect's link. */
function visitSections(layout: MirrorLayout, setup: EngineSetup, id: string, content: RevisionContent | null, section: VisitSection,
  group: VisitGroup): void {
  if (!content) return;
  if (content.kind === 'redirect') {
    const line = redirectTriple(setup.vocabulary, id, content.target);
    section('redirect', line, '', (visit) => visit('redirect', line, '', () => ({ own: [line], shared: new Map() })));
    return;
  }
  const { entity, head } = content;
  const modified = head.modified.toISOString().replace('.000Z', 'Z');
  const parts = entityRdfParts(id, { vocabulary: setup.vocabulary, sites: setup.sites, flavor: setup.flavor, skolemBase: layout.genidBase,
    revision: { id: head.revision, modified } });
  const one = <T>(key: string, from: T, render: (key: string, from: T) => PartTriples) => section(key, from, '', (visit) => visit(key, from, '', render));
  /** A section of one part per key of a record (the labels by language, the sitelinks by site). */
  const each = <T>(key: string, record: Record<string, T>, render: (key: string, from: T) => PartTriples) => section(key, record, '', (visit) => {
    for (const [partKey, from] of Object.entries(record)) visit(partKey, from, '', render);
  });
  one('head', entity.type, (_, type) => parts.head(type));
  one('version', `${head.revision} ${modified}`, () => parts.version());
  each('labels', entity.labels, parts.label);
  each('descriptions', entity.descriptions, parts.description);
  each('aliases', entity.aliases, parts.alias);
  if (entity.sitelinks) each('sitelinks', entity.sitelinks, parts.sitelink);
  if (entity.data_type !== undefined) one('datatype', entity.data_type, (_, dataType) => parts.components(dataType));
  // Source details (an import's time zones) change how a statement's times are written: they are part of the
  // tag (one string per revision, compared in O(1) when an edit left them alone).
  const details = entity.source?.times ? detailsTag(entity.source.times) : '';
  group('statements', entity.statements, details, () => visitStatements(entity, parts, section, details));
}

const NO_TRIPLES: PartTriples = { own: [], shared: new Map() };

/** Each property's statements, a section keyed by the property (a `$`-free id, unlike statements' own keys). */
function visitStatements(entity: Entity, parts: EntityRdfParts, section: VisitSection, details: string): void {
  const bestTag = `best ${details}`;
  const render = (_: string, statement: Statement, tag: string) => {
    const claim = toWikidataClaim(statement, entity.source, { hashes: false });
    return claim ? parts.claim(claim, tag === bestTag) : NO_TRIPLES;
  };
  for (const [property, group] of Object.entries(entity.statements)) {
    section(`P ${property}`, group, details, (visit, before) => {
      const best = bestOf(group);
      const tag = (statement: Statement) => best === null || best.has(statement) ? bestTag : details;
      if (sameSlots(before, group)) {
        // An edit of some statements of a property keeps the others' objects: only the new ones are visited.
        for (let i = 0; i < group.length; i++) if (group[i] !== before[i]) visit(group[i].id, group[i], tag(group[i]), render);
        return true;
      }
      for (const statement of group) visit(statement.id, statement, tag(statement), render);
    });
  }
}

/**
 * Whether `group` holds, in each place, the statement `before` held there or one of the same id and rank: then
 * no statement came or went, and each keeps whether it is best (bestOf follows the ranks), so the statements
 * left as they were need no visit. An edit of one statement of a property with hundreds (a country's
 * "contains") visited them all.
 */
function sameSlots(before: unknown, group: readonly Statement[]): before is readonly Statement[] {
  if (!Array.isArray(before) || before.length !== group.length) return false;
  for (let i = 0; i < group.length; i++) {
    const was = before[i] as Statement;
    if (was !== group[i] && (was.id !== group[i].id || was.rank !== group[i].rank)) return false;
  }
  return true;
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
  let oneRank = rank !== 'deprecated';
  for (let i = 1; oneRank && i < group.length; i++) oneRank = group[i].rank === rank;
  if (oneRank) return null;
  const preferred = group.filter((s) => s.rank === 'preferred');
  return new Set(preferred.length ? preferred : group.filter((s) => s.rank === 'normal'));
}

/** A section as last rendered: what it was rendered from, and its parts by key. */
interface RenderedSection {
  from: unknown;
  tag: string;
  generation: number;
  parts: Map<string, RenderedPart>;
  /** Set while the section is held unrendered (`holdUnrendered`): how to render its parts when they are needed. */
  unrendered: VisitParts | null;
  /** The group of sections it belongs to (VisitGroup), if any. */
  group: string | null;
}

/**
 * Each part's rendering, and counts of what parts may state together: the truthy triples (two statements with
 * one value) and the shared nodes. The other lines have one part each, which adds and removes them without a
 * count: counting every line (hashing each freshly made line into a map of all the entity's lines) was a third
 * of moving to the next revision (ADR 0016). An entity met for the first time (a build, an import, a follower
 * starting) is rendered and held without counting: most are never edited while held, and counting was a third
 * of a build's writing (ADR 0016). Its first edit counts what is held, then compares.
 */
export class EntityRdf {
  private readonly sections = new Map<string, RenderedSection>();
  private readonly common = new Map<string, number>();
  private readonly shared = new Map<string, { lines: string; count: number }>();
  /** Whether `common` and `shared` count the parts held (false after a first rendering, until the next update). */
  private counted = true;
  /** Characters held: what keeping this costs. */
  size = 0;
  private current: Entity | null = null;
  /** Set while resting (`rest`): the document the parts were rendered from, and its revision. */
  private resting: { json: string; head: Head } | null = null;
  private generation = 0;
  /** Sections held unrendered (holdUnrendered). */
  private unrendered = 0;
  /** What each group of sections was last visited from (VisitGroup). */
  private readonly groups = new Map<string, { from: unknown; tag: string }>();
  /** The group whose sections are being visited. */
  private inGroup: string | null = null;

  constructor(private readonly layout: MirrorLayout, private readonly setup: EngineSetup, private readonly id: string) {}

  /** The entity last moved to (null: a redirect, or gone): what the next revision's change applies to. */
  get entity(): Entity | null {
    this.wake();
    return this.current;
  }

  /** Whether it holds an entity (not a redirect, nothing gone), without waking it. */
  get holdsEntity(): boolean {
    return this.resting !== null || this.current !== null;
  }

  /**
   * Keeps, instead of the parts just rendered, only the document they were rendered from (`json`, as `head`): one
   * string where the parts are hundreds of objects. The parts are rendered again, the same, when the entity is
   * next moved or asked for. For a build, whose entities are mostly never edited: holding each one's parts made
   * the garbage collector copy and mark them all, 0.7 s of a 3.2 s build of the 2,000-item bench store (ADR 0013).
   */
  rest(json: string, head: Head): void {
    this.clear();
    this.resting = { json, head };
    this.size = json.length;
  }

  /** Holds nothing. */
  private clear(): void {
    this.sections.clear();
    this.groups.clear();
    this.unrendered = 0;
    this.common.clear();
    this.shared.clear();
    this.counted = true;
    this.current = null;
    this.resting = null;
    this.size = 0;
  }

  /**
   * The first rendering of `content` (nothing held before), then resting at it (`rest`): its parts are not kept
   * even for a moment. A build's entity.
   */
  restAt(content: RevisionContent & { kind: 'entity' }, json: string): RdfDelta {
    const delta = this.first(content, false);
    this.rest(json, content.head);
    return delta;
  }

  private wake(): void {
    if (!this.resting) return;
    const { json, head } = this.resting;
    this.resting = null;
    this.size = 0;
    this.first({ kind: 'entity', entity: JSON.parse(json) as Entity, head }); // what the engine holds already
  }

  /** Moves to `content` (null: the entity is gone) and says what that added and removed. */
  update(content: RevisionContent | null): RdfDelta {
    this.wake();
    if (this.sections.size === 0) return this.first(content);
    if (!this.counted) this.countHeld();
    const change = new Change();
    const generation = ++this.generation;
    this.current = content?.kind === 'entity' ? content.entity : null;
    const skipped = new Set<string>();
    visitSections(this.layout, this.setup, this.id, content, (key, from, tag, visitParts) => {
      let section = this.sections.get(key);
      if (section && section.from === from && section.tag === tag) {
        section.generation = generation;
        return;
      }
      if (section?.unrendered) {
        // The same content in other objects (an entity read from the store again): it stays unrendered.
        if (section.tag === tag && sameJson(section.from, from)) {
          Object.assign(section, { from, generation, unrendered: visitParts });
          return;
        }
        this.renderHeld(section, change);
      }
      // A section rendered with another tag is visited whole: each of its parts may render differently.
      const before = section && section.tag === tag ? section.from : undefined;
      section ??= this.holdSection(key, from, tag, generation);
      Object.assign(section, { from, tag, generation });
      const { parts } = section;
      const onlyChanged = visitParts((partKey, partFrom, partTag, render) => {
        const held = parts.get(partKey);
        if (held && unchanged(held, partFrom, partTag)) {
          held.from = partFrom; // the newer object: the next revision most likely shares it
          held.generation = generation;
          return;
        }
        const part = renderedPart(render(partKey, partFrom, partTag), partFrom, partTag, generation);
        parts.set(partKey, part);
        if (held) this.replace(held, part, change);
        else this.add(part, change);
      }, before);
      if (onlyChanged !== true) this.sweep(parts, generation, change);
    }, (key, from, tag, sections) => {
      const held = this.groups.get(key);
      if (held && held.from === from && held.tag === tag) skipped.add(key);
      else this.visitGroup(key, from, tag, sections);
    });
    for (const [key, section] of this.sections) {
      if (section.generation === generation || (section.group !== null && skipped.has(section.group))) continue;
      if (section.unrendered) this.renderHeld(section, change);
      this.sweep(section.parts, generation, change);
      this.sections.delete(key);
    }
    // Whether a shared node came or went is known only once every part that may use it is counted.
    if (this.unrendered > 0 && sharedFlipped(change, this.shared)) {
      for (const section of this.sections.values()) if (section.unrendered) this.renderHeld(section, change);
    }
    return this.delta(change);
  }

  /**
   * Holds `content` without rendering any of it (nothing held before): each section is rendered when an update
   * changes it or it goes. For a follower that meets an entity it does not hold at a revision this process has
   * just written from the one before (store/recent-writes.ts: the two share every section the edit left
   * alone), the edit then costs the sections it changed, where holding the revision before meant rendering the
   * whole entity (and reading and parsing it). Only rendered sections count what they state: truthy triples are
   * stated only within one property's statements, a section, which is rendered whole before it changes; a
   * shared node (a value, a reference) may be used by any section, so an update that links or unlinks one
   * renders the rest first, and says exactly what came and went.
   */
  holdUnrendered(content: RevisionContent & { kind: 'entity' }, chars: number): void {
    this.clear();
    const generation = ++this.generation;
    this.current = content.entity;
    visitSections(this.layout, this.setup, this.id, content, (key, from, tag, visitParts) => {
      this.holdSection(key, from, tag, generation, visitParts);
    }, (key, from, tag, sections) => this.visitGroup(key, from, tag, sections));
    this.unrendered = this.sections.size;
    // What holding the entity costs, about (`chars`: its document's length): its objects are mostly shared with
    // the revisions the store keeps.
    this.size = chars;
  }

  /**
   * Renders a section held unrendered, as it was: its parts held and counted, nothing added. A shared node
   * `change` has met already, not held then, was held after all.
   */
  private renderHeld(section: RenderedSection, change: Change): void {
    const visitParts = section.unrendered!;
    section.unrendered = null;
    this.unrendered--;
    const { generation } = section;
    visitParts((partKey, partFrom, partTag, render) => {
      const part = renderedPart(render(partKey, partFrom, partTag), partFrom, partTag, generation);
      section.parts.set(partKey, part);
      for (const [node, lines] of part.shared) {
        if (change.sharedWas.has(node) && change.sharedWas.get(node) === undefined) change.sharedWas.set(node, lines);
      }
      this.count(part);
    });
  }

  /** A section held from now on (`unrendered`: how to render its parts later; none: they are rendered into it). */
  private holdSection(key: string, from: unknown, tag: string, generation: number, unrendered: VisitParts | null = null): RenderedSection {
    const section: RenderedSection = { from, tag, generation, parts: new Map(), unrendered, group: this.inGroup };
    this.sections.set(key, section);
    return section;
  }

  /**
   * The first rendering (nothing held): every part rendered and held (unless not `keep`), uncounted; everything
   * is added. `added`
   * may name a line twice (two statements with one value each write its truthy triple): finding which would
   * cost a hash of every line, and a graph holds a triple once however often it is added.
   */
  private first(content: RevisionContent | null, keep = true): RdfDelta {
    const generation = ++this.generation;
    this.current = content?.kind === 'entity' ? content.entity : null;
    const added: string[] = [];
    const linked = new Map<string, string>();
    visitSections(this.layout, this.setup, this.id, content, (key, from, tag, visitParts) => {
      const parts = keep ? this.holdSection(key, from, tag, generation).parts : new Map<string, RenderedPart>();
      visitParts((partKey, partFrom, partTag, render) => {
        const part = renderedPart(render(partKey, partFrom, partTag), partFrom, partTag, generation);
        if (keep) parts.set(partKey, part);
        for (const lines of [part.own, part.common]) {
          for (const line of lines) {
            added.push(line);
            this.size += line.length;
          }
        }
        for (const [node, lines] of part.shared) {
          if (linked.has(node)) continue;
          linked.set(node, lines);
          this.size += lines.length;
        }
      });
    }, keep ? (key, from, tag, sections) => this.visitGroup(key, from, tag, sections) : VISIT_EVERY_SECTION);
    this.counted = this.sections.size === 0;
    return { added, deleted: [], linked: [...linked.values()].map((lines) => lines.trimEnd()), unlinked: [] };
  }

  /** Visits a group's sections, noting what the group is rendered from and that its sections belong to it. */
  private visitGroup(key: string, from: unknown, tag: string, sections: () => void): void {
    this.groups.set(key, { from, tag });
    this.inGroup = key;
    try {
      sections();
    } finally {
      this.inGroup = null;
    }
  }

  /** Counts the parts a first rendering held, before the first change to them is compared. */
  private countHeld(): void {
    this.size = 0;
    for (const section of this.sections.values()) {
      // Counted only: nothing is added, and nothing was there before to compare with.
      for (const part of section.parts.values()) this.count(part);
    }
    this.counted = true;
  }

  /** A held part counted, as held before the update at hand: its lines' size, its common lines and its nodes. */
  private count(part: RenderedPart): void {
    for (const line of part.own) this.size += line.length;
    this.countLines(part.common, 1, null);
    this.countNodes(part.shared, 1, null);
  }

  /** Removes the parts this update did not see (a section gone removes them all). */
  private sweep(parts: Map<string, RenderedPart>, generation: number, change: Change): void {
    for (const [key, part] of parts) {
      if (part.generation === generation) continue;
      this.remove(part, change);
      parts.delete(key);
    }
  }

  /** A part new to the entity: its lines added, its common lines and nodes counted. */
  private add(part: RenderedPart, change: Change): void {
    for (const line of part.own) {
      change.added.push(line);
      this.size += line.length;
    }
    this.countLines(part.common, 1, change);
    this.countNodes(part.shared, 1, change);
  }

  /** A part gone: its lines removed, its common lines and nodes counted down. */
  private remove(part: RenderedPart, change: Change): void {
    for (const line of part.own) {
      change.deleted.push(line);
      this.size -= line.length;
    }
    this.countLines(part.common, -1, change);
    this.countNodes(part.shared, -1, change);
  }

  /**
   * A part rendered again (what it is rendered from changed): only the lines that differ are added or removed,
   * and only the common lines and nodes that differ are counted. An edit of a statement's value keeps most of
   * its lines (its node's type, rank, link): in the same places, so they are passed over without a hash.
   */
  private replace(held: RenderedPart, part: RenderedPart, change: Change): void {
    const [gone, come] = differing(held.own, part.own);
    for (const line of gone) {
      change.deleted.push(line);
      this.size -= line.length;
    }
    for (const line of come) {
      change.added.push(line);
      this.size += line.length;
    }
    const [goneCommon, comeCommon] = differing(held.common, part.common);
    this.countLines(goneCommon, -1, change);
    this.countLines(comeCommon, 1, change);
    if (held.shared.size === 0 && part.shared.size === 0) return;
    const goneNodes = new Map<string, string>();
    const comeNodes = new Map<string, string>();
    for (const [node, lines] of held.shared) if (!part.shared.has(node)) goneNodes.set(node, lines);
    for (const [node, lines] of part.shared) if (!held.shared.has(node)) comeNodes.set(node, lines);
    this.countNodes(goneNodes, -1, change);
    this.countNodes(comeNodes, 1, change);
  }

  /** Adds (+1) or removes (-1) common lines, noting in `change` what each was before its first change. */
  private countLines(lines: readonly string[], by: 1 | -1, change: Change | null): void {
    for (const line of lines) {
      const n = this.common.get(line) ?? 0;
      if (change && !change.commonWas.has(line)) change.commonWas.set(line, n > 0);
      if (n + by > 0) this.common.set(line, n + by);
      else this.common.delete(line);
      if (n === 0 || n + by === 0) this.size += by * line.length;
    }
  }

  /** Adds (+1) or removes (-1) uses of shared nodes, noting in `change` what each was before its first change. */
  private countNodes(nodes: ReadonlyMap<string, string>, by: 1 | -1, change: Change | null): void {
    for (const [node, lines] of nodes) {
      const held = this.shared.get(node);
      if (change && !change.sharedWas.has(node)) change.sharedWas.set(node, held?.lines);
      const n = (held?.count ?? 0) + by;
      if (n > 0) this.shared.set(node, { lines: held?.lines ?? lines, count: n });
      else this.shared.delete(node);
      if (!held || n === 0) this.size += by * lines.length;
    }
  }

  private delta(change: Change): RdfDelta {
    let { added, deleted } = change;
    if (added.length > 0 && deleted.length > 0) {
      // A line one part removes and another adds (a statement moved between properties) stays; each once.
      const gone = new Set(deleted);
      const come = new Set(added);
      deleted = [...gone].filter((line) => !come.has(line));
      added = [...come].filter((line) => !gone.has(line));
    } else if (deleted.length > 1) {
      deleted = [...new Set(deleted)]; // a part may state a line twice (a qualifier given twice)
    }
    const delta: RdfDelta = { added, deleted, linked: [], unlinked: [] };
    for (const [line, was] of change.commonWas) {
      const is = this.common.has(line);
      if (is && !was) delta.added.push(line);
      else if (!is && was) delta.deleted.push(line);
    }
    for (const [node, was] of change.sharedWas) {
      const is = this.shared.get(node);
      if (is && was === undefined) delta.linked.push(is.lines.trimEnd());
      else if (!is && was !== undefined) delta.unlinked.push(was.trimEnd());
    }
    return delta;
  }
}

/** Whether a shared node an update met is held now and was not before, or the other way round. */
function sharedFlipped(change: Change, shared: ReadonlyMap<string, unknown>): boolean {
  for (const [node, was] of change.sharedWas) if (shared.has(node) !== (was !== undefined)) return true;
  return false;
}

/** What one update has found so far: lines added and removed, and counted lines and nodes as they were before. */
class Change {
  readonly added: string[] = [];
  readonly deleted: string[] = [];
  readonly commonWas = new Map<string, boolean>();
  readonly sharedWas = new Map<string, string | undefined>();
}

function renderedPart(triples: PartTriples, from: unknown, tag: string, generation: number): RenderedPart {
  return { from, tag, generation, own: triples.own, common: triples.common ?? NO_LINES, shared: triples.shared };
}

const NO_LINES: readonly string[] = [];

/**
 * The lines only `before` holds and those only `after` holds. Lines in the same place in both are passed over
 * (a part rendered again keeps its order); a part may hold a line twice, so the rest are checked against the
 * whole of the other.
 */
function differing(before: readonly string[], after: readonly string[]): [readonly string[], readonly string[]] {
  const gone: string[] = [];
  const come: string[] = [];
  for (let i = 0; i < before.length || i < after.length; i++) {
    if (i < before.length && i < after.length && before[i] === after[i]) continue;
    if (i < before.length) gone.push(before[i]);
    if (i < after.length) come.push(after[i]);
  }
  return [without(gone, after), without(come, before)];
}

/** Above this many lines, a part's lines are looked up in a set rather than scanned. */
const SCANNED = 32;

/** The lines of `lines` that `other` does not hold, each once. */
function without(lines: readonly string[], other: readonly string[]): readonly string[] {
  if (lines.length === 0) return NO_LINES;
  if (other.length > SCANNED) {
    const held = new Set(other);
    return [...new Set(lines.filter((line) => !held.has(line)))];
  }
  const out: string[] = [];
  for (const line of lines) if (!other.includes(line) && !out.includes(line)) out.push(line);
  return out;
}
