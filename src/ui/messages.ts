// The interface's own words in the reader's language (labels and descriptions come from the entities): English
// is written in the code, and each catalogue in messages/ maps an English message to its translation, as
// gettext does. A message's `{0}`, `{1}` are filled with the call's parameters. The page's language picks the
// catalogue through its fallback chain (`de-ch` reads German; a language without a catalogue reads English),
// and the messages the browser's scripts use travel in the page (Layout), so they speak the same language.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { fallbackChain, isTermLanguage } from '../domain/languages.js';
import { DE } from './messages/de.js';
import { FR } from './messages/fr.js';

export type Translate = (english: string, ...params: (string | number)[]) => string;

/** Every catalogue by language code; English is the code's own. */
export const CATALOGUES: Readonly<Record<string, Readonly<Record<string, string>>>> = { de: DE, fr: FR };

function fill(text: string, params: readonly (string | number)[]): string {
  return params.length === 0 ? text : text.replace(/\{(\d)\}/g, (whole, i: string) => String(params[Number(i)] ?? whole));
}

const english: Translate = (text, ...params) => fill(text, params);

/** The language the interface speaks for a page language: the first of its chain with a catalogue, else English. */
export function interfaceLanguage(language: string): string {
  return fallbackChain(language, 'labels').find((code) => code === 'en' || code in CATALOGUES) ?? 'en';
}

const translators = new Map<string, Translate>();
/** Translators by page language, so that a component may ask for one per render (bounded by the term languages). */
const byPageLanguage = new Map<string, Translate>();

export function translator(language: string): Translate {
  let t = byPageLanguage.get(language);
  if (t) return t;
  const code = interfaceLanguage(language);
  t = translators.get(code);
  if (!t) {
    const catalogue = CATALOGUES[code] ?? {};
    t = code === 'en' ? english : (text, ...params) => fill(catalogue[text] ?? text, params);
    translators.set(code, t);
  }
  if (isTermLanguage(language, 'labels')) byPageLanguage.set(language, t);
  return t;
}

/**
 * Marks a message kept in a table (a title wrapped in msg) and translated where it is shown (t of the entry):
 * the catalogue tests find it by this call, as they find t() calls.
 */
export const msg = (english: string): string => english;

/** The translator of the page being rendered (Layout provides it); English outside a page. */
export const Messages = createContext<Translate>(english);

export function useT(): Translate {
  return useContext(Messages);
}

const ASSETS = fileURLToPath(new URL('../../src/ui/assets/', import.meta.url));
/** A call of t() or msg() with a plain string literal: how scripts and pages name a message (tests hold them to it). */
export const MESSAGE_CALL = /\b(?:t|msg)\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g;

let scriptKeys: string[] | null = null;

/** The messages the browser's scripts use, found in their source once. */
function messagesOfScripts(): string[] {
  scriptKeys ??= [...new Set(readdirSync(ASSETS).filter((f) => f.endsWith('.js'))
    .flatMap((f) => [...readFileSync(ASSETS + f, 'utf8').matchAll(MESSAGE_CALL)].map((m) => unescapeLiteral(m[2]))))];
  return scriptKeys;
}

export function unescapeLiteral(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

const scriptCatalogues = new Map<string, string>();

/**
 * The scripts' messages in the page's interface language, as JSON safe inside a `<script>` data block (no `<`);
 * '' for English, which the scripts hold themselves.
 */
export function scriptMessages(language: string): string {
  const code = interfaceLanguage(language);
  if (code === 'en') return '';
  let json = scriptCatalogues.get(code);
  if (json === undefined) {
    const catalogue = CATALOGUES[code];
    const subset = Object.fromEntries(messagesOfScripts().filter((key) => catalogue[key] !== undefined).map((key) => [key, catalogue[key]]));
    json = JSON.stringify(subset).replaceAll('<', '\\u003c');
    scriptCatalogues.set(code, json);
  }
  return json;
}

/** A count with its noun, by the language's plural rules: `{0} item` / `{0} items` as the catalogue says them. */
export function plural(t: Translate, language: string, n: number, one: string, many: string): string {
  const code = interfaceLanguage(language);
  const rule = new Intl.PluralRules(code).select(n);
  return t(rule === 'one' ? one : many, n.toLocaleString(code));
}
