// What a bulk import that builds its indexes at the end (ADR 0008) must guarantee, on every backend: the store it
// builds holds exactly the rows that edits of the same entities leave; nothing is searchable before the build
// and everything after; an edit or a redirect made before the build ends with the rows of its last version; a
// store left before its build is finished by the next import's; and `entia serve` over it says so.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { generateAll } from '../../bench/generate.js';
import type { Entity } from '../../src/domain/entity.js';
import { parseText } from '../../src/search/query.js';
import type { EditMeta, Store } from '../../src/store/store.js';
import { call, startServerProcess } from '../helpers/process.js';

const META: EditMeta = { user: 'u', comment: null, tags: [], bot: true };
/** A build threshold that makes prefix rows in every language, as edits do: the stores' rows compare. */
const EVERY_LANGUAGE = 0;

/** Every index and search row, and each entity's head, in a canonical order (the same SQL on both backends). */
export const INDEX_TABLES: Record<string, string> = {
  entities: 'SELECT id, kind, redirect_to, sitelink_count, statement_count FROM entities ORDER BY id',
  heads: 'SELECT e.id, r.content FROM entities e JOIN revisions r ON r.rev_id = e.head_rev ORDER BY e.id',
  revisions: 'SELECT entity_id, count(*) AS n FROM revisions GROUP BY entity_id ORDER BY entity_id',
  terms: 'SELECT * FROM terms ORDER BY entity_id, type, lang, text',
  sitelinks: 'SELECT * FROM sitelinks ORDER BY site, title',
  statement_values: 'SELECT * FROM statement_values ORDER BY 1, 2, 3, 4',
  search_terms: 'SELECT * FROM search_terms ORDER BY 1, 2, 3, 4, 5, 6',
  search_prefixes: 'SELECT * FROM search_prefixes ORDER BY 1, 2, 3, 4, 5, 6',
  search_tokens: 'SELECT * FROM search_tokens ORDER BY 1, 2, 3, 4, 5, 6',
  search_prefix_skipped: 'SELECT kind, lang FROM search_prefix_skipped ORDER BY 1, 2',
};

/** A new version of an entity: one label changed, aliases and sitelinks gone, a statement group dropped. */
export function changed(entity: Entity): Entity {
  const [dropped] = Object.keys(entity.statements);
  const statements = Object.fromEntries(Object.entries(entity.statements).filter(([p]) => p !== dropped));
  return { ...entity, labels: { ...entity.labels, en: `${entity.labels.en ?? entity.id} bis` }, aliases: {}, sitelinks: {}, statements };
}

/**
 * Search and suggest by the first one, two and four characters of a dozen entities' English labels answer
 * the same in both stores, items and properties, as do suggestions in the language of each one's first label.
 */
export async function assertSameSearches(store: Store, reference: Store, entities: readonly Entity[]): Promise<void> {
  for (const kind of ['item', 'property'] as const) {
    const labelled = entities.filter((e) => e.type === kind && e.labels.en).slice(0, 12);
    for (const entity of labelled) {
      const [lang, label] = Object.entries(entity.labels)[0];
      for (const length of [1, 2, 4]) {
        for (const [mode, text, languages] of [['search', entity.labels.en, ['en', 'de']], ['suggest', entity.labels.en, ['en', 'de']],
          ['suggest', label, [lang]]] as const) {
          const query = { kind, mode, text: parseText([...text].slice(0, length).join('')), entityId: null, languages: [...languages], limit: 10, offset: 0 };
          assert.deepEqual(await store.search(query), await reference.search(query), `${mode} ${JSON.stringify(query.text)} in ${languages.join(',')}`);
        }
      }
    }
  }
}

export interface DeferredImportBackend {
  name: string;
  /** A fresh, empty database: its ENTIA_DB value. */
  newLocation(): Promise<string>;
  /**
   * The store at `location`, opened as `entia import` opens it (indexes deferred to finishImport), its build
   * making prefix rows for languages with at least `prefixLanguageMin` folded terms.
   */
  openImport(location: string, prefixLanguageMin: number): Promise<Store>;
  /** A fresh store written row by row, the reference. */
  openReference(): Promise<Store>;
  /**
   * Staged rows outlive the store that staged them (PostgreSQL's staging tables), or go with its connection
   * (SQLite's temporary tables), and the next build derives them again from the documents.
   */
  stagingOutlivesStore: boolean;
  /** The rows of one of INDEX_TABLES; a head's document as JSON text, however it is stored. */
  rows(store: Store, table: string): Promise<unknown[]>;
  /** Removes what the suite made. */
  cleanup(): Promise<void>;
}

type Lang = { kind: number; lang: string };
/** Folded terms a language needs for the build to make its prefix rows, in the tests of that threshold. */
const SMALL_LANGUAGE = 15;

/** A row's language, as `kind lang` (kind 0: items, 1: properties). */
const languageOf = (row: unknown) => `${(row as Lang).kind} ${(row as Lang).lang}`;

