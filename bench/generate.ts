// Deterministic, Wikidata-shaped benchmark data. Each entity is drawn from its own PRNG stream
// (seed, entity number), with counts and lengths sampled from the distributions measured on real items
// (bench/distributions.json, see measure-distributions.ts) and kept within BOUNDS. Every generated entity
// is valid for Entia's own validators (test/bench/harness.test.ts checks a sample), so the benchmark's
// edits of it succeed.
//
//   node --import tsx bench/generate.ts --items 2000 [--seed 8] > data.jsonl   (properties first, then items)
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Entity, Reference, Snak, Statement, Value } from '../src/domain/entity.js';
import { isMonolingualLanguage, TERM_LANGUAGES } from '../src/domain/languages.js';
import { DEFAULT_SITES, normaliseTitle } from '../src/domain/sites.js';
import { BOUNDS, MEASURED, type Measure } from './distributions.js';
import { rngFor, weightTable, type Rng, type WeightTable } from './prng.js';
import { identifier, phrase, scriptOf } from './text.js';

/** Part of the data file name: bump when the output for a given seed changes. */
export const GENERATOR_VERSION = 1;
export const DEFAULT_SEED = 8;

/** Every LARGE_EVERY-th item (starting at Q7) is a deliberately large one, like Q31 Belgium (~300 KB). */
export const LARGE_EVERY = 10_000;
export const isLarge = (n: number): boolean => n % LARGE_EVERY === 7;

/** Properties: enough for a realistic long tail of each data type. */
export function propertyCount(items: number): number {
  return Math.min(2000, Math.max(100, Math.round(items / 50)));
}

// ---- Sampling from the measured distributions ---------------------------------------------------------

/** Inverse CDF by linear interpolation between the stored deciles. */
function quantileDraw(rng: Rng, measure: string): number {
  const q = MEASURED.quantiles[measure];
  const x = rng.next() * (q.length - 1);
  const i = Math.floor(x);
  return q[i] + (q[Math.min(i + 1, q.length - 1)] - q[i]) * (x - i);
}

function draw(rng: Rng, measure: Measure, scale = 1): number {
  const [lo, hi] = BOUNDS[measure];
  return Math.min(hi, Math.max(lo, Math.round(quantileDraw(rng, measure) * scale)));
}

// Languages and sites: the measured shares of the most frequent ones, the rest of the list as a uniform tail.
function tailTable(shares: Record<string, number>, all: readonly string[]): WeightTable {
  const head = Object.values(shares).reduce((a, b) => a + b, 0);
  const rest = all.filter((k) => !(k in shares));
  const weights: Record<string, number> = { ...shares };
  for (const k of rest) weights[k] = (1 - head) / rest.length;
  return weightTable(weights);
}

const LANGUAGES = tailTable(MEASURED.languages, TERM_LANGUAGES.filter((l) => l !== 'mul'));
const SITES = tailTable(MEASURED.sites, Object.keys(DEFAULT_SITES));
const STATEMENT_TYPES = weightTable(MEASURED.dataTypes);
const QUALIFIER_TYPES = weightTable(MEASURED.qualifierDataTypes);
const REFERENCE_TYPES = weightTable(MEASURED.referenceDataTypes);
const VALUE_TYPES = weightTable(MEASURED.valueTypes);
const MONOLINGUAL = TERM_LANGUAGES.filter(isMonolingualLanguage);

/** `count` distinct keys drawn by weight. */
function distinct(rng: Rng, table: WeightTable, count: number, exclude?: (k: string) => boolean): string[] {
  const out = new Set<string>();
  for (let attempts = 0; out.size < count && attempts < count * 50; attempts++) {
    const k = rng.weighted(table);
    if (!exclude?.(k)) out.add(k);
  }
  return [...out];
}

// ---- Properties -----------------------------------------------------------------------------------------

/** Data types of the property ids: each type gets a share of the ids, at least three. */
export interface PropertyPlan {
  count: number;
  dataTypeOf: string[];
  byType: Map<string, number[]>;
}

