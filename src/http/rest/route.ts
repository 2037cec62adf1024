// What a route declaration is (the table itself is routes.ts); what a handler receives and returns is
// context.ts.
import type { KindName } from '../../domain/entity.js';
import type { ErrorCode } from '../../domain/errors.js';
import type { ResponseSchema } from './openapi-schemas.js';
import { kindByName, type Kind } from '../../domain/kinds.js';
import type { AnyWrite } from '../write/rows.js';
import type { Handler, Method } from '../context.js';


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
  /** …or a write's declaration, run by write/rows.ts in the order of docs/api.md §7.7. A route has one of the two. */
  write?: AnyWrite;
}

/** One registered route: a table row for one kind, with its concrete Fastify path. */
export interface BoundRoute {
  route: Route;
  kind: Kind | null;
  /** OpenAPI path, e.g. /v1/entities/items/{item_id}/labels/{language_code}. */
  path: string;
  /** Fastify path, e.g. /v1/entities/items/:item_id/labels/:language_code. */
  url: string;
}

export function bindRoutes(routes: readonly Route[]): BoundRoute[] {
  return routes.flatMap((route) => {
    const kinds: (Kind | null)[] = route.kinds ? route.kinds.map(kindByName) : [null];
    return kinds.map((kind) => {
      const path = kind
        ? route.path.replace('{entity}', `${kind.segment}/{${kind.name}_id}`).replace('{kind}', kind.segment)
        : route.path;
      return { route, kind, path, url: path.replace(/\{(\w+)\}/g, ':$1') };
    });
  });
}
