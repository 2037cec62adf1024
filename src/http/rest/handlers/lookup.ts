// Lookup by statement value (docs/api.md §10.12): `GET /v1/entities/items?statement=P214:113230702` and the same
// for properties, every condition holding, in id order with a cursor (without a condition: every entity of the
// kind). The conditions' values become index keys through the domain's rules (domain/statement-values.ts), for
// which a property's data type is looked up once. And what links here (§10.19), from the same index.
import { fail } from '../../../domain/errors.js';
import { kindByName, numericPart, parseEntityId, PROPERTY, type Kind } from '../../../domain/kinds.js';
import { ENTITY_ID_TYPES } from '../../../domain/values/entity-ids.js';
import { MAX_CONDITIONS, splitCondition, type StatementCondition } from '../../../domain/statement-values.js';
import type { EntityNumber, EntityStore, SearchIndex } from '../../../store/store.js';
import type { Ctx, Result } from '../../context.js';
import { pathEntityId } from '../../subject.js';
import { conditionKeys, type WrittenCondition } from '../../lookup.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

function asList(raw: unknown): unknown[] {
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

function parseConditions(ctx: Ctx<unknown>): WrittenCondition[] {
  const raw = asList(ctx.query.statement);
  if (raw.length > MAX_CONDITIONS) fail('invalid-query-parameter', { parameter: 'statement' });
  // `P214:value`, `P625:*`: the value part is required here (haswbstatement: allows a lone property).
  return raw.map((r) => (typeof r === 'string' && r.includes(':') ? splitCondition(r, ':') : null)
    ?? fail('invalid-query-parameter', { parameter: 'statement' }));
}

function parseLimit(ctx: Ctx<unknown>): number {
  const raw = ctx.query.limit;
  if (raw === undefined) return DEFAULT_LIMIT;
  const n = typeof raw === 'string' && /^[0-9]{1,3}$/.test(raw) ? Number(raw) : 0;
  if (n < 1 || n > MAX_LIMIT) fail('invalid-query-parameter', { parameter: 'limit' });
  return n;
}

/** `after`: an id of `kind`, or of either kind when `kind` is null (the incoming links list items, then properties). */
function parseAfter(ctx: Ctx<unknown>, kind: Kind | null): EntityNumber | null {
  const raw = ctx.query.after;
  if (raw === undefined) return null;
  const parsed = typeof raw === 'string' ? parseEntityId(raw) : null;
  if (!parsed || (kind !== null && parsed.kind !== kind)) return fail('invalid-query-parameter', { parameter: 'after' });
  return { kind: parsed.kind.name, entity: numericPart(parsed.id) };
}

export async function findByStatements(ctx: Ctx<EntityStore & SearchIndex>): Promise<Result> {
  const written = parseConditions(ctx);
  const limit = parseLimit(ctx);
  const after = parseAfter(ctx, ctx.kind)?.entity ?? null;
  const keys = await conditionKeys(ctx.store, written);
  const conditions = keys.every((k) => k !== null) ? keys as StatementCondition[] : null;
  const found = conditions === null ? []
    : conditions.length === 0 ? await ctx.store.entityNumbers(ctx.kind.name, after, limit + 1)
      : await ctx.store.statementValues.find({ kind: ctx.kind.name, conditions, after, limit: limit + 1 });
  const page = found.slice(0, limit).map((n) => ctx.kind.prefix + n);
  return { body: { ids: page, next: found.length > limit ? page[page.length - 1] : null } };
}

/**
 * What links here (docs/api.md §10.19): the entities whose statements have this entity as their value, each
 * with the properties that link, items first, in id order. The index finds values by text, so a string
 * property holding `Q42` is found too: only properties of an entity-id data type are kept, and a page whose
 * rows were all of other types may be shorter than `limit` with a `next` all the same.
 */
export async function getIncomingLinks(ctx: Ctx<EntityStore & SearchIndex>): Promise<Result> {
  const id = pathEntityId(ctx);
  const limit = parseLimit(ctx);
  const after = parseAfter(ctx, null);
  // The stored text says whether it exists; nothing needs parsing.
  if ((await ctx.store.readDocument(id)).status === 'missing') fail(ctx.kind.codes.notFound, undefined, { id });
  const rows = await ctx.store.statementValues.linksTo(id, after, limit + 1);
  const types = await ctx.store.lookupEntities([...new Set(rows.flatMap((r) => r.properties.map((p) => PROPERTY.prefix + p)))]);
  const links = rows.map((r) => ({
    id: kindByName(r.kind).prefix + r.entity,
    properties: r.properties.map((p) => PROPERTY.prefix + p).filter((p) => Object.hasOwn(ENTITY_ID_TYPES, types.get(p) ?? '')),
  }));
  const page = links.slice(0, limit);
  const next = links.length > limit ? page[page.length - 1].id : null;
  return { body: { links: page.filter((l) => l.properties.length > 0), next } };
}
