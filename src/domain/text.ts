// Characters no text in Entia may hold, wherever it enters (request bodies, search text, imported dumps).

/**
 * C0 control characters other than TAB, LF and CR, and DEL. NUL cannot be stored by PostgreSQL at all, and
 * Wikibase refuses these in every term, value and summary; TAB and line breaks are left to the rules of each
 * field (terms and statement strings refuse them, with their own paths).
 */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}
