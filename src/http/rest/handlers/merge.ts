// POST /v1/entities/items/{item_id}/merge (docs/api.md §9.4): the path's item is merged into `into` and becomes a
// redirect to it. Runs the write pipeline's steps like any edit (preconditions on the source, metadata, existence,
// permission), then commits both items at once (write/merge.ts).
import { fail } from '../../../domain/errors.js';
import { ITEM, parseIdOfKind } from '../../../domain/kinds.js';
import { MERGE_CONFLICTS, type MergeConflict } from '../../../domain/merge.js';
import type { MergeCommitted } from '../../write/index.js';
import { renderEntity } from '../../../domain/render.js';
import { requireFound } from '../../subject.js';
import { PATH_ENTITY, write } from '../../write/rows.js';

interface MergeBody {
  into: string;
  ignore: Set<MergeConflict>;
}

export const mergeItem = write({
  subject: PATH_ENTITY,
  body: {
    part: 'merge',
    parse: (ctx): MergeBody => {
      const into = typeof ctx.body.into === 'string' ? parseIdOfKind(ITEM, ctx.body.into) : null;
      if (!into) fail('invalid-value', { path: '/into' });
      const raw = ctx.body.ignore_conflicts ?? [];
      if (!Array.isArray(raw)) fail('invalid-value', { path: '/ignore_conflicts' });
      raw.forEach((kind, i) => {
        if (!(MERGE_CONFLICTS as readonly unknown[]).includes(kind)) fail('invalid-value', { path: `/ignore_conflicts/${i}` });
      });
      return { into, ignore: new Set(raw as MergeConflict[]) };
    },
  },
  target: async (ctx, { subject, body }) => {
    if (body.into === subject.entity.id) fail('merge-into-self', undefined, { id: body.into });
    const read = await ctx.store.readEntity(body.into, 'edit');
    if (read.status === 'missing') fail('referenced-resource-not-found', { path: '/into' });
    return requireFound(ctx, read, body.into, false);
  },
  merge: ({ subject, target, body, meta }) => ({ source: subject, target, ignore: body.ignore, meta }),
  respond: (done: MergeCommitted, _request, ctx) => ({
    body: {
      source: { id: done.source.entity.id, revision: done.source.head.revision, redirect: done.source.redirected ? done.target.entity.id : null },
      target: renderEntity(done.target.entity, ctx.services.sites, true),
    },
  }),
});
