// Items and properties as whole resources: GET, POST (creation) and PATCH, for both kinds.
import { parseNewEntity, patchedEntity } from '../../../domain/entity-input.js';
import { fail } from '../../../domain/errors.js';
import type { SiteTable } from '../../../domain/sites.js';
import { applyPatch } from '../../../domain/patch.js';
import { BODY, inMode, PATCH } from '../../../domain/problems.js';
import { renderEntity, renderEntityJson } from '../../../domain/render.js';
import { topLevelMembers } from '../../../domain/json-members.js';
import type { Ctx, Result } from '../../context.js';
import type { Services } from '../../services.js';
import { loadDocument, loadEntity, pathEntityId, requireFound } from '../../subject.js';
import { PATCH_DOCUMENT, PATH_ENTITY, write } from '../../write/rows.js';
import { rulesFor } from '../../write/rules.js';
import type { EntityStore } from '../../../store/store.js';

/** docs/api.md §4.1: `_fields` selects top-level keys; `id` is always present. */
function parseFields(ctx: Ctx<unknown>): string[] | null {
  const raw = ctx.query._fields;
  if (raw === undefined) return null;
  const fields = typeof raw === 'string' ? raw.split(',') : [];
  if (fields.length === 0 || fields.some((f) => !ctx.kind.members.includes(f))) {
    fail('invalid-query-parameter', { parameter: '_fields' });
  }
  return fields;
}

export async function getEntity(ctx: Ctx<EntityStore>): Promise<Result> {
  const id = pathEntityId(ctx);
  if (ctx.query._fields !== undefined) return getEntityFields(ctx, id);
  const read = await loadDocument(ctx, id);
  const { head, json } = requireFound(ctx, read, id, true);
  // The whole entity is served from its stored text, rendered once per revision (most reads are of entities
  // no cache holds, and parsing a document only to serialise it again costs more than the rest of the read).
  const { documents, sites } = ctx.services;
  const bytes = documents.get(id, head.revision) ?? renderDocument(id, head.revision, json(), documents, sites);
  // D2: the contract leaves a property's data type out of this answer; another dialect may want it back.
  const dataType = ctx.kind.hasDataType ? () => JSON.parse(topLevelMembers(json()).get('data_type') ?? 'null') ?? undefined : undefined;
  return { body: bytes, head, dataType };
}

/** The bytes GET of a whole entity answers for one revision, kept in the per-revision cache for the next reader. */
export function renderDocument(id: string, revision: number, json: string, documents: Services['documents'], sites: SiteTable): Buffer {
  const bytes = Buffer.from(renderEntityJson(json, sites, false), 'utf8');
  return documents.put(id, revision, bytes, bytes.length);
}

/** docs/api.md §4.1 `_fields`: the parsed entity, since only some members are wanted. */
async function getEntityFields(ctx: Ctx<EntityStore>, id: string): Promise<Result> {
  const read = await loadEntity(ctx, id, true);
  const fields = parseFields(ctx)!;
  const { entity, head } = requireFound(ctx, read, id, true);
  const full = renderEntity(entity, ctx.services.sites, false);
  const picked: Record<string, unknown> = { id: full.id };
  for (const f of fields) if (f in full) picked[f] = full[f];
  return { body: picked, head };
}

/** POST `/v1/entities/{kind}`: a new entity, its id allocated once every check passed; 201 with its Location. */
export const createEntity = write({
  subject: null,
  body: {
    part: 'creation',
    parse: async (ctx) => {
      const input = ctx.body[ctx.kind.createField];
      const rules = await rulesFor(ctx, input);
      return inMode(BODY, () => parseNewEntity(ctx.kind, input, rules));
    },
  },
  change: ({ body: entity }) => entity,
  respond: (done, _request, ctx) => ({
    status: 201,
    body: renderEntity(done.entity, ctx.services.sites, true),
    head: done.head,
    headers: { location: `${ctx.services.config.publicUrl}/v1/entities/${ctx.kind.segment}/${done.entity.id}` },
  }),
});

/** PATCH `/{entity}`: a JSON Patch on the whole entity as GET returns it. */
export const patchEntity = write({
  subject: PATH_ENTITY,
  body: PATCH_DOCUMENT,
  change: async ({ subject: { entity }, body: operations }, ctx) => {
    const patched = applyPatch(renderEntity(entity, ctx.services.sites, true), operations);
    const rules = await rulesFor(ctx, patched, entity);
    return inMode(PATCH, () => patchedEntity(ctx.kind, entity, patched, rules));
  },
  respond: (done, _request, ctx) => ({ body: renderEntity(done.entity, ctx.services.sites, true), head: done.head }),
});
