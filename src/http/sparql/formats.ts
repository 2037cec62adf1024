// What a SPARQL result is written as (SPARQL 1.1 Protocol §2.1): by the `format` parameter (the Query Service's
// `format=json`), else by Accept, else JSON for SELECT and ASK and Turtle for CONSTRUCT and DESCRIBE.
import negotiator from '@fastify/accept-negotiator';
import { fail } from '../../domain/errors.js';
import type { QueryForm } from '../../sparql/query.js';

export interface ResultFormat {
  /** The engine's name of the format. */
  engine: string;
  contentType: string;
}

const RESULTS: Record<string, ResultFormat> = {
  json: { engine: 'json', contentType: 'application/sparql-results+json; charset=utf-8' },
  xml: { engine: 'xml', contentType: 'application/sparql-results+xml; charset=utf-8' },
  csv: { engine: 'csv', contentType: 'text/csv; charset=utf-8' },
  tsv: { engine: 'tsv', contentType: 'text/tab-separated-values; charset=utf-8' },
};
const GRAPHS: Record<string, ResultFormat> = {
  turtle: { engine: 'text/turtle', contentType: 'text/turtle; charset=utf-8' },
  ntriples: { engine: 'application/n-triples', contentType: 'application/n-triples; charset=utf-8' },
  jsonld: { engine: 'application/ld+json', contentType: 'application/ld+json; charset=utf-8' },
  rdfxml: { engine: 'application/rdf+xml', contentType: 'application/rdf+xml; charset=utf-8' },
};

/** `format=` values, as the Query Service and common clients spell them. */
const RESULT_NAMES: Record<string, string> = { json: 'json', 'application/sparql-results+json': 'json', xml: 'xml',
  'application/sparql-results+xml': 'xml', csv: 'csv', 'text/csv': 'csv', tsv: 'tsv', 'text/tab-separated-values': 'tsv' };
const GRAPH_NAMES: Record<string, string> = { turtle: 'turtle', ttl: 'turtle', 'text/turtle': 'turtle', nt: 'ntriples',
  ntriples: 'ntriples', 'n-triples': 'ntriples', 'application/n-triples': 'ntriples', json: 'jsonld', jsonld: 'jsonld',
  'json-ld': 'jsonld', 'application/ld+json': 'jsonld', xml: 'rdfxml', rdfxml: 'rdfxml', 'application/rdf+xml': 'rdfxml' };

const RESULT_TYPES: Record<string, string> = { 'application/sparql-results+json': 'json', 'application/json': 'json',
  'application/sparql-results+xml': 'xml', 'application/xml': 'xml', 'text/xml': 'xml', 'text/csv': 'csv', 'text/tab-separated-values': 'tsv' };
const GRAPH_TYPES: Record<string, string> = { 'text/turtle': 'turtle', 'application/x-turtle': 'turtle', 'application/n-triples': 'ntriples',
  'text/plain': 'ntriples', 'application/ld+json': 'jsonld', 'application/json': 'jsonld', 'application/rdf+xml': 'rdfxml' };
const RESULT_NEGOTIATOR = new negotiator.Negotiator({ supportedValues: Object.keys(RESULT_TYPES) });
const GRAPH_NEGOTIATOR = new negotiator.Negotiator({ supportedValues: Object.keys(GRAPH_TYPES) });

export function resultFormat(form: QueryForm, format: unknown, accept: string | undefined): ResultFormat {
  const graph = form === 'CONSTRUCT' || form === 'DESCRIBE';
  if (format !== undefined) {
    const name = typeof format === 'string' ? (graph ? GRAPH_NAMES : RESULT_NAMES)[format.toLowerCase()] : undefined;
    if (!name) fail('invalid-query-parameter', { parameter: 'format' });
    return (graph ? GRAPHS : RESULTS)[name];
  }
  const type = accept ? (graph ? GRAPH_NEGOTIATOR : RESULT_NEGOTIATOR).negotiate(accept) : null;
  if (graph) return GRAPHS[type ? GRAPH_TYPES[type] : 'turtle'];
  return RESULTS[type ? RESULT_TYPES[type] : 'json'];
}
