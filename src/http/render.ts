// Entity documents as the API returns them (REFERENCE §4.1, §4.2): derived sitelink urls added, the
// property data_type shown only where D2 says so.
import type { Entity, Sitelink } from '../domain/entity.js';
import { sitelinkUrl, type SiteTable } from '../domain/sites.js';

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

/** The full resource; `withDataType` for property POST/PATCH responses and patch documents (D2). */
export function renderEntity(entity: Entity, sites: SiteTable, withDataType: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: entity.id, type: entity.type };
  if (entity.type === 'property' && withDataType) out.data_type = entity.data_type;
  out.labels = entity.labels;
  out.descriptions = entity.descriptions;
  out.aliases = entity.aliases;
  out.statements = entity.statements;
  if (entity.type === 'item') out.sitelinks = renderSitelinks(sites, entity.sitelinks ?? {});
  return out;
}
