// A SPARQL query as the Query Service takes it, made into one the engine runs: its prefixes predeclared
// (queries copied from query.wikidata.org name `wd:`, `wdt:`, … without declaring them), updates refused, and
// the label service (`SERVICE wikibase:label`), which no standard engine has, written out as the standard
// patterns that compute the same thing from the entities' own `rdfs:label`, `schema:description` and
// `skos:altLabel` triples. Parsing uses sparqljs; a query without the service goes to the engine as written.
import sparqljs from 'sparqljs';
import { instancePrefixes, VOCABULARIES, type RdfVocabulary } from '../domain/rdf-vocabulary.js';
import { genidBase } from './mirror-triples.js';

export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

export interface PreparedQuery {
  form: QueryForm;
  /** The text the engine runs. */
  text: string;
}

/** Why a query cannot run: not SPARQL, or an update. */
export class QueryRefused extends Error {
  constructor(message: string, readonly update = false) {
    super(message);
  }
}

/** The Query Service's predeclared prefixes, with the instance's own namespaces for the Wikibase ones. */
export function queryServicePrefixes(vocabulary: RdfVocabulary): Record<string, string> {
  return {
    ...instancePrefixes(vocabulary), ...VOCABULARIES,
    geof: 'http://www.opengis.net/def/geosparql/function/', bd: 'http://www.bigdata.com/rdf#',
    ontolex: 'http://www.w3.org/ns/lemon/ontolex#', dct: 'http://purl.org/dc/terms/',
    hint: HINT, mwapi: 'https://www.mediawiki.org/ontology#API/',
  };
}

const WIKIBASE_LABEL = `${VOCABULARIES.wikibase}label`;
const IS_SOME_VALUE = `${VOCABULARIES.wikibase}isSomeValue`;
const HINT = 'http://www.bigdata.com/queryHints#';
const SERVICE_PARAM = 'http://www.bigdata.com/rdf#serviceParam';
const LANGUAGE = `${VOCABULARIES.wikibase}language`;
const RDFS_LABEL = `${VOCABULARIES.rdfs}label`;
const DESCRIPTION = `${VOCABULARIES.schema}description`;
const ALT_LABEL = `${VOCABULARIES.skos}altLabel`;
/** What each output of the service reads, by the suffix of its automatic variable. */
const SUFFIXES: [string, string][] = [['AltLabel', ALT_LABEL], ['Label', RDFS_LABEL], ['Description', DESCRIPTION]];

type Node = Record<string, any>;

/** A query read, or why it was refused, as plain data (it may cross from the reading thread). */
export type QueryReading = { prepared: PreparedQuery } | { refused: { message: string; update: boolean } };

/** prepareQuery, its failures as a refusal: a parser that overflows its stack is a query nested too deeply. */
export function readQuery(text: string, vocabulary: RdfVocabulary, language: string): QueryReading {
  try {
    return { prepared: prepareQuery(text, vocabulary, language) };
  } catch (e) {
    const refused = e instanceof QueryRefused ? e
      : new QueryRefused(e instanceof RangeError ? NESTED_TOO_DEEPLY : `the query could not be read: ${(e as Error).message}`);
    return { refused: { message: refused.message, update: refused.update } };
  }
}

/**
 * Whether a query is short and shallow enough to read on the event loop instead of the reading thread: at
 * most 256 characters with at most 8 brackets. Reading such a text took 2 ms at worst (adversarial texts of
 * that size: nested brackets, 40-step property paths, 70-term sums, 40 VALUES; 2026-11-29), while sending a
 * single-entity query to the thread and back cost 0.44 ms (median) and 2.7 ms (p99) against 0.14 ms to read it.
 */
export function readsAtOnce(text: string): boolean {
  if (text.length > 256) return false;
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x28 || c === 0x7b || c === 0x5b) && ++brackets > 8) return false; // ( { [
  }
  return true;
}

/**
 * Prepares a query. `language`: what `[AUTO_LANGUAGE]` stands for (the request's `uselang`, or English).
 * Throws QueryRefused for text that is not a SPARQL query.
 */
