// The web interface: server-rendered pages over the HTTP API (api.ts), with assets/entia.js adding suggest
// and editing in the browser through the same API. Registered by http/app.ts; ADR 0010 says why this shape.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENTITY_ID_PATTERN, ITEM, kindByName, kindBySegment, KINDS, parseEntityId, parseIdOfKind, type Kind } from '../domain/kinds.js';
import type { Entity, Statement } from '../domain/entity.js';
import { expectOk, PageApi, PageError } from './api.js';
import { queryParam, type Params, type Rendered } from './page.js';
import { PageCache, type CachedPage, type StoreVersion } from './page-cache.js';
import { linksHerePage, listPage } from './browse.js';
import { translator } from './messages.js';
import { fetchLabels } from './labels.js';
import { askedLanguage, chosenLanguageCookie, labelForTitle, pageLanguage } from './language.js';
import { Layout, renderPage, renderPart } from './layout.js';
import { ChangesPage, type ChangeFilters, type ChangeRow } from './pages/changes.js';
import { EntityPage, idsInSnaks, idsOnPage, OtherLanguages, ReferenceList, type EntityView } from './pages/entity.js';
import { HistoryPage, type Revision } from './pages/history.js';
import { DiffPage, idsInDiff, type DiffSide } from './pages/diff.js';
import { diffEntities } from '../domain/entity-diff.js';
import { ErrorPage, HomePage, type HomeView } from './pages/home.js';
import { SearchPage, type Hit } from './pages/search.js';
import { DocsPage } from './pages/docs.js';
import { CreatePage } from './pages/create.js';
import { MergePage } from './pages/merge.js';
import type { Labels } from './values.js';
import { entityOf, QUERY_EXAMPLES, QueryPage, type Binding, type QueryView } from './pages/query.js';

/**
 * Pages may load scripts, styles, images and API answers from this server only; nothing inline, no frames,
 * forms post nowhere else. The API's own answers keep their stricter policy (http/headers.ts).
 */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
  + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/** Swagger UI sets style attributes from its scripts, so its page allows inline styles (never inline scripts). */
export const DOCS_CSP = PAGE_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

const ASSETS = fileURLToPath(new URL('../../src/ui/assets/', import.meta.url));
const SWAGGER_FILES = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/favicon-32x32.png']);
const ENTITY = `(^${ENTITY_ID_PATTERN}$)`;
/** The entity a redirect's Location names (its last path segment). */
const LOCATION_TARGET = new RegExp(`(${ENTITY_ID_PATTERN})$`);
const HISTORY_PAGE = 50;
/** Bytes of rendered HTML kept (Q31, 432 statements, is 0.5 MB; a typical item some 30 KB). */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
const SEARCH_PAGE = 20;
const CHANGES_PAGE = 50;
/** Changes the front page lists. */
const LATEST_ON_HOME = 10;
/** Rows of a query result shown on the page; the downloads have every row. */
const QUERY_ROWS = 1000;

export interface UiOptions {
  /** The store's newest committed change: entity pages are kept until it moves (page-cache.ts); none, none kept. */
  storeVersion?: StoreVersion;
}

/** The creation page of a kind; a kind with data types offers them. */
async function createPage(api: PageApi, req: FastifyRequest, language: string, kind: Kind): Promise<Rendered> {
  const types = kind.hasDataType ? Object.keys(expectOk(await api.get<Record<string, string>>(req, '/v1/property-data-types'))) : [];
  const t = translator(language);
  return { title: t(kind.words.create), content: <CreatePage kind={kind.name} language={language} dataTypes={types} /> };
}

