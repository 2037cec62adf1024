// Which queries are read on the server's event loop (sparql/preparer.ts): only those short and shallow enough
// that reading them cannot hold the loop up. Nesting is what makes sparqljs slow (900 nested brackets, 1.8 KB,
// took 71 ms; 2,000 took seconds), so a short text with many brackets goes to the reading thread too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readsAtOnce } from '../../src/sparql/query.js';

describe('reading a query on the event loop', () => {
  it('takes a single-entity query and the Query Service\'s short examples', () => {
    assert.equal(readsAtOnce('SELECT ?p ?o WHERE { wd:Q42 ?p ?o }'), true);
    assert.equal(readsAtOnce('SELECT ?item ?itemLabel WHERE { ?item wdt:P31 wd:Q146. SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],en". } }'), true);
  });

  it('leaves every query past 256 characters or 8 brackets to the reading thread', () => {
    const padded = (n: number) => `ASK { ?s ?p ?o }${' '.repeat(n - 16)}`;
    assert.equal(readsAtOnce(padded(256)), true);
    assert.equal(readsAtOnce(padded(257)), false);
    assert.equal(readsAtOnce(`ASK ${'{'.repeat(8)}${'}'.repeat(8)}`), true);
    assert.equal(readsAtOnce(`ASK ${'{'.repeat(9)}${'}'.repeat(9)}`), false);
    assert.equal(readsAtOnce(`ASK { FILTER(${'('.repeat(8)}1${')'.repeat(8)}) }`), false);
    assert.equal(readsAtOnce(`SELECT * WHERE { ?s ?p ?o } VALUES ?x ${'['.repeat(9)}`), false);
  });
});
