// N-Triples terms and lines as Wikibase's RDF writer (rdf.ts) spells them: IRIs with unsafe characters
// percent-encoded, literals in ASCII with escapes, each line written once. Pure.

/** An IRI term; characters an IRI may not hold are percent-encoded (a URL value can hold anything). */
const IRI_UNSAFE = /[\u0000-\u0020<>"{}|^`\\]/;
const IRI_UNSAFE_ALL = new RegExp(IRI_UNSAFE.source, 'g');
export function iri(text: string): string {
  // Most IRIs need nothing: tested first, since this runs for nearly every term of every entity.
  if (!IRI_UNSAFE.test(text)) return `<${text}>`;
  return `<${text.replace(IRI_UNSAFE_ALL, (c) => encodeURIComponent(c))}>`;
}

/** A literal's lexical form, ASCII only: `\"`, `\\`, `\n`, `\r`, `\t`, and `\uXXXX` / `\UXXXXXXXX` beyond. */
const LITERAL_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
function escapeLiteral(text: string): string {
  if (LITERAL_PLAIN.test(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0xffff)) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    else if (cp > 0xffff) out += `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`;
    else out += ch;
  }
  return out;
}

export const plain = (text: string) => `"${escapeLiteral(text)}"`;
export const tagged = (text: string, language: string) => `"${escapeLiteral(text)}"@${language}`;
export const typed = (text: string, type: string) => `"${escapeLiteral(text)}"^^<${type}>`;
/** Most parts share no node: they all answer this one, empty. */
const NO_NODES: ReadonlyMap<string, string> = new Map();

/** A line of N-Triples, with its line break. */
export const triple = (subject: string, predicate: string, object: string) => `${subject} ${predicate} ${object} .\n`;

/**
 * Triples as N-Triples lines, in two groups: the entity's own, and those of the nodes entities share (value and
 * reference nodes, named by their hashes, and sites' root pages), each such node written once, by its IRI.
 * Writers of one part of an entity (sparql/rdf-diff.ts) take both as they are: no line is parsed again to find
 * which group it is in. `skolemBase`: blank nodes written as IRIs under it, as the Query Service stores them
 * (`…/.well-known/genid/`), instead of `_:` labels.
 */
export class Graph {
  /** Own lines, without line breaks, that no other part of the entity states (their subject is this part's). */
  readonly own: string[] = [];
  /**
   * Own lines that another part of the same entity may state too: the truthy triples (two statements with one
   * value each write theirs). A line two statements both write is here twice.
   */
  readonly common: string[] = [];
  /** Writes into `common` (a sink for a truthy triple). */
  readonly commonSink = { add: (subject: string, predicate: string, object: string) => { this.common.push(`${subject} ${predicate} ${object} .`); } };
  private nodes: Map<string, string> | null = null;

  constructor(private readonly skolemBase?: string) {}

  /** Each shared node's N-Triples (lines with their breaks), by the node's IRI without its brackets. */
  get shared(): ReadonlyMap<string, string> {
    return this.nodes ?? NO_NODES;
  }

  add(subject: string, predicate: string, object: string): void {
    this.own.push(`${subject} ${predicate} ${object} .`);
  }

  /** A blank node labelled `label`. */
  blank(label: string): string {
    return this.skolemBase === undefined ? `_:${label}` : `<${this.skolemBase}${label}>`;
  }

  /** Whether the shared node `term` (an IRI term) is written already. */
  hasNode(term: string): boolean {
    return this.nodes !== null && this.nodes.has(term.slice(1, -1));
  }

  /** Writes a shared node's lines (triple()), once: a node already written keeps its first lines. */
  addNode(term: string, lines: string): void {
    const key = term.slice(1, -1);
    this.nodes ??= new Map();
    if (!this.nodes.has(key)) this.nodes.set(key, lines);
  }

  /** Every line once: the own ones, then the shared nodes'. */
  lines(): string[] {
    const lines = new Set(this.own);
    for (const line of this.common) lines.add(line);
    for (const text of this.shared.values()) {
      for (const line of text.split('\n')) if (line) lines.add(line);
    }
    return [...lines];
  }
}
