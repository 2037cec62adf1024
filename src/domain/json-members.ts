// The top-level members of a JSON object, as slices of its text. A GET of a whole entity serves the stored
// document after changing one member (sitelinks gain their urls, a property loses its data_type: render.ts);
// finding the members' boundaries takes a few microseconds where parsing and re-serialising a 10 KB document
// takes some 300 (issue #8: reads of entities not in the entity cache).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Each top-level member of the object `json` holds, key → its value's JSON text, in document order.
 * `json` must be valid JSON text of an object (a stored document); anything else throws.
 */
export function topLevelMembers(json: string): Map<string, string> {
  const members = new Map<string, string>();
  let i = expect(json, skipSpace(json, 0), OPEN_BRACE);
  i = skipSpace(json, i);
  if (json.charCodeAt(i) === CLOSE_BRACE) return members;
  for (;;) {
    const keyEnd = skipString(json, i);
    const key = json.slice(i, keyEnd);
    i = skipSpace(json, expect(json, skipSpace(json, keyEnd), COLON));
    const valueEnd = skipValue(json, i);
    // A key without escapes is its own text; one with escapes is decoded by the JSON parser.
    members.set(key.includes('\\') ? (JSON.parse(key) as string) : key.slice(1, -1), json.slice(i, valueEnd));
    i = skipSpace(json, valueEnd);
    if (json.charCodeAt(i) === CLOSE_BRACE) return members;
    i = skipSpace(json, expect(json, i, COMMA));
  }
}

function expect(json: string, i: number, code: number): number {
  if (json.charCodeAt(i) !== code) throw new SyntaxError(`expected '${String.fromCharCode(code)}' at ${i} of a JSON object`);
  return i + 1;
}

function skipSpace(json: string, i: number): number {
  for (;;) {
    const c = json.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** `i` at an opening quote; returns the index after the closing one. */
function skipString(json: string, i: number): number {
  if (json.charCodeAt(i) !== QUOTE) throw new SyntaxError(`expected a string at ${i} of a JSON object`);
  for (let at = i + 1; ;) {
    const quote = json.indexOf('"', at);
    if (quote < 0) throw new SyntaxError('unterminated string in a JSON object');
    // The quote is escaped when an odd number of backslashes precede it.
    let backslashes = 0;
    while (json.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** `i` at the start of a value; returns the index after it. */
function skipValue(json: string, i: number): number {
  const first = json.charCodeAt(i);
  if (first === QUOTE) return skipString(json, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: it runs to the next delimiter.
    let end = i;
    for (let c = json.charCodeAt(end); end < json.length && c !== COMMA && c !== CLOSE_BRACE && c !== CLOSE_BRACKET
      && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09; c = json.charCodeAt(++end));
    return end;
  }
  let depth = 0;
  for (let at = i; at < json.length;) {
    const c = json.charCodeAt(at);
    if (c === QUOTE) {
      at = skipString(json, at);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return at + 1;
    at++;
  }
  throw new SyntaxError('unterminated value in a JSON object');
}
