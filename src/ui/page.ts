// What every page handler shares: what it renders, and how it reads the visitor's query parameters.
import type { FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import { PageError } from './api.js';

/** A page as a handler builds it; the layout around it is added by index.tsx. */
export interface Rendered {
  title: string;
  content: ComponentChildren;
  status?: number;
  csp?: string;
  /** A part of a page, loaded into it by its script: sent without the layout. */
  part?: boolean;
}

export type Params = Record<string, string>;

/**
 * One query parameter as the pages read it: absent, or one string. A repeated parameter (`?q=a&q=b`) is a
 * visitor's mistake, answered as the API answers it, never passed on as an array.
 */
export function queryParam(req: FastifyRequest, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new PageError(400, 'invalid-query-parameter', `Invalid query parameter: '${name}'`);
}
