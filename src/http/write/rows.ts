// Every write of the REST API, in the order docs/api.md §7.7 fixes. A write route declares what its request
// carries and one change function (rest/routes.ts, `write`); this module runs the steps, so the order lives here once:
//
//   1-2  route, media type, JSON and the body's top-level shape     Fastify and the route's schema (app.ts)
//   5    the path's ids: entity id (and statement id)               400   subject.locate
//   4    conditional headers, once the entity is loaded             412   loadEntity
//   5    the path's own parameter: site id or language code         400   write.param
//   5    the body's parts and the edit metadata, in BODY_ORDER      400   write.body, parseMeta
//   6    existence of the entity (and of the statement)             404, 409 redirected-item, 308
//   6    existence of the part the path names (term, sitelink…)     404   write.target
//   7    permission                                                 403   guard.authorize
//   8    the change: patch application and its result               409, 422   write.change
//   8-9  data policy, size, rate limit, one atomic revision         422, 400, 429   commitEdit
//
// The entity's preconditions come before the rest of step 5 because they need only the entity id (a statement
// route parses its statement id first: it names the entity). A creation has no subject: its step 5 problems
// collapse into the kind's invalid-item-data / invalid-property-data (D7/D8), here and nowhere else.
import type { Entity } from '../../domain/entity.js';
import { EntiaError, isEntiaError } from '../../domain/errors.js';
import { parsePatch, type PatchOperation } from '../../domain/patch.js';
import type { EditMeta, ReadResult } from '../../store/store.js';
import { commitEdit, type Committed, type EditPlan } from './commit.js';
import { commitMerge, type MergePlan } from './merge.js';
import { editedEntity, runEdit } from './turns.js';
import { parseMeta } from '../meta.js';
import type { Ctx, Handler, Result } from '../context.js';
import { loadEntity, pathEntityId, requireFound, type Found } from '../subject.js';

/** What a write body carries, besides edit metadata. */
export type BodyPart = 'statement' | 'patch' | 'term' | 'aliases' | 'sitelink' | 'creation' | 'revision' | 'merge';

/**
 * §7.7 step 5 after the path parameters: the order in which the body's problems are reported, with the edit
 * metadata (`comment`, then `tags`) in its place. `revision` (a revert's) and `merge` are Entia's own and come last.
 */
export const BODY_ORDER = ['statement', 'meta', 'patch', 'term', 'aliases', 'sitelink', 'creation', 'revision', 'merge'] as const;

/** The entity a write applies to, found; statement routes add the stored statement the path names. */
export type Subject = Found & { statement?: Entity['statements'][string][number] };

/** How a route finds its subject: the ids in its path (400), then their existence (404, 409, 308). */
export interface SubjectRule<L extends { id: string } = { id: string }> {
  locate(ctx: Ctx): L;
  exists(ctx: Ctx, located: L, read: ReadResult): Subject;
}

/** The subject of most writes: the entity the path names. */
export const PATH_ENTITY: SubjectRule = {
  locate: (ctx) => ({ id: pathEntityId(ctx) }),
  exists: (ctx, { id }, read) => requireFound(ctx, read, id, false),
};

/** The body part of every PATCH route: a JSON Patch document (400), applied by the route's change. */
export const PATCH_DOCUMENT = { part: 'patch', parse: (ctx: Ctx): PatchOperation[] => parsePatch(ctx.body.patch) } as const;

/** What the steps up to the body produced; `located` and `read` are null only for a creation. */
export interface BeforeBody<P, L> {
  located: L;
  read: ReadResult | null;
  param: P;
}

/** …then the body, the metadata and the subject, found (a creation has none). */
export interface BeforeTarget<P, B, L> extends BeforeBody<P, L> {
  body: B;
  meta: EditMeta;
  subject: Subject;
}

/** Everything the change and the response can use. */
export interface WriteRequest<P, B, T, L> extends BeforeTarget<P, B, L> {
  target: T;
}

interface WriteSteps<P, B, T, L extends { id: string }, D> {
  /** The subject: the path's entity or statement; null for a creation. */
  subject: SubjectRule<L> | null;
  param?: (ctx: Ctx) => P;
  body?: { part: BodyPart; parse: (ctx: Ctx, before: BeforeBody<P, L>) => B | Promise<B> };
  target?: (ctx: Ctx, request: BeforeTarget<P, B, L>) => T | Promise<T>;
  respond: (done: D, request: WriteRequest<P, B, T, L>, ctx: Ctx) => Result;
  /** docs/api.md §6.4: PUT of one sitelink reports a conflict without `site_id`. */
  sitelinkConflictContext?: EditPlan['sitelinkConflictContext'];
  /** Recorded with the revision, where it is not a plain edit. */
  action?: EditMeta['action'];
}

