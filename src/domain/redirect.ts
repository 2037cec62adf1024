// When an entity may become a redirect to another (docs/api.md §9.1): Wikibase's rules for wbcreateredirect,
// which `entia redirect` follows too, so that the command line and the API refuse the same things. Pure: the
// caller reads both entities and writes the redirect.
import type { Entity } from './entity.js';
import { parseEntityId } from './kinds.js';
import { isEmptyEntity } from './merge.js';

/** An entity as read for the check: found (with its content), a redirect already, or missing. */
export type RedirectEnd = { status: 'found'; entity: Entity } | { status: 'redirect' } | { status: 'missing' };

export type RedirectRefusalReason =
  | 'self' | 'kind-cannot-redirect' | 'source-missing' | 'not-empty' | 'target-missing' | 'target-is-redirect';

/** A redirect the rules refuse, with the reason every dialect renders in its own words. */
export class RedirectRefusal extends Error {
  constructor(readonly reason: RedirectRefusalReason, readonly id: string, message: string) {
    super(message);
  }
}

/** The checks that need only the two ids: both of a kind that redirects, and not the same entity. */
export function checkRedirectIds(from: string, to: string): void {
  for (const id of [from, to]) {
    if (!parseEntityId(id)?.kind.redirects) throw new RedirectRefusal('kind-cannot-redirect', id, `${id} cannot be a redirect or a redirect's target: only items can.`);
  }
  if (from === to) throw new RedirectRefusal('self', from, `${from} cannot redirect to itself.`);
}

/**
 * The checks on both entities as read (the ids passed checkRedirectIds): the source exists (a redirect may be
 * pointed elsewhere) and holds nothing, since a redirect shows none of its content (a merge moves it first); the
 * target exists and is not a redirect.
 */
export function checkRedirect(from: string, source: RedirectEnd, to: string, target: RedirectEnd): void {
  if (source.status === 'missing') throw new RedirectRefusal('source-missing', from, `${from} does not exist.`);
  if (source.status === 'found' && !isEmptyEntity(source.entity)) {
    throw new RedirectRefusal('not-empty', from, `${from} is not empty: only an empty item can become a redirect (merge it instead).`);
  }
  if (target.status === 'missing') throw new RedirectRefusal('target-missing', to, `${to} does not exist.`);
  if (target.status === 'redirect') throw new RedirectRefusal('target-is-redirect', to, `${to} is itself a redirect.`);
}
