// Data types whose content is a JSON string (docs/api.md §5 table, value type `string`).
import { problem } from '../problems.js';
import { hasControlCharacter } from '../text.js';
import type { DataType } from './lookup.js';

// docs/api.md §5 / §11: statement strings are NOT trimmed; whitespace at either end is an error, and so is a
// TAB or any vertical whitespace anywhere (upstream's common string validators).
const EDGE_SPACE = /^\s|\s$/u;
const TAB_OR_LINE_BREAK = /[\t\n\r\f\v\x85\u2028\u2029]/u;

/** The rules every string content shares: a JSON string of 1..max code points without stray whitespace. */
export function isContentString(content: unknown, max: number): content is string {
  if (typeof content !== 'string') return false;
  const length = [...content].length;
  return length >= 1 && length <= max && !EDGE_SPACE.test(content) && !TAB_OR_LINE_BREAK.test(content)
    && !hasControlCharacter(content);
}

function checkString(content: unknown, path: string, max: number): string {
  return isContentString(content, max) ? content : problem({ type: 'invalid', path, value: content });
}

/** A string data type: the common rules with a maximum length, plus an optional pattern. */
function stringType(max: number, pattern?: RegExp): DataType {
  return {
    valueType: 'string',
    normalise(content, path) {
      const text = checkString(content, path, max);
      if (pattern && !pattern.test(text)) problem({ type: 'invalid', path, value: content });
      return text;
    },
  };
}

// docs/api.md §5 url: `scheme://` and at least one character outside `[]<>"`, controls, space separators and
// U+FFFD; `mailto:` needs `x@y`. Schemes compare case-insensitively, as URL schemes do.
const URL_CHAR = String.raw`[^\[\]<>"\p{Cc}\p{Zs}\uFFFD]`;
const URL_SCHEMES = 'bzr|cvs|ftp|git|http|https|irc|ircs|ssh|svn|telnet';
const URL = new RegExp(`^(?:(?:${URL_SCHEMES})://${URL_CHAR}+|mailto:${URL_CHAR}+@${URL_CHAR}+)$`, 'iu');

// docs/api.md §5 commonsMedia: no `# / : [ \ ] { | }`, ends in `.` + 2+ word characters. Whether the file
// exists on Commons is not checked (no access to external sites, cf. D14).
const COMMONS_FILE = /^[^#/:[\\\]{|}]+\.\w{2,}$/u;
const GEO_SHAPE = /^Data:[^[\]#\\:{|}]+\.map$/u;
const TABULAR_DATA = /^Data:[^[\]#\\:{|}]+\.tab$/u;

export const STRING_TYPES: Record<string, DataType> = {
  string: stringType(400),
  'external-id': stringType(400),
  url: {
    valueType: 'string',
    normalise(content, path) {
      const text = checkString(content, path, 500);
      if (text.length < 2 || !URL.test(text)) problem({ type: 'invalid', path, value: content });
      return text;
    },
  },
  commonsMedia: stringType(240, COMMONS_FILE),
  'geo-shape': stringType(240, GEO_SHAPE),
  'tabular-data': stringType(240, TABULAR_DATA),
  // docs/api.md §5 upstream extensions: string rules only (upstream also renders them; we do not).
  math: stringType(400),
  'musical-notation': stringType(400),
};