/** Most writes: the entity after the edit, the domain's pure change (save the store lookups a validation needs), committed by commitEdit. */
interface ChangeStep<P, B, T, L> {
  change: (request: WriteRequest<P, B, T, L>, ctx: Ctx) => Entity | Promise<Entity>;
  merge?: never;
}

/** A merge writes its target too: the step names both items, and commitMerge writes both revisions or neither. */
interface MergeStep<P, B, T, L> {
  merge: (request: WriteRequest<P, B, T, L>) => MergePlan;
  change?: never;
}

export type Write<P = undefined, B = undefined, T = undefined, L extends { id: string } = { id: string }, D = Committed> =
  WriteSteps<P, B, T, L, D> & (ChangeStep<P, B, T, L> | MergeStep<P, B, T, L>);

/** Declares a write route (the generic parameters are inferred from the functions). */
export function write<P = undefined, B = undefined, T = undefined, L extends { id: string } = { id: string }, D = Committed>(
  w: Write<P, B, T, L, D>): Write<P, B, T, L, D> {
  return w;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWrite = Write<any, any, any, any, any>;

/** A write route's handler: its steps, in the turn of the entity its path names (turns.ts); a creation has none. */
export function writeHandler(w: AnyWrite): Handler {
  return (ctx) => {
    const entity = editedEntity(ctx.params);
    return entity === null ? runWrite(ctx, w) : runEdit(ctx.services.edits, ctx.store, entity, () => runWrite(ctx, w));
  };
}

async function runWrite(ctx: Ctx, w: AnyWrite): Promise<Result> {
  const located = w.subject ? w.subject.locate(ctx) : null;
  const read = located ? await loadEntity(ctx, located.id, false) : null;
  const param = w.param?.(ctx);
  const { body, meta } = await collapsedOnCreation(ctx, w.subject === null, () => parseBody(ctx, w, { located, read, param }));
  const subject = w.subject ? w.subject.exists(ctx, located!, read!) : null;
  // A creation's row has no subject rule and its functions never read `subject`.
  // Every member named here, `target` too, so that the copy below replaces a member rather than adding one
  // (adding one to a spread copy is slow in V8 11: ADR 0021).
  const before = { located, read, param, body, meta: w.action ? { ...meta, action: w.action } : meta, subject: subject as Subject, target: undefined };
  const request = { ...before, target: w.target && subject ? await w.target(ctx, before) : undefined };
  await ctx.services.guard.authorize(ctx, subject?.entity.id ?? null);
  if (w.merge) return w.respond(await commitMerge(ctx, w.merge(request)), request, ctx);
  const next = await w.change(request, ctx);
  const done = await commitEdit(ctx, { previous: subject, next, meta: request.meta, sitelinkConflictContext: w.sitelinkConflictContext });
  return w.respond(done, request, ctx);
}

/** Step 5's body checks in BODY_ORDER: the route's one body part before or after the metadata. */
async function parseBody(ctx: Ctx, w: AnyWrite, before: BeforeBody<unknown, unknown>): Promise<{ body: unknown; meta: EditMeta }> {
  if (!w.body) return { body: undefined, meta: parseMeta(ctx) };
  if (BODY_ORDER.indexOf(w.body.part) < BODY_ORDER.indexOf('meta')) {
    const body = await w.body.parse(ctx, before);
    return { body, meta: parseMeta(ctx) };
  }
  const meta = parseMeta(ctx);
  return { body: await w.body.parse(ctx, before), meta };
}

/** D7/D8: on creation every step 5 problem is the kind's code, carrying the precise error for other dialects. */
async function collapsedOnCreation<T>(ctx: Ctx, creation: boolean, steps: () => Promise<T>): Promise<T> {
  if (!creation) return steps();
  try {
    return await steps();
  } catch (e) {
    const code = ctx.kind.codes.invalidData as 'invalid-item-data';
    if (!isEntiaError(e) || e.code === code) throw e;
    throw new EntiaError(code, undefined, {}, e);
  }
}
