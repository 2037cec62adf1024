// What a handler receives (Ctx: the request, the store, the services, who sent it) and returns (Result),
// for reads and writes alike; the kernel below every room (the REST route table: rest/route.ts) and the write pipeline (write/).
import type { FastifyRequest } from 'fastify';
import type { Kind } from '../domain/kinds.js';
import type { Head, Store } from '../store/store.js';
import type { Identity, Services } from './services.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A request as a handler sees it. `S` is the part of the store the handler uses (store.ts names them: EntityStore,
 * ChangeFeed, SearchIndex, …): a handler that declares `Ctx<EntityStore>` cannot reach the feed or the accounts,
 * and one that needs no store at all takes `Ctx<unknown>`.
 */
export interface Ctx<S = Store> {
  kind: Kind;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  headers: FastifyRequest['headers'];
  store: S;
  services: Services;
  /** Who is editing: account name or client address. */
  user: string;
  /** How the request authenticated (guard.ts decides what each may do). */
  identity: Identity;
  /** The client address (the socket's, or X-Forwarded-For's only with ENTIA_TRUST_PROXY). */
  address: string;
  /** The request path and query, for building redirect Locations. */
  url: string;
}

export interface Result {
  status?: number;
  /** Serialised as JSON (a Buffer or a JsonStream: JSON already); absent for an empty body. */
  body?: unknown;
  /** ETag and Last-Modified of the entity concerned (docs/api.md §2.3). */
  head?: Head;
  headers?: Record<string, string>;
  /** A PUT that created its resource rather than replacing it (upstream's dialect answers 201, D11). */
  created?: boolean;
  /**
   * A whole property's data type, which upstream's dialect shows where the contract leaves it out (D2); a
   * function, so that only that dialect pays for reading it.
   */
  dataType?: () => string | undefined;
}

export type Handler = (ctx: Ctx) => Promise<Result>;

/** Ends a request early with an empty body: 304, 307, 308, 412 (docs/api.md §7.6). */
export class EmptyReply extends Error {
  constructor(readonly status: number, readonly headers: Record<string, string> = {}) {
    super(String(status));
  }
}

/**
 * The Ctx of a request: its path parameters (NFC), query and body, unless the caller gives others (the Action
 * API, whose parameters are neither), and who sent it.
 */
export function requestContext(req: FastifyRequest, who: Pick<Ctx, 'kind' | 'store' | 'services' | 'identity'>,
  input: Partial<Pick<Ctx, 'params' | 'query' | 'body'>> = {}): Ctx {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.params as Record<string, string>)) params[k] = v.normalize('NFC');
  const { identity } = who;
  // Each member named, not `...who`: V8 gave every object made by spreading `who` and adding members a hidden
  // class of its own, made in the old generation, so each request left some 2 KB there for a full collection
  // (a sampling heap profile of single GETs; the bench's peak RSS came from that garbage, issue #38).
  return {
    kind: who.kind,
    store: who.store,
    services: who.services,
    identity,
    params: input.params ?? params,
    query: input.query ?? (req.query as Record<string, unknown>),
    body: input.body ?? ((req.body ?? {}) as Record<string, unknown>),
    headers: req.headers,
    user: identity.kind === 'user' ? identity.account.name : req.ip,
    address: req.ip,
    url: req.url,
  };
}