/** Every page: its address (find-my-way's syntax) and how it is built. */
function pageBuilders(api: PageApi): Record<string, PageBuilder> {
  return {
    '/': (req, _reply, language) => homePage(api, req, language),
    '/docs': async (_req, _reply, language) => {
      const t = translator(language);
      return { title: t('API reference'), content: <DocsPage />, csp: DOCS_CSP };
    },
    '/search': (req, reply, language) => searchPage(api, req, reply, language),
    '/recent-changes': (req, _reply, language) => changesPage(api, req, language),
    '/query': (req, _reply, language) => queryPage(api, req, language),
    // A literal colon in find-my-way's route syntax is written twice.
    ...Object.fromEntries(KINDS.map((k): [string, PageBuilder] => [`/${k.segment}`, (req, reply, language) => listPage(api, req, reply, language, k.segment)])),
    [`/Special::WhatLinksHere/:id${ENTITY}`]: (req, _reply, language) => linksHerePage(api, req, language),
    // Wikibase's creation pages, one per kind: Special:NewItem, Special:NewProperty.
    ...Object.fromEntries(KINDS.map((k): [string, PageBuilder] => [`/Special::New${k.noun}`, (req, _reply, language) => createPage(api, req, language, k)])),
    '/Special::MergeItems': async (req, _reply, language) => {
      const id = (name: string) => parseIdOfKind(ITEM, queryParam(req, name) ?? '') ?? '';
      const t = translator(language);
      return { title: t('Merge two items'), content: <MergePage from={id('fromid')} to={id('toid')} /> };
    },
    [`/:id${ENTITY}`]: (req, reply, language) => entityPage(api, req, reply, language),
    [`/:id${ENTITY}/history`]: (req, _reply, language) => historyPage(api, req, language),
    // The closed parts a large entity's page loads when they are opened (pages/entity.tsx, LAZY_*).
    [`/:id${ENTITY}/part/terms`]: (req, _reply, language) => termsPart(api, req, language),
    [`/:id${ENTITY}/part/references`]: (req, _reply, language) => referencesPart(api, req, language),
    [`/:id${ENTITY}/revisions/:revision`]: (req, _reply, language) => revisionPage(api, req, language),
    [`/:id${ENTITY}/diff/:from/:to`]: (req, _reply, language) => diffPage(api, req, language),
    // Wikidata's own page addresses, as people paste them.
    [`/wiki/:id${ENTITY}`]: async (req, reply) => {
      await reply.redirect(`/${(req.params as Params).id}`, 301);
      return null;
    },
  };
}

/** Registers the pages and their assets. */
export function registerUi(app: FastifyInstance, options: UiOptions = {}): void {
  app.register(fastifyStatic, { root: ASSETS, prefix: '/ui/assets/', decorateReply: false, index: false, maxAge: '1h' });
  const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  app.register(fastifyStatic, { root: swagger, prefix: '/docs/assets/', decorateReply: false, index: false, maxAge: '1h',
    allowedPath: (path) => SWAGGER_FILES.has(path) });

  const pages = pageBuilders(new PageApi(app));
  const cache = options.storeVersion ? new PageCache(PAGE_CACHE_BYTES, options.storeVersion) : null;
  // Pages made of revisions and labels only: what the validator covers (not counts, times, indexes or search).
  const kept = new Set([`/:id${ENTITY}`, `/:id${ENTITY}/history`, `/:id${ENTITY}/revisions/:revision`, `/:id${ENTITY}/diff/:from/:to`,
    `/:id${ENTITY}/part/terms`, `/:id${ENTITY}/part/references`]);
  for (const [path, build] of Object.entries(pages)) {
    app.get(path, async (req, reply) => {
      const language = pageLanguage(req);
      const make = () => pageOf(build, req, reply, language);
      const page = cache && kept.has(path) ? await cache.page(`${language} ${req.url}`, make) : await make();
      if (page === null) return reply;
      // A language asked for with ?uselang= is kept for the reader's next pages.
      const asked = askedLanguage(req);
      if (asked) reply.header('set-cookie', chosenLanguageCookie(asked));
      return reply.code(page.status)
        .header('content-security-policy', page.csp)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(page.html);
    });
  }
}

type PageBuilder = (req: FastifyRequest, reply: FastifyReply, language: string) => Promise<Rendered | null>;

