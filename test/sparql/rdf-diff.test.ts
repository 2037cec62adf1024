// The RDF an entity's revisions add and remove (sparql/rdf-diff.ts), which the rdf_change events and the SPARQL
// mirror's patches are made of: applied to the first revision's triples, each delta must give the next
// revision's triples exactly, as the whole entity renders them (domain/rdf.ts). The first rendering is held
// uncounted and counted at the first edit: these cases check that a triple two parts write stays while one of
// them does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity, Statement } from '../../src/domain/entity.js';
import { revisionGroups } from '../../src/domain/rdf.js';
import { DEFAULT_SITES } from '../../src/domain/sites.js';
import { mirrorLayout } from '../../src/sparql/mirror-triples.js';
import { EntityRdf, type RdfDelta } from '../../src/sparql/rdf-diff.js';

const vocabulary = { conceptBase: 'http://www.wikidata.org/entity/', dataBase: 'http://entia.test/wiki/Special:EntityData/' };
const setup = { vocabulary, sites: DEFAULT_SITES, flavor: 'full' as const };
const layout = mirrorLayout(vocabulary);

const quantity = (id: string, amount: string, rank: Statement['rank'] = 'normal', qualifiers: string[] = []): Statement => ({
  id, rank, references: [], property: { id: 'P1', 'data-type': 'quantity' },
  value: { type: 'value', content: { amount, unit: '1' } },
  qualifiers: qualifiers.map((text) => ({ property: { id: 'P2', 'data-type': 'string' }, value: { type: 'value', content: text } })),
});

function item(statements: Statement[], label = 'x'): Entity {
  return { id: 'Q7', type: 'item', labels: { en: label }, descriptions: {}, aliases: {}, sitelinks: {}, statements: { P1: statements } };
}

const revision = (entity: Entity, n: number) => ({ kind: 'entity' as const, entity, head: { revision: n, modified: new Date(Date.UTC(2026, 0, 1, 0, 0, n)) } });

/** The whole entity's lines as the mirror holds them (blank nodes as skolem IRIs), one set. */
function whole(entity: Entity, n: number): Set<string> {
  const { own, shared } = revisionGroups(entity, revision(entity, n).head, { ...setup, skolemBase: layout.genidBase });
  return new Set([...own, ...[...shared.values()].flatMap((lines) => lines.trimEnd().split('\n'))]);
}

function apply(held: Set<string>, delta: RdfDelta): Set<string> {
  const next = new Set(held);
  for (const line of [...delta.deleted, ...delta.unlinked.flatMap((lines) => lines.split('\n'))]) {
    assert.ok(next.delete(line), `deleted but not held: ${line}`);
  }
  for (const line of delta.added) next.add(line);
  // A node is linked when the entity starts using it: its lines cannot be there already (one entity holds them all).
  for (const line of delta.linked.flatMap((lines) => lines.split('\n'))) {
    assert.ok(!next.has(line), `linked but held already: ${line}`);
    next.add(line);
  }
  return next;
}

/**
 * Moves one entity through `revisions`, checking each delta against the whole revision, then removes it.
 * `resting`: after each revision, only its document is kept (as after a build), its parts rendered again at the next.
 * `unrendered`: the first revision is held unrendered (a follower meeting an entity it does not hold), its
 * triples already with the consumer.
 */
function follow(revisions: Entity[], resting = false, unrendered = false): void {
  const state = new EntityRdf(layout, setup, 'Q7');
  let held = new Set<string>();
  revisions.forEach((entity, i) => {
    // Resting, the first revision is rendered as a build renders it (restAt), the others moved to, then rested.
    if (resting && i === 0) held = apply(held, state.restAt(revision(entity, 1), JSON.stringify(entity)));
    else if (unrendered && i === 0) {
      state.holdUnrendered(revision(entity, 1), JSON.stringify(entity).length);
      held = whole(entity, 1);
    } else held = apply(held, state.update(revision(entity, i + 1)));
    if (resting) {
      state.rest(JSON.stringify(entity), revision(entity, i + 1).head);
      assert.ok(state.holdsEntity, 'a resting entity is held');
      assert.equal(state.size, JSON.stringify(entity).length, 'a resting entity costs its document, asked or not');
    }
    assert.deepEqual([...held].sort(), [...whole(entity, i + 1)].sort(), `revision ${i + 1}`);
  });
  const gone = state.update(null);
  assert.deepEqual([...apply(held, gone)], [], 'an entity gone removes everything');
}

/** An item of two properties' statements (P1 and P3, both quantities), as an edit derives one from the one before. */
function twoProperties(p1: Statement[], p3: Statement[], label = 'x'): Entity {
  return { ...item(p1, label), statements: { P1: p1, P3: p3 } };
}
const onP3 = (statement: Statement): Statement => ({ ...statement, property: { id: 'P3', 'data-type': 'quantity' } });
const referenced = (statement: Statement, amount: string): Statement => ({ ...statement,
  references: [{ hash: 'h', parts: [{ property: { id: 'P1', 'data-type': 'quantity' }, value: { type: 'value', content: { amount, unit: '1' } } }] }] });

