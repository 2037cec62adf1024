// Measures the shape of real Wikidata items (the CC0 samples in /work/shared/data/wikidata, or the files
// given as arguments) after conversion to Entia's model, so that bench/generate.ts can draw from the same
// distributions. Prints a Markdown table (copied into bench/README.md) and, with --write, stores the
// quantiles the generator samples from in bench/distributions.json.
//
//   node --import tsx bench/measure-distributions.ts [--write] [FILE.json.bz2 ...]
//   node --import tsx bench/measure-distributions.ts --generated 10000   (the generator's output, to compare)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DEFAULT_SITES } from '../src/domain/sites.js';
import { fromWikidata, newReport } from '../src/domain/wikidata.js';
import type { Entity, Snak } from '../src/domain/entity.js';
import { DECILES, type Distributions } from './distributions.js';
import { DEFAULT_SEED, generateItem, generatorContext } from './generate.js';

const DATA = '/work/shared/data/wikidata';
const DEFAULT_FILES = [`${DATA}/short_stream.json.bz2`, `${DATA}/sample_wikidata_items.json.bz2`];

/** Dump lines (one entity per line, optionally inside `[`…`]` with trailing commas) through bzcat. */
async function* dumpEntities(path: string): AsyncGenerator<Record<string, unknown>> {
  const child = spawn('bzcat', [path], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const raw of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    const line = raw.trim().replace(/,$/, '');
    if (line.startsWith('{')) yield JSON.parse(line);
  }
}

/** Languages and sites kept in distributions.json, most frequent first (the long tail is drawn uniformly). */
const TOP = 60;

type Samples = Record<string, number[]>;

interface Tallies {
  languages: Record<string, number>;
  sites: Record<string, number>;
  dataTypes: Record<string, number>;
  valueTypes: Record<string, number>;
  qualifiers: Record<string, number>;
  references: Record<string, number>;
}

