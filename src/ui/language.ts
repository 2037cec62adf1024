// Which language a page speaks: `?uselang=` (Wikidata's own parameter), else the one the reader chose before
// (the `uselang` cookie that choice sets), else the browser's Accept-Language, else English. Labels then come
// from that language's fallback chain (docs/api.md §9.3).
import type { FastifyRequest } from 'fastify';
import { fallbackChain, isTermLanguage } from '../domain/languages.js';

const DEFAULT_LANGUAGE = 'en';

/** The language `?uselang=` asks for, when it is one: the page then keeps it for the reader (chosenLanguageCookie). */
export function askedLanguage(req: FastifyRequest): string | null {
  const asked = (req.query as Record<string, unknown>).uselang;
  return typeof asked === 'string' && isTermLanguage(asked.toLowerCase(), 'labels') ? asked.toLowerCase() : null;
}

/** The cookie that keeps a chosen language across pages: a year, this site only, never sent to scripts. */
export function chosenLanguageCookie(language: string): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly`;
}

const LANGUAGE_COOKIE = 'uselang';
const KEPT_LANGUAGE = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([A-Za-z0-9-]{1,20})(?:;|$)`);

/** The language the cookie keeps, if it is one (the cookie is ours, but the client sends it: checked again). */
function keptLanguage(header: string | undefined): string | null {
  const value = header ? KEPT_LANGUAGE.exec(header.slice(0, 4096))?.[1] : undefined;
  return value && isTermLanguage(value.toLowerCase(), 'labels') ? value.toLowerCase() : null;
}

export function pageLanguage(req: FastifyRequest): string {
  const chosen = askedLanguage(req) ?? keptLanguage(req.headers.cookie);
  if (chosen) return chosen;
  for (const tag of acceptedLanguages(req.headers['accept-language'])) {
    if (isTermLanguage(tag, 'labels')) return tag;
    const primary = tag.split('-')[0];
    if (isTermLanguage(primary, 'labels')) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** Accept-Language's tags, best first (at most 20 looked at: the header is the client's). */
function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header.slice(0, 1000).split(',').slice(0, 20)
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.tag);
}

/** A term in the page's language or the nearest one its fallback chain has, with the language it is in. */
export interface Shown {
  text: string;
  language: string;
}

export function termIn(map: Readonly<Record<string, string>> | undefined, language: string, use: 'labels' | 'descriptions'): Shown | null {
  if (!map) return null;
  const found = fallbackChain(language, use).find((code) => map[code] !== undefined);
  return found === undefined ? null : { text: map[found], language: found };
}

/**
 * An entity's label for a title: in the page's language or its fallbacks, else in any language it has (the first
 * by language code), marked `other` so that the page can say which: a bare id says less than a Swedish name.
 */
export function labelForTitle(labels: Readonly<Record<string, string>>, language: string): (Shown & { other?: true }) | null {
  const near = termIn(labels, language, 'labels');
  if (near) return near;
  const code = Object.keys(labels).sort()[0];
  return code === undefined ? null : { text: labels[code], language: code, other: true };
}

/**
 * Intl's language names by page language, made once each: an entity page names every language it has (Q31:
 * some 300), and making the DisplayNames object is what costs. Bounded by the term languages.
 */
const displayNames = new Map<string, Intl.DisplayNames>();

/** A language's name in the page's language (`German` for `de` on an English page), or null when unknown. */
export function languageName(code: string, pageLanguage: string): string | null {
  try {
    let names = displayNames.get(pageLanguage);
    if (!names) {
      names = new Intl.DisplayNames([pageLanguage, 'en'], { type: 'language', fallback: 'none' });
      displayNames.set(pageLanguage, names);
    }
    const name = names.of(code);
    return name && name.toLowerCase() !== code.toLowerCase() ? name : null;
  } catch {
    return null; // a code Intl cannot read (Wikimedia's own, such as `be-x-old`), as a name or as a page language
  }
}

