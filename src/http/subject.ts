// Finding the entity a path names: id parsing (400), preconditions (304/412), existence (404),
// redirects (308 on reads, 409 on edits). The steps are separate because docs/api.md §7.7 puts other
// request validation between them.
import { fail } from '../domain/errors.js';
import { parseIdOfKind, type Kind } from '../domain/kinds.js';
import type { Entity } from '../domain/entity.js';
import { parsePatch, type PatchOperation } from '../domain/patch.js';
import type { DocumentRead, EditMeta, Head, ReadResult } from '../store/store.js';
import { parseMeta } from './meta.js';
import { checkPreconditions, revisionSeen } from './conditional.js';
import { EmptyReply, type Ctx } from './route.js';

export interface Found {
  entity: Entity;
  head: Head;
}

/** The path's entity id for the route's kind, upper-cased; 400 invalid-item-id / invalid-property-id. */
export function pathEntityId(ctx: Ctx, kind: Kind = ctx.kind): string {
  const raw = ctx.params.item_id ?? ctx.params.property_id;
  const id = parseIdOfKind(kind, raw);
  if (!id) fail(kind.codes.invalidId, undefined, { id: raw });
  return id;
}

/** Reads the entity and, when it exists, evaluates the request's preconditions against it. */
export async function loadEntity(ctx: Ctx, id: string, isRead: boolean): Promise<ReadResult> {
  const read = await ctx.store.readEntity(id, isRead ? 'read' : 'edit', revisionSeen(ctx));
  if (read.status === 'found') checkPreconditions(ctx, read.head, isRead);
  return read;
}

/** The same for a read that serves the stored document without parsing it (GET of a whole entity). */
export async function loadDocument(ctx: Ctx, id: string): Promise<DocumentRead> {
  const read = await ctx.store.readDocument(id, revisionSeen(ctx));
  if (read.status === 'found') checkPreconditions(ctx, read.head, true);
  return read;
}

type Located<F> = F | { status: 'redirect'; target: string } | { status: 'missing' };

/** The loaded entity (or document), or the answer for a missing or redirected one. */
export function requireFound<F extends { status: 'found' }>(ctx: Ctx, read: Located<F>, id: string, isRead: boolean,
  kind: Kind = ctx.kind): F {
  if (read.status === 'found') return read;
  if (read.status === 'missing') fail(kind.codes.notFound, undefined, { id });
  if (isRead) {
    // docs/api.md §9.1: same route with the target id, query string kept.
    const location = ctx.services.config.publicUrl + ctx.url.replace(new RegExp(`/${id}(?=/|\\?|$)`, 'i'), `/${read.target}`);
    throw new EmptyReply(308, { location });
  }
  return fail('redirected-item', { redirect_target: read.target }, { id });
}

/**
 * An edit's first steps, docs/api.md §7.7 1-5: entity id (400) → preconditions (412) → the route's own path
 * parameters such as a language code or site id (400) → edit metadata (400).
 */
export async function beginEdit<P = undefined>(ctx: Ctx, pathParams?: () => P): Promise<{ id: string; read: ReadResult; params: P; meta: EditMeta }> {
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, false);
  const params = (pathParams ? pathParams() : undefined) as P;
  return { id, read, params, meta: parseMeta(ctx) };
}

/** Steps 6-7: existence (404, 409 redirected-item), then permission (403). */
export async function requireEditable(ctx: Ctx, read: ReadResult, id: string): Promise<Found> {
  const found = requireFound(ctx, read, id, false);
  await ctx.services.guard.authorize(ctx, id);
  return found;
}

/** A PATCH of an entity or one of its maps: the first steps, the patch document (400), existence, permission. */
export async function beginPatch(ctx: Ctx): Promise<{ id: string; found: Found; meta: EditMeta; operations: PatchOperation[] }> {
  const { id, read, meta } = await beginEdit(ctx);
  const operations = parsePatch(ctx.body.patch);
  return { id, found: await requireEditable(ctx, read, id), meta, operations };
}

/** The three steps in a row, for routes with nothing to validate in between. */
export async function findEntity(ctx: Ctx, isRead: boolean): Promise<{ id: string } & Found> {
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, isRead);
  return { id, ...requireFound(ctx, read, id, isRead) };
}
