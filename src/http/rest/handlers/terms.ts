// Labels, descriptions and aliases of items and properties (docs/api.md §10.2, §10.3, §9.3). Every handler is
// made once per term field; the entity kind comes with the route (ctx.kind), so one implementation serves
// all 32 term routes (Appendix C rows 7-38). The alias-only POST lives in aliases.ts.
// The edits run through write/rows.ts, which fixes the order of their checks (docs/api.md §7.7).
import type { AliasMap, Entity, TermField, TermMap } from '../../../domain/entity.js';
import { fail } from '../../../domain/errors.js';
import type { Kind } from '../../../domain/kinds.js';
import { fallbackChain, isTermLanguage } from '../../../domain/languages.js';
import { applyPatch } from '../../../domain/patch.js';
import { BODY, inMode, PATCH } from '../../../domain/problems.js';
import { normaliseTerm, trimTerm, parseAliasMap, parseTermMap, termRules } from '../../../domain/terms.js';
import type { Ctx, Handler } from '../../context.js';
import { findEntity, loadEntity, pathEntityId, requireFound, type Found } from '../../subject.js';
import type { EntityStore } from '../../../store/store.js';
import { PATCH_DOCUMENT, PATH_ENTITY, write } from '../../write/rows.js';

/** The term fields that hold one string per language. */
export type TextField = Exclude<TermField, 'aliases'>;

const NOT_DEFINED = {
  labels: 'label-not-defined',
  descriptions: 'description-not-defined',
  aliases: 'aliases-not-defined',
} as const satisfies Record<TermField, string>;

/** The PUT body field: `{"label": …}` / `{"description": …}`. */
export const VALUE_FIELD = { labels: 'label', descriptions: 'description' } as const satisfies Record<TextField, string>;

/** docs/api.md §11: DELETE answers a JSON string. */
const DELETED = { labels: 'Label deleted', descriptions: 'Description deleted' } as const satisfies Record<TextField, string>;

/** The path's `{language_code}`; 400 invalid-language-code (descriptions also refuse `mul`, docs/api.md §3). */
export function pathLanguage(ctx: Ctx<unknown>, field: TermField): string {
  const code = ctx.params.language_code;
  if (!isTermLanguage(code, field)) fail('invalid-language-code', undefined, { code });
  return code;
}

/** 404 label-not-defined / description-not-defined / aliases-not-defined, naming the kind (docs/api.md §7.1). */
function notDefined(kind: Kind, field: TermField, id: string, lang: string): never {
  return fail(NOT_DEFINED[field], undefined, { noun: kind.noun, id, lang });
}

/** The entity with one term field replaced; nothing else changes. */
export function withTerms(entity: Entity, field: TermField, terms: TermMap | AliasMap): Entity {
  return { ...entity, [field]: terms };
}

/** GET `/{entity}/{field}`: the whole map, `{}` when empty. */
export function getTermMap(field: TermField): Handler {
  return async (ctx) => {
    const { entity, head } = await findEntity(ctx, true);
    return { body: entity[field], head };
  };
}

/**
 * The entity and the language a term read names, in §7.7's order: the entity id, its preconditions, the language
 * code (400), then the entity's existence (404, 308).
 */
async function findWithLanguage(ctx: Ctx<EntityStore>, field: TermField): Promise<{ id: string; lang: string } & Found> {
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, true);
  const lang = pathLanguage(ctx, field);
  return { id, lang, ...requireFound(ctx, read, id, true) };
}

/** GET `/{entity}/{field}/{language_code}`: one label or description string, or one alias list. */
export function getTerm(field: TermField): Handler {
  return async (ctx) => {
    const { id, lang, entity, head } = await findWithLanguage(ctx, field);
    const terms: TermMap | AliasMap = entity[field];
    if (!Object.hasOwn(terms, lang)) notDefined(ctx.kind, field, id, lang);
    return { body: terms[lang], head };
  };
}

/**
 * GET `/{entity}/{field}_with_language_fallback/{language_code}` (docs/api.md §9.3): the first language of the
 * chain with a term wins; the requested language itself answers 200, another one 307 to its plain route.
 * A 307 is a pointer, not a representation, so it carries no ETag (docs/api.md).
 */
export function getTermWithFallback(field: TextField): Handler {
  return async (ctx) => {
    const { id, lang, entity, head } = await findWithLanguage(ctx, field);
    const terms = entity[field];
    const found = fallbackChain(lang, field).find((code) => Object.hasOwn(terms, code));
    if (found === undefined) notDefined(ctx.kind, field, id, lang);
    if (found === lang) return { body: terms[lang], head };
    const location = `${ctx.services.config.publicUrl}/v1/entities/${ctx.kind.segment}/${id}/${field}/${found}`;
    return { status: 307, headers: { location } };
  };
}

/**
 * PUT `/{entity}/{field}/{language_code}`: 200 with the stored (trimmed, NFC) string, new or replaced (D11).
 * docs/api.md §6.1: setting a term to its current value skips all content validation; the unchanged entity is
 * then a no-op that commitEdit answers before any policy check.
 */
export function putTerm(field: TextField) {
  const valueField = VALUE_FIELD[field];
  return write({
    subject: PATH_ENTITY,
    param: (ctx) => pathLanguage(ctx, field),
    body: {
      part: 'term',
      parse: (ctx, { read, param: lang }) => {
        const raw = ctx.body[valueField];
        const current = read?.status === 'found' ? read.entity[field][lang] : undefined;
        if (current !== undefined && typeof raw === 'string' && trimTerm(raw) === current) return current;
        return inMode(BODY, () => normaliseTerm(raw, `/${valueField}`, termRules(field, ctx.kind)));
      },
    },
    change: ({ subject: { entity }, param: lang, body: value }) => withTerms(entity, field, { ...entity[field], [lang]: value }),
    respond: (done, { subject, param: lang }) => ({
      body: done.entity[field][lang], head: done.head, created: !Object.hasOwn(subject.entity[field], lang),
    }),
  });
}

/** DELETE `/{entity}/{field}/{language_code}`: the body is optional and carries edit metadata only. */
export function deleteTerm(field: TextField) {
  return write({
    subject: PATH_ENTITY,
    param: (ctx) => pathLanguage(ctx, field),
    target: (ctx, { subject: { entity }, param: lang }) => {
      if (!Object.hasOwn(entity[field], lang)) notDefined(ctx.kind, field, entity.id, lang);
    },
    change: ({ subject: { entity }, param: lang }) => {
      const remaining: TermMap = { ...entity[field] };
      delete remaining[lang];
      return withTerms(entity, field, remaining);
    },
    respond: (done) => ({ body: DELETED[field], head: done.head, headers: { 'content-language': 'en' } }),
  });
}

/** The patched map, validated with paths relative to it (docs/api.md §10.2, §10.3: `""`, `/en`, `/en/0`). */
function parsePatchedMap(field: TermField, kind: Kind, patched: unknown): TermMap | AliasMap {
  return inMode(PATCH, () => (field === 'aliases'
    ? parseAliasMap(patched, '')
    : parseTermMap(patched, '', field, kind)));
}

/** PATCH `/{entity}/{field}`: a JSON Patch on the language map (docs/api.md §10.6); 200 with the whole map. */
export function patchTerms(field: TermField) {
  return write({
    subject: PATH_ENTITY,
    body: PATCH_DOCUMENT,
    change: ({ subject: { entity }, body: operations }, ctx) =>
      withTerms(entity, field, parsePatchedMap(field, ctx.kind, applyPatch(entity[field], operations))),
    respond: (done) => ({ body: done.entity[field], head: done.head }),
  });
}
