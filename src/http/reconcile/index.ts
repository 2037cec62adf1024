// The reconciliation service (W3C Reconciliation Service API 0.2, what OpenRefine 3.8+ speaks; docs/api.md §10.13)
// under /v1/reconcile: manifest, reconcile queries, suggest, preview, data extension and property proposals.
// It is another rendering of the same reads: candidates come from the search index, property conditions and types
// are checked on the stored entities, scores from search/reconcile.ts. Registered in a scope of its own because
// OpenRefine posts form-encoded bodies (`queries=…`), which the REST routes refuse; nothing here writes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../domain/errors.js';
import { ITEM, parseEntityId, parseIdOfKind, PROPERTY, type Kind } from '../../domain/kinds.js';
import { searchLanguages } from '../../search/languages.js';
import { parseText } from '../../search/query.js';
import type { EntityStore, SearchIndex } from '../../store/store.js';
import { parseJsonBody } from '../body.js';
import { jsonBuffer } from '../reply-error.js';
import { chargeRead, type Services } from '../services.js';
import { RECONCILE_PATH, type EntityView, type Json, Reader } from './reader.js';
import { badParameter, jsonParameter, languageOf, searchText, reconcileBatch } from './match.js';
import { extend, proposeProperties } from './extend.js';

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
function previewHtml(reader: Reader, entity: EntityView, lang: string, view: string): string {
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

export function registerReconcile(app: FastifyInstance, store: EntityStore & SearchIndex, services: Services): void {
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
}
