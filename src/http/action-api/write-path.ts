// The path every Action API edit module takes (docs/api.md §10.15): the entity it names, its current document
// changed by the module and written through commitEdit in the entity's turn, and the answer in the Action API's
// shape. The modules themselves are write-terms.ts, write-claims.ts and writes.ts.
import type { Entity, Statement, TermField } from '../../domain/entity.js';
import { parseNewEntity, patchedEntity } from '../../domain/entity-input.js';
import { parseEntityId, type Kind } from '../../domain/kinds.js';
import { BODY, inMode } from '../../domain/problems.js';
import { toWikidataClaim } from '../../domain/wikidata-export.js';
import { isTermLanguage } from '../../domain/languages.js';
import { changedParts } from '../../domain/entity-parts.js';
import { createEntity, editEntity, type Committed } from '../write/index.js';
import { rulesFor } from '../write/rules.js';
import { editableDocument, type Doc } from '../document-edit.js';
import type { Services } from '../services.js';
import { actionEntity } from './reads.js';
import { hashedClaim, statementById } from './claims.js';
import { entityIdOf, param, refuse, required, type Json, type WriteCall } from './protocol.js';

/** A committed edit, with the entity before it (null for a creation). */
export type Edited = Committed & { before: Entity | null };

export const ALL_PROPS = new Set(['info', 'sitelinks', 'sitelinks/urls', 'aliases', 'labels', 'descriptions', 'claims', 'datatype']);

// ---- The edit path ---------------------------------------------------------------------------------------

/** The entity an edit names: `id`, or the item linked from `site` + `title`. */
export async function targetId(call: WriteCall, idParam = 'id'): Promise<string> {
  const raw = param(call.params, idParam);
  if (raw !== undefined) return entityIdOf(raw);
  const site = param(call.params, 'site');
  const title = param(call.params, 'title');
  if (site === undefined || title === undefined) return refuse('param-missing', `Either provide the entity "${idParam}" or "site" and "title".`);
  const page = title.replaceAll('_', ' ');
  const owner = (await call.store.sitelinkOwners([[site, page]])).get(`${site}\u0000${page}`);
  return owner ?? refuse('no-such-entity-link', `No entity found matching site link "${title}" on "${site}".`);
}


/**
 * Applies `change` to the entity's current document: the pipeline's edit (write/index.ts), the document parsed by
 * the same domain parser as an entity PATCH. With `baserevid` older than the latest revision the edit is applied
 * unless it changes a part that was changed since (as Wikibase does).
 */
export async function editDocument(call: WriteCall, id: string, change: (doc: Doc, entity: Entity) => void): Promise<Edited> {
  const { ctx } = call;
  const edited = await editEntity(ctx, {
    id,
    meta: call.meta,
    precondition: ({ entity, head }) => changedSinceBase(call, id, entity, head.revision),
    change: async ({ entity, head }, since) => {
      const doc = editableDocument(entity, ctx.services.sites);
      change(doc, entity);
      const rules = await rulesFor(ctx, doc, entity);
      const next = inMode(BODY, () => patchedEntity(parseEntityId(id)!.kind, entity, doc, { ...rules, clientStatementIds: true }));
      const overlap = since ? [...changedParts(entity, next)].filter((part) => since.parts.has(part)) : [];
      if (overlap.length) {
        refuse('editconflict', `Edit conflict: ${overlap.slice(0, 5).join(', ')} of ${id} changed after revision ${since!.base}; `
          + `its latest revision is ${head.revision}.`);
      }
      return next;
    },
  });
  return edited!;
}

/** A new entity from a document, parsed as the body of POST /v1/entities/{kind} is. */
export async function createDocument(call: WriteCall, kind: Kind, doc: Doc): Promise<Edited> {
  const { ctx } = call;
  const done = await createEntity(ctx, {
    meta: call.meta,
    change: async () => {
      const rules = await rulesFor(ctx, doc);
      return inMode(BODY, () => parseNewEntity(kind, doc, rules));
    },
  });
  return { ...done, before: null };
}

