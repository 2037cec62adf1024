// `entia check-constraints`: a constraint report over the whole store (or the ids of a file), as Wikidata's
// database reports list constraint violations: one line per violation, JSON Lines or CSV, the counts and the rate
// on standard error. The checks are the server's (http/constraints.ts); a property's constraints are read once.
import type { Config } from '../config.js';
import { pagesById } from '../store/store.js';
import { constraintCaches, constraintLookup, renderViolation } from '../http/constraints.js';
import { checkEntity } from '../domain/constraints/check.js';
import { csvRow } from '../domain/csv.js';
import { CliError } from './errors.js';
import { readIdsFile } from './export.js';
import { describeStore, openStore } from './open-store.js';

export const CHECK_CONSTRAINTS_HELP = `Checks every item and property (or those of --ids) against the constraints their properties state
(docs/api.md §10.18, with ENTIA_CONSTRAINTS_FILE's ids) and writes one line per violation to standard output.

  --ids FILE          only the ids listed in FILE (whitespace-separated)
  --format jsonl|csv  JSON Lines (the default): the entity id with the REST route's violation; or CSV with the
                      columns entity, statement, property, place, status, constraint, type, message`;

const PAGE = 500;
/**
 * Characters of links (domain/constraints/check.ts Links: the ids an entity's values name) the run keeps, some
 * 200,000 entities': the values and classes checks read recur across the store, and each entity checked is kept
 * too, so most are read once.
 */
const KEEP = 64 * 2 ** 20;
const CSV_COLUMNS = ['entity', 'statement', 'property', 'place', 'status', 'constraint', 'type', 'message'];

export async function checkConstraintsCommand(config: Config, values: Record<string, unknown>): Promise<void> {
  const format = values.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'csv') throw new CliError(`--format must be jsonl or csv, got '${String(format)}'`, 2);
  const ids = typeof values.ids === 'string' ? [...readIdsFile(values.ids)].sort() : null;
  const store = await openStore(config);
  console.error(`entia: store: ${describeStore(config.db)}`);
  const started = Date.now();
  let entities = 0;
  let violations = 0;
  try {
    const vocab = config.constraintVocabulary;
    const lookup = constraintLookup(store, vocab, constraintCaches(KEEP));
    if (format === 'csv') process.stdout.write(`${CSV_COLUMNS.join(',')}\n`);
    const pages = ids ? chunks(ids, PAGE) : pagesById((after, limit) => store.entityIds(after, limit), (id) => id, PAGE);
    for await (const page of pages) {
      for (const id of page) {
        const read = await store.readEntity(id);
        if (read.status !== 'found') continue;
        entities++;
        lookup.remember(read.entity, read.head.revision);
        for (const v of await checkEntity(read.entity, lookup, vocab)) {
          violations++;
          const line = format === 'csv'
            ? csvRow([id, v.statement, v.constraint.property, v.place, v.status, v.constraint.id, v.constraint.type, v.message])
            : JSON.stringify({ entity: id, ...renderViolation(v) });
          if (!process.stdout.write(`${line}\n`)) await new Promise((resolve) => process.stdout.once('drain', resolve));
        }
      }
    }
  } finally {
    await store.close();
  }
  const seconds = (Date.now() - started) / 1000;
  console.error(`entia: ${violations} violations in ${entities} entities, ${seconds.toFixed(1)} s (${Math.round(entities / Math.max(seconds, 0.001))} entities/s)`);
}

async function* chunks(ids: string[], size: number): AsyncGenerator<string[]> {
  for (let i = 0; i < ids.length; i += size) yield ids.slice(i, i + size);
}

