// Many entities in one request (docs/api.md §10.11): `GET /v1/entities?ids=…` and `POST /v1/entities` with the
// ids in the body, items and properties mixed, redirects followed and reported, unknown ids listed. Without
// `_fields` or `languages` each entity's stored JSON is spliced into the response as it is (the same bytes a
// single GET serves, from the same per-revision cache), so a page of 500 costs little more than reading them.
import { fail } from '../../../domain/errors.js';
import type { Entity } from '../../../domain/entity.js';
import { KINDS, parseEntityId } from '../../../domain/kinds.js';
import { fallbackChain, isTermLanguage } from '../../../domain/languages.js';
import { renderEntity } from '../../../domain/render.js';
import { renderDocument } from './entities.js';
import { JsonStream } from '../../compression.js';
import type { Ctx, Result } from '../../context.js';
import type { DocumentRead, EntityStore, ReadResult } from '../../../store/store.js';

export const MAX_BATCH_IDS = 500;
/** Any kind's members: a batch mixes kinds, and each entity answers the ones it has. */
const FIELDS = new Set(KINDS.flatMap((kind) => kind.members));

interface BatchRequest {
  ids: string[];
  fields: string[] | null;
  languages: string[] | null;
  fallback: boolean;
}

/** GET takes comma-separated query parameters; POST the same as JSON members. Errors name the parameter or path. */
function parseRequest(ctx: Ctx<unknown>, isPost: boolean): BatchRequest {
  const bad = (name: string): never => (isPost ? fail('invalid-value', { path: `/${name}` }) : fail('invalid-query-parameter', { parameter: name }));
  const list = (name: string): string[] | null => {
    const raw = isPost ? ctx.body[name] : ctx.query[name];
    if (raw === undefined) return null;
    if (isPost) return Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? raw as string[] : bad(name);
    return typeof raw === 'string' && raw !== '' ? raw.split(',') : bad(name);
  };
  const rawIds = list('ids') ?? (isPost ? fail('missing-field', { path: '', field: 'ids' }) : bad('ids'));
  if (rawIds.length === 0 || rawIds.length > MAX_BATCH_IDS) bad('ids');
  const ids = [...new Set(rawIds.map((raw) => parseEntityId(raw.trim())?.id ?? bad('ids')))];
  const fields = list('_fields');
  if (fields && fields.some((f) => !FIELDS.has(f))) bad('_fields');
  const languages = list('languages');
  if (languages && languages.some((l) => !isTermLanguage(l, 'labels'))) bad('languages');
  const rawFallback = isPost ? ctx.body.fallback : ctx.query.fallback;
  if (rawFallback !== undefined && !['1', '0', 'true', 'false', true, false].includes(rawFallback as string)) bad('fallback');
  return { ids, fields, languages, fallback: rawFallback === '1' || rawFallback === 'true' || rawFallback === true };
}

/** Terms narrowed to `languages`; with `fallback`, a label or description missing in one comes from its chain. */
function narrowed(entity: Entity, languages: string[], fallback: boolean): Entity {
  const pick = <T>(map: Record<string, T>, use: 'labels' | 'descriptions' | 'aliases') => {
    const out: Record<string, T> = {};
    for (const lang of languages) {
      const from = fallback && use !== 'aliases' ? fallbackChain(lang, use).find((l) => map[l] !== undefined) : lang;
      if (from !== undefined && map[from] !== undefined) out[lang] = map[from];
    }
    return out;
  };
  return { ...entity, labels: pick(entity.labels, 'labels'), descriptions: pick(entity.descriptions, 'descriptions'),
    aliases: pick(entity.aliases, 'aliases') };
}

export const getEntities = (ctx: Ctx<EntityStore>) => entities(ctx, false);
export const postEntities = (ctx: Ctx<EntityStore>) => entities(ctx, true);

type Read = DocumentRead | ReadResult;
const MISSING: Read = { status: 'missing' };

async function entities(ctx: Ctx<EntityStore>, isPost: boolean): Promise<Result> {
  const request = parseRequest(ctx, isPost);
  if (request.fields !== null || request.languages !== null) {
    // Narrowed answers are small: each entity is read and rendered in turn and the answer sent whole, so that a
    // failing store still gets its error answer and no parsed entity is kept past its own turn.
    const made: Buffer[] = [];
    for await (const piece of pieces(ctx, request, (id) => ctx.store.readEntity(id))) made.push(piece);
    return { body: Buffer.concat(made) };
  }
  // Whole entities: every head read before the answer starts (a failing store still gets its error answer), then
  // each document rendered when the connection has taken the ones before; a revision's document never changes.
  const heads = await readHeads(ctx.store, request.ids);
  return { body: new JsonStream(() => pieces(ctx, request, (id) => heads.get(id) ?? MISSING)) };
}

/** Every head in one store round trip, then the redirects' targets in a second. */
async function readHeads(store: EntityStore, ids: string[]): Promise<Map<string, DocumentRead>> {
  const heads = await store.readDocuments(ids);
  const targets = [...heads.values()].flatMap((r) => (r.status === 'redirect' && !heads.has(r.target) ? [r.target] : []));
  if (targets.length > 0) for (const [id, r] of await store.readDocuments(targets)) heads.set(id, r);
  return heads;
}

/**
 * The answer's pieces in order. A cached document goes in as the bytes a single GET sends, never decoded into a
 * string and encoded again (for 500 entities that was most of the request's time).
 */
async function* pieces(ctx: Ctx<EntityStore>, request: BatchRequest, readOne: (id: string) => Read | Promise<Read>): AsyncGenerator<Buffer> {
  const { documents, sites } = ctx.services;
  const missing: string[] = [];
  const redirects: Record<string, string> = {};
  const seen = new Set<string>();
  yield Buffer.from('{"entities":{');
  for (const requested of request.ids) {
    let id = requested;
    let read = await readOne(id);
    if (read.status === 'redirect') {
      redirects[requested] = read.target;
      id = read.target;
      read = await readOne(id);
    }
    if (read.status !== 'found') { missing.push(requested); continue; }
    if (seen.has(id)) continue;
    yield Buffer.from(`${seen.size === 0 ? '' : ','}${JSON.stringify(id)}:`);
    seen.add(id);
    if ('json' in read) {
      yield documents.get(id, read.head.revision) ?? renderDocument(id, read.head.revision, read.json(), documents, sites);
    } else {
      const entity = request.languages ? narrowed(read.entity, request.languages, request.fallback) : read.entity;
      const full = renderEntity(entity, sites, request.fields?.includes('data_type') ?? false);
      const picked: Record<string, unknown> = { id: full.id };
      for (const f of request.fields ?? Object.keys(full)) if (f in full) picked[f] = full[f];
      yield Buffer.from(JSON.stringify(picked), 'utf8');
    }
  }
  yield Buffer.from(`},"missing":${JSON.stringify(missing)},"redirects":${JSON.stringify(redirects)}}`);
}
