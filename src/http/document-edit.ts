// An entity's document in the REST form, ready for an edit that is not a REST route to change it (the Action API's
// modules, QuickStatements): the change is made to the document, then the result is read back by the same domain
// parser as an entity PATCH (patchedEntity) and written by commitEdit, so no other dialect has rules of its own.
import type { Entity } from '../domain/entity.js';
import type { SiteTable } from '../domain/sites.js';
import { renderEntity } from '../domain/render.js';

type Json = Record<string, unknown>;
export type Doc = Json & { statements: Record<string, Json[]>; labels: Json; descriptions: Json; aliases: Json; sitelinks?: Json };

/**
 * The entity's document, ready to change: its maps and statement groups are copies, the statements in them the
 * stored (frozen) ones until a change replaces one with its own copy. patchedEntity then keeps every statement the
 * edit left alone as it is, without validating it or looking up its values again, as for a PATCH.
 */
export function editableDocument(entity: Entity, sites: SiteTable): Doc {
  return copyDocument(renderEntity(entity, sites, true) as Doc);
}

/** A copy of a document whose maps and statement groups may be changed without touching the original's. */
export function copyDocument(doc: Doc): Doc {
  const copy: Doc = {
    ...doc, labels: { ...doc.labels }, descriptions: { ...doc.descriptions },
    aliases: Object.fromEntries(Object.entries(doc.aliases).map(([lang, list]) => [lang, [...(list as unknown[])]])),
    statements: Object.fromEntries(Object.entries(doc.statements).map(([pid, group]) => [pid, [...group]])),
  };
  if (doc.sitelinks) copy.sitelinks = { ...doc.sitelinks };
  return copy;
}

/** The document of a new entity of a kind: empty maps (and sitelinks for a kind that has them). */
export function emptyDocument(hasSitelinks: boolean): Doc {
  return { labels: {}, descriptions: {}, aliases: {}, statements: {}, ...(hasSitelinks ? { sitelinks: {} } : {}) };
}
