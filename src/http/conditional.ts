// Conditional requests (docs/api.md §8), shared by every entity route.
import type { FastifyRequest } from 'fastify';
import type { Head } from '../store/store.js';
import { EmptyReply } from './context.js';

export const etag = (head: Head): string => `"${head.revision}"`;
export const httpDate = (d: Date): string => d.toUTCString();

/** Parses an entity-tag list; `*` → 'any'; null when the header is absent or syntactically invalid (ignored). */
function tagList(header: string | undefined, allowWeak: boolean): 'any' | string[] | null {
  if (header === undefined) return null;
  const trimmed = header.trim();
  if (trimmed === '*') return 'any';
  const tags: string[] = [];
  for (const part of trimmed.split(',')) {
    const m = /^\s*(W\/)?"([^"]*)"\s*$/.exec(part);
    if (!m) return null;
    if (m[1] && !allowWeak) continue;
    tags.push(m[2]);
  }
  return tags;
}

/** Seconds since the epoch, or null for an unparseable date (ignored). */
function dateHeader(header: string | undefined): number | null {
  if (header === undefined) return null;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

function header(req: { headers: FastifyRequest['headers'] }, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * The newest revision the client names in If-None-Match or If-Match (0: none): it has seen that revision, so a
 * read must not answer an older one (a lagging replica's; docs/api.md §2.3).
 */
export function revisionSeen(req: { headers: FastifyRequest['headers'] }): number {
  let seen = 0;
  for (const [name, weak] of [['if-none-match', true], ['if-match', false]] as const) {
    const tags = tagList(header(req, name), weak);
    if (Array.isArray(tags)) for (const t of tags) if (/^[1-9][0-9]{0,15}$/.test(t)) seen = Math.max(seen, Number(t));
  }
  return seen;
}

/**
 * Throws EmptyReply(304 | 412) when the request's preconditions fail against the entity's head.
 * Called only when the entity named by the path exists (docs/api.md §8).
 */
export function checkPreconditions(req: { headers: FastifyRequest['headers'] }, head: Head, isRead: boolean): void {
  const current = String(head.revision);
  const modified = Math.floor(head.modified.getTime() / 1000);

  const ifMatch = tagList(header(req, 'if-match'), false);
  if (ifMatch !== null) {
    if (ifMatch !== 'any' && !ifMatch.includes(current)) throw new EmptyReply(412);
  } else {
    const since = dateHeader(header(req, 'if-unmodified-since'));
    if (since !== null && modified > since) throw new EmptyReply(412);
  }

  const ifNoneMatch = tagList(header(req, 'if-none-match'), true);
  if (ifNoneMatch !== null) {
    if (ifNoneMatch === 'any' || ifNoneMatch.includes(current)) {
      throw isRead ? new EmptyReply(304, { etag: etag(head) }) : new EmptyReply(412);
    }
  } else if (isRead) {
    const since = dateHeader(header(req, 'if-modified-since'));
    if (since !== null && modified <= since) throw new EmptyReply(304, { etag: etag(head) });
  }
}
