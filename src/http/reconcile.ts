// The reconciliation service (W3C Reconciliation Service API 0.2, what OpenRefine 3.8+ speaks; docs/api.md §10.13)
// under /v1/reconcile: manifest, reconcile queries, suggest, preview, data extension and property proposals.
// It is another rendering of the same reads: candidates come from the search index, property conditions and types
// are checked on the stored entities, scores from search/reconcile.ts. Registered in a scope of its own because
// OpenRefine posts form-encoded bodies (`queries=…`), which the REST routes refuse; nothing here writes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Entity, Statement } from '../domain/entity.js';
import { fail } from '../domain/errors.js';
import { ITEM, numericPart, parseEntityId, parseIdOfKind, PROPERTY, type Kind } from '../domain/kinds.js';
import { isTermLanguage } from '../domain/languages.js';
import { statementValueKeys, valueKeyOf } from '../domain/statement-values.js';
import { searchLanguages } from '../search/languages.js';
import { parseText } from '../search/query.js';
import { firstInChain } from '../search/hits.js';
import { candidateScore, isMatch, nameScore } from '../search/reconcile.js';
import { foldText, wordsOf } from '../search/text.js';
import type { Store, EntityStore, SearchIndex } from '../store/store.js';
import { parseJsonBody } from './body.js';
import { searchableText } from './handlers/search.js';
import { jsonBuffer } from './reply-error.js';
import { chargeRead, type Services } from './services.js';

export const RECONCILE_PATH = '/v1/reconcile';

/** Bounds of one request (docs/api.md §10.13). */
export const RECONCILE_LIMITS = { queries: 50, candidates: 50, properties: 20, extendIds: 500, extendProperties: 50,
  proposeSample: 200 } as const;
const DEFAULT_LIMIT = 5;
/** How far up the subclass chain a type is looked for, and how many classes one candidate may visit. */
const TYPE_DEPTH = 5;
const TYPE_VISITS = 100;

type Json = Record<string, unknown>;

/** What one request reads, memoised: candidates share their types and value items. */
class Reader {
  private readonly entities = new Map<string, Promise<Entity | null>>();

  constructor(readonly store: EntityStore & SearchIndex, readonly languages: string[]) {}

  entity(id: string): Promise<Entity | null> {
    let found = this.entities.get(id);
    if (!found) {
      found = this.store.readEntity(id).then((r) => (r.status === 'found' ? r.entity : null));
      this.entities.set(id, found);
    }
    return found;
  }

  /** The label in the first language of the chain that has one, or null. */
  label(entity: Entity): string | null {
    return firstInChain((l) => entity.labels[l], this.languages)?.value ?? null;
  }

  description(entity: Entity): string | null {
    return firstInChain((l) => entity.descriptions[l], this.languages)?.value ?? null;
  }

  async name(id: string): Promise<string> {
    const entity = await this.entity(id);
    return (entity && this.label(entity)) ?? id;
  }

  /** Labels and aliases in the language chain; every label when the chain has none. */
  names(entity: Entity): string[] {
    const names = this.languages.flatMap((l) => [entity.labels[l], ...(entity.aliases[l] ?? [])]).filter((n): n is string => !!n);
    return names.length > 0 ? names : Object.values(entity.labels);
  }
}

/** The statements of a property a reader should see: preferred ones if any, else normal (Wikidata's "best"). */
function bestStatements(entity: Entity, property: string): Statement[] {
  const group = entity.statements[property] ?? [];
  const preferred = group.filter((s) => s.rank === 'preferred');
  return preferred.length > 0 ? preferred : group.filter((s) => s.rank === 'normal');
}

function itemValues(entity: Entity, property: string): string[] {
  return (entity.statements[property] ?? [])
    .filter((s) => s.rank !== 'deprecated' && s.value.type === 'value' && typeof s.value.content === 'string')
    .map((s) => (s.value as { content: string }).content);
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

function badParameter(parameter: string): never {
  return fail('invalid-query-parameter', { parameter });
}

/** A parameter from the query string or the form/JSON body (OpenRefine posts them as a form). */
function parameter(req: FastifyRequest, name: string): unknown {
  const body = req.body as Json | undefined;
  const fromBody = body && typeof body === 'object' ? body[name] : undefined;
  return fromBody ?? (req.query as Json)[name];
}

/** `queries` and `extend` arrive as JSON text (a form field, a query parameter) or, in a JSON body, as objects. */
function jsonParameter(req: FastifyRequest, name: string): Json | undefined {
  const raw = parameter(req, name);
  if (raw === undefined) return undefined;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Json;
  if (typeof raw !== 'string') badParameter(name);
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Json;
  } catch { /* answered below */ }
  return badParameter(name);
}

