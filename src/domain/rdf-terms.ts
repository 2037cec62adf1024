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
export const blank = (label: string) => `_:${label}`;

/** Triples as N-Triples lines, each written once. */
export class Graph {
  readonly lines = new Set<string>();
  add(subject: string, predicate: string, object: string): void {
    this.lines.add(`${subject} ${predicate} ${object} .`);
  }
}