export function planProperties(count: number): PropertyPlan {
  const types = new Set([...Object.keys(MEASURED.dataTypes), ...Object.keys(MEASURED.qualifierDataTypes),
    ...Object.keys(MEASURED.referenceDataTypes)]);
  const weight = (t: string) => Math.max(MEASURED.dataTypes[t] ?? 0, MEASURED.qualifierDataTypes[t] ?? 0,
    MEASURED.referenceDataTypes[t] ?? 0);
  const total = [...types].reduce((n, t) => n + weight(t), 0);
  const dataTypeOf: string[] = [''];
  const byType = new Map<string, number[]>();
  // Interleave the types so that low property numbers (the popular ones) cover every type.
  const quota = new Map([...types].map((t) => [t, Math.max(3, Math.round((weight(t) / total) * count))]));
  while (dataTypeOf.length <= count) {
    for (const t of types) {
      const left = quota.get(t)!;
      if (left <= 0 || dataTypeOf.length > count) continue;
      quota.set(t, left - 1);
      byType.set(t, [...(byType.get(t) ?? []), dataTypeOf.length]);
      dataTypeOf.push(t);
    }
    if ([...quota.values()].every((q) => q <= 0)) for (const t of types) quota.set(t, 1);
  }
  return { count, dataTypeOf, byType };
}

export function generateProperty(seed: number, n: number, plan: PropertyPlan): Entity {
  // docs/api.md §6.1: a property label may not read as a property id; generated labels have no digits.
  const { labels, descriptions, aliases } = terms(rngFor(seed, -n), `P${n}`, 'property', 1);
  return { id: `P${n}`, type: 'property', data_type: plan.dataTypeOf[n], labels, descriptions, aliases, statements: {} };
}

// ---- Items -----------------------------------------------------------------------------------------------

export interface GeneratorContext {
  seed: number;
  items: number;
  properties: PropertyPlan;
}

export function generatorContext(seed: number, items: number): GeneratorContext {
  return { seed, items, properties: planProperties(propertyCount(items)) };
}

/** Scale factors of a large item over a regular one, with the bounds lifted. */
const LARGE = { labels: 250, descriptions: 120, aliasLanguages: 40, statements: 420, sitelinks: 230 };

export function generateItem(ctx: GeneratorContext, n: number): Entity {
  const rng = rngFor(ctx.seed, n);
  const id = `Q${n}`;
  const large = isLarge(n);
  const entity = terms(rng, id, 'item', large ? 0 : 1);
  const statementCount = large ? LARGE.statements : draw(rng, 'statements');
  entity.statements = statements(rng, ctx, id, statementCount, large);
  entity.sitelinks = sitelinks(rng, entity, n, large ? LARGE.sitelinks : draw(rng, 'sitelinks'));
  return entity;
}

/** Labels, descriptions, aliases; `regular` 0 draws the counts of a large item. */
function terms(rng: Rng, id: string, type: 'item' | 'property', regular: 0 | 1): Entity {
  const labelCount = regular ? draw(rng, 'labels') : LARGE.labels;
  const descriptionCount = regular ? draw(rng, 'descriptions') : LARGE.descriptions;
  const aliasLanguages = regular ? draw(rng, 'aliasLanguages') : LARGE.aliasLanguages;
  const languages = distinct(rng, LANGUAGES, Math.max(labelCount, descriptionCount, aliasLanguages));
  // A name shared by the Latin-script languages, as most real items have.
  const name = phrase(rng, 'latin', draw(rng, 'labelLength'));
  const entity: Entity = { id, type, labels: {}, descriptions: {}, aliases: {}, statements: {} };
  for (const lang of languages.slice(0, labelCount)) {
    const script = scriptOf(lang);
    entity.labels[lang] = script === 'latin' && rng.chance(0.7) ? name : phrase(rng, script, draw(rng, 'labelLength'));
  }
  for (const lang of languages.slice(0, descriptionCount)) {
    const text = phrase(rng, scriptOf(lang), draw(rng, 'descriptionLength'), false);
    // docs/api.md §6.1: a description may not equal the label in its language.
    entity.descriptions[lang] = text === entity.labels[lang] ? `${text} ${id}` : text;
  }
  for (const lang of languages.slice(0, aliasLanguages)) {
    const list = new Set<string>();
    const count = draw(rng, 'aliasesPerLanguage');
    for (let i = 0; i < count; i++) list.add(phrase(rng, scriptOf(lang), draw(rng, 'aliasLength')));
    entity.aliases[lang] = [...list];
  }
  return entity;
}

