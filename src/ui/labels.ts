// The labels a page shows for the entities it mentions, read in batches of the API's maximum (500 ids,
// docs/api.md §10.11) with language fallback: one request for a typical page, never one per value.
import type { FastifyRequest } from 'fastify';
import { expectOk, type PageApi } from './api.js';
import type { Shown } from './language.js';
import type { Labels } from './values.js';

const BATCH = 500;
/** A page of an entity mentioning more than this many others shows the rest by id. */
const MAX_IDS = 5_000;

interface Batch {
  entities: Record<string, { labels?: Record<string, string> }>;
  redirects: Record<string, string>;
}

export async function fetchLabels(api: PageApi, req: FastifyRequest, ids: Iterable<string>, language: string): Promise<Labels> {
  const wanted = [...new Set(ids)].slice(0, MAX_IDS);
  const found = new Map<string, Shown>();
  for (let i = 0; i < wanted.length; i += BATCH) {
    const chunk = wanted.slice(i, i + BATCH);
    const url = `/v1/entities?ids=${chunk.join(',')}&_fields=labels&languages=${encodeURIComponent(language)}&fallback=1`;
    const batch = expectOk(await api.get<Batch>(req, url));
    for (const [id, entity] of Object.entries(batch.entities)) {
      // With `languages` and `fallback`, the label found is reported under the language asked for.
      const text = entity.labels?.[language];
      if (text !== undefined) found.set(id, { text, language });
    }
    for (const [from, to] of Object.entries(batch.redirects)) {
      const target = found.get(to);
      if (target) found.set(from, target);
    }
  }
  return { language, label: (id) => found.get(id) ?? null };
}