/** A page in its layout, as bytes; an API error it met becomes an error page; null when the builder answered. */
async function pageOf(build: PageBuilder, req: FastifyRequest, reply: FastifyReply, language: string): Promise<CachedPage | null> {
  let page: Rendered | null;
  try {
    page = await build(req, reply, language);
  } catch (e) {
    if (!(e instanceof PageError)) throw e;
    const t = translator(language);
    page = { title: e.status === 404 ? t('Not found') : t('Error'), status: e.status, content: <ErrorPage status={e.status} message={e.message} /> };
  }
  if (page === null) return null;
  const html = page.part ? renderPart(page.content, language)
    : renderPage(<Layout title={page.title} language={language} query={searchText(req)}>{page.content}</Layout>);
  return { status: page.status ?? 200, csp: page.csp ?? PAGE_CSP, html: Buffer.from(html) };
}

/** The search box's text, kept on every page; ignored when it is not one string. */
function searchText(req: FastifyRequest): string | undefined {
  const q = (req.query as Record<string, unknown>).q;
  return typeof q === 'string' ? q : undefined;
}

function entityParams(req: FastifyRequest): { id: string; segment: Kind['segment'] } {
  const { id } = req.params as Params;
  return { id, segment: parseEntityId(id)!.kind.segment };
}

async function entityPage(api: PageApi, req: FastifyRequest, reply: FastifyReply, language: string): Promise<Rendered | null> {
  const { id, segment } = entityParams(req);
  const answer = await api.get<Entity>(req, `/v1/entities/${segment}/${id}`);
  const target = answer.status === 308 ? LOCATION_TARGET.exec(answer.location ?? '')?.[1] : undefined;
  if (target) {
    await reply.redirect(`/${target}?redirectedfrom=${id}`, 302);
    return null;
  }
  const entity = expectOk(answer);
  const from = queryParam(req, 'redirectedfrom');
  const view: EntityView = { entity, revision: answer.revision ?? 0, dataType: await dataTypeOf(api, req, entity),
    redirectedFrom: from && parseEntityId(from) ? from : undefined, complete: queryParam(req, 'all') === '1' };
  return entityRendered(api, req, view, language);
}

async function revisionPage(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const { id, segment } = entityParams(req);
  const { revision } = req.params as Params;
  const answer = await api.get<Entity>(req, `/v1/entities/${segment}/${id}/revisions/${encodeURIComponent(revision)}`);
  const entity = expectOk(answer);
  const view: EntityView = { entity, revision: answer.revision ?? Number(revision), old: { latest: await latestRevision(api, req, segment, id) },
    dataType: await dataTypeOf(api, req, entity) };
  const rendered = await entityRendered(api, req, view, language);
  const t = translator(language);
  return { ...rendered, title: t('{0}: revision {1}', rendered.title, view.revision) };
}

async function entityRendered(api: PageApi, req: FastifyRequest, view: EntityView, language: string): Promise<Rendered> {
  const labels = await fetchLabels(api, req, idsOnPage(view), language);
  const title = labelForTitle(view.entity.labels, language)?.text ?? view.entity.id;
  return { title: `${title} (${view.entity.id})`, content: <EntityPage view={view} labels={labels} /> };
}

async function termsPart(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const { id, segment } = entityParams(req);
  const entity = expectOk(await api.get<Entity>(req, `/v1/entities/${segment}/${id}`));
  return { title: id, part: true, content: <OtherLanguages entity={entity} language={language} /> };
}

async function referencesPart(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const { id, segment } = entityParams(req);
  const statementId = queryParam(req, 'statement');
  if (!statementId) throw new PageError(400, 'invalid-query-parameter', "Invalid query parameter: 'statement'");
  const statement = expectOk(await api.get<Statement>(req, `/v1/entities/${segment}/${id}/statements/${encodeURIComponent(statementId)}`));
  const labels = await fetchLabels(api, req, idsInSnaks(statement.references.flatMap((ref) => ref.parts)), language);
  return { title: id, part: true, content: <ReferenceList references={statement.references} labels={labels} /> };
}

/** A property's data type: the contract's GET leaves it out (D2), the Action API's wbgetentities has it. */
async function dataTypeOf(api: PageApi, req: FastifyRequest, entity: Entity): Promise<string | undefined> {
  if (!kindByName(entity.type).hasDataType) return undefined;
  const answer = await api.get<{ entities?: Record<string, { datatype?: string }> }>(req,
    `/w/api.php?action=wbgetentities&format=json&props=info&ids=${entity.id}`);
  return answer.status === 200 ? answer.body.entities?.[entity.id]?.datatype : undefined;
}

