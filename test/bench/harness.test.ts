// The benchmark's data generator (bench/generate.ts): deterministic, within the measured bounds, and valid
// for Entia's own validators. No timings are asserted here.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { BOUNDS } from '../../bench/distributions.js';
import {
  generateAll, generateItem, generatorContext, isLarge, planProperties, propertyCount,
} from '../../bench/generate.js';
import { parseNewEntity } from '../../src/domain/entity-input.js';
import type { Entity, Snak, Statement } from '../../src/domain/entity.js';
import { ITEM, PROPERTY } from '../../src/domain/kinds.js';
import { DEFAULT_SITES } from '../../src/domain/sites.js';

const ITEMS = 300;

function digest(seed: number, items: number): string {
  const hash = createHash('sha256');
  for (const entity of generateAll(seed, items)) hash.update(JSON.stringify(entity) + '\n');
  return hash.digest('hex');
}

const regularItems = (): Entity[] => {
  const ctx = generatorContext(8, ITEMS);
  const out: Entity[] = [];
  for (let n = 1; n <= ITEMS; n++) if (!isLarge(n)) out.push(generateItem(ctx, n));
  return out;
};

const count = (map: object | undefined) => Object.keys(map ?? {}).length;
const statementsOf = (e: Entity): Statement[] => Object.values(e.statements).flat();

function within(name: keyof typeof BOUNDS, value: number, where: string): void {
  const [lo, hi] = BOUNDS[name];
  assert.ok(value >= lo && value <= hi, `${where}: ${name} ${value} outside [${lo}, ${hi}]`);
}

describe('bench data generator', () => {
  it('writes the same bytes for the same seed, and other bytes for another seed', () => {
    assert.equal(digest(8, 150), digest(8, 150));
    assert.notEqual(digest(8, 150), digest(9, 150));
  });

  it('regenerates any one item alone exactly as in the whole data set', () => {
    const all = [...generateAll(8, 120)].filter((e) => e.type === 'item');
    const ctx = generatorContext(8, 120);
    assert.deepEqual(generateItem(ctx, 57), all[56]);
  });

  it('keeps every regular item within the bounds of the issue', () => {
    for (const e of regularItems()) {
      within('labels', count(e.labels), e.id);
      within('descriptions', count(e.descriptions), e.id);
      within('aliasLanguages', count(e.aliases), e.id);
      within('statements', statementsOf(e).length, e.id);
      within('sitelinks', count(e.sitelinks), e.id);
      for (const list of Object.values(e.aliases)) within('aliasesPerLanguage', list.length, e.id);
      for (const s of statementsOf(e)) {
        within('qualifiers', s.qualifiers.length, s.id);
        within('references', s.references.length, s.id);
        for (const r of s.references) within('referenceParts', r.parts.length, s.id);
      }
    }
  });

  it('mixes the data types of real statements, and draws sizes around a typical 10 KB', () => {
    const items = regularItems();
    const types = new Set(items.flatMap(statementsOf).map((s) => s.property['data-type']));
    for (const t of ['string', 'external-id', 'wikibase-item', 'time', 'quantity', 'globe-coordinate',
      'monolingualtext', 'url', 'commonsMedia']) {
      assert.ok(types.has(t), `no ${t} statement`);
    }
    const sizes = items.map((e) => Buffer.byteLength(JSON.stringify(e))).sort((a, b) => a - b);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    assert.ok(mean > 5_000 && mean < 20_000, `mean size ${mean}`);
    const large = generateItem(generatorContext(8, ITEMS), 7);
    const largeSize = Buffer.byteLength(JSON.stringify(large));
    assert.ok(largeSize > 200_000 && largeSize < 500_000, `large item ${largeSize} bytes`);
  });

  it('produces entities that Entia’s validators accept unchanged', () => {
    const plan = planProperties(propertyCount(ITEMS));
    const lookup = {
      dataTypeOf: (id: string) => plan.dataTypeOf[Number(id.slice(1))],
      exists: (id: string) => (id[0] === 'P' ? Number(id.slice(1)) <= plan.count : Number(id.slice(1)) <= ITEMS),
    };
    const rules = { lookup, sites: DEFAULT_SITES, badges: { allowedBadges: new Set<string>() } };
    // Statement ids and reference hashes are assigned by the service on creation, so compare without them.
    const snak = (s: Snak) => ({ property: s.property, value: s.value });
    const comparable = (e: Entity) => ({
      ...e, id: null,
      statements: Object.fromEntries(Object.entries(e.statements).map(([p, g]) => [p, g.map((s) => ({
        rank: s.rank, property: s.property, value: s.value, qualifiers: s.qualifiers.map(snak),
        references: s.references.map((r) => r.parts.map(snak)),
      }))])),
    });
    const items = [...regularItems().slice(0, 60), generateItem(generatorContext(8, ITEMS), 7)];
    for (const e of items) {
      const parsed = parseNewEntity(ITEM, e, rules);
      assert.deepEqual(comparable(parsed), comparable(e), e.id);
    }
    for (const e of [...generateAll(8, ITEMS)].filter((x) => x.type === 'property').slice(0, 20)) {
      const parsed = parseNewEntity(PROPERTY, e, rules);
      assert.deepEqual({ ...parsed, id: e.id }, e);
    }
  });
});
