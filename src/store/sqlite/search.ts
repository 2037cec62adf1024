// The SQLite side of search (issue #6): keeps the three search index tables in step with each edit, inside
// the edit's transaction, and answers the shared ranking module's page requests with index seeks.
import type Database from 'better-sqlite3';
import type { Entity, KindName } from '../../domain/entity.js';
import { buildHit, type EntityTerms, type SearchHit } from '../../search/hits.js';
import { rankOf, searchKeys, TYPE_CODE, type SearchTermType } from '../../search/index-keys.js';
import { rankedPage, type KindCode, type RankRequest, type Row, type SearchBackend, type Stream } from '../../search/rank.js';
import { popularity } from '../index-rows.js';
import type { SearchQuery } from '../store.js';
import { prepareSearchQueries, SEARCH_TABLES, type SearchQueries, type SearchTable } from './queries.js';

const KIND_CODE: Record<KindName, number> = { item: 0, property: 1 };
const PREFIX: Record<KindName, string> = { item: 'Q', property: 'P' };
/** Before the first row of any stream. */
const START: Row = { rank: Number.MIN_SAFE_INTEGER, entity: -1 };

type RowParams = [kind: number, lang: string, key: string, type: number, rank: number, entity: number];

/** Every search row of an entity, keyed so that two states can be diffed. */
function searchRows(entity: Entity | null): Map<string, { table: SearchTable; params: RowParams }> {
  const rows = new Map<string, { table: SearchTable; params: RowParams }>();
  if (!entity) return rows;
  const kind = KIND_CODE[entity.type];
  const rank = rankOf(popularity(entity));
  const entityNumber = Number(entity.id.slice(1));
  const keys = searchKeys(entity);
  for (const table of Object.keys(SEARCH_TABLES) as SearchTable[]) {
    for (const k of keys[table]) {
      rows.set(`${table}\u0000${k.lang}\u0000${k.type}\u0000${k.key}\u0000${rank}`,
        { table, params: [kind, k.lang, k.key, TYPE_CODE[k.type], rank, entityNumber] });
    }
  }
  return rows;
}

export class SqliteSearch implements SearchBackend {
  private readonly q: SearchQueries;

  constructor(db: Database.Database) {
    this.q = prepareSearchQueries(db);
  }

  /** Applies the difference between two states of one entity; runs inside the caller's transaction. */
  writeRows(before: Entity | null, after: Entity | null): void {
    const old = searchRows(before);
    const next = searchRows(after);
    for (const [key, row] of old) if (!next.has(key)) this.q[row.table].delete.run(...row.params);
    for (const [key, row] of next) if (!old.has(key)) this.q[row.table].insert.run(...row.params);
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

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const req: RankRequest = { ...query, languages: query.languages };
    const ranked = await rankedPage(req, this);
    return ranked.map((r) => {
      const id = PREFIX[query.kind] + r.entity;
      return buildHit(id, r, this.entityTerms(id), req);
    });
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
    return this.q.texts.all(PREFIX[kind] + entity, type, lang).map((r) => r.text);
  }

  async exists(kind: KindCode, entity: number): Promise<boolean> {
    return this.q.exists.get(PREFIX[kind] + entity) !== undefined;
  }

  private entityTerms(id: string): EntityTerms {
    const texts = (type: string, lang: string) => this.q.texts.all(id, type, lang).map((r) => r.text);
    return {
      label: (lang) => texts('label', lang)[0],
      description: (lang) => texts('description', lang)[0],
      aliases: (lang) => texts('alias', lang),
    };
  }
}