function languageOf(req: FastifyRequest): string {
  const lang = (req.query as Json).lang ?? 'en';
  if (typeof lang !== 'string' || !isTermLanguage(lang, 'search')) badParameter('lang');
  return lang as string;
}

/** Text a search can take: bounded like `q` of the search routes. */
function searchText(text: unknown, parameterName: string): string {
  return searchableText(text) ?? badParameter(parameterName);
}

interface PropertyCondition { pid: string; values: (string | { id: string })[] }

interface ReconcileQuery {
  query: string;
  types: string[];
  strict: 'any' | 'all' | 'should';
  limit: number;
  properties: PropertyCondition[];
}

function parseQuery(raw: unknown): ReconcileQuery {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) badParameter('queries');
  const q = raw as Json;
  const query = searchText(q.query, 'queries');
  const rawTypes = q.type === undefined || q.type === null ? [] : Array.isArray(q.type) ? q.type : [q.type];
  const types = rawTypes.map((t) => (typeof t === 'string' ? parseIdOfKind(ITEM, t) : null) ?? badParameter('queries'));
  const strict = q.type_strict ?? 'should';
  if (strict !== 'any' && strict !== 'all' && strict !== 'should') badParameter('queries');
  const limit = q.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > RECONCILE_LIMITS.candidates) badParameter('queries');
  const rawProperties = q.properties ?? [];
  if (!Array.isArray(rawProperties) || rawProperties.length > RECONCILE_LIMITS.properties) badParameter('queries');
  const properties = (rawProperties as unknown[]).map((p): PropertyCondition => {
    const { pid, v } = (p ?? {}) as Json;
    const id = typeof pid === 'string' ? parseIdOfKind(PROPERTY, pid) : null;
    const values = (Array.isArray(v) ? v : [v]).map((value) => {
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      if (typeof value === 'object' && value !== null && typeof (value as Json).id === 'string') return { id: (value as Json).id as string };
      return badParameter('queries');
    });
    if (!id || values.length === 0) badParameter('queries');
    return { pid: id!, values };
  });
  return { query, types, strict: strict as ReconcileQuery['strict'], limit: limit as number, properties };
}

// ---------------------------------------------------------------------------------------------------------------
// Reconciling

/** The classes an entity is an instance of, directly or through subclass-of chains at most TYPE_DEPTH long. */
async function classesOf(reader: Reader, entity: Entity, config: Services['config']): Promise<Set<string>> {
  const seen = new Set<string>();
  let frontier = itemValues(entity, config.instanceOf);
  for (let depth = 0; depth <= TYPE_DEPTH && frontier.length > 0 && seen.size < TYPE_VISITS; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id) || seen.size >= TYPE_VISITS) continue;
      seen.add(id);
      const cls = await reader.entity(id);
      if (cls) next.push(...itemValues(cls, config.subclassOf));
    }
    frontier = next;
  }
  return seen;
}

async function propertyMatches(reader: Reader, entity: Entity, condition: PropertyCondition): Promise<boolean> {
  const group = entity.statements[condition.pid];
  if (!group) return false;
  const keys = new Set(statementValueKeys({ statements: { [condition.pid]: group } }).map((k) => k.key));
  const dataType = group[0]?.property['data-type'] ?? null;
  for (const value of condition.values) {
    if (typeof value === 'object') {
      if (keys.has(value.id.toUpperCase())) return true;
      continue;
    }
    const key = valueKeyOf(value.trim(), dataType);
    if (key !== null && key !== '' && keys.has(key)) return true;
    // An item value given by its name: compared with the value items' labels and aliases, folded.
    if (dataType === 'wikibase-item' || dataType === 'wikibase-property') {
      for (const id of itemValues(entity, condition.pid)) {
        const target = await reader.entity(id);
        if (target && nameScore(value, reader.names(target)) === 100) return true;
      }
    }
  }
  return false;
}

interface Candidate { id: string; name: string; description?: string; type: { id: string; name: string }[]; score: number; match: boolean }

/**
 * Candidate ids from search: `wanted` matches of the whole text, then, when that finds fewer than `minimum` (the
 * query's limit), those of its longest word alone.
 */