function push(samples: Samples, name: string, value: number): void {
  (samples[name] ??= []).push(value);
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

const codePoints = (s: string) => [...s].length;

/** Every per-entity and per-part measure the generator needs. */
function measure(e: Entity, samples: Samples, tallies: Tallies): void {
  for (const lang of Object.keys(e.labels)) count(tallies.languages, lang);
  for (const site of Object.keys(e.sitelinks ?? {})) count(tallies.sites, site);
  push(samples, 'labels', Object.keys(e.labels).length);
  push(samples, 'descriptions', Object.keys(e.descriptions).length);
  push(samples, 'aliasLanguages', Object.keys(e.aliases).length);
  push(samples, 'sitelinks', Object.keys(e.sitelinks ?? {}).length);
  push(samples, 'bytes', Buffer.byteLength(JSON.stringify(e)));
  for (const text of Object.values(e.labels)) push(samples, 'labelLength', codePoints(text));
  for (const text of Object.values(e.descriptions)) push(samples, 'descriptionLength', codePoints(text));
  for (const list of Object.values(e.aliases)) {
    push(samples, 'aliasesPerLanguage', list.length);
    for (const text of list) push(samples, 'aliasLength', codePoints(text));
  }
  const groups = Object.values(e.statements);
  push(samples, 'statements', groups.reduce((n, g) => n + g.length, 0));
  push(samples, 'properties', groups.length);
  for (const group of groups) {
    for (const s of group) {
      count(tallies.dataTypes, s.property['data-type'] ?? 'unknown');
      count(tallies.valueTypes, s.value.type);
      push(samples, 'qualifiers', s.qualifiers.length);
      push(samples, 'references', s.references.length);
      for (const r of s.references) push(samples, 'referenceParts', r.parts.length);
      const content = (s.value as { content?: unknown }).content;
      if (typeof content === 'string' && s.property['data-type'] !== 'wikibase-item') {
        push(samples, 'stringValueLength', codePoints(content));
      }
    }
  }
}

/** Deciles (min, p10 … p90, max) by the nearest-rank method. */
function deciles(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  return DECILES.map((q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]);
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Each key's share of the total, largest first; `top` keeps only the most frequent keys. */
function shares(counts: Record<string, number>, top = Infinity): Record<string, number> {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const out: Record<string, number> = {};
  const sorted = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top);
  for (const [k, n] of sorted) out[k] = Number((n / total).toFixed(4));
  return out;
}

/** Snaks used as qualifiers and reference parts: their data types, for the generator's choice of property. */
function snakDataTypes(e: Entity, counts: Tallies): void {
  const dt = (s: Snak) => s.property['data-type'] ?? 'unknown';
  for (const group of Object.values(e.statements)) {
    for (const s of group) {
      for (const q of s.qualifiers) count(counts.qualifiers, dt(q));
      for (const r of s.references) for (const p of r.parts) count(counts.references, dt(p));
    }
  }
}

/** The items to measure: the real samples, or (`--generated N`) the first N items of the benchmark's data. */
async function* itemsToMeasure(argv: string[]): AsyncGenerator<Entity> {
  const generated = argv.indexOf('--generated');
  if (generated >= 0) {
    const count = Number(argv[generated + 1]);
    const ctx = generatorContext(DEFAULT_SEED, count);
    for (let n = 1; n <= count; n++) yield generateItem(ctx, n);
    return;
  }
  const files = argv.filter((a) => a.endsWith('.bz2') || a.endsWith('.json'));
  const report = newReport();
  for (const path of files.length ? files : DEFAULT_FILES) {
    for await (const raw of dumpEntities(path)) {
      const entity = fromWikidata(raw, DEFAULT_SITES, report);
      if (entity && entity.type === 'item') yield entity;
    }
  }
}

async function main(argv: string[]): Promise<void> {
  const write = argv.includes('--write');
  const generated = argv.includes('--generated');
  if (write && generated) throw new Error('--write stores the measure of the real samples, not of generated data');
  const samples: Samples = {};
  const tallies: Tallies = { languages: {}, sites: {}, dataTypes: {}, valueTypes: {}, qualifiers: {}, references: {} };
  let items = 0;
  for await (const entity of itemsToMeasure(argv)) {
    items++;
    measure(entity, samples, tallies);
    snakDataTypes(entity, tallies);
  }
  const files = argv.filter((a) => a.endsWith('.bz2') || a.endsWith('.json'));
  const result: Distributions = {
    source: generated
      ? `${items} generated items (seed ${DEFAULT_SEED}, bench/generate.ts)`
      : `${items} items from ${(files.length ? files : DEFAULT_FILES).map((s) => s.split('/').pop()).join(', ')}, converted with fromWikidata`,
    quantiles: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, deciles(v)])),
    means: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, Number(mean(v).toFixed(2))])),
    dataTypes: shares(tallies.dataTypes),
    qualifierDataTypes: shares(tallies.qualifiers),
    referenceDataTypes: shares(tallies.references),
    valueTypes: shares(tallies.valueTypes),
    languages: shares(tallies.languages, TOP),
    sites: shares(tallies.sites, TOP),
  };
  console.log(markdown(result));
  if (write) {
    // Quantile arrays on one line each, so that a re-measurement reads as a small diff.
    const text = JSON.stringify(result, null, 2).replace(/\[\s+([-\d.,\s]+?)\s+\]/g, (_, list: string) => `[${list.split(/,\s*/).join(', ')}]`);
    writeFileSync(new URL('./distributions.json', import.meta.url), text + '\n');
    console.log('\nwrote bench/distributions.json');
  }
}

/** The table for bench/README.md. */
export function markdown(d: Distributions): string {
  const lines = [
    `Measured from ${d.source}.`, '',
    '| measure | mean | min | p10 | p20 | p30 | p40 | p50 | p60 | p70 | p80 | p90 | max |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, q] of Object.entries(d.quantiles)) lines.push(`| ${name} | ${d.means[name]} | ${q.join(' | ')} |`);
  const pct = (s: Record<string, number>) =>
    Object.entries(s).map(([k, v]) => `${k} ${(v * 100).toFixed(1)}%`).join(', ');
  lines.push('', `Statement data types: ${pct(d.dataTypes)}.`, '', `Qualifier data types: ${pct(d.qualifierDataTypes)}.`,
    '', `Reference-part data types: ${pct(d.referenceDataTypes)}.`, '', `Statement value types: ${pct(d.valueTypes)}.`,
    '', `Most frequent label languages: ${pct(Object.fromEntries(Object.entries(d.languages).slice(0, 20)))}.`,
    '', `Most frequent sitelink sites: ${pct(Object.fromEntries(Object.entries(d.sites).slice(0, 20)))}.`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