function statements(rng: Rng, ctx: GeneratorContext, id: string, count: number, large: boolean): Entity['statements'] {
  const groups: Entity['statements'] = {};
  // Like P31 "instance of": almost every real item says what it is, first.
  const all: Statement[] = [statement(rng, ctx, id, 1, large)];
  for (let i = 1; i < count; i++) all.push(statement(rng, ctx, id, propertyFor(rng, ctx, STATEMENT_TYPES), large));
  for (const s of all) (groups[s.property.id] ??= []).push(s);
  return groups;
}

function propertyFor(rng: Rng, ctx: GeneratorContext, types: WeightTable): number {
  const candidates = ctx.properties.byType.get(rng.weighted(types)) ?? [1];
  return candidates[rng.zipf(candidates.length) - 1];
}

function statement(rng: Rng, ctx: GeneratorContext, subject: string, property: number, large: boolean): Statement {
  const scale = large ? 2 : 1;
  const qualifiers: Snak[] = [];
  for (let i = draw(rng, 'qualifiers', scale); i > 0; i--) qualifiers.push(snak(rng, ctx, propertyFor(rng, ctx, QUALIFIER_TYPES)));
  const references: Reference[] = [];
  for (let i = draw(rng, 'references', scale); i > 0; i--) {
    const parts: Snak[] = [];
    for (let j = draw(rng, 'referenceParts'); j > 0; j--) parts.push(snak(rng, ctx, propertyFor(rng, ctx, REFERENCE_TYPES)));
    references.push({ hash: rng.hex(40), parts });
  }
  const main = snak(rng, ctx, property, true);
  const rank = rng.chance(0.03) ? 'preferred' : rng.chance(0.01) ? 'deprecated' : 'normal';
  return { id: `${subject}$${guid(rng)}`, rank, qualifiers, references, property: main.property, value: main.value };
}