/** What every entity module answers: the whole entity, or only the part it edited; its revision; `nochange`. */
export function entityAnswer(done: Edited, call: WriteCall, part?: Json): Json {
  const entity: Json = part ? { id: done.entity.id, type: done.entity.type, lastrevid: done.head.revision, ...part }
    : actionEntity(done.entity, done.head, ALL_PROPS, null, false, call.services);
  if (!done.changed) entity.nochange = call.v2 ? true : '';
  return { entity, success: 1 };
}

export function pageAnswer(done: Edited, more: Json = {}): Json {
  return { pageinfo: { lastrevid: done.head.revision }, success: 1, ...more };
}

/**
 * With `baserevid` older than the entity's latest revision: the parts changed since (entity-parts.ts); null when
 * the edit is made against the latest revision. A base that is not a revision of this entity is a conflict.
 */
async function changedSinceBase(call: WriteCall, id: string, current: Entity, head: number): Promise<{ base: number; parts: Set<string> } | null> {
  const raw = param(call.params, 'baserevid');
  if (raw === undefined || raw === String(head)) return null;
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) refuse('badinteger', 'Invalid value for parameter "baserevid".');
  const base = await call.store.readRevision(id, Number(raw));
  if (!base || base.kind !== 'entity' || Number(raw) > head) {
    refuse('editconflict', `Edit conflict: revision ${raw} is not a revision of ${id} this edit can be based on; its latest revision is ${head}.`);
  }
  return { base: Number(raw), parts: changedParts(base.entity, current) };
}

/** The dump-format claim of a statement of the edited entity, with hashes. */
export function claimOf(entity: Entity, id: string): Json {
  const statement = statementById(entity.statements, id);
  const claim = statement ? toWikidataClaim(statement, entity.source) : null;
  return claim ? hashedClaim(claim) : {};
}

/** The statement an edit added: the one the entity did not hold before. */
export function addedStatement({ before, ...done }: Edited): Statement | undefined {
  const held = new Set(Object.values(before?.statements ?? {}).flat().map((s) => s.id));
  return Object.values(done.entity.statements).flat().find((s) => !held.has(s.id));
}

// ---- Document changes --------------------------------------------------------------------------------------

/**
 * A language code the field's terms may have, checked before it is used as a key of the document (a code such
 * as `__proto__` or `constructor` would otherwise reach an object's prototype): `not-recognized-language`.
 */
export function termLanguage(code: unknown, field: TermField): string {
  if (typeof code !== 'string' || !isTermLanguage(code, field)) {
    return refuse('not-recognized-language', `Unknown language code "${String(code).slice(0, 100)}" for ${field}.`);
  }
  return code;
}

/**
 * A parameter naming a term language (wbsetlabel's `language`) or a site (wbsetsitelink's `linksite`): values
 * of a fixed list, refused as MediaWiki refuses any such parameter, with `badvalue`.
 */
export function listedParam(call: WriteCall, name: string, listed: (value: string) => boolean): string {
  const value = required(call.params, name);
  if (!listed(value)) refuse('badvalue', `Unrecognized value for parameter "${name}": ${value.slice(0, 100)}.`);
  return value;
}

export const languageParam = (call: WriteCall, field: TermField) => listedParam(call, 'language', (v) => isTermLanguage(v, field));
export const siteParam = (call: WriteCall) => listedParam(call, 'linksite', (v) => Object.hasOwn(call.services.sites, v));

/** A site of the site table, checked before it is used as a key: `not-recognized-siteid`. */
export function knownSite(sites: Services['sites'], site: unknown): string {
  if (typeof site !== 'string' || !Object.hasOwn(sites, site)) {
    return refuse('not-recognized-siteid', `Unknown site "${String(site).slice(0, 100)}".`);
  }
  return site;
}
