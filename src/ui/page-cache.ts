// Rendered pages kept until the store commits anything (ADR 0019). An entity page shows the entity and the
// labels of everything it links to, so any edit anywhere may change it; the store's newest committed change
// (one indexed read) is the whole validator. A page is rendered after its validator is read, so what is kept is
// never older than the state the validator names; an edit committed meanwhile only makes the next request
// render again. Bounded by the bytes of HTML kept, least recently used out first.

/** The newest change the store has committed, as an opaque token (the change feed's cursor). */
export type StoreVersion = () => Promise<string>;

export interface CachedPage {
  status: number;
  csp: string;
  /** The page's HTML; the same Buffer on every hit, so its compressed forms are made once (http/compression.ts). */
  html: Buffer;
}

interface Entry {
  version: string;
  page: CachedPage;
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private used = 0;

  /** `budget`: bytes of HTML kept in all; `version`: the store's validator. */
  constructor(private readonly budget: number, private readonly version: StoreVersion) {}

  /**
   * The page under `key` as the store is now: kept, or made by `render` and kept when it is a 200 small enough
   * to share the budget. `render` answering null (a redirect sent, a download) keeps nothing.
   */
  async page(key: string, render: () => Promise<CachedPage | null>): Promise<CachedPage | null> {
    const version = await this.version();
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key); // re-inserted below: a Map keeps insertion order, the oldest goes first
      this.used -= kept.page.html.length;
      if (kept.version === version) {
        this.keep(key, kept);
        return kept.page;
      }
    }
    const page = await render();
    if (page && page.status === 200 && page.html.length <= this.budget / 8) this.keep(key, { version, page });
    return page;
  }

  private keep(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.used += entry.page.html.length;
    for (const [oldest, old] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= old.page.html.length;
    }
  }
}