function guid(rng: Rng): string {
  const h = rng.hex(32).toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function snak(rng: Rng, ctx: GeneratorContext, property: number, main = false): Snak {
  const dataType = ctx.properties.dataTypeOf[property];
  const type = main ? rng.weighted(VALUE_TYPES) : 'value';
  const value: Value = type === 'value' ? { type, content: content(rng, ctx, dataType) } : { type: type as 'novalue' };
  return { property: { id: `P${property}`, 'data-type': dataType }, value };
}

const CONCEPT = 'http://www.wikidata.org/entity/';
const GREGORIAN = `${CONCEPT}Q1985727`;
const EARTH = `${CONCEPT}Q2`;
const UNITS = ['Q11573', 'Q712226', 'Q11570', 'Q174728', 'Q828224', 'Q4917', 'Q25343'];

function digits(rng: Rng, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(rng.int(0, 9));
  return out;
}

/** Content already in the normalised form Entia stores (docs/api.md §5), so a read returns it unchanged. */
function content(rng: Rng, ctx: GeneratorContext, dataType: string): unknown {
  switch (dataType) {
    case 'wikibase-item':
      return `Q${rng.zipf(ctx.items)}`;
    case 'external-id':
      return identifier(rng, Math.min(40, draw(rng, 'stringValueLength')));
    case 'string':
      return phrase(rng, 'latin', draw(rng, 'stringValueLength'));
    case 'monolingualtext':
      return { text: phrase(rng, 'latin', draw(rng, 'stringValueLength')), language: rng.pick(MONOLINGUAL) };
    case 'url':
      return `https://www.${phrase(rng, 'latin', 8, false).replace(/\W+/g, '') || 'example'}.org/${identifier(rng, rng.int(4, 24))}`;
    case 'commonsMedia':
      return `${phrase(rng, 'latin', draw(rng, 'stringValueLength'))}.jpg`;
    case 'geo-shape':
      return `Data:${phrase(rng, 'latin', 12)}.map`;
    case 'time': {
      const precision = rng.pick([9, 9, 10, 11, 11, 11]);
      const month = precision >= 10 ? String(rng.int(1, 12)).padStart(2, '0') : '00';
      const day = precision >= 11 ? String(rng.int(1, 28)).padStart(2, '0') : '00';
      return { time: `+${rng.int(1000, 2025)}-${month}-${day}T00:00:00Z`, precision, calendarmodel: GREGORIAN };
    }
    case 'quantity': {
      const whole = rng.int(1, 9) * 10 ** rng.int(0, 5) + Number(digits(rng, 1));
      const fraction = rng.chance(0.4) ? `.${digits(rng, rng.int(1, 3))}` : '';
      const amount = `+${whole}${fraction}`;
      const unit = rng.chance(0.5) ? '1' : CONCEPT + rng.pick(UNITS);
      if (!rng.chance(0.2)) return { amount, unit };
      return { amount, unit, upperBound: `+${whole + 1}${fraction}`, lowerBound: `+${whole - 1}${fraction}` };
    }
    case 'globe-coordinate':
      return {
        latitude: Math.round((rng.next() * 180 - 90) * 1e6) / 1e6,
        longitude: Math.round((rng.next() * 360 - 180) * 1e6) / 1e6,
        precision: rng.pick([0.0001, 0.000277777777778, 0.01]),
        globe: EARTH,
      };
    default:
      return phrase(rng, 'latin', draw(rng, 'stringValueLength'));
  }
}

/** Sitelinks titled after the item's label in the site's language; "(Q<n>)" keeps each title unique per site. */
function sitelinks(rng: Rng, entity: Entity, n: number, count: number): NonNullable<Entity['sitelinks']> {
  const out: NonNullable<Entity['sitelinks']> = {};
  for (const siteId of distinct(rng, SITES, count).sort()) {
    const site = DEFAULT_SITES[siteId];
    const label = entity.labels[site.language] ?? entity.labels.en ?? Object.values(entity.labels)[0];
    out[siteId] = { title: normaliseTitle(`${label} (${n})`, '', site), badges: [] };
  }
  return out;
}

// ---- The whole data set -------------------------------------------------------------------------------

/** Every entity of the data set in load order: properties first (statements refer to them), then items. */
export function* generateAll(seed: number, items: number): Generator<Entity> {
  const ctx = generatorContext(seed, items);
  for (let n = 1; n <= ctx.properties.count; n++) yield generateProperty(seed, n, ctx.properties);
  for (let n = 1; n <= items; n++) yield generateItem(ctx, n);
}

/** Writes the data set as JSON lines; resolves with the number of lines and bytes. */
export async function writeDataset(path: string | Writable, seed: number, items: number): Promise<{ lines: number; bytes: number }> {
  const out: Writable = typeof path === 'string' ? createWriteStream(path) : path;
  let lines = 0;
  let bytes = 0;
  let chunk = '';
  const flush = async () => {
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
    bytes += Buffer.byteLength(chunk);
    chunk = '';
  };
  for (const entity of generateAll(seed, items)) {
    chunk += JSON.stringify(entity) + '\n';
    lines++;
    if (chunk.length > 1 << 20) await flush();
  }
  await flush();
  if (typeof path === 'string') await new Promise<void>((resolve) => out.end(() => resolve()));
  return { lines, bytes };
}

function argValue(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  writeDataset(process.stdout, argValue(argv, '--seed', DEFAULT_SEED), argValue(argv, '--items', 2000))
    .catch((e: unknown) => { console.error(e); process.exit(1); });
}