async function candidateIds(reader: Reader, text: string, wanted: number, minimum: number): Promise<string[]> {
  const search = async (t: string) => {
    const id = parseIdOfKind(ITEM, t);
    const hits = await reader.store.search({ kind: 'item', mode: 'search', text: parseText(t), entityId: id ? numericPart(id) : null,
      languages: reader.languages, limit: wanted, offset: 0 });
    return hits.map((h) => h.id);
  };
  const ids = await search(text);
  const words = wordsOf(foldText(text));
  if (ids.length < minimum && words.length > 1) {
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
    if (longest.length >= 3) for (const id of await search(longest)) if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

async function reconcileOne(reader: Reader, q: ReconcileQuery, config: Services['config']): Promise<Candidate[]> {
  // Twice the page, at least 10: enough for scores to reorder the search's ranking, few enough to read each one.
  const wanted = Math.min(RECONCILE_LIMITS.candidates, Math.max(q.limit * 2, 10));
  const candidates: Candidate[] = [];
  for (const id of await candidateIds(reader, q.query, wanted, q.limit)) {
    const entity = await reader.entity(id);
    if (!entity) continue;
    if (q.types.length > 0) {
      const classes = await classesOf(reader, entity, config);
      const holds = q.strict === 'all' ? q.types.every((t) => classes.has(t)) : q.types.some((t) => classes.has(t));
      if (!holds) continue;
    }
    const matches: boolean[] = [];
    for (const condition of q.properties) matches.push(await propertyMatches(reader, entity, condition));
    const types = await Promise.all(itemValues(entity, config.instanceOf).map(async (t) => ({ id: t, name: await reader.name(t) })));
    const description = reader.description(entity);
    const names = reader.names(entity);
    candidates.push({ id, name: reader.label(entity) ?? names[0] ?? id, ...(description === null ? {} : { description }),
      type: types, score: candidateScore(nameScore(q.query, names), matches), match: false });
  }
  // Best score first; ties in id order, so that the same store always answers the same.
  candidates.sort((a, b) => b.score - a.score || numericPart(a.id) - numericPart(b.id));
  const page = candidates.slice(0, q.limit);
  if (page.length > 0) page[0].match = isMatch(candidates.map((c) => c.score));
  return page;
}

async function reconcileBatch(reader: Reader, batch: Json, config: Services['config']): Promise<Json> {
  const keys = Object.keys(batch);
  if (keys.length === 0 || keys.length > RECONCILE_LIMITS.queries) badParameter('queries');
  const queries = keys.map((k) => parseQuery(batch[k]));
  // No prototype: a query may be named `__proto__`, and its answer must be a member like any other.
  const out: Json = Object.create(null);
  for (let i = 0; i < keys.length; i++) out[keys[i]] = { result: await reconcileOne(reader, queries[i], config) };
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Data extension

/** ISO date of a stored time (`+1952-00-00T00:00:00Z` → `1952-01-01T00:00:00Z`), as the extension format asks. */
function isoDate(time: string): string | null {
  const m = /^([+-])0*([0-9]+)-([0-9]{2})-([0-9]{2})T([0-9:]{8})Z$/.exec(time);
  if (!m) return null;
  const year = m[2].padStart(4, '0');
  const day = (v: string) => (v === '00' ? '01' : v);
  return `${m[1] === '-' ? '-' : ''}${year}-${day(m[3])}-${day(m[4])}T${m[5]}Z`;
}

async function cellValue(reader: Reader, statement: Statement): Promise<Json | null> {
  if (statement.value.type !== 'value') return null;
  const content = statement.value.content;
  const dataType = statement.property['data-type'];
  if (typeof content === 'string') {
    if (dataType === 'wikibase-item' || dataType === 'wikibase-property') return { id: content, name: await reader.name(content) };
    return { str: content };
  }
  const c = (content ?? {}) as Json;
  if (typeof c.text === 'string') return { str: c.text };
  if (typeof c.amount === 'string') {
    const n = Number(c.amount);
    return Number.isSafeInteger(n) ? { int: n } : { float: n };
  }
  if (typeof c.time === 'string') {
    const date = isoDate(c.time);
    return date === null ? null : { date };
  }
  if (typeof c.latitude === 'number' && typeof c.longitude === 'number') return { str: `${c.latitude},${c.longitude}` };
  return null;
}

async function extend(reader: Reader, request: Json): Promise<Json> {
  const { ids, properties } = request;
  if (!Array.isArray(ids) || ids.length > RECONCILE_LIMITS.extendIds || !Array.isArray(properties)
    || properties.length === 0 || properties.length > RECONCILE_LIMITS.extendProperties) badParameter('extend');
  const entityIds = (ids as unknown[]).map((id) => (typeof id === 'string' ? parseEntityId(id)?.id : undefined) ?? badParameter('extend'));
  const columns = (properties as unknown[]).map((p) => {
    const { id, settings } = (p ?? {}) as Json;
    const pid = typeof id === 'string' ? parseIdOfKind(PROPERTY, id) : null;
    const rawLimit = (settings as Json | undefined)?.limit ?? 0;
    const limit = Number(rawLimit);
    if (!pid || !Number.isInteger(limit) || limit < 0) badParameter('extend');
    return { pid: pid!, limit };
  });
  const meta = await Promise.all(columns.map(async (c) => ({ id: c.pid, name: await reader.name(c.pid) })));
  const rows: Json = {};
  for (const id of entityIds) {
    const entity = await reader.entity(id);
    const row: Json = {};
    for (const { pid, limit } of columns) {
      const values: Json[] = [];
      for (const statement of entity ? bestStatements(entity, pid) : []) {
        const value = await cellValue(reader, statement);
        if (value) values.push(value);
        if (limit > 0 && values.length >= limit) break;
      }
      row[pid] = values;
    }
    rows[id] = row;
  }
  return { meta, rows };
}

/** Properties most used by entities of a type (a sample of them), most used first. */
async function proposeProperties(reader: Reader, type: string | null, limit: number, config: Services['config']): Promise<Json> {
  const sample = type === null ? await reader.store.entityIds(null, RECONCILE_LIMITS.proposeSample)
    : (await reader.store.statementValues.find({ kind: 'item', conditions: [{ property: config.instanceOf, key: type }],
      after: null, limit: RECONCILE_LIMITS.proposeSample })).map((n) => `Q${n}`);
  const counts = new Map<string, number>();
  for (const id of sample) {
    const entity = await reader.entity(id);
    for (const pid of Object.keys(entity?.statements ?? {})) counts.set(pid, (counts.get(pid) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || numericPart(a[0]) - numericPart(b[0])).slice(0, limit);
  const properties = await Promise.all(top.map(async ([id]) => ({ id, name: await reader.name(id) })));
  return { ...(type === null ? {} : { type }), limit, properties };
}

// ---------------------------------------------------------------------------------------------------------------
// Manifest, suggest, preview

function manifest(config: Services['config'], base: string, langSuffix: string): Json {
  const service = (path: string) => ({ service_url: base, service_path: `${path}${langSuffix}` });
  return {
    versions: ['0.2'],
    name: `Entia (${config.publicUrl})`,
    identifierSpace: config.conceptUri,
    schemaSpace: `${config.conceptUri.replace(/entity\/?$/, '')}prop/direct/`,
    documentation: `${config.publicUrl}/v1/openapi.json`,
    view: { url: `${config.publicUrl}/v1/entities/items/{{id}}` },
    preview: { url: `${base}/preview?id={{id}}${langSuffix.replace('?', '&')}`, width: 400, height: 90 },
    defaultTypes: [],
    suggest: { entity: service('/suggest/entity'), property: service('/suggest/property'), type: service('/suggest/type') },
    extend: {
      propose_properties: service('/propose_properties'),
      property_settings: [{ name: 'limit', label: 'Limit', type: 'number', default: 0,
        help_text: 'The most values to fetch per entity (0: all)' }],
    },
  };
}

async function suggest(reader: Reader, kind: Kind, req: FastifyRequest): Promise<Json> {
  const prefix = searchText((req.query as Json).prefix, 'prefix');
  const rawCursor = (req.query as Json).cursor ?? '0';
  const cursor = typeof rawCursor === 'string' && /^[0-9]{1,6}$/.test(rawCursor) ? Number(rawCursor) : badParameter('cursor');
  const hits = await reader.store.search({ kind: kind.name, mode: 'suggest', text: parseText(prefix), entityId: null,
    languages: reader.languages, limit: 10, offset: cursor });
  return { result: hits.map((h) => ({ id: h.id, name: h.displayLabel?.value ?? h.id,
    ...(h.description ? { description: h.description.value } : {}) })) };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** A small card OpenRefine shows in an iframe: label, id, description. Its only style is inline. */
function previewHtml(reader: Reader, entity: Entity, lang: string, view: string): string {
  const label = reader.label(entity) ?? entity.id;
  const description = reader.description(entity);
  return `<!DOCTYPE html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><title>${escapeHtml(label)}</title>`
    + '<style>body{font:14px/1.4 system-ui,sans-serif;margin:8px;color:#202122}a{color:#0645ad}small{color:#54595d}</style>'
    + `</head><body><a href="${escapeHtml(view)}" target="_blank" rel="noopener">${escapeHtml(label)}</a> <small>${escapeHtml(entity.id)}</small>`
    + `${description === null ? '' : `<p>${escapeHtml(description)}</p>`}</body></html>`;
}

// ---------------------------------------------------------------------------------------------------------------
// Routes

/** A JSONP callback name: a dotted JavaScript identifier, nothing that could be script of its own. */
const CALLBACK = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}(\.[A-Za-z_$][A-Za-z0-9_$]{0,63}){0,3}$/;

/**
 * JSON, or with `callback=` (JSONP, which the specification allows and older OpenRefine suggest widgets use) the
 * same JSON as the argument of that function. Reads are open to every origin anyway (CORS `*`), so JSONP
 * exposes nothing more.
 */
function sendJson(reply: FastifyReply, body: Json): FastifyReply {
  const callback = (reply.request.query as Json).callback;
  if (callback === undefined) return reply.type('application/json').send(jsonBuffer(body));
  if (typeof callback !== 'string' || !CALLBACK.test(callback)) badParameter('callback');
  return reply.type('text/javascript; charset=utf-8').send(`/**/${callback as string}(${JSON.stringify(body)});`);
}

/** Form bodies are read as URLSearchParams (each field once: the last wins), JSON bodies as the REST routes read them. */
function formBody(_req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void): void {
  done(null, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
}

export function registerReconcile(app: FastifyInstance, store: Store, services: Services): string[] {
  const { config } = services;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, formBody);
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, parseJsonBody);
    const reader = (req: FastifyRequest) => new Reader(store, searchLanguages(languageOf(req)));
    // Every call is a read: it spends the client's read budget like the REST reads (ENTIA_RATE_READ).
    scope.addHook('preHandler', async (req) => {
      await chargeRead(services.guard, req);
    });

    const service = async (req: FastifyRequest, reply: FastifyReply) => {
      const lang = languageOf(req);
      const queries = jsonParameter(req, 'queries');
      if (queries) return sendJson(reply, await reconcileBatch(reader(req), (queries.queries as Json | undefined) ?? queries, config));
      const extension = jsonParameter(req, 'extend');
      if (extension) return sendJson(reply, await extend(reader(req), extension));
      if (req.method === 'POST') fail('missing-field', { path: '', field: 'queries' });
      // A service added with ?lang= keeps that language in every URL the manifest gives OpenRefine.
      const langSuffix = (req.query as Json).lang !== undefined ? `?lang=${encodeURIComponent(lang)}` : '';
      return sendJson(reply, manifest(config, `${config.publicUrl}${RECONCILE_PATH}`, langSuffix));
    };
    scope.get(RECONCILE_PATH, service);
    scope.post(RECONCILE_PATH, service);
    const suggestKinds: [string, Kind][] = [['entity', ITEM], ['type', ITEM], ['property', PROPERTY]];
    for (const [name, kind] of suggestKinds) {
      scope.get(`${RECONCILE_PATH}/suggest/${name}`, async (req, reply) => sendJson(reply, await suggest(reader(req), kind, req)));
    }
    scope.get(`${RECONCILE_PATH}/propose_properties`, async (req, reply) => {
      const query = req.query as Json;
      const type = query.type === undefined ? null : (typeof query.type === 'string' ? parseIdOfKind(ITEM, query.type) : null) ?? badParameter('type');
      const rawLimit = query.limit ?? '10';
      const limit = typeof rawLimit === 'string' && /^[0-9]{1,2}$/.test(rawLimit) && Number(rawLimit) >= 1 ? Number(rawLimit) : badParameter('limit');
      return sendJson(reply, await proposeProperties(reader(req), type, limit, config));
    });
    scope.get(`${RECONCILE_PATH}/preview`, async (req, reply) => {
      const raw = (req.query as Json).id;
      const parsed = typeof raw === 'string' ? parseEntityId(raw) : null;
      if (!parsed) badParameter('id');
      const r = reader(req);
      const entity = await r.entity(parsed!.id);
      if (!entity) fail(parsed!.kind.codes.notFound, undefined, { id: parsed!.id });
      const view = `${config.publicUrl}/v1/entities/${parsed!.kind.segment}/${parsed!.id}`;
      // Shown inside OpenRefine's page: any site may frame it; nothing but its inline style may load.
      reply.removeHeader('x-frame-options');
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *");
      return reply.type('text/html; charset=utf-8').send(previewHtml(r, entity!, languageOf(req), view));
    });
  });
  return [RECONCILE_PATH, `${RECONCILE_PATH}/suggest/entity`, `${RECONCILE_PATH}/suggest/type`, `${RECONCILE_PATH}/suggest/property`,
    `${RECONCILE_PATH}/propose_properties`, `${RECONCILE_PATH}/preview`];
}