export function deferredImportContract(backend: DeferredImportBackend): void {
  describe(`${backend.name}: bulk import, indexes built at the end`, () => {
    const all = [...generateAll(9, 30)];
    const items = all.filter((e) => e.type === 'item');
    after(() => backend.cleanup());

    /** A fresh reference store with `entities` written by edits, one by one. */
    const editedStore = async (entities: readonly Entity[]) => {
      const store = await backend.openReference();
      for (const entity of entities) {
        const read = await store.readEntity(entity.id);
        await store.applyEdit({ entity, previous: read.status === 'found' ? read : null, meta: META, checks: {} });
      }
      return store;
    };

    /** The languages (`kind lang`) with at least `min` folded terms in the store. */
    const largeLanguages = async (store: Store, min: number) => {
      const counts = new Map<string, number>();
      for (const row of await backend.rows(store, 'search_terms')) counts.set(languageOf(row), (counts.get(languageOf(row)) ?? 0) + 1);
      return new Set([...counts].filter(([, n]) => n >= min).map(([language]) => language));
    };

    const assertSameRows = async (store: Store, reference: Store, tables: string[]) => {
      for (const table of tables) assert.deepEqual(await backend.rows(store, table), await backend.rows(reference, table), table);
    };

    it('holds exactly the rows that edits of the same entities write, and answers the same', async () => {
      const some = [...generateAll(8, 40)];
      const first = some.slice(0, 120);
      // The second batch mixes new entities with replaced ones (some waiting for the build) and writes one new id twice.
      const twice = some[130];
      const second = [changed(first[110]), ...some.slice(120, 130), changed(first[5]), twice, changed(twice), ...some.slice(131)];
      const imported = await backend.openImport(await backend.newLocation(), EVERY_LANGUAGE);
      await imported.importEntities(first, META);
      await imported.importEntities(second, META);
      await imported.finishImport();
      assert.equal(await imported.unindexedCount(), 0);

      const edited = await backend.openReference();
      for (const entity of [...first, ...second]) {
        const read = await edited.readEntity(entity.id);
        await edited.applyEdit({ entity, previous: read.status === 'found' ? read : null, meta: META, checks: {} });
      }
      for (const table of Object.keys(INDEX_TABLES)) {
        const rows = await backend.rows(imported, table);
        assert.ok(rows.length > 0 || table === 'search_prefix_skipped', table);
        assert.deepEqual(rows, await backend.rows(edited, table), table);
      }
      await assertSameSearches(imported, edited, [...first, ...second]);
      await imported.close();
      await edited.close();
    });

    it('makes prefix rows only in languages with enough terms, records the others, and suggests from both as an edited store does', async () => {
      const some = [...generateAll(8, 40)];
      const store = await backend.openImport(await backend.newLocation(), SMALL_LANGUAGE);
      await store.importEntities(some, META);
      await store.finishImport();
      const reference = await editedStore(some);
      const large = await largeLanguages(reference, SMALL_LANGUAGE);
      assert.ok(large.size > 1 && large.size < 20, [...large].join(', '));
      const prefixes = await backend.rows(store, 'search_prefixes');
      assert.deepEqual(new Set(prefixes.map(languageOf)), large);
      assert.deepEqual(prefixes, (await backend.rows(reference, 'search_prefixes')).filter((r) => large.has(languageOf(r))));
      const recorded = (await backend.rows(store, 'search_prefix_skipped')).map(languageOf);
      const all = new Set((await backend.rows(reference, 'search_terms')).map(languageOf));
      assert.deepEqual(recorded.sort(), [...all].filter((l) => !large.has(l)).sort());
      await assertSameSearches(store, reference, some);
      // An edit in a recorded language is suggested at once, by its new label's first letters.
      const item = some.find((e) => e.type === 'item' && Object.keys(e.labels).some((l) => !large.has(`0 ${l}`)))!;
      const lang = Object.keys(item.labels).find((l) => !large.has(`0 ${l}`))!;
      const renamed = { ...item, labels: { ...item.labels, [lang]: 'Zyxwvu renamed' } };
      for (const target of [store, reference]) {
        const read = await target.readEntity(item.id);
        await target.applyEdit({ entity: renamed, previous: read as never, meta: META, checks: {} });
      }
      const query = { kind: 'item' as const, mode: 'suggest' as const, text: parseText('zy'), entityId: null, languages: [lang], limit: 10, offset: 0 };
      assert.deepEqual((await store.search(query)).map((h) => h.id), [item.id]);
      assert.deepEqual(await store.search(query), await reference.search(query));
      await store.close();
      await reference.close();
    });

    it('gives a recorded language every prefix row when a later build finds it large enough', async () => {
      const some = [...generateAll(8, 40)];
      const reference = await editedStore(some);
      // The threshold is the number of English item terms: all but the last English-labelled item stay below it.
      const threshold = (await backend.rows(reference, 'search_terms')).filter((r) => (r as Lang).kind === 0 && (r as Lang).lang === 'en').length;
      const last = [...some].reverse().find((e) => e.type === 'item' && e.labels.en)!;
      const location = await backend.newLocation();
      const store = await backend.openImport(location, threshold);
      await store.importEntities(some.filter((e) => e !== last), META);
      await store.finishImport();
      const isEnglishItem = (r: unknown) => (r as Lang).kind === 0 && (r as Lang).lang === 'en';
      assert.ok((await backend.rows(store, 'search_prefix_skipped')).some(isEnglishItem));
      assert.deepEqual((await backend.rows(store, 'search_prefixes')).filter(isEnglishItem), []);
      // An edit before the next import writes the prefix rows of its change, as every edit does.
      const edited = some.find((e) => e.type === 'item' && e.labels.en && e !== last)!;
      for (const target of [store, reference]) {
        const read = await target.readEntity(edited.id);
        await target.applyEdit({ entity: changed(edited), previous: read as never, meta: META, checks: {} });
      }
      await store.importEntities([last], META);
      await store.finishImport();
      assert.ok(!(await backend.rows(store, 'search_prefix_skipped')).some(isEnglishItem));
      assert.deepEqual((await backend.rows(store, 'search_prefixes')).filter(isEnglishItem),
        (await backend.rows(reference, 'search_prefixes')).filter(isEnglishItem));
      await assertSameSearches(store, reference, some);
      await store.close();
      await reference.close();
    });

    it('sees nothing of a batch in search until finishImport, then all of it', async () => {
      const store = await backend.openImport(await backend.newLocation(), EVERY_LANGUAGE);
      await store.importEntities(all, META);
      const target = items.find((e) => e.labels.en)!;
      const query = { kind: 'item' as const, mode: 'search' as const, text: parseText(target.labels.en), entityId: null,
        languages: ['en'], limit: 10, offset: 0 };
      assert.deepEqual(await store.search(query), []);
      assert.equal(await store.unindexedCount(), all.length);
      const steps: string[] = [];
      await store.finishImport(({ step }) => steps.push(step));
      assert.ok(steps.includes('building search_prefixes from the folded terms'), steps.join('; '));
      assert.ok((await store.search(query)).some((hit) => hit.id === target.id));
      assert.equal(await store.unindexedCount(), 0);
      await store.close();
    });

    it('an edit or a redirect of an entity whose rows are not built yet ends with the rows of its last version', async () => {
      const store = await backend.openImport(await backend.newLocation(), EVERY_LANGUAGE);
      await store.importEntities(all, META);
      const [edited, redirected, target] = items;
      const read = await store.readEntity(edited.id);
      assert.equal(read.status, 'found');
      await store.applyEdit({ entity: changed(edited), previous: read as never, meta: META, checks: {} });
      await store.redirectEntity(redirected.id, target.id, META);
      await store.finishImport();

      const reference = await backend.openReference();
      for (const entity of all) await reference.applyEdit({ entity, previous: null, meta: META, checks: {} });
      const again = await reference.readEntity(edited.id);
      await reference.applyEdit({ entity: changed(edited), previous: again as never, meta: META, checks: {} });
      await reference.redirectEntity(redirected.id, target.id, META);
      await assertSameRows(store, reference, ['terms', 'statement_values', 'search_terms', 'search_prefixes', 'search_tokens', 'sitelinks']);
      // After the build, edits write their rows at once again.
      const now = await store.readEntity(edited.id);
      await store.applyEdit({ entity: changed(changed(edited)), previous: now as never, meta: META, checks: {} });
      const then = await reference.readEntity(edited.id);
      await reference.applyEdit({ entity: changed(changed(edited)), previous: then as never, meta: META, checks: {} });
      await assertSameRows(store, reference, ['terms', 'search_terms', 'search_prefixes']);
      await store.close();
      await reference.close();
    });

    it("a store closed before its build keeps the entities pending, and the next import's build finishes them", async () => {
      const location = await backend.newLocation();
      const first = await backend.openImport(location, EVERY_LANGUAGE);
      await first.importEntities(all.slice(0, 20), META);
      await first.close();
      const second = await backend.openImport(location, EVERY_LANGUAGE);
      assert.equal(await second.unindexedCount(), 20);
      await second.importEntities(all.slice(20), META);
      const steps: string[] = [];
      await second.finishImport(({ step }) => steps.push(step));
      assert.equal(steps.some((s) => s.startsWith('deriving the rows')), !backend.stagingOutlivesStore, steps.join('; '));

      const reference = await backend.openImport(await backend.newLocation(), EVERY_LANGUAGE);
      await reference.importEntities(all, META);
      await reference.finishImport();
      await assertSameRows(second, reference, Object.keys(INDEX_TABLES).filter((t) => t !== 'revisions'));
      await second.close();
      await reference.close();
    });

    it('entia serve over a store an import left unbuilt says so, and serves its entities by id', async () => {
      const location = await backend.newLocation();
      const store = await backend.openImport(location, EVERY_LANGUAGE);
      await store.importEntities(all, META);
      await store.close();
      const server = await startServerProcess({ ENTIA_DB: location });
      try {
        await server.waitFor(new RegExp(`${all.length} imported entities are not in search yet`));
        const target = items.find((e) => e.labels.en)!;
        assert.equal((await call(server.url, 'GET', `/v1/entities/items/${target.id}`)).status, 200);
      } finally {
        await server.stop();
      }
    });
  });
}