export function prepareQuery(text: string, vocabulary: RdfVocabulary, language: string): PreparedQuery {
  const prefixes = queryServicePrefixes(vocabulary);
  let parsed: Node;
  try {
    parsed = new sparqljs.Parser({ prefixes }).parse(text) as Node;
  } catch (e) {
    throw new QueryRefused(parseProblem(e as Error));
  }
  if (parsed.type === 'update') throw new QueryRefused('this endpoint is read only: SPARQL Update is not accepted here', true);
  if (depthOf(parsed) > MAX_DEPTH) throw new QueryRefused(NESTED_TOO_DEEPLY);
  const form = parsed.queryType as QueryForm;
  const written = JSON.stringify(parsed.where ?? []);
  if (![WIKIBASE_LABEL, HINT, IS_SOME_VALUE].some((iri) => written.includes(iri))) {
    // As written, after the prefixes it may use without declaring; its own declarations come later and win.
    const declared = Object.entries(prefixes).map(([p, iri]) => `PREFIX ${p}: <${iri}>`).join('\n');
    return { form, text: `${declared}\n${text}` };
  }
  const context = { vocabulary, language, variables: variablesOf(parsed), bound: boundVariables(parsed), counter: 0 };
  rewriteGroups(parsed, context);
  dropHints(parsed);
  rewriteSomeValue(parsed, genidBase(vocabulary));
  return { form, text: new sparqljs.Generator({ prefixes: {} }).stringify(parsed as sparqljs.SparqlQuery) };
}

/**
 * Blazegraph's query hints (`hint:Query hint:optimizer "None"`), which the Query Service's examples carry, are
 * directions to its optimiser, not data: as triple patterns they would match nothing, so they are left out.
 */
function dropHints(query: Node): void {
  const isHint = (term: Node) => term.termType === 'NamedNode' && String(term.value).startsWith(HINT);
  walk(query.where, (n) => {
    if (n.type === 'bgp') n.triples = (n.triples as Node[]).filter((t) => !isHint(t.subject) && !isHint(t.predicate));
  });
}

/**
 * The Query Service's `wikibase:isSomeValue(?x)`: whether a value is a somevalue node, which the engine holds as
 * a skolem IRI (mirror-triples.ts), as the Query Service does: `STRSTARTS(STR(?x), "…/.well-known/genid/")`.
 */
function rewriteSomeValue(query: Node, genid: string): void {
  walk(query, (n) => {
    if (n.type !== 'functionCall' || n.function?.value !== IS_SOME_VALUE) return;
    const argument = n.args[0];
    for (const key of Object.keys(n)) delete n[key];
    Object.assign(n, { type: 'operation', operator: 'strstarts', args: [
      { type: 'operation', operator: 'str', args: [argument] },
      { termType: 'Literal', value: genid, language: '', datatype: { termType: 'NamedNode', value: `${VOCABULARIES.xsd}string` } },
    ] });
    return false;
  });
}

/**
 * How deep a parsed query may be (levels of its JSON: a group inside a group adds two). Oxigraph evaluates by
 * recursion: on 2026-11-28 it overflowed its stack at 800 nested groups or 800 chained `||` (depth 1,606), which
 * traps its WebAssembly and leaves the engine to be restarted; 400 (806) ran. A query of the Query Service's
 * examples is a few dozen deep.
 */
const MAX_DEPTH = 600;
export const NESTED_TOO_DEEPLY = 'the query is nested too deeply to be read (more than some 300 groups or operators within each other)';

