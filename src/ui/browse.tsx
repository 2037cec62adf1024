// The browsing pages' handlers: lists of items and properties (with their downloads) and what links here, read
// through the API's list, lookup and incoming-links routes (docs/api.md §10.12, §10.19) as a script would.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csvRow } from '../domain/csv.js';
import { parseEntityId } from '../domain/kinds.js';
import { expectOk, PageError, type PageApi } from './api.js';
import { fetchLabels } from './labels.js';
import { translator } from './messages.js';
import { queryParam, type Params, type Rendered } from './page.js';
import { LinksHerePage, ListPage, listHref, type IncomingLink, type ListRow, type ListView } from './pages/lists.js';
import { kindBySegment } from '../domain/kinds.js';

const LIST_PAGE = 50;
const LINKS_PAGE = 100;
/** Rows a download holds at most; a longer list says where the next part starts (a Link header). */
const DOWNLOAD_ROWS = 5_000;
/** The API's largest page (docs/api.md §10.12): a download reads this many ids a request. */
const API_PAGE = 500;

interface IdPage {
  ids: string[];
  next: string | null;
}

interface TermsBatch {
  entities: Record<string, { labels?: Record<string, string>; descriptions?: Record<string, string>; data_type?: string }>;
}

/** A page of the list's ids from the API: all of the kind, or those with the statement. */
async function idPage(api: PageApi, req: FastifyRequest, view: Pick<ListView, 'kind' | 'statement'>, after: string | null, limit: number): Promise<IdPage> {
  const query = new URLSearchParams({ limit: String(limit), ...(view.statement ? { statement: view.statement } : {}), ...(after ? { after } : {}) });
  return expectOk(await api.get<IdPage>(req, `/v1/entities/${view.kind}?${query}`));
}

/** The rows of the ids: label and description in the language or its fallbacks, a property's data type. */
async function rowsOf(api: PageApi, req: FastifyRequest, kind: ListView['kind'], ids: string[], language: string): Promise<ListRow[]> {
  if (ids.length === 0) return [];
  const fields = kindBySegment(kind)!.hasDataType ? 'labels,descriptions,data_type' : 'labels,descriptions';
  const batch = expectOk(await api.get<TermsBatch>(req,
    `/v1/entities?ids=${ids.join(',')}&_fields=${fields}&languages=${encodeURIComponent(language)}&fallback=1`));
  return ids.map((id) => {
    const entity = batch.entities[id];
    return { id, label: entity?.labels?.[language] ?? null, description: entity?.descriptions?.[language] ?? null,
      ...(entity?.data_type ? { dataType: entity.data_type } : {}) };
  });
}

/** The list's filter and cursor as the visitor wrote them: the API checks both and answers a bad one with 400. */
function listParams(req: FastifyRequest, kind: ListView['kind']): Pick<ListView, 'kind' | 'statement' | 'after'> {
  return { kind, statement: (queryParam(req, 'statement') ?? '').trim(), after: queryParam(req, 'after') ?? null };
}

/** `/items`, `/properties`: a page of the list; with `?format=csv` or `json`, the list from `after` on as a file. */
export async function listPage(api: PageApi, req: FastifyRequest, reply: FastifyReply, language: string, kind: ListView['kind']): Promise<Rendered | null> {
  const params = listParams(req, kind);
  const format = queryParam(req, 'format');
  if (format === 'csv' || format === 'json') {
    await sendDownload(api, req, reply, language, params, format);
    return null;
  }
  if (format !== undefined) throw new PageError(400, 'invalid-query-parameter', "Invalid query parameter: 'format' (csv or json)");
  const page = await idPage(api, req, params, params.after, LIST_PAGE);
  const view: ListView = { ...params, rows: await rowsOf(api, req, kind, page.ids, language), next: page.next };
  const t = translator(language);
  const of = kindBySegment(kind)!;
  return { title: t(of.words.plural), content: <ListPage view={view} /> };
}

async function sendDownload(api: PageApi, req: FastifyRequest, reply: FastifyReply, language: string,
  params: Pick<ListView, 'kind' | 'statement' | 'after'>, format: 'csv' | 'json'): Promise<void> {
  const rows: ListRow[] = [];
  let after = params.after;
  do {
    const page = await idPage(api, req, params, after, Math.min(API_PAGE, DOWNLOAD_ROWS - rows.length));
    rows.push(...await rowsOf(api, req, params.kind, page.ids, language));
    after = page.next;
  } while (after !== null && rows.length < DOWNLOAD_ROWS);
  if (after !== null) reply.header('link', `<${listHref(params, { after, format })}>; rel="next"`);
  const withDataType = kindBySegment(params.kind)!.hasDataType;
  const columns = ['id', 'label', 'description', ...(withDataType ? ['data_type'] : [])];
  const cells = (row: ListRow) => [row.id, row.label ?? '', row.description ?? '', ...(withDataType ? [row.dataType ?? ''] : [])];
  reply.header('content-disposition', `attachment; filename="${params.kind}.${format}"`).header('cache-control', 'no-cache');
  if (format === 'csv') {
    await reply.type('text/csv; charset=utf-8').send([csvRow(columns), ...rows.map((r) => csvRow(cells(r)))].join('\r\n') + '\r\n');
  } else {
    const objects = rows.map((r) => {
      const values = cells(r);
      return Object.fromEntries(columns.map((c, i) => [c, values[i] || null]));
    });
    await reply.type('application/json; charset=utf-8').send({ rows: objects, next: after });
  }
}

/** `/Special:WhatLinksHere/Q42`: the entities whose statements have Q42 as value, with the linking properties. */
export async function linksHerePage(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const parsed = parseEntityId((req.params as Params).id);
  if (!parsed) throw new PageError(404, 'not-found', 'Not an item or property id.');
  const after = queryParam(req, 'after');
  const query = new URLSearchParams({ limit: String(LINKS_PAGE), ...(after ? { after } : {}) });
  const page = expectOk(await api.get<{ links: IncomingLink[]; next: string | null }>(req,
    `/v1/entities/${parsed.kind.segment}/${parsed.id}/incoming-links?${query}`));
  const labels = await fetchLabels(api, req, [parsed.id, ...page.links.flatMap((l) => [l.id, ...l.properties])], language);
  const t = translator(language);
  return { title: t('What links here: {0}', labels.label(parsed.id)?.text ?? parsed.id),
    content: <LinksHerePage view={{ id: parsed.id, links: page.links, after: after ?? null, next: page.next }} labels={labels} /> };
}
