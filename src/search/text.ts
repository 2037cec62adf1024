// Text folding and tokenisation for search (docs/api.md §10.7 "Text normalisation for matching"). The same
// functions fold stored terms when they are indexed and the query when it is parsed, so both sides always
// agree. Pure: every backend indexes and queries with exactly these rules.

/** Case folds that `toLowerCase` leaves out (Unicode CaseFolding.txt, full folding of the common cases). */
const EXTRA_FOLDS: Record<string, string> = { 'ß': 'ss', 'ẞ': 'ss', 'ς': 'σ', 'ſ': 's', 'ﬅ': 'st', 'ﬆ': 'st' };
const EXTRA_FOLD_PATTERN = /[ßẞςſﬅﬆ]/g;
/**
 * Accents and vowel points, dropped so that `Zurich` finds `Zürich`: the combining-diacritics blocks, Hebrew
 * points and Arabic harakat. Other non-spacing marks (Indic vowel signs, kana voicing marks) carry meaning
 * and stay.
 */
const ACCENTS = /[\u0300-\u036f\u1ab0-\u1abd\u1abf-\u1aff\u1dc0-\u1dff\u20d0-\u20dc\u20e1\u20e5-\u20f0\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]/g;
const WHITESPACE_RUN = /[\s\p{Zs}\u200b\u2060\ufeff]+/gu;

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_SPACE_RUN = /\s+/g;

/**
 * Lower case with Unicode case folding → NFKD → drop accents → NFC (so Hangul syllables and other composed
 * letters come back whole) → whitespace runs collapsed to one space, trimmed. Compatibility decomposition also
 * folds width variants and ligatures (`ﬁ` → `fi`, full-width `Ａ` → `a`). Lower-casing before composing is
 * safe: it maps base letters and leaves combining marks alone. Pure ASCII (most terms) takes a short cut with
 * the same result.
 */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase().replace(ASCII_SPACE_RUN, ' ').trim();
  return text
    .toLowerCase()
    .replace(EXTRA_FOLD_PATTERN, (c) => EXTRA_FOLDS[c])
    .normalize('NFKD')
    .replace(ACCENTS, '')
    .normalize('NFC')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}

/**
 * Scripts written without spaces between words (Han, kana, and South-East Asian scripts): a run of them is one
 * "word" to the splitter, so it is indexed as overlapping bigrams plus unigrams and matched as a substring.
 */
const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc\\u3005';
/** Runs are homogeneous (see WORD), so the first character tells. */
const UNSPACED_START = new RegExp(`^[${UNSPACED}]`, 'u');
/** A word: letters, digits and the marks that stay inside words (Devanagari vowel signs...). */
const WORD = new RegExp(`[${UNSPACED}]+|[[\\p{L}\\p{N}\\p{M}]--[${UNSPACED}]]+`, 'gv');

export function isUnspacedRun(word: string): boolean {
  return UNSPACED_START.test(word);
}

/** The words of a folded text, in order: runs of letters/digits, with runs of unspaced scripts kept apart. */
export function wordsOf(folded: string): string[] {
  return folded.match(WORD) ?? [];
}

/** Index tokens of one word: the word itself, or for an unspaced run its unigrams and overlapping bigrams. */
export function tokensOfWord(word: string): string[] {
  if (!isUnspacedRun(word)) return [word];
  const chars = Array.from(word);
  if (chars.length === 1) return chars;
  const bigrams = chars.slice(1).map((c, i) => chars[i] + c);
  return [...chars, ...bigrams];
}

/** Query tokens of one word: the fewest tokens whose presence a match requires (bigrams cover a run). */
export function queryTokensOfWord(word: string): string[] {
  if (!isUnspacedRun(word)) return [word];
  const chars = Array.from(word);
  if (chars.length === 1) return chars;
  return chars.slice(1).map((c, i) => chars[i] + c);
}

/** Marks the token that stands for "the term's first word" (no real token contains `^`). */
export const FIRST_WORD = '^';

/** Every index token of a folded term, without duplicates, plus its first-word marker. */
export function indexTokens(folded: string): string[] {
  const words = wordsOf(folded);
  const tokens = new Set(words.flatMap(tokensOfWord));
  if (words.length > 0) tokens.add(FIRST_WORD + words[0]);
  return [...tokens];
}

/** The leading `length` code points of a folded text. */
export function codePointPrefix(folded: string, length: number): string {
  return Array.from(folded).slice(0, length).join('');
}

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
