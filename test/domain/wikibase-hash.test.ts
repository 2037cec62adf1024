// Snak and reference hashes as Wikibase computes them (ADR 0012): every hash in the Wikidata samples is
// recomputed from its snak and must be the one Wikidata wrote; PHP's float notation, which the coordinate hash
// depends on, case by case.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { phpFloat, phpNumberText, referenceHash, snakHash, valueHash } from '../../src/domain/wikibase-hash.js';

const SAMPLES = process.env.ENTIA_WIKIDATA_SAMPLES ?? join(import.meta.dirname, '../../../shared/data/wikidata');
const FIXTURE = new URL('../fixtures/wikidata-excerpt.jsonl', import.meta.url);
/** Upstream Wikibase's RDF test data: input entities and the N-Triples Wikibase writes for them. */
const RDF_DATA = process.env.ENTIA_WIKIBASE_RDF ?? join(import.meta.dirname, '../../../shared/data/wikibase-rdf/repo/tests/phpunit/data/rdf');

/** The entities of a sample file: a Special:EntityData document, or a dump (one entity per line), .bz2 or not. */
function entitiesOf(file: string): any[] {
  const text = file.endsWith('.bz2') ? execFileSync('bzcat', [file], { maxBuffer: 1 << 30 }).toString('utf8') : readFileSync(file, 'utf8');
  const trimmed = text.trim();
  if (trimmed.startsWith('{"entities"') || trimmed.startsWith('{\n')) {
    const doc = JSON.parse(trimmed);
    return doc.entities ? Object.values(doc.entities) : [doc];
  }
  return trimmed.split('\n').map((l) => l.trim().replace(/,$/, '')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

/** Every (given, computed) pair of hashes in the entities' statements, by kind of snak. */
function compare(entities: any[]) {
  const mismatches: string[] = [];
  let checked = 0;
  const check = (given: string | undefined, computed: () => string, what: unknown) => {
    if (given === undefined) return;
    checked++;
    const got = computed();
    if (got !== given) mismatches.push(`${JSON.stringify(what).slice(0, 200)}: ${got}`);
  };
  for (const entity of entities) {
    for (const statement of Object.values(entity.claims ?? {}).flat() as any[]) {
      check(statement.mainsnak.hash, () => snakHash(statement.mainsnak), statement.mainsnak);
      for (const q of Object.values(statement.qualifiers ?? {}).flat() as any[]) check(q.hash, () => snakHash(q), q);
      for (const reference of statement.references ?? []) {
        const snaks = Object.values(reference.snaks).flat() as any[];
        for (const s of snaks) check(s.hash, () => snakHash(s), s);
        check(reference.hash, () => referenceHash(snaks), reference);
      }
    }
  }
  return { checked, mismatches };
}

describe('Wikibase hashes', () => {
  it('gives the hashes of the excerpt\'s snaks (strings, ids, monolingual text, times)', () => {
    const entities = readFileSync(FIXTURE, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const { checked, mismatches } = compare(entities);
    assert.ok(checked >= 18, `${checked} hashes`);
    assert.deepEqual(mismatches, []);
  });

  it('gives every snak and reference hash of every Wikidata sample file', { skip: existsSync(SAMPLES) ? false : `no samples at ${SAMPLES}` }, () => {
    const files = ['Q31.json', 'Q8502.json', 'short_stream.json.bz2', 'sample_wikidata_items.json.bz2'].map((f) => join(SAMPLES, f));
    const { checked, mismatches } = compare(files.flatMap(entitiesOf));
    assert.ok(checked > 35_000, `${checked} hashes`);
    assert.deepEqual(mismatches.slice(0, 5), []);
  });

  it('hashes novalue and somevalue snaks by their property, and a reference whatever the order of its snaks', () => {
    assert.notEqual(snakHash({ snaktype: 'novalue', property: 'P1' }), snakHash({ snaktype: 'somevalue', property: 'P1' }));
    const a = { snaktype: 'value', property: 'P1', datavalue: { type: 'string', value: 'a' } };
    const b = { snaktype: 'novalue', property: 'P2' };
    assert.equal(referenceHash([a, b]), referenceHash([b, a]));
  });

  it('names every value node (wdv:) of upstream\'s RDF test data by its value\'s hash', { skip: existsSync(RDF_DATA) ? false : `no upstream RDF test data at ${RDF_DATA}` }, () => {
    const datasets: Record<string, string> = { Q4: 'Q4_values', Q6: 'Q6_values', Q7: 'Q7_values', Q8: 'Q8_baddates' };
    const ids = Object.keys(datasets);
    const expected = new Set<string>();
    for (const id of ids) {
      for (const m of readFileSync(join(RDF_DATA, 'RdfBuilder', `${datasets[id]}.nt`), 'utf8').matchAll(/<[^>]*\/value\/([0-9a-f]{32})> <http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#type>/g)) {
        expected.add(m[1]);
      }
    }
    const computed = new Set<string>();
    for (const id of ids) {
      const entity = JSON.parse(readFileSync(join(RDF_DATA, 'entities', `${id}.json`), 'utf8'));
      for (const statement of Object.values(entity.claims).flat() as any[]) {
        const snaks = [statement.mainsnak, ...Object.values(statement.qualifiers ?? {}).flat(),
          ...(statement.references ?? []).flatMap((r: any) => Object.values(r.snaks).flat())] as any[];
        for (const snak of snaks) {
          if (['time', 'quantity', 'globecoordinate'].includes(snak.datavalue?.type)) computed.add(valueHash(snak.datavalue));
        }
      }
    }
    assert.ok(expected.size >= 5, `${expected.size} value nodes`);
    assert.deepEqual([...expected].filter((h) => !computed.has(h)), [], 'value nodes no value hashes to');
  });

  it('writes floats as PHP does', () => {
    const cases: [number, string][] = [[4, '4.0'], [-0.5, '-0.5'], [50.833333333333, '50.833333333333'], [0.0001, '0.0001'],
      [0.00001, '1.0e-5'], [0.00027777777777778, '0.00027777777777778'], [1e25, '1.0e+25'], [123456789012345680, '1.2345678901234568e+17'],
      [12345678901234567, '12345678901234568.0'], [0, '0.0']];
    for (const [n, php] of cases) assert.equal(phpFloat(n), php, String(n));
    // PHP's string conversion (precision 14), which a coordinate's value hash and RDF literals use.
    const strings: [number, string][] = [[4, '4'], [-0.5, '-0.5'], [0.0625, '0.0625'], [0.0001, '0.0001'], [0.00001, '1.0E-5'],
      [52.123456789012345, '52.123456789012'], [1 / 3600, '0.00027777777777778'], [1e15, '1.0E+15'], [123456789012346, '1.2345678901235E+14'],
      [12345678901234, '12345678901234'], [0, '0']];
    for (const [n, php] of strings) assert.equal(phpNumberText(n), php, String(n));
  });
});
