// The Action API's entity reads (docs/api.md §10.15), in its own JSON shapes, for tools written against MediaWiki
// (wikibase-sdk's URLs, wikibase-edit, bots): wbgetentities, wbsearchentities, wbgetclaims. Another rendering of
// the same reads: entities in the dump format (domain/wikidata-export.ts), search from the same index.
import type { Entity } from '../../domain/entity.js';
import type { SearchHit } from '../../search/hits.js';
import { KINDS, kindByName, kindNamed, parseEntityId, parseIdOfKind, numericPart } from '../../domain/kinds.js';
import { isEntiaError } from '../../domain/errors.js';
import { findEntities, SEARCH_PAGE, searchCount } from '../search.js';
import { fallbackChain, isTermLanguage } from '../../domain/languages.js';
import { sitelinkUrl } from '../../domain/sites.js';
import { toWikidata } from '../../domain/wikidata-export.js';
import { pageOf } from '../../domain/kinds.js';
import { searchableText } from '../../search/searchable.js';
import { parseText } from '../../search/query.js';
import { searchLanguages } from '../../search/languages.js';
import type { Services } from '../services.js';
import { hashedClaims } from './claims.js';
import { pageIdOf } from './pages.js';
import { ApiError, flag, list, param, refuse, required, type Call, type Json } from './protocol.js';

const MAX_IDS = 50;
const PROPS = ['info', 'sitelinks', 'sitelinks/urls', 'aliases', 'labels', 'descriptions', 'claims', 'datatype'] as const;

/** An entity in the dump format, narrowed to `props` and `languages` (with their fallbacks when asked). */
export function actionEntity(entity: Entity, head: { revision: number; modified: Date }, props: Set<string>, languages: string[] | null,
  fallback: boolean, services: Services): Json {
  const full = toWikidata(entity, { id: head.revision, modified: head.modified });
  const kind = kindByName(entity.type);
  const out: Json = {};
  if (props.has('info')) Object.assign(out, { ...pageOf(kind, entity.id), lastrevid: full.lastrevid, modified: full.modified });
  out.type = full.type;
  out.id = full.id;
  // Wikibase answers a property's data type with `info` too; wikibase-edit learns data types that way.
  if ((props.has('datatype') || props.has('info')) && kind.hasDataType) out.datatype = full.datatype;
  for (const field of ['labels', 'descriptions', 'aliases'] as const) {
    if (!props.has(field)) continue;
    const map = full[field] as Record<string, unknown>;
    if (languages === null) { out[field] = map; continue; }
    const picked: Json = {};
    for (const lang of languages) {
      const from = fallback && field !== 'aliases' ? fallbackChain(lang, field).find((l) => map[l] !== undefined) : lang;
      if (from === undefined || map[from] === undefined) continue;
      // A term that came from another language says so, as Wikibase's language fallback does.
      picked[lang] = from === lang || field === 'aliases' ? map[from] : { ...(map[from] as Json), 'for-language': lang };
    }
    out[field] = picked;
  }
  if (props.has('claims')) out.claims = hashedClaims(full.claims as Record<string, Json[]>);
  if ((props.has('sitelinks') || props.has('sitelinks/urls')) && kind.hasSitelinks) {
    const sitelinks = full.sitelinks as Record<string, Json>;
    out.sitelinks = props.has('sitelinks/urls')
      ? Object.fromEntries(Object.entries(sitelinks).map(([site, link]) =>
        [site, services.sites[site] ? { ...link, url: sitelinkUrl(services.sites[site], link.title as string) } : link]))
      : sitelinks;
  }
  return out;
}