describe('an entity\'s RDF, revision by revision', () => {
  it('renders the statements it is given', () => {
    const lines = [...whole(item([quantity('Q7$1', '+5', 'normal', ['a'])]), 1)];
    assert.ok(lines.some((line) => line.includes('/prop/direct/P1> "+5"')), 'the truthy triple');
    assert.ok(lines.some((line) => line.includes('/prop/qualifier/P2> "a"')), 'the qualifier');
  });

  it('gives the next revision\'s triples exactly, when a statement\'s qualifiers repeat and change places', () => {
    const revisions = [
      item([quantity('Q7$1', '+5', 'normal', ['a', 'a'])]), // one line stated twice by one part
      item([quantity('Q7$1', '+5', 'normal', ['a'])]), // stays: the part still states it
      item([quantity('Q7$1', '+5', 'normal', ['b', 'a'])]),
      item([quantity('Q7$1', '+5', 'normal', ['a', 'b'])]), // the same lines in other places: nothing changes
      item([quantity('Q7$1', '+6', 'normal', ['b'])]),
    ];
    follow(revisions);
    follow(revisions, true);
    follow(revisions, false, true);
  });

  it('gives the next revision\'s triples exactly, when two statements share a value and one goes', () => {
    const revisions = [
      item([quantity('Q7$1', '+5'), quantity('Q7$2', '+5')]),
      item([quantity('Q7$1', '+5')]), // the truthy triple and the value node stay: Q7$1 still states them
      item([quantity('Q7$1', '+6')], 'y'),
      item([quantity('Q7$1', '+6', 'preferred'), quantity('Q7$3', '+7')]), // Q7$3 is not best: no truthy triple
    ];
    follow(revisions);
    follow(revisions, true);
    follow(revisions, false, true);
  });

  it('gives the next revision\'s triples exactly, when each edit keeps the objects of the statements it left alone', () => {
    // As the server's edits derive an entity from the one before: only the statements they touch are new objects,
    // and only those are rendered again; a change of rank changes which of the others are best.
    const [s1, s3] = [quantity('Q7$1', '+5'), quantity('Q7$3', '+7')];
    const s2 = quantity('Q7$2', '+8');
    const revisions = [
      item([s1, quantity('Q7$2', '+6'), s3]),
      item([s1, s2, s3]), // one value replaced
      item([s1, { ...s2, rank: 'preferred' }, s3]), // the others are no longer best: their truthy triples go
      item([s1, s2, s3]), // and come back
      item([s1, s3]), // one gone
      item([s3, s1]), // the same objects in other places
      item([s3, quantity('Q7$1', '+7')]), // a value the other statement has: one truthy triple for both
      item([s3, quantity('Q7$1', '+7', 'deprecated')]),
    ];
    follow(revisions);
    follow(revisions, true);
    follow(revisions, false, true);
  });

  it('gives the next revision\'s triples exactly, when edits of terms keep the entity\'s statements object', () => {
    // Its statements are then not visited at all; a later edit of them, and their removal, still count.
    const first = item([quantity('Q7$1', '+5'), quantity('Q7$2', '+6')]);
    const relabelled: Entity = { ...first, labels: { en: 'relabelled' } };
    const edited: Entity = { ...relabelled, statements: { P1: [first.statements.P1[1]] } };
    const described: Entity = { ...edited, descriptions: { en: 'a thing' } };
    const revisions = [first, relabelled, edited, described, { ...described, statements: {} }];
    follow(revisions);
    follow(revisions, true);
    follow(revisions, false, true);
  });

  it('gives the next revision\'s triples exactly, when a value or a reference node is shared by two properties', () => {
    // Held unrendered, the property left alone is not rendered until a node may come or go: P3's statement still
    // uses the value and the reference P1's statements drop.
    const a = referenced(quantity('Q7$1', '+5'), '+9');
    const b = onP3(referenced(quantity('Q7$3', '+5'), '+9'));
    const c = onP3(quantity('Q7$4', '+11'));
    // One array per property's statements, as an edit that leaves a property alone keeps it.
    const [bc, onlyC] = [[b, c], [c]];
    const revisions = [
      twoProperties([a], bc),
      twoProperties([a], bc, 'relabelled'), // no statement touched
      twoProperties([quantity('Q7$1', '+6')], bc), // P1's value and reference go; P3 still uses both
      twoProperties([quantity('Q7$1', '+6')], onlyC), // and now they go
      twoProperties([quantity('Q7$1', '+11')], onlyC), // a value P3 has already
      twoProperties([], onlyC), // P1 gone
    ];
    follow(revisions);
    follow(revisions, true);
    follow(revisions, false, true);
    // A value the property left alone holds, taken up by the other at the first edit: not linked again.
    follow([twoProperties([a], onlyC), twoProperties([quantity('Q7$1', '+11')], onlyC)], false, true);
  });
});
