// The change feed (docs/api.md §10.10): every revision the store commits, in commit order, paged by a cursor
// that stays valid forever, so that a copy elsewhere can follow this store without missing or repeating one.
import { fail } from '../../../domain/errors.js';
import type { KindName } from '../../../domain/entity.js';
import { parseEntityId } from '../../../domain/kinds.js';
import { InvalidCursor, type Change } from '../../../store/store.js';
import type { Ctx, Result } from '../../context.js';
import { changeFormat, renderChange } from '../../change-json.js';
import { kindNamed } from '../../../domain/kinds.js';
import type { ChangeFeed, EntityStore } from '../../../store/store.js';

const LIMIT = { default: 100, max: 1000 } as const;
const MAX_ENTITIES = 500;

function text(ctx: Ctx<unknown>, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw === '') fail('invalid-query-parameter', { parameter: name });
  return raw;
}

function limitOf(ctx: Ctx<unknown>): number {
  const raw = text(ctx, 'limit');
  if (raw === undefined) return LIMIT.default;
  const n = /^[1-9][0-9]{0,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(n <= LIMIT.max)) fail('invalid-query-parameter', { parameter: 'limit' });
  return n;
}

/** `entity=Q1,P31`: only these entities' changes. */
function entitiesOf(ctx: Ctx<unknown>): string[] | undefined {
  const raw = text(ctx, 'entity');
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map((part) => parseEntityId(part.trim())?.id ?? fail('invalid-query-parameter', { parameter: 'entity' }));
  if (ids.length > MAX_ENTITIES) fail('invalid-query-parameter', { parameter: 'entity' });
  return ids;
}

/** `types=item|property` (or with commas). */
function kindsOf(ctx: Ctx<unknown>): KindName[] | undefined {
  const raw = text(ctx, 'types');
  if (raw === undefined) return undefined;
  const kinds = raw.split(/[|,]/);
  if (kinds.some((k) => kindNamed(k) === null)) fail('invalid-query-parameter', { parameter: 'types' });
  return kinds as KindName[];
}

/** Users named in one filter, at most. */
const MAX_USERS = 50;

/** `user=Alice,Bob`: only these users' revisions (names as recorded: an account, or an address). */
function usersOf(ctx: Ctx<unknown>): string[] | undefined {
  const raw = text(ctx, 'user');
  if (raw === undefined) return undefined;
  const users = raw.split(',').map((u) => u.trim());
  if (users.length > MAX_USERS || users.some((u) => u === '' || u.length > 255)) fail('invalid-query-parameter', { parameter: 'user' });
  return users;
}

/** `bot=0` leaves bot edits out (the import's, a bot's), `bot=1` keeps only them. */
function botOf(ctx: Ctx<unknown>): boolean | undefined {
  const raw = text(ctx, 'bot');
  if (raw === undefined) return undefined;
  if (raw !== '0' && raw !== '1') fail('invalid-query-parameter', { parameter: 'bot' });
  return raw === '1';
}

/** `order=newest` reads the feed backwards, for a recent-changes list; `oldest` (the default) is commit order. */
function newestFirst(ctx: Ctx<unknown>): boolean {
  const order = text(ctx, 'order') ?? 'oldest';
  if (order !== 'oldest' && order !== 'newest') fail('invalid-query-parameter', { parameter: 'order' });
  return order === 'newest';
}

export async function getChanges(ctx: Ctx<ChangeFeed & EntityStore>): Promise<Result> {
  const format = changeFormat(ctx.query.format);
  const since = text(ctx, 'since') ?? null;
  const backwards = newestFirst(ctx);
  const query = { since: since === '0' && !backwards ? null : since, limit: limitOf(ctx), entities: entitiesOf(ctx),
    kinds: kindsOf(ctx), users: usersOf(ctx), bot: botOf(ctx), newestFirst: backwards };
  let changes: Change[];
  try {
    changes = await ctx.store.changes(query);
  } catch (e) {
    if (e instanceof InvalidCursor) fail('invalid-query-parameter', { parameter: 'since' });
    throw e;
  }
  const rendered = format === 'rdf' ? await ctx.services.rdfChanges(ctx.store, changes, RDF_PAGE_CHARACTERS) : changes.map(renderChange);
  // A page of RDF cut at its size ends at its last event, and goes on from there.
  const cut = rendered.length < changes.length;
  const shown = changes.slice(0, rendered.length);
  // An empty page keeps the position: polling with `next` again returns what committed since.
  // Backwards, a short page is the oldest one: there is nothing before it.
  const next = backwards ? (shown.length === query.limit || cut ? shown[shown.length - 1].cursor : null)
    : shown.length ? shown[shown.length - 1].cursor : since ?? '0';
  return { body: { changes: rendered, next } };
}

/**
 * Characters of RDF a page of `format=rdf` holds before it stops (one event at least): the imports of the
 * Wikidata samples are 0.5 MB each, 37 MB for a page of 500, and Wikidata's largest items several MB each.
 */
const RDF_PAGE_CHARACTERS = 8 * 2 ** 20;
