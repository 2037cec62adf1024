// Sites and sitelinks (docs/api.md §4.5, §6.4, §10.1, §10.5). The default site table is generated data
// (scripts/generate-sites.ts → sites.json); a deployment may override it with `buildSiteTable`.
import data from './sites.json' with { type: 'json' };
import { sameJson, type Sitelink, type SitelinkMap } from './entity.js';
import { ITEM, parseIdOfKind } from './kinds.js';
import { isPlainObject, pointer, problem } from './problems.js';

export interface Site { group: string; language: string; url: string }
export type SiteTable = Readonly<Record<string, Site>>;

/**
 * Which items may be badges (docs/api.md §6.4). `exists` answers whether a badge item exists: the caller fills
 * it from the store for the ids `badgeIds` names, keeping this module pure. Absent: existence is not checked.
 */
export interface BadgePolicy {
  allowedBadges: ReadonlySet<string>;
  exists?: (itemId: string) => boolean;
}

/** Site ids are looked up with `Object.hasOwn`, so keys like `constructor` never resolve to a site. */
function freezeTable(sites: Record<string, Site>): SiteTable {
  for (const site of Object.values(sites)) Object.freeze(site);
  return Object.freeze(sites);
}

export const DEFAULT_SITES: SiteTable = freezeTable({ ...(data.sites as Record<string, Site>) });

/** Starts with a letter or digit, so that `__proto__` can never be a site id. */
const SITE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function overrideError(detail: string): never {
  throw new Error(`Invalid site table override: ${detail}`);
}

function checkSite(id: string, site: unknown): Site {
  if (!isPlainObject(site)) overrideError(`sites.${id} must be an object or null`);
  for (const field of ['group', 'language', 'url'] as const) {
    if (typeof site[field] !== 'string' || site[field] === '') overrideError(`sites.${id}.${field} must be a non-empty string`);
  }
  const url = site.url as string;
  if (!url.includes('$1')) overrideError(`sites.${id}.url must contain "$1" where the title goes`);
  return { group: site.group as string, language: site.language as string, url };
}

/** Merge an override ({sites:{...}}; a site mapped to null is removed) over the defaults. */
export function buildSiteTable(override?: unknown): SiteTable {
  if (override === undefined) return DEFAULT_SITES;
  if (!isPlainObject(override) || !isPlainObject(override.sites)) overrideError('expected {"sites": {<site id>: {group, language, url} | null}}');
  const sites: Record<string, Site> = { ...DEFAULT_SITES };
  for (const [id, site] of Object.entries(override.sites)) {
    if (!SITE_ID.test(id)) overrideError(`site id ${JSON.stringify(id)} must match ${SITE_ID}`);
    if (site === null) delete sites[id];
    else sites[id] = checkSite(id, site);
  }
  return freezeTable(sites);
}

