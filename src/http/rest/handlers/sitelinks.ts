// An item's sitelinks (docs/api.md §4.5, §6.4, §10.5): the map, one sitelink, PUT, PATCH and DELETE. Items
// only: the routes are registered for the item kind alone, so property paths answer 404 rest-no-match.
import type { Sitelink, SitelinkMap } from '../../../domain/entity.js';
import { fail } from '../../../domain/errors.js';
import { applyPatch } from '../../../domain/patch.js';
import { BODY, inMode, isPlainObject, PATCH } from '../../../domain/problems.js';
import { parseSitelink, parseSitelinkMap, type Site } from '../../../domain/sites.js';
import { badgePolicyFor } from '../../lookup.js';
import { renderSitelink, renderSitelinks } from '../../../domain/render.js';
import type { Ctx, Result } from '../../context.js';
import { findEntity, type Found, loadEntity, pathEntityId, requireFound } from '../../subject.js';
import { PATCH_DOCUMENT, PATH_ENTITY, write } from '../../write/rows.js';
import type { EntityStore } from '../../../store/store.js';

/** The path's `{site_id}`: a key of the configured site table, exact match (docs/api.md §3, §7.1). */
function pathSite(ctx: Ctx<unknown>): { siteId: string; site: Site } {
  const siteId = ctx.params.site_id;
  if (!Object.hasOwn(ctx.services.sites, siteId)) fail('invalid-site-id', undefined, { id: siteId });
  return { siteId, site: ctx.services.sites[siteId] };
}

function sitelinksOf(found: Found): SitelinkMap {
  return found.entity.sitelinks ?? {};
}

/** The stored sitelink for the site; 404 sitelink-not-defined when the item has none there. */
function requireSitelink(found: Found, id: string, siteId: string): Sitelink {
  const links = sitelinksOf(found);
  if (!Object.hasOwn(links, siteId)) fail('sitelink-not-defined', undefined, { id, site_id: siteId });
  return links[siteId];
}

export async function getSitelinks(ctx: Ctx<EntityStore>): Promise<Result> {
  const found = await findEntity(ctx, true);
  return { body: renderSitelinks(ctx.services.sites, sitelinksOf(found)), head: found.head };
}

export async function getSitelink(ctx: Ctx<EntityStore>): Promise<Result> {
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, true);
  const { siteId } = pathSite(ctx);
  const found = requireFound(ctx, read, id, true);
  const link = requireSitelink(found, id, siteId);
  return { body: renderSitelink(ctx.services.sites, siteId, link), head: found.head };
}

/** PUT one sitelink: the one-item-per-page rule is checked by commitEdit and again inside the store transaction. */
export const putSitelink = write({
  subject: PATH_ENTITY,
  param: pathSite,
  body: {
    part: 'sitelink',
    parse: async (ctx, { param: { site } }) => {
      const input = ctx.body.sitelink;
      const badges = await badgePolicyFor(ctx.store, ctx.services.badges, [input]);
      // §4.5: `url` is derived; a client's url is ignored here (no currentUrl: PUT is not a patch).
      return inMode(BODY, () => parseSitelink(input, '/sitelink', site, badges));
    },
  },
  // Spread keeps an existing site in its place; a new one goes last (insertion order, as for terms).
  change: ({ subject, param: { siteId }, body: link }) => ({ ...subject.entity, sitelinks: { ...sitelinksOf(subject), [siteId]: link } }),
  respond: (done, { subject, param: { siteId } }, ctx) => ({
    body: renderSitelink(ctx.services.sites, siteId, done.entity.sitelinks![siteId]), head: done.head,
    created: sitelinksOf(subject)[siteId] === undefined,
  }),
  // §6.4: on this route the conflict names only the other item.
  sitelinkConflictContext: 'item-only',
});

/** §10.5, §10.6: a JSON Patch on the site map; result paths are relative to the map. */
export const patchSitelinks = write({
  subject: PATH_ENTITY,
  body: PATCH_DOCUMENT,
  change: async ({ subject, body: operations }, ctx) => {
    const current = sitelinksOf(subject);
    const patched = applyPatch(renderSitelinks(ctx.services.sites, current), operations);
    const badges = await badgePolicyFor(ctx.store, ctx.services.badges, isPlainObject(patched) ? Object.values(patched) : []);
    // `current` makes a changed `url` a patch-result-modified-read-only-value at /<site>/url (§10.1).
    const links = inMode(PATCH, () => parseSitelinkMap(patched, '', ctx.services.sites, badges, current));
    return { ...subject.entity, sitelinks: links };
  },
  respond: (done, _request, ctx) => ({ body: renderSitelinks(ctx.services.sites, done.entity.sitelinks ?? {}), head: done.head }),
});

/** DELETE one sitelink: 404 sitelink-not-defined comes before the permission check. */
export const deleteSitelink = write({
  subject: PATH_ENTITY,
  param: pathSite,
  target: (_ctx, { subject, param: { siteId } }) => requireSitelink(subject, subject.entity.id, siteId),
  change: ({ subject, param: { siteId } }) => {
    const { [siteId]: _removed, ...rest } = sitelinksOf(subject);
    return { ...subject.entity, sitelinks: rest };
  },
  // docs/api.md §2.1, §11: a JSON string with Content-Language: en. The new ETag too, as the term routes send it.
  respond: (done) => ({ body: 'Sitelink deleted', head: done.head, headers: { 'content-language': 'en' } }),
});
