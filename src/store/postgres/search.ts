// The PostgreSQL side of search (issue #6): the same index rows and ranking module as SQLite
// (docs/adr/0003-search-index.md), written in the edit's transaction and read with index seeks.
import type pg from 'pg';
import type { Entity } from '../../domain/entity.js';
import { searchHits, type EntityTerms, type HitBackend, type SearchHit } from '../../search/hits.js';
import { TYPE_CODE, type SearchTermType } from '../../search/index-keys.js';
import type { EntityFilter, KindCode, Row, Stream } from '../../search/rank.js';
import { diffSearchRows, KIND_CODE, SEARCH_TABLES, type RowDiff, type SearchRow } from '../index-rows.js';
import { languageKey } from '../prefix-languages.js';
import type { SearchQuery } from '../store.js';
import { runCombined, type Db, type WritePart } from './queries.js';
import { searchQueries as q, searchRowsAdded, searchRowsRemoved } from './search-queries.js';
import { inTransaction } from './transaction.js';
import { kindByName } from '../../domain/kinds.js';

/** Before the first row of any stream. */
const START: Row = { rank: Number.MIN_SAFE_INTEGER, entity: -1 };
/**
 * How long a process trusts its copy of the languages left out of the prefix index. Only a bulk import's build
 * changes the record; another process sees the change this much later, and until then suggests the newly
 * imported entities of a newly recorded language only by their exact terms (a build in this process clears
 * the copy at once).
 */
const PREFIX_SKIPPED_TTL_MS = 5_000;

/** Search row differences as writes: one per table and direction that has rows. */
export function searchRowParts(diffs: RowDiff<SearchRow>[]): WritePart[] {
  const parts: WritePart[] = [];
  for (const table of SEARCH_TABLES) {
    const removed = diffs.flatMap((d) => d.removed.filter((r) => r.table === table));
    const added = diffs.flatMap((d) => d.added.filter((r) => r.table === table));
    if (removed.length) parts.push(searchRowsRemoved(table, removed));
    if (added.length) parts.push(searchRowsAdded(table, added));
  }
  return parts;
}

/** Applies search row differences in one statement. */
export async function writeSearchRows(db: Db, diffs: RowDiff<SearchRow>[]): Promise<void> {
  await runCombined(db, searchRowParts(diffs));
}

export class PostgresSearch implements HitBackend {
  private prefixSkipped: { keys: Promise<Set<string>>; at: number } | null = null;

  /** `reader`: where searches go (the pool, or the replicas for a read view); writes use `pool`. */
  constructor(private readonly pool: pg.Pool, private readonly reader: Db = pool) {}

  /** Indexes entities that existed before the search index did; concurrent openers share the work. */
  async drainBacklog(batch = 500): Promise<void> {
    for (;;) {
      const taken = await inTransaction(this.pool, async (db) => {
        const ids = await q.takeBacklog(db, batch);
        if (ids.length === 0) return 0;
        const docs = await q.contents(db, ids);
        await writeSearchRows(db, docs.map((d) => diffSearchRows(null, JSON.parse(d.content) as Entity)));
        return ids.length;
      });
      if (taken === 0) return;
    }
  }

  search(query: SearchQuery, filter?: EntityFilter): Promise<SearchHit[]> {
    return searchHits(query, this, filter);
  }

  async page(stream: Stream, after: Row | null, size: number): Promise<Row[]> {
    const from = after ?? START;
    const kind = KIND_CODE[stream.kind];
    const type = TYPE_CODE[stream.type];
    const s = stream.source;
    switch (s.index) {
      case 'terms':
        return q.page(this.reader, 'terms', [kind, stream.lang, s.folded, type], from, size);
      case 'prefixes':
        return q.page(this.reader, 'prefixes', [kind, stream.lang, s.prefix, type], from, size);
      case 'terms-range':
        return q.termsRange(this.reader, kind, stream.lang, s.from, s.to, type, from, size);
      case 'terms-by-rank':
        return q.termsByRank(this.reader, kind, stream.lang, type, s.from, s.to, from, size);
      case 'tokens':
        if (s.also.length === 0) return q.page(this.reader, 'tokens', [kind, stream.lang, s.token, type], from, size);
        return q.tokensWithAlso(this.reader, kind, stream.lang, s.token, type, s.also, from, size);
    }
  }

  rangeCount(kind: KindCode, lang: string, type: SearchTermType, from: string, to: string, cap: number): Promise<number> {
    return q.rangeCount(this.reader, KIND_CODE[kind], lang, from, to, TYPE_CODE[type], cap);
  }

  postings(kind: KindCode, lang: string, token: string, cap: number): Promise<number> {
    return q.postings(this.reader, KIND_CODE[kind], lang, token, cap);
  }

  texts(kind: KindCode, entity: number, lang: string, type: SearchTermType): Promise<string[]> {
    return q.texts(this.reader, kindByName(kind).prefix + entity, type, lang);
  }

  exists(kind: KindCode, entity: number): Promise<boolean> {
    return q.exists(this.reader, kindByName(kind).prefix + entity);
  }

  async prefixIndexed(kind: KindCode, lang: string): Promise<boolean> {
    const now = Date.now();
    if (!this.prefixSkipped || now - this.prefixSkipped.at > PREFIX_SKIPPED_TTL_MS) {
      const keys = q.prefixSkipped(this.reader).then((list) => new Set(list.map(languageKey)));
      this.prefixSkipped = { keys, at: now };
      keys.catch(() => { this.prefixSkipped = null; });
    }
    return !(await this.prefixSkipped.keys).has(languageKey({ kind: KIND_CODE[kind], lang }));
  }

  /** After a build in this process: the next search reads the record again. */
  forgetPrefixSkipped(): void {
    this.prefixSkipped = null;
  }

  /** One round trip for all the chain's terms of the entity (a network hop costs more than the rows). */
  async entityTerms(kind: KindCode, entity: number, languages: readonly string[]): Promise<EntityTerms> {
    const found = new Map<string, string[]>();
    for (const r of await q.entityTerms(this.reader, kindByName(kind).prefix + entity, languages)) {
      const key = `${r.type}\u0000${r.lang}`;
      found.set(key, [...(found.get(key) ?? []), r.text]);
    }
    const get = (type: string, lang: string) => found.get(`${type}\u0000${lang}`) ?? [];
    return {
      label: (lang) => get('label', lang)[0],
      description: (lang) => get('description', lang)[0],
      aliases: (lang) => get('alias', lang),
    };
  }
}