/** Characters MediaWiki refuses in titles (docs/api.md §6.4): `# < > [ ] | { }` and C0/DEL controls. */
const ILLEGAL_TITLE = /[#<>[\]|{}\x00-\x1F\x7F]|%[0-9A-Fa-f]{2}|&(?:[A-Za-z0-9\x80-\uFFFF]+|#[0-9]+|#x[0-9A-Fa-f]+);/;
/** What MediaWiki's title codec folds into one space: underscores and Unicode space separators. */
const TITLE_SPACES = /[ _\u00A0\u1680\u180E\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/g;
const TRIMMED = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

/**
 * §6.4 title rules and normalisation: trimmed, `_` → space, space runs collapsed, first letter upper-cased
 * (*Decision* [unsure]: what a Wikipedia does). Wiktionaries keep their first letter: their titles are
 * case-sensitive, so pass the site when it is known.
 */
export function normaliseTitle(value: unknown, path: string, site?: Site): string {
  if (typeof value !== 'string') return problem({ type: 'invalid', path, value });
  const trimmed = value.normalize('NFC').replace(TRIMMED, '');
  if (trimmed === '' || ILLEGAL_TITLE.test(trimmed)) return problem({ type: 'invalid', path, value: trimmed });
  const title = trimmed.replace(TITLE_SPACES, ' ').trim();
  if (title === '') return problem({ type: 'invalid', path, value: trimmed });
  return site?.group === 'wiktionary' ? title : upperFirst(title);
}

/** Upper-cases the first code point, unless that would change the length (ß → SS), as MediaWiki avoids. */
function upperFirst(title: string): string {
  const first = String.fromCodePoint(title.codePointAt(0)!);
  const upper = first.toUpperCase();
  return [...upper].length === 1 ? upper + title.slice(first.length) : title;
}

/** Characters MediaWiki's wfUrlencode leaves literal although encodeURIComponent escapes them. */
const KEPT = /%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/g;

/** §6.4: the site pattern with `$1` replaced by the title, spaces → `_`, percent-encoded like MediaWiki. */
export function sitelinkUrl(site: Site, title: string): string {
  const encoded = encodeURIComponent(title.replace(/ /g, '_'))
    .replace(KEPT, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/'/g, '%27');
  // A function replacer: a title containing `$&` or `$1` must not be read as a replacement pattern.
  return site.url.replace('$1', () => encoded);
}

function parseBadges(input: unknown, path: string, policy: BadgePolicy): string[] {
  if (!Array.isArray(input)) return problem({ type: 'invalid', path, value: input });
  const badges = input.map((badge, i) => {
    const id = typeof badge === 'string' ? parseIdOfKind(ITEM, badge) : null;
    const allowed = id !== null && policy.allowedBadges.has(id) && (policy.exists?.(id) ?? true);
    if (!allowed) return problem({ type: 'invalid', path: pointer(path, i), value: badge });
    return id;
  });
  return [...new Set(badges)];
}

/** The item ids the given sitelink inputs name as badges (unvalidated input), for the existence lookup. */
export function badgeIds(sitelinks: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const link of sitelinks) {
    if (!isPlainObject(link) || !Array.isArray(link.badges)) continue;
    for (const badge of link.badges) {
      const id = typeof badge === 'string' ? parseIdOfKind(ITEM, badge) : null;
      if (id !== null) ids.add(id);
    }
  }
  return [...ids];
}

/**
 * One sitelink (PUT body, creation, patch result). `url` is derived and read-only (§4.5): in patch mode
 * (`currentUrl` given) a changed url is an error; otherwise it is ignored. Whether badge items exist is
 * `badges.exists`, which the caller fills from the store.
 */
export function parseSitelink(
  input: unknown, path: string, site: Site, badges: BadgePolicy, opts: { currentUrl?: string } = {},
): Sitelink {
  if (!isPlainObject(input)) return problem({ type: 'invalid', path, value: input });
  if (input.title === undefined) return problem({ type: 'missing', path, field: 'title' });
  const title = normaliseTitle(input.title, pointer(path, 'title'), site);
  const parsed: Sitelink = {
    title,
    badges: input.badges === undefined ? [] : parseBadges(input.badges, pointer(path, 'badges'), badges),
  };
  if (opts.currentUrl !== undefined && input.url !== undefined && input.url !== opts.currentUrl) {
    return problem({ type: 'read-only', path: pointer(path, 'url') });
  }
  return parsed;
}

/**
 * A sitelinks map; `current` (patch mode) supplies each existing sitelink's url for the read-only check.
 * In patch mode a stored sitelink left as it was is kept without being validated again, as an unchanged
 * statement is (docs/api.md §10.1): its site or badges may have left the configuration since it was written,
 * and that must not make every later patch fail (§10.6: an empty patch is a valid no-op).
 */
export function parseSitelinkMap(
  input: unknown, path: string, sites: SiteTable, badges: BadgePolicy, current?: SitelinkMap,
): SitelinkMap {
  if (Array.isArray(input) && input.length === 0) return {};
  if (!isPlainObject(input)) return problem({ type: 'invalid', path, value: input });
  const out: SitelinkMap = {};
  for (const [siteId, value] of Object.entries(input)) {
    const existing = current && Object.hasOwn(current, siteId) ? current[siteId] : undefined;
    const site = Object.hasOwn(sites, siteId) ? sites[siteId] : undefined;
    const currentUrl = existing && site ? sitelinkUrl(site, existing.title) : undefined;
    if (existing && isUnchanged(value, existing, currentUrl)) {
      out[siteId] = existing;
      continue;
    }
    if (!site) return problem({ type: 'invalid-key', path, key: siteId });
    out[siteId] = parseSitelink(value, pointer(path, siteId), site, badges, { currentUrl });
  }
  return out;
}

/** Same title and badges as stored, and no changed url (a site no longer in the table has no url to keep). */
function isUnchanged(value: unknown, stored: Sitelink, currentUrl: string | undefined): boolean {
  return isPlainObject(value) && value.title === stored.title && sameJson(value.badges ?? [], stored.badges)
    && (value.url === undefined || currentUrl === undefined || value.url === currentUrl);
}
