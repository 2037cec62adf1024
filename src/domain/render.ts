// Entity documents as the API returns them (docs/api.md §4.1, §4.2): derived sitelink urls added, the
// property data_type shown only where D2 says so.
import { freezeJson, type Entity, type Sitelink } from './entity.js';
import { sitelinkUrl, type SiteTable } from './sites.js';
import { topLevelMembers } from './json-members.js';
import { KINDS, kindByName, type Kind } from './kinds.js';

export interface SitelinkView extends Sitelink {
  url: string;
}

export function renderSitelink(sites: SiteTable, siteId: string, link: Sitelink): SitelinkView {
  const site = sites[siteId];
  return { title: link.title, badges: link.badges, url: site ? sitelinkUrl(site, link.title) : '' };
}

export function renderSitelinks(sites: SiteTable, links: Record<string, Sitelink>): Record<string, SitelinkView> {
  const out: Record<string, SitelinkView> = {};
  for (const [siteId, link] of Object.entries(links)) out[siteId] = renderSitelink(sites, siteId, link);
  return out;
}

/** Documents rendered from frozen (stored, shared) entities, so that a read of a cached revision reuses them. */
const rendered = new WeakMap<Entity, { sites: SiteTable; withDataType: boolean; doc: Record<string, unknown> }[]>();

/**
 * The full resource; `withDataType` for property POST/PATCH responses and patch documents (D2). For a frozen
 * entity the document is built once and returned frozen too, so its JSON can be reused (reply-error.ts).
 */
export function renderEntity(entity: Entity, sites: SiteTable, withDataType: boolean): Record<string, unknown> {
  if (!Object.isFrozen(entity)) return buildEntity(entity, sites, withDataType);
  const docs = rendered.get(entity) ?? [];
  const known = docs.find((d) => d.sites === sites && d.withDataType === withDataType);
  if (known) return known.doc;
  const doc = freezeJson(buildEntity(entity, sites, withDataType));
  rendered.set(entity, [...docs, { sites, withDataType, doc }]);
  return doc;
}

function buildEntity(entity: Entity, sites: SiteTable, withDataType: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: entity.id };
  const stored = entity as unknown as Record<string, unknown>;
  for (const member of kindByName(entity.type).members) {
    if (member === 'data_type' && !withDataType) continue;
    out[member] = member === 'sitelinks' ? renderSitelinks(sites, entity.sitelinks ?? {}) : stored[member];
  }
  return out;
}

/** Each kind by its `type` member as stored JSON spells it (`"item"`): read on every uncached GET. */
const KIND_OF_TYPE_TEXT: ReadonlyMap<string, Kind> = new Map(KINDS.map((k) => [JSON.stringify(k.name), k]));

/**
 * renderEntity's JSON, made from a stored document's JSON text without parsing all of it: only the sitelinks
 * are parsed (to add their urls). The stored text is JSON.stringify's, so the result is byte for byte
 * JSON.stringify(renderEntity(JSON.parse(json), …)) (test/http/render.test.ts).
 */
export function renderEntityJson(json: string, sites: SiteTable, withDataType: boolean): string {
  const members = topLevelMembers(json);
  const type = members.get('type');
  const kind = type === undefined ? undefined : KIND_OF_TYPE_TEXT.get(type);
  if (!kind) throw new Error(`a stored document of an unknown type: ${type}`);
  const out = [`"id":${members.get('id')}`];
  for (const member of kind.members) {
    if (member === 'sitelinks') {
      const sitelinks = JSON.parse(members.get('sitelinks') ?? '{}') as Record<string, Sitelink>;
      out.push(`"sitelinks":${JSON.stringify(renderSitelinks(sites, sitelinks))}`);
      continue;
    }
    const value = member === 'data_type' && !withDataType ? undefined : members.get(member);
    if (value !== undefined) out.push(`"${member}":${value}`);
  }
  return `{${out.join(',')}}`;
}
