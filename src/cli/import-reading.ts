// Reading one entity of `entia import`'s input: converting it and deciding what its line is, before its batch
// settles it. Pure, the same on the import's thread and on `--threads`' reading threads (import-reader.ts).
import type { Entity } from '../domain/entity.js';
import type { SiteTable } from '../domain/sites.js';
import { fromWikidata, newReport, passesFilter, type DumpFilter } from '../domain/wikidata.js';
import type { LocalIdStart } from '../store/store.js';

/** An entity of the input that its batch may write, as the batch settles it. */
export interface Candidate {
  id: string;
  /** The input line it came from. */
  line: number;
  /** The dump's `lastrevid`; 0 when it has none. */
  sourceRevision: number;
  /** Its sitelinks; settling a batch takes out those another item keeps. */
  sitelinks: [site: string, title: string][];
  /** The properties its snaks use, with the data type they declare (for placeholder properties). */
  uses: [property: string, dataType: string][];
  /** The entity; absent where a reading thread holds it (`worker` says which). */
  entity?: Entity;
  worker?: number;
}

/** What converting an entity left out, when it left out anything. */
export interface Dropped { terms: number; sitelinks: number; statements: number }

/** What reading one line of the input decided, before its batch settles it: the same on any thread. */
export type Reading =
  | { line: number; outcome: 'malformed'; message: string }
  | { line: number; outcome: 'filteredOut' }
  | { line: number; outcome: 'notStorable'; id: string }
  | { line: number; outcome: 'inLocalRange'; id: string; dropped: Dropped | null }
  | { line: number; outcome: 'candidate'; dropped: Dropped | null; candidate: Candidate };

/** What reading needs besides the line: the sites table, the filter and the store's first local ids. */
export interface ReadingSetup {
  sites: SiteTable;
  filter: DumpFilter;
  localStart: LocalIdStart;
}

/** Converts one entity of the input and decides what its line is; pure, so a reading thread can run it. */
export function readEntity(raw: Record<string, unknown>, line: number, setup: ReadingSetup): Reading {
  if (!passesFilter(raw, setup.filter)) return { line, outcome: 'filteredOut' };
  const report = newReport();
  const entity = fromWikidata(raw, setup.sites, report, setup.filter);
  if (!entity) return { line, outcome: 'notStorable', id: typeof raw.id === 'string' ? raw.id : '?' };
  const dropped = report.droppedTerms + report.droppedSitelinks + report.droppedStatements > 0
    ? { terms: report.droppedTerms, sitelinks: report.droppedSitelinks, statements: report.droppedStatements } : null;
  if (Number(entity.id.slice(1)) >= setup.localStart[entity.type]) return { line, outcome: 'inLocalRange', id: entity.id, dropped };
  const sourceRevision = Number.isSafeInteger(raw.lastrevid) ? Number(raw.lastrevid) : 0;
  const sitelinks = Object.entries(entity.sitelinks ?? {}).map(([site, link]) => [site, link.title] as [string, string]);
  return { line, outcome: 'candidate', dropped, candidate: { id: entity.id, line, sourceRevision, sitelinks, uses: propertyUses(entity), entity } };
}

/** The properties an entity's snaks use, with the data type each declares. */
function propertyUses(entity: Entity): [string, string][] {
  const uses = new Map<string, string>();
  for (const statement of Object.values(entity.statements).flat()) {
    for (const snak of [statement, ...statement.qualifiers, ...statement.references.flatMap((r) => r.parts)]) {
      const { id, 'data-type': type } = snak.property;
      if (type) uses.set(id, type);
    }
  }
  return [...uses];
}
