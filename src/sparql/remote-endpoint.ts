// An external SPARQL engine over the SPARQL 1.1 Protocol: queries as a POSTed form to its query endpoint, updates
// as a POSTed form to its update endpoint (with the Authorization header the operator configured). Any engine
// that speaks the Protocol works; Virtuoso, which CI runs, is the one tested (README, "SPARQL on an external
// engine"). Answers are read with a bound on their size; the engine's own words are kept for errors, its address
// never (a URL may name a private host).

/** The engine answered an error status: 4xx for a query it refused, 5xx for its own failure. */
export class RemoteRefused extends Error {
  constructor(readonly status: number, message: string) { super(message); }
}

/** The engine could not be reached, or broke the connection. */
export class RemoteUnavailable extends Error {}

/** The time allowed ran out; or the engine said it stopped at its own limit (Virtuoso's partial results). */
export class RemoteTimeout extends Error {}

/** The answer is larger than allowed. */
export class RemoteTooLarge extends Error {}

export interface RemoteEndpointOptions {
  queryUrl: string;
  updateUrl: string;
  /** The Authorization header's value for updates, or null. */
  updateAuth: string | null;
}

/** The first line of an engine's error text, bounded: Virtuoso writes `Virtuoso 37000 Error SP030: …`. */
function firstLine(text: string): string {
  return (text.trim().split('\n')[0] ?? '').slice(0, 500) || 'no reason given';
}

export class RemoteEndpoint {
  constructor(private readonly options: RemoteEndpointOptions) {}

  /** Runs a query; the answer's bytes, in the format `accept` names, at most `maxBytes` long. */
  async query(text: string, accept: string, limits: { timeoutMs: number; maxBytes: number }): Promise<Buffer> {
    const answer = await this.post(this.options.queryUrl, { query: text }, { accept }, limits);
    // Virtuoso answers a query stopped at its own time limit with the rows found so far and this header.
    if (/^S1TAT/.test(answer.headers.get('x-sql-state') ?? '')) throw new RemoteTimeout('the engine stopped the query at its own time limit');
    return answer.body;
  }

  /** A SELECT's rows, each variable's value as a string (the engine's bookkeeping is read with this). */
  async selectRows(text: string, timeoutMs = 30_000): Promise<Record<string, string>[]> {
    const body = await this.query(text, 'application/sparql-results+json', { timeoutMs, maxBytes: 1 << 20 });
    const parsed = JSON.parse(body.toString('utf8')) as { results: { bindings: Record<string, { value: string }>[] } };
    return parsed.results.bindings.map((row) => Object.fromEntries(Object.entries(row).map(([name, term]) => [name, term.value])));
  }

  /**
   * Runs a SPARQL Update request. A request commits as one transaction, but an engine need not roll back one it
   * fails half-way (Virtuoso does not): remote-sync.ts is written for that.
   */
  async update(text: string, timeoutMs = 300_000): Promise<void> {
    const headers: Record<string, string> = { accept: '*/*' };
    if (this.options.updateAuth) headers.authorization = this.options.updateAuth;
    await this.post(this.options.updateUrl, { update: text }, headers, { timeoutMs, maxBytes: 64 << 20 });
  }

  private async post(url: string, form: Record<string, string>, headers: Record<string, string>,
    limits: { timeoutMs: number; maxBytes: number }): Promise<{ headers: Headers; body: Buffer }> {
    let res: Response;
    const signal = AbortSignal.timeout(limits.timeoutMs);
    try {
      res = await fetch(url, { method: 'POST', body: new URLSearchParams(form), headers, signal, redirect: 'error' });
    } catch (e) {
      if (signal.aborted) throw new RemoteTimeout(`no answer within ${limits.timeoutMs / 1000} s`);
      throw new RemoteUnavailable(`the engine cannot be reached (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`);
    }
    let body: Buffer;
    try {
      body = await readBounded(res, limits.maxBytes);
    } catch (e) {
      if (e instanceof RemoteTooLarge) throw e;
      if (signal.aborted) throw new RemoteTimeout(`no answer within ${limits.timeoutMs / 1000} s`);
      throw new RemoteUnavailable(`the engine broke off its answer (${(e as Error).message})`);
    }
    if (!res.ok) throw new RemoteRefused(res.status, firstLine(body.toString('utf8')));
    return { headers: res.headers, body };
  }
}

/** The body, read until `maxBytes`: past it the transfer is cancelled, not buffered. */
async function readBounded(res: Response, maxBytes: number): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    // Leaving the loop cancels the transfer.
    if (size > maxBytes) throw new RemoteTooLarge(`the answer is over ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
