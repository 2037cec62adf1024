// Items and properties as whole resources: GET, POST (creation) and PATCH, for both kinds.
import { parseNewEntity, patchedEntity, type EntityRules } from '../../domain/entity-input.js';
import { fail } from '../../domain/errors.js';
import type { Kind } from '../../domain/kinds.js';
import { applyPatch, parsePatch } from '../../domain/patch.js';
import { inMode, PATCH } from '../../domain/problems.js';
import { commitEdit } from '../edit.js';
import { lookupFor } from '../lookup.js';
import { parseMeta } from '../meta.js';
import { renderEntity } from '../render.js';
import type { Ctx, Result } from '../route.js';
import { loadEntity, pathEntityId, requireFound } from '../subject.js';

const FIELDS: Record<Kind['name'], readonly string[]> = {
  item: ['type', 'labels', 'descriptions', 'aliases', 'statements', 'sitelinks'],
  property: ['type', 'data_type', 'labels', 'descriptions', 'aliases', 'statements'],
};

/** REFERENCE §4.1: `_fields` selects top-level keys; `id` is always present. */
function parseFields(ctx: Ctx): string[] | null {
  const raw = ctx.query._fields;
  if (raw === undefined) return null;
  const fields = typeof raw === 'string' ? raw.split(',') : [];
  if (fields.length === 0 || fields.some((f) => !FIELDS[ctx.kind.name].includes(f))) {
    fail('invalid-query-parameter', { parameter: '_fields' });
  }
  return fields;
}

export async function getEntity(ctx: Ctx): Promise<Result> {
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, true);
  const fields = parseFields(ctx);
  const { entity, head } = requireFound(ctx, read, id, true);
  const full = renderEntity(entity, ctx.services.sites, false);
  if (!fields) return { body: full, head };
  const picked: Record<string, unknown> = { id: full.id };
  for (const f of fields) if (f in full) picked[f] = full[f];
  return { body: picked, head };
}

function rules(ctx: Ctx, lookup: EntityRules['lookup']): EntityRules {
  return { lookup, sites: ctx.services.sites, badges: ctx.services.badges };
}

export async function createEntity(ctx: Ctx): Promise<Result> {
  const { kind } = ctx;
  const invalidData = kind.codes.invalidData as 'invalid-item-data';
  const meta = parseMeta(ctx, invalidData);
  const input = ctx.body[kind.createField];
  const lookup = await lookupFor(ctx.store, (input as { statements?: unknown } | undefined)?.statements);
  const entity = inMode({ type: 'create', code: invalidData }, () => parseNewEntity(kind, input, rules(ctx, lookup)));
  await ctx.services.guard.authorize(ctx, null);
  const done = await commitEdit(ctx, { previous: null, next: entity, meta });
  return {
    status: 201,
    body: renderEntity(done.entity, ctx.services.sites, true),
    head: done.head,
    headers: { location: `${ctx.services.config.publicUrl}/v1/entities/${kind.segment}/${done.entity.id}` },
  };
}

export async function patchEntity(ctx: Ctx): Promise<Result> {
  // REFERENCE §7.7: id → preconditions → edit metadata → patch document → existence.
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, false);
  const meta = parseMeta(ctx);
  const operations = parsePatch(ctx.body.patch);
  const found = requireFound(ctx, read, id, false);
  await ctx.services.guard.authorize(ctx, id);
  const document = renderEntity(found.entity, ctx.services.sites, true);
  const patched = applyPatch(document, operations);
  const lookup = await lookupFor(ctx.store, (patched as { statements?: unknown } | null)?.statements);
  const next = inMode(PATCH, () => patchedEntity(ctx.kind, found.entity, patched, rules(ctx, lookup)));
  const done = await commitEdit(ctx, { previous: found, next, meta });
  return { body: renderEntity(done.entity, ctx.services.sites, true), head: done.head };
}
