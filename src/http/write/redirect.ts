// The write half of a redirect (wbcreateredirect, `entia redirect` goes to the store with the same checks): the
// domain's rules on both entities as read (domain/redirect.ts), permission on the source, one edit of the rate
// budget, and the store's redirect, which checks the target again where it writes (another redirect may have
// come first).
import { checkRedirect } from '../../domain/redirect.js';
import { RedirectRefused, type EditMeta, type ReadResult } from '../../store/store.js';
import type { Ctx } from '../context.js';

export interface RedirectPlan {
  from: string;
  to: string;
  source: ReadResult;
  target: ReadResult;
  meta: EditMeta;
}

/** Writes a redirect whose ids passed checkRedirectIds (the door checks them before reading either entity). */
export async function commitRedirect(ctx: Ctx, { from, to, source, target, meta }: RedirectPlan): Promise<void> {
  checkRedirect(from, source, to, target);
  await ctx.services.guard.authorize(ctx, from);
  await ctx.services.guard.consume(ctx, false);
  try {
    await ctx.store.redirectEntity(from, to, meta);
  } catch (e) {
    if (!(e instanceof RedirectRefused)) throw e;
    // The target as the store found it where it writes, refused by the same rule as above.
    checkRedirect(from, source, to, { status: e.reason === 'target-is-redirect' ? 'redirect' : 'missing' });
    throw e;
  }
}