/** The entity's latest revision id (0 when it has none), for pages that show an older one. */
async function latestRevision(api: PageApi, req: FastifyRequest, segment: string, id: string): Promise<number> {
  const page = expectOk(await api.get<{ revisions: Revision[] }>(req, `/v1/entities/${segment}/${id}/history?limit=1`));
  return page.revisions[0]?.id ?? 0;
}

async function historyPage(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const { id, segment } = entityParams(req);
  const before = queryParam(req, 'before');
  const query = new URLSearchParams({ limit: String(HISTORY_PAGE), ...(before ? { before } : {}) });
  const page = expectOk(await api.get<{ revisions: Revision[]; next: number | null }>(req, `/v1/entities/${segment}/${id}/history?${query}`));
  const latest = before ? await latestRevision(api, req, segment, id) : page.revisions[0]?.id ?? 0;
  // The page's last revision is diffed with the one before it, which the next page begins with.
  const last = page.revisions.at(-1);
  const older = last && page.next !== null
    ? expectOk(await api.get<{ revisions: Revision[] }>(req, `/v1/entities/${segment}/${id}/history?limit=1&before=${last.id}`)).revisions[0]
    : undefined;
  const label = (await fetchLabels(api, req, [id], language)).label(id)?.text ?? null;
  const t = translator(language);
  return {
    title: t('History of {0}', label ?? id),
    content: <HistoryPage view={{ id, label, kind: segment, revisions: page.revisions, latest, next: page.next, before: older }} language={language} />,
  };
}

async function changesPage(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const before = queryParam(req, 'before');
  // The filters, as the feed takes them (it answers a bad one with its own 400).
  const filters: ChangeFilters = { types: queryParam(req, 'types') ?? '', user: queryParam(req, 'user') ?? '', hidebots: queryParam(req, 'hidebots') === '1' };
  const query = new URLSearchParams({ order: 'newest', limit: String(CHANGES_PAGE), ...(before ? { since: before } : {}),
    ...(filters.types ? { types: filters.types } : {}), ...(filters.user ? { user: filters.user } : {}), ...(filters.hidebots ? { bot: '0' } : {}) });
  const page = expectOk(await api.get<{ changes: ChangeRow[]; next: string | null }>(req, `/v1/changes?${query}`));
  const labels = await fetchLabels(api, req, page.changes.map((c) => c.entity), language);
  const t = translator(language);
  return { title: t('Recent changes'), content: <ChangesPage changes={page.changes} next={page.next} labels={labels} filters={filters} /> };
}

/** The query page: runs the query through /sparql, as a script would, and shows its rows or its error. */
async function queryPage(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const query = queryParam(req, 'query');
  const t = translator(language);
  const content = (view: QueryView, labels: Labels = { language, label: () => null }) =>
    ({ title: t('Query'), content: <QueryPage view={view} labels={labels} /> });
  if (query === undefined || query.trim() === '') return content({ query: QUERY_EXAMPLES[0].query });
  const answer = await api.get<{ head?: { vars?: string[] }; results?: { bindings: Record<string, Binding>[] }; boolean?: boolean; message?: string }>(req,
    `/sparql?${new URLSearchParams({ query, format: 'json', uselang: language })}`);
  if (answer.status !== 200) return content({ query, error: answer.body?.message ?? t('The query failed ({0}).', answer.status) });
  const body = answer.body;
  if (typeof body.boolean === 'boolean') return content({ query, result: { boolean: body.boolean } });
  if (!body.results) return content({ query, error: t('This page shows SELECT and ASK results; download CONSTRUCT and DESCRIBE results from /sparql.') });
  const rows = body.results.bindings.slice(0, QUERY_ROWS);
  const ids = rows.flatMap((row) => Object.values(row).map(entityOf).filter((id): id is string => id !== null));
  const labels = await fetchLabels(api, req, ids, language);
  return content({ query, result: { vars: body.head?.vars ?? [], rows, truncated: body.results.bindings.length > QUERY_ROWS } }, labels);
}

