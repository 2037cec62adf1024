// Finding the entity a path names: id parsing (400), preconditions (304/412), existence (404),
// redirects (308 on reads, 409 on edits). The steps are separate because docs/api.md §7.7 puts other
// request validation between them; write/rows.ts runs them for every write, the read handlers call them in order.
import { fail } from '../domain/errors.js';
import { parseEntityId, parseIdOfKind, type Kind } from '../domain/kinds.js';
import { pathEntityParameter } from './path-parameters.js';
import type { Entity } from '../domain/entity.js';
import type { DocumentRead, Head, ReadResult, EntityStore } from '../store/store.js';
import { checkPreconditions, revisionSeen } from './conditional.js';
import { EmptyReply, type Ctx } from './context.js';

export interface Found {
  entity: Entity;
  head: Head;
}

/** The path's entity id for the route's kind, upper-cased; 400 invalid-item-id / invalid-property-id. */
export function pathEntityId(ctx: Ctx<unknown>, kind: Kind = ctx.kind): string {
  const raw = pathEntityParameter(ctx.params) ?? '';
  const id = parseIdOfKind(kind, raw);
  if (!id) fail(kind.codes.invalidId, undefined, { id: raw });
  return id;
}

/** Reads the entity and, when it exists, evaluates the request's preconditions against it. */
export async function loadEntity(ctx: Ctx<EntityStore>, id: string, isRead: boolean): Promise<ReadResult> {
  const read = await ctx.store.readEntity(id, isRead ? 'read' : 'edit', revisionSeen(ctx));
  if (read.status === 'found') checkPreconditions(ctx, read.head, isRead);
  return read;
}

/** The same for a read that serves the stored document without parsing it (GET of a whole entity). */
export async function loadDocument(ctx: Ctx<EntityStore>, id: string): Promise<DocumentRead> {
  const read = await ctx.store.readDocument(id, revisionSeen(ctx));
  if (read.status === 'found') checkPreconditions(ctx, read.head, true);
  return read;
}

type Located<F> = F | { status: 'redirect'; target: string } | { status: 'missing' };

/** The loaded entity (or document), or the answer for a missing or redirected one. */
export function requireFound<F extends { status: 'found' }>(ctx: Ctx<unknown>, read: Located<F>, id: string, isRead: boolean,
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
 * An entity an edit names outside the path (a batch's commands, a merge's other item): found, or the answer
 * for a missing or redirected one, as for the path's. No preconditions: the request's headers are about its path.
 */
export async function entityToEdit(ctx: Ctx<EntityStore>, id: string): Promise<Found> {
  const kind = parseEntityId(id)?.kind ?? ctx.kind;
  return requireFound(ctx, await ctx.store.readEntity(id, 'edit'), id, false, kind);
}

/** The three steps in a row, for routes with nothing to validate in between. */
export async function findEntity(ctx: Ctx<EntityStore>, isRead: boolean): Promise<{ id: string } & Found> {
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, isRead);
  return { id, ...requireFound(ctx, read, id, isRead) };
}
