// Which language a page speaks: `?uselang=` (Wikidata's own parameter), else the browser's Accept-Language,
// else English. Labels then come from that language's fallback chain (docs/api.md §9.3).
import type { FastifyRequest } from 'fastify';
import { fallbackChain, isTermLanguage } from '../domain/languages.js';

const DEFAULT_LANGUAGE = 'en';

export function pageLanguage(req: FastifyRequest): string {
  const asked = (req.query as Record<string, unknown>).uselang;
  if (typeof asked === 'string' && isTermLanguage(asked.toLowerCase(), 'labels')) return asked.toLowerCase();
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
