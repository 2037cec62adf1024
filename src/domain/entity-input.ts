// Whole entities from outside: a creation body (docs/api.md §10.1 POST) and an entity PATCH result
// (§10.1 PATCH). One implementation for both kinds; the Kind says what differs (sitelinks, data_type).
import { emptyEntity, type Entity, type StatementMap } from './entity.js';
import type { Kind } from './kinds.js';
import { isPlainObject, problem } from './problems.js';
import { parseSitelinkMap, type BadgePolicy, type SiteTable } from './sites.js';
import { parseStatementMap, type ReferenceLookup } from './statements.js';
import { parseAliasMap, parseTermMap } from './terms.js';
import { isDataType } from './values/index.js';

export interface EntityRules {
  lookup: ReferenceLookup;
  sites: SiteTable;
  badges: BadgePolicy;
  /**
   * A new statement may bring its own id when it is a valid, unused statement id of this entity (the Action
   * API, where a client chooses a new statement's GUID as Wikibase lets it); otherwise such an id is refused.
   */
  clientStatementIds?: boolean;
}

/** Statements of a new entity carry this subject until its id is allocated. */
export const placeholderId = (kind: Kind): string => `${kind.prefix}0`;

const MAP_FIELDS = ['labels', 'descriptions', 'aliases', 'statements', 'sitelinks'] as const;

/** A creation body's entity. Problems are reported with paths under `/item` or `/property`. */
export function parseNewEntity(kind: Kind, input: unknown, rules: EntityRules): Entity {
  const base = `/${kind.createField}`;
  if (!isPlainObject(input)) problem({ type: 'invalid', path: base, value: input });
  const id = placeholderId(kind);
  let dataType: string | undefined;
  if (kind.hasDataType) {
    if (input.data_type === undefined) problem({ type: 'missing', path: base, field: 'data_type' });
    if (!isDataType(input.data_type)) problem({ type: 'invalid', path: `${base}/data_type`, value: input.data_type });
    dataType = input.data_type as string;
  }
  const entity = emptyEntity(id, kind.name, dataType);
  entity.labels = parseTermMap(input.labels ?? {}, `${base}/labels`, 'labels', kind);
  entity.descriptions = parseTermMap(input.descriptions ?? {}, `${base}/descriptions`, 'descriptions', kind);
  entity.aliases = parseAliasMap(input.aliases ?? {}, `${base}/aliases`);
  if (kind.hasSitelinks) {
    entity.sitelinks = parseSitelinkMap(input.sitelinks ?? {}, `${base}/sitelinks`, rules.sites, rules.badges);
  }
  entity.statements = parseStatementMap(input.statements ?? {}, `${base}/statements`, rules.lookup, { subjectId: id });
  return entity;
}

/**
 * The result of applying a JSON Patch to the entity's document. Paths are relative to the document;
 * validation order follows §10.1: id → field types → labels, descriptions → aliases → sitelinks → statements.
 */
export function patchedEntity(kind: Kind, original: Entity, patched: unknown, rules: EntityRules): Entity {
  if (!isPlainObject(patched)) problem({ type: 'invalid', path: '', value: patched });
  if (patched.id !== undefined && patched.id !== original.id) problem({ type: 'read-only', path: '/id' });
  if (kind.hasDataType) {
    if (patched.data_type === undefined) problem({ type: 'missing', path: '', field: 'data_type' });
    if (patched.data_type !== original.data_type) problem({ type: 'read-only', path: '/data_type' });
  }
  for (const field of MAP_FIELDS) {
    const value = patched[field];
    if (field === 'sitelinks' && !kind.hasSitelinks) continue;
    if (value !== undefined && !isPlainObject(value) && !(Array.isArray(value) && value.length === 0)) {
      problem({ type: 'invalid', path: `/${field}`, value });
    }
  }
  const entity = emptyEntity(original.id, kind.name, original.data_type);
  entity.labels = parseTermMap(patched.labels ?? {}, '/labels', 'labels', kind);
  entity.descriptions = parseTermMap(patched.descriptions ?? {}, '/descriptions', 'descriptions', kind);
  entity.aliases = parseAliasMap(patched.aliases ?? {}, '/aliases');
  if (kind.hasSitelinks) {
    entity.sitelinks = parseSitelinkMap(patched.sitelinks ?? {}, '/sitelinks', rules.sites, rules.badges, original.sitelinks);
  }
  entity.statements = parseStatementMap(patched.statements ?? {}, '/statements', rules.lookup,
    { subjectId: original.id, existing: original.statements as StatementMap, clientIds: rules.clientStatementIds });
  return entity;
}