export async function wbgetentities({ params: query, store, services, v2 }: Call): Promise<Json> {
  const ids = list(param(query, 'ids'));
  const sites = list(param(query, 'sites'));
  const titles = list(param(query, 'titles'));
  if (ids.length === 0 && titles.length === 0) throw new ApiError('param-missing', 'Either provide the item "ids" or pairs of "sites" and "titles" for corresponding pages');
  if (ids.length + titles.length > MAX_IDS) throw new ApiError('toomanyvalues', `Too many values supplied for parameter "ids". The limit is ${MAX_IDS}.`);
  const asked = list(param(query, 'props'));
  const props = new Set(asked.length ? asked : PROPS.filter((p) => p !== 'sitelinks/urls'));
  for (const p of props) if (!(PROPS as readonly string[]).includes(p)) throw new ApiError('badvalue', `Unrecognized value for parameter "props": ${p}.`);
  const languages = param(query, 'languages') === undefined ? null : list(param(query, 'languages'));
  for (const l of languages ?? []) if (!isTermLanguage(l, 'labels')) throw new ApiError('badvalue', `Unrecognized value for parameter "languages": ${l}.`);
  const followRedirects = param(query, 'redirects') !== 'no';
  const fallback = flag(query, 'languagefallback');

  // What was asked for, keyed as the answer keys it: an id, or a page no item links (`-1`, `-2`, …).
  const wanted: { key: string; id: string | null; page?: { site: string; title: string } }[] = ids.map((raw) => {
    const parsed = parseEntityId(raw);
    if (!parsed) throw new ApiError('no-such-entity', `Could not find an entity with the ID "${raw}".`, { id: raw });
    return { key: parsed.id, id: parsed.id };
  });
  if (titles.length > 0) {
    if (sites.length !== 1 && sites.length !== titles.length) throw new ApiError('params-illegal', 'Must request one site, one title, or an equal number of sites and titles.');
    const pages = titles.map((t, i) => ({ site: sites.length === 1 ? sites[0] : sites[i], title: t.replaceAll('_', ' ') }));
    const owners = await store.sitelinkOwners(pages.map((p) => [p.site, p.title] as const));
    let unlinked = 0;
    for (const page of pages) {
      const owner = owners.get(`${page.site}\u0000${page.title}`) ?? null;
      wanted.push({ key: owner ?? `-${++unlinked}`, id: owner, page });
    }
  }
  const missing = v2 ? true : '';
  const entities: Json = {};
  for (const { key, id, page } of wanted) {
    if (id === null) { entities[key] = { ...page, missing }; continue; }
    let read = await store.readEntity(id);
    let redirect: Json | undefined;
    if (read.status === 'redirect' && followRedirects) {
      redirect = { from: id, to: read.target };
      read = await store.readEntity(read.target);
    }
    if (read.status !== 'found') { entities[key] = { id, missing }; continue; }
    const entity = actionEntity(read.entity, read.head, props, languages, fallback, services);
    entities[key] = redirect ? { ...entity, redirects: redirect } : entity;
  }
  return { entities, success: 1 };
}

export async function wbsearchentities({ params: query, store, services }: Call): Promise<Json> {
  const search = searchableText(required(query, 'search')) ?? refuse('badvalue', 'Invalid value for parameter "search".');
  const language = required(query, 'language');
  if (!isTermLanguage(language, 'search')) throw new ApiError('badvalue', `Unrecognized value for parameter "language": ${language}.`);
  const type = param(query, 'type') ?? 'item';
  const kind = kindNamed(type);
  if (!kind) throw new ApiError('badvalue', `Unrecognized value for parameter "type": ${type}.`);
  const limit = Number(param(query, 'limit') ?? '7');
  const offset = Number(param(query, 'continue') ?? '0');
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new ApiError('badinteger', 'Invalid value for parameter "limit".');
  if (!Number.isInteger(offset) || offset < 0 || offset > 10_000) throw new ApiError('badinteger', 'Invalid value for parameter "continue".');
  const languages = flag(query, 'strictlanguage') ? [language] : searchLanguages(language);
  // An id, or an entity's concept URI (what a client copied from a query result), finds that entity.
  const text = search.trim();
  const conceptBase = services.config.conceptUri;
  const id = parseIdOfKind(kind, text.startsWith(conceptBase) ? text.slice(conceptBase.length) : text);
  // One more than asked: whether a next page exists.
  const hits = await store.search({ kind: kind.name, mode: 'suggest', text: parseText(search), entityId: id ? numericPart(id) : null,
    languages, limit: limit + 1, offset });
  const base = services.config.publicUrl;
  const shown = await inUserLanguage(store, hits.slice(0, limit), param(query, 'uselang'), language);
  // A property's data type, as Wikibase gives it in each result: one lookup for the page.
  const dataTypes = kind.hasDataType ? await store.lookupEntities(shown.map((h) => h.id)) : new Map<string, string | null>();
  const results = shown.map((h) => {
    const out: Json = {
      id: h.id, title: pageOf(kind, h.id).title, pageid: pageIdOf(kind, h.id), repository: 'local',
      concepturi: `${services.config.conceptUri}${h.id}`,
      url: `${base}/v1/entities/${kind.segment}/${h.id}`,
      display: { ...(h.displayLabel ? { label: h.displayLabel } : {}), ...(h.description ? { description: h.description } : {}) },
      match: h.match.type === 'entityId' ? { type: 'entityId', text: h.match.text } : h.match,
    };
    const dataType = dataTypes.get(h.id);
    if (dataType) out.datatype = dataType;
    if (h.displayLabel) out.label = h.displayLabel.value;
    if (h.description) out.description = h.description.value;
    if (h.match.type === 'alias') out.aliases = [h.match.text];
    return out;
  });
  return { searchinfo: { search }, search: results, ...(hits.length > limit ? { 'search-continue': offset + limit } : {}), success: 1 };
}