async function searchPage(api: PageApi, req: FastifyRequest, reply: FastifyReply, language: string): Promise<Rendered | null> {
  const q = (queryParam(req, 'q') ?? '').trim();
  const kind = (kindBySegment(queryParam(req, 'kind')) ?? ITEM).segment;
  // An id typed into the search box opens that entity, as Wikidata's search does.
  const typed = parseEntityId(q);
  if (typed) {
    await reply.redirect(`/${typed.id}`, 302);
    return null;
  }
  const offsetText = queryParam(req, 'offset') ?? '';
  const offset = /^[0-9]{1,4}$/.test(offsetText) ? Number(offsetText) : 0;
  const view = { q, kind, hits: [] as Hit[], offset, pageSize: SEARCH_PAGE, bySuggest: false } as const;
  const t = translator(language);
  if (q === '') return { title: t('Search'), content: <SearchPage view={view} /> };
  const params = (mode: string) => `/v1/${mode}/${kind}?${new URLSearchParams({ q, lang: language, limit: String(SEARCH_PAGE), offset: String(offset) })}`;
  let hits = expectOk(await api.get<{ results: Hit[] }>(req, params('search'))).results;
  let bySuggest = false;
  if (hits.length === 0 && offset === 0) {
    hits = expectOk(await api.get<{ results: Hit[] }>(req, params('suggest'))).results;
    bySuggest = true;
  }
  return { title: t('Search: {0}', q), content: <SearchPage view={{ ...view, hits, bySuggest }} /> };
}

/** A revision of the entity as the diff page shows it: the entity then, and its history record (time, size). */
async function revisionSide(api: PageApi, req: FastifyRequest, segment: string, id: string, revision: string): Promise<{ entity: Entity; side: DiffSide }> {
  if (!/^[1-9][0-9]{0,15}$/.test(revision)) throw new PageError(400, 'invalid-path-parameter', `Not a revision number: '${revision}'`);
  const entity = expectOk(await api.get<Entity>(req, `/v1/entities/${segment}/${id}/revisions/${revision}`));
  // The newest revision before revision + 1 is this one: its record says when, who and how large.
  const page = expectOk(await api.get<{ revisions: Revision[] }>(req, `/v1/entities/${segment}/${id}/history?limit=1&before=${Number(revision) + 1}`));
  const record = page.revisions[0];
  return { entity, side: { revision: Number(revision), timestamp: record.timestamp, user: record.user, comment: record.comment, size: record.size } };
}

async function diffPage(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const { id, segment } = entityParams(req);
  const { from: fromRevision, to: toRevision } = req.params as Params;
  const [from, to] = await Promise.all([revisionSide(api, req, segment, id, fromRevision), revisionSide(api, req, segment, id, toRevision)]);
  const rows = diffEntities(from.entity, to.entity);
  const labels = await fetchLabels(api, req, [id, ...idsInDiff(rows)], language);
  const label = labels.label(id)?.text ?? null;
  const t = translator(language);
  return {
    title: t('Changes to {0} (revisions {1} to {2})', label ?? id, from.side.revision, to.side.revision),
    content: <DiffPage view={{ id, label, from: from.side, to: to.side, rows }} labels={labels} />,
  };
}

/** The front page: the store's counts and its latest changes, read as any client would. */
async function homePage(api: PageApi, req: FastifyRequest, language: string): Promise<Rendered> {
  const [counts, changes] = await Promise.all([
    api.get<NonNullable<HomeView['counts']>>(req, '/v1/statistics'),
    api.get<{ changes: ChangeRow[] }>(req, `/v1/changes?order=newest&limit=${LATEST_ON_HOME}`),
  ]);
  const latest = changes.status === 200 ? changes.body.changes : [];
  const labels = await fetchLabels(api, req, latest.map((c) => c.entity), language);
  return { title: 'Entia', content: <HomePage view={{ counts: counts.status === 200 ? counts.body : null, latest }} labels={labels} /> };
}

