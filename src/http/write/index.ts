// The write pipeline's door for every write that is not a row of the REST route table (rows.ts runs those): the
// Action API's edit modules, QuickStatements' commands, a merge or a redirect asked for by either. A dialect parses
// its parameters into one of the four calls below and renders what it returns; the steps and their order are here,
// once (docs/api.md §10.15, "Order of checks"):
//
//   the entity's turn among this process's edits of it                               turns.ts
//   the entity read and found                        404, 409 redirected-item       subject.ts entityToEdit
//   the dialect's preconditions (baserevid)          409                            EntityEdit.precondition
//   permission                                       403                            guard.authorize
//   the change, by the domain's parsers              400, 422                       EntityEdit.change
//   data policy, size, constraints, rate limit, one atomic revision                 commit.ts, merge.ts, redirect.ts
import type { Entity } from '../../domain/entity.js';
import type { MergeConflict } from '../../domain/merge.js';
import { checkRedirectIds } from '../../domain/redirect.js';
import type { EditMeta } from '../../store/store.js';
import type { Ctx } from '../context.js';
import { entityToEdit, type Found } from '../subject.js';
import { commitEdit, type Committed } from './commit.js';
import { commitMerge, type MergeCommitted } from './merge.js';
import { commitRedirect } from './redirect.js';
import { runEdit } from './turns.js';

export type { Committed } from './commit.js';
export type { MergeCommitted } from './merge.js';

/** The edit's metadata; a function where the summary depends on the change (QuickStatements names the commands that applied). */
export type Meta = EditMeta | (() => EditMeta);

const metaOf = (meta: Meta): EditMeta => (typeof meta === 'function' ? meta() : meta);

/** One change of an existing entity, as a dialect describes it. */
export interface EntityEdit<C> {
  id: string;
  meta: Meta;
  /** The dialect's own preconditions on the entity as found, before permission; what it returns reaches `change`. */
  precondition?: (found: Found) => C | Promise<C>;
  /** The entity after the change, or null when the request changes nothing (no revision, no rate budget). */
  change: (found: Found, checked: C) => Entity | null | Promise<Entity | null>;
}

/** A committed edit and the entity as it was before. */
export interface Edited extends Committed {
  before: Entity;
}

/** Runs one edit (again from the read when another process's edit of the entity came first: turns.ts). */
export async function editEntity<C = undefined>(ctx: Ctx, edit: EntityEdit<C>): Promise<Edited | null> {
  return runEdit(ctx.services.edits, ctx.store, edit.id, async () => {
    const found = await entityToEdit(ctx, edit.id);
    const checked = (await edit.precondition?.(found)) as C;
    await ctx.services.guard.authorize(ctx, edit.id);
    const next = await edit.change(found, checked);
    if (next === null) return null;
    return { ...await commitEdit(ctx, { previous: found, next, meta: metaOf(edit.meta) }), before: found.entity };
  });
}

/** Creates an entity; `change` builds it (from nothing) once permission is granted, and its id is allocated last. */
export async function createEntity(ctx: Ctx, creation: { meta: Meta; change: () => Entity | Promise<Entity> }): Promise<Committed> {
  await ctx.services.guard.authorize(ctx, null);
  const next = await creation.change();
  return commitEdit(ctx, { previous: null, next, meta: metaOf(creation.meta) });
}

/**
 * Merges one item into another (merge.ts), in the source's turn as every edit of it; the target's
 * compare-and-set guards the other half, and a lost race re-runs the whole merge.
 */
export async function mergeItems(ctx: Ctx, merge: { from: string; to: string; ignore: ReadonlySet<MergeConflict>; meta: EditMeta }): Promise<MergeCommitted> {
  return runEdit(ctx.services.edits, ctx.store, merge.from, async () => {
    const [source, target] = [await entityToEdit(ctx, merge.from), await entityToEdit(ctx, merge.to)];
    return commitMerge(ctx, { source, target, ignore: merge.ignore, meta: merge.meta });
  });
}

/** Makes an empty item a redirect to another (redirect.ts), in the source's turn. */
export async function redirectItem(ctx: Ctx, redirect: { from: string; to: string; meta: EditMeta }): Promise<void> {
  const { from, to, meta } = redirect;
  checkRedirectIds(from, to);
  await runEdit(ctx.services.edits, ctx.store, from, async () => {
    const [source, target] = [await ctx.store.readEntity(from, 'edit'), await ctx.store.readEntity(to, 'read')];
    await commitRedirect(ctx, { from, to, source, target, meta });
  });
}