/**
 * `uselang` (MediaWiki's user language) chooses the language results are shown in, with its fallbacks, as Wikibase
 * does; the search itself stays in `language`. One read of the page's documents when the two differ; an
 * unknown `uselang` is ignored, as MediaWiki falls back to the default for it.
 */
async function inUserLanguage(store: Call['store'], hits: SearchHit[], uselang: string | undefined, language: string): Promise<SearchHit[]> {
  if (uselang === undefined || uselang === language || !isTermLanguage(uselang, 'labels') || hits.length === 0) return hits;
  const documents = await store.readDocuments(hits.map((h) => h.id));
  const pick = (terms: Record<string, string>, field: 'labels' | 'descriptions') => {
    const lang = fallbackChain(uselang, field).find((l) => terms[l] !== undefined);
    return lang === undefined ? null : { language: lang, value: terms[lang] };
  };
  return hits.map((h) => {
    const read = documents.get(h.id);
    if (read?.status !== 'found') return h;
    const { labels, descriptions } = JSON.parse(read.json()) as Pick<Entity, 'labels' | 'descriptions'>;
    return { ...h, displayLabel: pick(labels, 'labels'), description: pick(descriptions, 'descriptions') };
  });
}

export async function wbgetclaims({ params: query, store }: Call): Promise<Json> {
  const claim = param(query, 'claim');
  const entityParam = param(query, 'entity') ?? claim?.split('$')[0];
  if (!entityParam) throw new ApiError('param-missing', 'Either the parameter "entity" or the parameter "claim" need to be set.');
  const parsed = parseEntityId(entityParam);
  const read = parsed ? await store.readEntity(parsed.id) : null;
  if (!read || read.status !== 'found') throw new ApiError('no-such-entity', `Could not find an entity with the ID "${entityParam}".`, { id: entityParam });
  const claims = hashedClaims(toWikidata(read.entity).claims as Record<string, Json[]>);
  const property = param(query, 'property');
  const rank = param(query, 'rank');
  const out: Record<string, Json[]> = {};
  for (const [p, group] of Object.entries(claims)) {
    if (property && p !== property.toUpperCase()) continue;
    const kept = group.filter((c) => (!claim || String(c.id).toLowerCase() === claim.toLowerCase()) && (!rank || c.rank === rank));
    if (kept.length) out[p] = kept;
  }
  return { claims: out };
}

/**
 * list=search: the search the REST routes make (http/search.ts, `haswbstatement:` included), of the kind whose
 * namespace `srnamespace` names; `srlimit` and `sroffset` as the REST search takes them, `uselang`. Each result is a page.
 */
export async function listSearch({ params, store }: Call): Promise<Json[]> {
  const namespace = param(params, 'srnamespace') ?? '0';
  const kind = KINDS.find((k) => String(k.namespace) === namespace)
    ?? refuse('badvalue', `Unrecognized value for parameter "srnamespace": ${namespace}.`);
  const bad = (name: string): never => refuse('badvalue', `Invalid value for parameter "${name}".`);
  const q = searchableText(param(params, 'srsearch') ?? refuse('missingparam', 'The "srsearch" parameter must be set.')) ?? bad('srsearch');
  const count = (name: string, fallback: number, max: number) => {
    const raw = param(params, name);
    return raw === undefined ? fallback : searchCount(raw, max) ?? bad(name);
  };
  const limit = count('srlimit', SEARCH_PAGE.default, SEARCH_PAGE.max);
  const offset = count('sroffset', 0, Infinity);
  const lang = param(params, 'uselang') ?? 'en';
  if (!isTermLanguage(lang, 'search')) bad('uselang');
  let hits: SearchHit[];
  try {
    hits = await findEntities(store, { kind, mode: 'search', q, lang, limit, offset });
  } catch (e) {
    // A keyword that is not a condition: said as MediaWiki says a bad parameter.
    if (isEntiaError(e) && e.code === 'invalid-query-parameter') bad('srsearch');
    throw e;
  }
  return hits.map((hit) => ({ ...pageOf(kind, hit.id), pageid: pageIdOf(kind, hit.id) }));
}