/** The depth of a parsed query's JSON, walked without recursion (the tree may be deep). */
function depthOf(root: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    max = Math.max(max, depth);
    for (const child of Object.values(node as object)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return max;
}

/** Where sparqljs's parser stopped and at what (its error's `hash`). */
interface ParseFailure { token?: string; text?: string; loc?: { first_line: number; first_column: number } }

/**
 * The parser's complaint in one line a person can act on: where it stopped and at what. Its own message is
 * "Parse error on line 1:", then the text and a caret, then every token it would have taken (dozens).
 */
function parseProblem(error: Error & { hash?: ParseFailure }): string {
  const { token, text, loc } = error.hash ?? {};
  if (!loc) return error.message.split('\n')[0].slice(0, 500);
  const found = token === 'EOF' ? 'the query ends early' : `unexpected "${String(text).slice(0, 40)}"`;
  const near = error.message.split('\n')[1]?.slice(-60) ?? '';
  return `line ${loc.first_line}, column ${loc.first_column + 1}: ${found}${near ? ` near "${near}"` : ''}`;
}

interface Context {
  vocabulary: RdfVocabulary;
  language: string;
  /** Every variable the query names anywhere. */
  variables: Set<string>;
  /** Variables a pattern outside the label service binds: the service never overwrites them. */
  bound: Set<string>;
  counter: number;
}

function walk(node: unknown, visit: (n: Node) => boolean | void): void {
  if (Array.isArray(node)) { for (const item of node) walk(item, visit); return; }
  if (node === null || typeof node !== 'object') return;
  if (visit(node as Node) === false) return;
  for (const value of Object.values(node)) walk(value, visit);
}

function variablesOf(query: Node): Set<string> {
  const names = new Set<string>();
  walk(query, (n) => { if (n.termType === 'Variable') names.add(n.value); });
  return names;
}

function isLabelService(n: Node): boolean {
  return n.type === 'service' && n.name?.termType === 'NamedNode' && n.name.value === WIKIBASE_LABEL;
}

function boundVariables(query: Node): Set<string> {
  const names = new Set<string>();
  walk(query.where, (n) => {
    if (isLabelService(n)) return false;
    if (n.type === 'bgp') walk(n.triples, (t) => { if (t.termType === 'Variable') names.add(t.value); });
    if (n.type === 'bind' && n.variable) names.add(n.variable.value);
    if (n.type === 'values') for (const row of n.values) for (const key of Object.keys(row)) names.add(key.replace(/^\?/, ''));
  });
  return names;
}

/** Replaces each label service, in whatever group holds it, by the patterns it stands for. */
function rewriteGroups(node: unknown, context: Context): void {
  walk(node, (n) => {
    for (const key of ['where', 'patterns']) {
      const list = n[key];
      if (!Array.isArray(list)) continue;
      n[key] = list.flatMap((child: Node) => (isLabelService(child) ? labelPatterns(child, context) : [child]));
    }
  });
}

interface Output {
  /** The entity (or value) variable. */
  subject: string;
  /** The variable the label, description or aliases go to. */
  target: string;
  predicate: string;
}

/** The service's outputs: those it names (the explicit form), else every `?xLabel`-like variable of a bound `?x`. */
function serviceOutputs(service: Node, context: Context): { languages: string[]; outputs: Output[] } {
  let languages: string[] = [];
  const explicit: Output[] = [];
  walk(service.patterns, (n) => {
    if (n.type !== 'bgp') return;
    for (const t of n.triples as Node[]) {
      if (t.subject.value === SERVICE_PARAM && t.predicate.value === LANGUAGE) {
        languages = String(t.object.value).split(',').map((l) => l.trim()).filter(Boolean);
      } else if (t.subject.termType === 'Variable' && t.object.termType === 'Variable'
        && [RDFS_LABEL, DESCRIPTION, ALT_LABEL].includes(t.predicate.value)) {
        explicit.push({ subject: t.subject.value, target: t.object.value, predicate: t.predicate.value });
      }
    }
  });
  languages = languages.map((l) => (l === '[AUTO_LANGUAGE]' ? context.language : l.toLowerCase()))
    .filter((l) => /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(l));
  if (languages.length === 0) languages = [context.language];
  if (explicit.length > 0) return { languages, outputs: explicit };
  const outputs: Output[] = [];
  for (const name of context.variables) {
    if (context.bound.has(name)) continue;
    const suffix = SUFFIXES.find(([s]) => name.endsWith(s) && name.length > s.length);
    if (!suffix) continue;
    const subject = name.slice(0, -suffix[0].length);
    if (context.variables.has(subject)) outputs.push({ subject, target: name, predicate: suffix[1] });
  }
  return { languages, outputs };
}

/**
 * The standard patterns of one service: per output and language an optional match, then the first language
 * that has one. A label falls back to the entity's id (as the Query Service's does); aliases are joined by
 * ", " in the first language that has any.
 */
function labelPatterns(service: Node, context: Context): Node[] {
  const { languages, outputs } = serviceOutputs(service, context);
  if (outputs.length === 0) return [];
  const base = context.vocabulary.conceptBase;
  const lines: string[] = [];
  for (const { subject, target, predicate } of outputs) {
    const candidates: string[] = [];
    for (const language of languages) {
      const v = `?entia_label_${context.counter++}`;
      candidates.push(v);
      if (predicate === ALT_LABEL) {
        const a = `?entia_alias_${context.counter++}`;
        lines.push(`OPTIONAL { SELECT ?${subject} (GROUP_CONCAT(${a}; separator=", ") AS ${v}) WHERE { ?${subject} <${predicate}> ${a} `
          + `FILTER(LANG(${a}) = "${language}") } GROUP BY ?${subject} }`);
      } else {
        lines.push(`OPTIONAL { ?${subject} <${predicate}> ${v} FILTER(LANG(${v}) = "${language}") }`);
      }
    }
    if (predicate === RDFS_LABEL) {
      candidates.push(`IF(isIRI(?${subject}) && STRSTARTS(STR(?${subject}), "${base}"), STRAFTER(STR(?${subject}), "${base}"), STR(?${subject}))`);
    }
    lines.push(`BIND(COALESCE(${candidates.join(', ')}) AS ?${target})`);
  }
  const parsed = new sparqljs.Parser().parse(`SELECT * WHERE { ${lines.join('\n')} }`) as Node;
  return parsed.where;
}
