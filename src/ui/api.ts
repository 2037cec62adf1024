// The pages read Entia through its own HTTP API, in process (Fastify's inject): the same routes, read
// limits, redirects and errors a script would get, with no socket and no second way into the store.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface ApiAnswer<T> {
  status: number;
  body: T;
  /** The answer's ETag without quotes, when it has one. */
  revision: number | null;
  location: string | null;
}

/** What a failed read answers (docs/api.md §2.2). */
export interface ApiError {
  code: string;
  message: string;
}

export class PageApi {
  constructor(private readonly app: FastifyInstance) {}

  /**
   * GET `url` as the page's visitor: their address (so that read budgets are theirs, not the server's) and
   * their User-Agent travel along; nothing else does, so no cookie or token reaches the API from a page read.
   */
  async get<T>(visitor: FastifyRequest, url: string): Promise<ApiAnswer<T>> {
    const agent = visitor.headers['user-agent'];
    const res = await this.app.inject({
      method: 'GET', url, remoteAddress: visitor.ip,
      headers: { accept: 'application/json', ...(agent ? { 'user-agent': agent } : {}) },
    });
    const tag = /^"(\d+)"$/.exec(String(res.headers.etag ?? ''));
    return {
      status: res.statusCode,
      body: (res.body === '' ? null : res.json()) as T,
      revision: tag ? Number(tag[1]) : null,
      location: typeof res.headers.location === 'string' ? res.headers.location : null,
    };
  }
}

/** An API answer the page cannot show: it becomes an error page with the API's status and message. */
export class PageError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }

  static of(answer: ApiAnswer<unknown>): PageError {
    const body = (answer.body ?? {}) as Partial<ApiError>;
    return new PageError(answer.status, body.code ?? 'unexpected-error', body.message ?? 'The request failed.');
  }
}

/** The body of a successful answer, or a PageError carrying the API's error. */
export function expectOk<T>(answer: ApiAnswer<T>): T {
  if (answer.status !== 200) throw PageError.of(answer);
  return answer.body;
}
