// An entity's history (docs/api.md §10.9): the list of its revisions, newest first and paged backwards, one
// revision's document as it was, a revert, which is an edit like any other (every rule of §7 applies) whose
// new content is an earlier revision's, and an undo, an edit that takes back what one revision changed.
import { fail } from '../../../domain/errors.js';
import type { Entity } from '../../../domain/entity.js';
import { undoRevision, type DiffRow } from '../../../domain/entity-diff.js';
import type { RevisionRecord, EntityStore } from '../../../store/store.js';
import { renderEntity } from '../../../domain/render.js';
import { EmptyReply, type Ctx, type Result } from '../../context.js';
import { pathEntityId } from '../../subject.js';
import { PATH_ENTITY, write } from '../../write/rows.js';

const HISTORY_LIMIT = { default: 50, max: 500 } as const;
const POSITIVE = /^[1-9][0-9]{0,15}$/;

function positiveQuery(ctx: Ctx<unknown>, name: string): number | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !POSITIVE.test(raw)) fail('invalid-query-parameter', { parameter: name });
  return Number(raw);
}

function renderRevision(r: RevisionRecord): Record<string, unknown> {
  return { id: r.revision, timestamp: r.timestamp.toISOString().replace('.000Z', 'Z'), user: r.user, comment: r.comment,
    tags: r.tags, bot: r.bot, size: r.size };
}

/** The history of an entity, a redirect's included (its own revisions; no 308: the history is the page's). */
export async function getHistory(ctx: Ctx<EntityStore>): Promise<Result> {
  const id = pathEntityId(ctx);
  const limit = positiveQuery(ctx, 'limit') ?? HISTORY_LIMIT.default;
  if (limit > HISTORY_LIMIT.max) fail('invalid-query-parameter', { parameter: 'limit' });
  const before = positiveQuery(ctx, 'before');
  const read = await ctx.store.readEntity(id);
  if (read.status === 'missing') fail(ctx.kind.codes.notFound, undefined, { id });
  const page = await ctx.store.revisions(id, limit + 1, before);
  const shown = page.slice(0, limit);
  const next = page.length > limit ? String(shown[shown.length - 1].revision) : null;
  return { body: { revisions: shown.map(renderRevision), next } };
}

function revisionId(raw: string | undefined): number {
  if (raw === undefined || !POSITIVE.test(raw)) return fail('invalid-revision-id', undefined, { id: String(raw) });
  return Number(raw);
}

/** One revision's document, as GET of the entity returned it then; a revision that made a redirect: 308 to its target. */
export async function getRevision(ctx: Ctx<EntityStore>): Promise<Result> {
  const id = pathEntityId(ctx);
  const revision = revisionId(ctx.params.revision_id);
  const found = await ctx.store.readRevision(id, revision);
  if (!found) {
    if ((await ctx.store.readEntity(id)).status === 'missing') fail(ctx.kind.codes.notFound, undefined, { id });
    return fail('revision-not-found', undefined, { id: String(revision), entity: id });
  }
  if (found.kind === 'redirect') {
    throw new EmptyReply(308, { location: `${ctx.services.config.publicUrl}/v1/entities/${ctx.kind.segment}/${found.target}` });
  }
  return { body: renderEntity(found.entity, ctx.services.sites, false), head: found.head };
}

/**
 * A new revision whose content is an earlier one's: labels, statements with their ids, sitelinks… Checked as
 * any edit is: preconditions, metadata, existence, permission, data policy (a sitelink another item has taken
 * since is a 422), size, rate. Reverting to what the entity already is writes nothing.
 */
export const revertEntity = write({
  subject: PATH_ENTITY,
  action: 'revert',
  body: {
    part: 'revision',
    parse: bodyRevision,
  },
  target: async (ctx, { subject: { entity }, body: revision }) => {
    const target = await ctx.store.readRevision(entity.id, revision);
    if (!target) return fail('revision-not-found', undefined, { id: String(revision), entity: entity.id });
    if (target.kind === 'redirect') fail('invalid-value', { path: '/revision' });
    return target.entity;
  },
  change: ({ subject, target }): Entity => ({ ...target, id: subject.entity.id }),
  // A revert to what the entity already is writes nothing, and says so (the ETag stays the current one too).
  respond: (done, _request, ctx) => ({
    body: renderEntity(done.entity, ctx.services.sites, true), head: done.head,
    headers: { 'entia-revert': done.changed ? 'reverted' : 'unchanged' },
  }),
});

/** A revision number in the body: `{"revision": N}`. */
function bodyRevision(ctx: Ctx<unknown>): number {
  const revision = ctx.body.revision;
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1) fail('invalid-value', { path: '/revision' });
  return revision;
}

/** A diff row's part as an undo conflict names it: `label en`, `statement Q1$…`, `sitelink enwiki`. */
function partName(row: DiffRow): string {
  return `${row.part} ${'language' in row ? row.language : 'site' in row ? row.site : row.id}`;
}

/**
 * Undoes what revision N changed (Wikibase's undo), on the entity as it is now: the parts it changed go back,
 * provided each is still as N left it; otherwise 409 undo-conflict names those changed since. N must be one of
 * the entity's revisions after its first (a creation is undone by no edit).
 */
export const undoEntity = write({
  subject: PATH_ENTITY,
  body: { part: 'revision', parse: bodyRevision },
  target: async (ctx, { subject: { entity }, body: revision }) => {
    const after = await ctx.store.readRevision(entity.id, revision);
    if (!after) return fail('revision-not-found', undefined, { id: String(revision), entity: entity.id });
    const previous = await ctx.store.revisionBefore(entity.id, revision);
    const before = previous === null ? null : await ctx.store.readRevision(entity.id, previous);
    if (after.kind !== 'entity' || before?.kind !== 'entity') return fail('invalid-value', { path: '/revision' });
    return { before: before.entity, after: after.entity };
  },
  change: ({ subject, target }): Entity => {
    const undone = undoRevision(subject.entity, target.before, target.after);
    if ('conflicts' in undone) return fail('undo-conflict', { parts: undone.conflicts.map(partName).join(', ') });
    return undone.entity;
  },
  respond: (done, _request, ctx) => ({ body: renderEntity(done.entity, ctx.services.sites, true), head: done.head }),
});
