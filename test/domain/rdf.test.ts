// RDF as Wikibase writes it (issue #33): each of upstream Wikibase's RDF test entities goes through Entia's own
// path (the dump form read by the import, the stored entity written back as the dump form) into the RDF
// builder, and the N-Triples must equal, as graphs, the files Wikibase's RdfBuilderTest expects for it with
// every part produced. Blank node labels are compared as one (upstream's own `allBlanksEqual` comparison).
// The data is upstream's (GPL, not copied here): the test skips with its reason where it is absent.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { entityTriples, propertyComponents } from '../../src/domain/rdf.js';
import { buildSiteTable } from '../../src/domain/sites.js';
import { fromWikidata, newReport } from '../../src/domain/wikidata.js';
import { toWikidata } from '../../src/domain/wikidata-export.js';

const RDF_DATA = process.env.ENTIA_WIKIBASE_RDF ?? join(import.meta.dirname, '../../../shared/data/wikibase-rdf/repo/tests/phpunit/data/rdf');
const skip = existsSync(RDF_DATA) ? false : `no upstream RDF test data at ${RDF_DATA}`;

/** RdfBuilderTestData: its vocabulary, sites and property data types. */
const VOCABULARY = { conceptBase: 'http://acme.test/', dataBase: 'http://data.acme.test/' };
const SITES = buildSiteTable({ sites: {
  enwiki: { group: 'wikipedia', language: 'en', url: 'http://enwiki.acme.test/$1' },
  ruwiki: { group: 'none', language: 'ru', url: 'http://ruwiki.acme.test/$1' }, // upstream's has no group: written as "none"
} });
const PROPERTY_TYPES: Record<string, string> = {
  P2: 'wikibase-item', P3: 'commonsMedia', P4: 'globe-coordinate', P5: 'monolingualtext', P6: 'quantity', P7: 'string',
  P8: 'time', P9: 'url', P10: 'geo-shape', P11: 'external-id',
};

/** RdfBuilderTest::provideAddEntity: each entity with the data sets PRODUCE_ALL gives for it. */
const CASES: [string, string[]][] = [
  ['Q1', ['Q1_info']],
  ['Q2', ['Q2_meta', 'Q2_version', 'Q2_stub', 'Q2_aliases']],
  ['Q3', ['Q3_meta', 'Q3_version', 'Q3_sitelinks']],
  ['Q4', ['Q4_meta', 'Q4_version', 'Q4_statements', 'Q4_direct', 'Q4_values']],
  ['Q5', ['Q5_badges']],
  ['Q6', ['Q6_meta', 'Q6_version', 'Q6_statements', 'Q6_qualifiers', 'Q6_values', 'Q6_referenced']],
  ['Q7', ['Q7_meta', 'Q7_version', 'Q7_statements', 'Q7_reference_refs', 'Q7_references', 'Q7_values']],
  ['Q8', ['Q8_baddates']],
];

/** Sorted, distinct lines with every blank node label made one. */
function normalised(lines: string[]): string[] {
  return [...new Set(lines.map((l) => l.trim()).filter(Boolean).map((l) => l.replace(/_:\w+/g, '_:#')))].sort();
}

/** The upstream entity as Entia reads and stores it: the snaks' data types are the test's properties'. */
function throughEntia(id: string): Record<string, unknown> {
  const raw = JSON.parse(readFileSync(join(RDF_DATA, 'entities', `${id}.json`), 'utf8'));
  for (const claims of Object.values(raw.claims ?? {}) as any[][]) {
    for (const claim of claims) {
      const snaks = [claim.mainsnak, ...Object.values(claim.qualifiers ?? {}).flat(),
        ...(claim.references ?? []).flatMap((r: any) => Object.values(r.snaks).flat())] as any[];
      for (const snak of snaks) snak.datatype = PROPERTY_TYPES[snak.property];
    }
  }
  const report = newReport();
  const entity = fromWikidata(raw, SITES, report);
  assert.ok(entity, id);
  assert.deepEqual([report.droppedTerms, report.droppedSitelinks, report.droppedStatements], [0, 0, 0], `${id}: nothing dropped`);
  return toWikidata(entity);
}

describe('RDF as Wikibase writes it: upstream\'s RdfBuilder test data', { skip }, () => {
  for (const [id, datasets] of CASES) {
    it(`${id}: ${datasets.join(' + ')}`, () => {
      const expected = normalised(datasets.flatMap((name) => readFileSync(join(RDF_DATA, 'RdfBuilder', `${name}.nt`), 'utf8').split('\n')));
      const actual = normalised(entityTriples(throughEntia(id), {
        vocabulary: VOCABULARY, sites: SITES, flavor: 'full', revision: { id: 42, modified: '2013-10-04T03:31:05Z' } }));
      const missing = expected.filter((l) => !actual.includes(l));
      const extra = actual.filter((l) => !expected.includes(l));
      assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
    });
  }
});

describe('RDF of a property: upstream\'s PropertyRdfBuilder test data', { skip }, () => {
  it('P2 (string): its data type, the predicates named after it and its novalue class', () => {
    const expected = normalised(readFileSync(join(RDF_DATA, 'PropertyRdfBuilder', 'P2_all.nt'), 'utf8').split('\n'));
    // Here the blank node's label is compared too: Wikibase derives it from the property (md5 of its place).
    const exact = (lines: string[]) => [...new Set(lines.map((l) => l.trim()).filter(Boolean))].sort();
    assert.deepEqual(exact(propertyComponents(VOCABULARY, 'P2', 'string')), exact(readFileSync(join(RDF_DATA, 'PropertyRdfBuilder', 'P2_all.nt'), 'utf8').split('\n')));
    const whole = normalised(entityTriples(toWikidata(fromWikidata(JSON.parse(readFileSync(join(RDF_DATA, 'entities', 'P2.json'), 'utf8')), SITES, newReport())!),
      { vocabulary: VOCABULARY, sites: SITES, flavor: 'full' }));
    assert.deepEqual(expected.filter((l) => !whole.includes(l)), [], 'the property\'s own RDF includes them');
  });
});
