// What a route declaration is, and what a handler receives and returns. The table itself is routes.ts.
import type { FastifyRequest } from 'fastify';
import type { KindName } from '../domain/entity.js';
import type { ErrorCode } from '../domain/errors.js';
import type { ResponseSchema } from './openapi-schemas.js';
import type { Kind } from '../domain/kinds.js';
import type { Head, Store } from '../store/store.js';
import type { Identity, Services } from './services.js';
import type { AnyWrite } from './write.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: Method;
  /** OpenAPI-style path. `{entity}` expands per kind to `items/{item_id}` or `properties/{property_id}`. */
  path: string;
  /** Kinds the route exists for; a path with `{entity}` or `{kind}` is registered once per kind. */
  kinds?: readonly KindName[];
  summary: string;
  tag: string;
  /** JSON Schema of the request body's top level: shape only, content is the domain's job. */
  body?: Record<string, unknown> | ((kind: Kind) => Record<string, unknown>);
  /** Query parameters, for the OpenAPI document (the handler validates them: docs/api.md §10.7 codes). */
  query?: Record<string, { type: string; required?: boolean; description: string }>;
  /** A read whose parameters travel in a POST body (a long id list): no edit, no edit errors. */
  readOnly?: boolean;
  /** Body problems collapse into the kind's invalid-item-data / invalid-property-data (docs/api.md D7/D8). */
  creation?: boolean;
  /** Success statuses, for the OpenAPI document. */
  success: number[];
  /** What a success body is (openapi-schemas.ts). */
  returns: ResponseSchema;
  /**
   * Error codes particular to this route. Those that follow from its shape (path parameters, a body, a patch,
   * creation, query parameters) are added by route-errors.ts; the OpenAPI document lists both.
   */
  errors?: readonly ErrorCode[];
  /** A read's handler… */
  handler?: Handler;
  /** …or a write's declaration, run by write.ts in the order of docs/api.md §7.7. A route has one of the two. */
  write?: AnyWrite;
}

export interface Ctx {
  kind: Kind;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  headers: FastifyRequest['headers'];
  store: Store;
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
  /** Serialised as JSON (a Buffer: JSON already); absent for an empty body. */
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
  return {
    ...who,
    params: input.params ?? params,
    query: input.query ?? (req.query as Record<string, unknown>),
    body: input.body ?? ((req.body ?? {}) as Record<string, unknown>),
    headers: req.headers,
    user: identity.kind === 'user' ? identity.account.name : req.ip,
    address: req.ip,
    url: req.url,
  };
}
