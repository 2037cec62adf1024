// Walking the change feed and id-paged listings (store.ts), the same for every backend.

/**
 * Orders two cursors of one change feed (negative: `a` comes first). Cursors are opaque to clients, but both
 * backends write them as dot-separated decimal numbers compared left to right (SQLite `rev`, PostgreSQL
 * `xid.rev`), which is the feed's order.
 */
export function compareCursors(a: string, b: string): number {
  const pa = a.split('.').map(BigInt);
  const pb = b.split('.').map(BigInt);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0n;
    const y = pb[i] ?? 0n;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Every row of a listing that pages by id (entityIds, redirects), a page at a time: each page is read when the
 * one before has been taken, so a whole store is walked in constant memory.
 */
export async function* pagesById<T>(read: (after: string | null, limit: number) => Promise<T[]>, idOf: (row: T) => string,
  limit: number, from: string | null = null): AsyncGenerator<T[]> {
  let after = from;
  for (;;) {
    const page = await read(after, limit);
    if (page.length === 0) return;
    yield page;
    after = idOf(page[page.length - 1]);
  }
}
