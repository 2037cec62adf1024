// The SQLite side of search (issue #6): keeps the three search index tables in step with each edit, inside
// the edit's transaction, and answers the shared ranking module's page requests with index seeks.
import type Database from 'better-sqlite3';
import type { Entity } from '../../domain/entity.js';
import { searchHits, type EntityTerms, type HitBackend, type SearchHit } from '../../search/hits.js';
import { TYPE_CODE, type SearchTermType } from '../../search/index-keys.js';
import type { EntityFilter, KindCode, Row, Stream } from '../../search/rank.js';
import { diffSearchRows, KIND_CODE, SEARCH_TABLES, type SearchTable } from '../index-rows.js';
import type { SearchQuery } from '../store.js';
import { prepareSearchQueries, type SearchQueries } from './queries.js';
import { kindByName } from '../../domain/kinds.js';

/** Before the first row of any stream. */
const START: Row = { rank: Number.MIN_SAFE_INTEGER, entity: -1 };

export class SqliteSearch implements HitBackend {
  private readonly q: SearchQueries;

  constructor(db: Database.Database) {
    this.q = prepareSearchQueries(db);
  }

  /** Applies the difference between two states of one entity; runs inside the caller's transaction. */
  writeRows(before: Entity | null, after: Entity | null): void {
    const d = diffSearchRows(before, after);
    for (const r of d.removed) this.q[r.table].delete.run(r.kind, r.lang, r.key, r.type, r.rank, r.entity);
    for (const r of d.added) this.q[r.table].insert.run(r.kind, r.lang, r.key, r.type, r.rank, r.entity);
  }

  /** Writes the prepared rows of entities that had none (a bulk import of new entities, prepared-import.ts). */
  insertNew(rows: Record<SearchTable, unknown[][]>): void {
    for (const table of SEARCH_TABLES) this.q[table].insertMany(rows[table]);
  }

  /** Indexes entities that existed before the search index did (the search-index migration), `batch` at a time. */
  drainBacklog(db: Database.Database, read: (id: string) => Entity | null, batch = 1000): void {
    for (;;) {
      const ids = this.q.backlog.all(batch);
      if (ids.length === 0) return;
      db.transaction(() => {
        for (const { entity_id } of ids) {
          this.writeRows(null, read(entity_id));
          this.q.unqueue.run(entity_id);
        }
      }).immediate();
    }
  }

  async search(query: SearchQuery, filter?: EntityFilter): Promise<SearchHit[]> {
    return searchHits(query, this, filter);
  }

  async page(stream: Stream, after: Row | null, size: number): Promise<Row[]> {
    const { rank, entity } = after ?? START;
    const kind = KIND_CODE[stream.kind];
    const type = TYPE_CODE[stream.type];
    const s = stream.source;
    switch (s.index) {
      case 'terms':
        return this.q.terms.page(size).all(kind, stream.lang, s.folded, type, rank, entity);
      case 'prefixes':
        return this.q.prefixes.page(size).all(kind, stream.lang, s.prefix, type, rank, entity);
      case 'terms-range':
        return this.q.termsRange(size).all(kind, stream.lang, s.from, s.to, type, rank, entity);
      case 'terms-by-rank':
        return this.q.termsByRank(size).all(kind, stream.lang, type, rank, entity, s.from, s.to);
      case 'tokens':
        if (s.also.length === 0) return this.q.tokens.page(size).all(kind, stream.lang, s.token, type, rank, entity);
        return this.q.tokensWithAlso(s.also.length, size).all(kind, stream.lang, s.token, type, rank, entity, ...s.also);
    }
  }

  async rangeCount(kind: KindCode, lang: string, type: SearchTermType, from: string, to: string, cap: number): Promise<number> {
    return this.q.rangeCount(cap).get(KIND_CODE[kind], lang, from, to, TYPE_CODE[type])!.n;
  }

  async postings(kind: KindCode, lang: string, token: string, cap: number): Promise<number> {
    return this.q.postings(cap).get(KIND_CODE[kind], lang, token)!.n;
  }

  async texts(kind: KindCode, entity: number, lang: string, type: SearchTermType): Promise<string[]> {
    return this.q.texts.all(kindByName(kind).prefix + entity, type, lang).map((r) => r.text);
  }

  async exists(kind: KindCode, entity: number): Promise<boolean> {
    return this.q.exists.get(kindByName(kind).prefix + entity) !== undefined;
  }

  async prefixIndexed(kind: KindCode, lang: string): Promise<boolean> {
    return this.q.prefixSkipped.get(KIND_CODE[kind], lang) === undefined;
  }

  /** Point lookups, made only for the languages a hit needs (usually the first of the chain). */
  async entityTerms(kind: KindCode, entity: number): Promise<EntityTerms> {
    const id = kindByName(kind).prefix + entity;
    const texts = (type: string, lang: string) => this.q.texts.all(id, type, lang).map((r) => r.text);
    return {
      label: (lang) => texts('label', lang)[0],
      description: (lang) => texts('description', lang)[0],
      aliases: (lang) => texts('alias', lang),
    };
  }
}
