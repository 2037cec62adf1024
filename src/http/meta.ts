// Edit metadata: tags, bot, comment (docs/api.md §2.4). Their JSON types are checked by the route's body
// schema; the rules here need configuration (tag allow-list) or byte counting.
import { fail } from '../domain/errors.js';
import type { EditMeta } from '../store/store.js';
import type { Ctx } from './context.js';

export const COMMENT_MAX_BYTES = 500;

/** Returns the edit's metadata (a creation's problems are collapsed into invalid-*-data by write/rows.ts). */
export function parseMeta(ctx: Ctx<unknown>): EditMeta {
  const { comment, tags, bot } = ctx.body as { comment?: string; tags?: string[]; bot?: boolean };
  if (comment !== undefined && Buffer.byteLength(comment, 'utf8') > COMMENT_MAX_BYTES) {
    fail('value-too-long', { path: '/comment', limit: COMMENT_MAX_BYTES });
  }
  const badTag = (tags ?? []).findIndex((t) => !ctx.services.tags.has(t));
  if (badTag >= 0) fail('invalid-value', { path: `/tags/${badTag}` });
  // As upstream: `bot: true` marks the edit as a bot edit only for an account in the bot group; from anyone
  // else it is accepted and recorded as a normal edit.
  const isBot = bot === true && ctx.identity.kind === 'user' && ctx.identity.account.group === 'bot';
  return { user: ctx.user, comment: comment ?? null, tags: tags ?? [], bot: isBot };
}

/** The body-schema fragment every write route shares. */
export const META_SCHEMA = {
  tags: { type: 'array', items: { type: 'string' } },
  bot: { type: 'boolean' },
  comment: { type: 'string' },
} as const;
