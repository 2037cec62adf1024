// Statements as they arrive in request bodies, creation bodies and patch results (docs/api.md §4.4, §6.2,
// §6.3, §10.1, §10.4). Every check reports a Problem at a JSON Pointer below the caller's base path; the
// caller chooses the public code for its mode (problems.ts).
import { hash, randomUUID } from 'node:crypto';
import { sameJson, type Rank, type Reference, type Snak, type Statement, type StatementMap, type Value } from './entity.js';
import { PROPERTY, parseEntityId, parseIdOfKind } from './kinds.js';
import { isPlainObject, pointer, problem } from './problems.js';
import { normaliseContent, type ReferenceLookup } from './values/index.js';

export type { ReferenceLookup } from './values/index.js';

const RANKS: readonly string[] = ['preferred', 'normal', 'deprecated'] satisfies Rank[];
const VALUE_TYPES: readonly string[] = ['value', 'somevalue', 'novalue'];
const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

// ---- Ids (docs/api.md §3) ------------------------------------------------------------------------------

const GUID = /^\{?[A-Za-z0-9]{8}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{12}\}?$/;

export function newStatementId(subjectId: string): string {
  return `${subjectId}$${randomUUID().toUpperCase()}`;
}

/** docs/api.md §3: the id with its entity prefix upper-cased, plus the subject id, or null when malformed. */
export function parseStatementId(raw: string): { id: string; subjectId: string } | null {
  const parts = raw.split('$');
  if (parts.length !== 2 || !GUID.test(parts[1])) return null;
  const subject = parseEntityId(parts[0]);
  return subject && { id: `${subject.id}$${parts[1]}`, subjectId: subject.id };
}

// ---- Ids an input refers to, so the caller can load them before validating ----------------------------

/** Every entity id that validating `input` (a statement or a statement map) could ask the lookup about. */
export function referencedIds(input: unknown): string[] {
  const ids = new Set<string>();
  const snak = (s: unknown) => {
    if (!isPlainObject(s)) return;
    const property = isPlainObject(s.property) && typeof s.property.id === 'string' ? s.property.id : '';
    const propertyId = parseIdOfKind(PROPERTY, property);
    if (propertyId) ids.add(propertyId);
    // The data type is unknown until the property is looked up: any content that reads as an id may be one.
    const content = isPlainObject(s.value) ? s.value.content : undefined;
    const entity = typeof content === 'string' ? parseEntityId(content) : null;
    if (entity) ids.add(entity.id);
  };
  const statement = (s: unknown) => {
    if (!isPlainObject(s)) return;
    snak(s);
    if (Array.isArray(s.qualifiers)) s.qualifiers.forEach(snak);
    if (Array.isArray(s.references)) {
      for (const r of s.references) if (isPlainObject(r) && Array.isArray(r.parts)) r.parts.forEach(snak);
    }
  };
  // A statement and a map are told apart by shape; reading both ways is harmless (extra ids cost a lookup).
  statement(input);
  if (isPlainObject(input)) {
    for (const group of Object.values(input)) if (Array.isArray(group)) group.forEach(statement);
  }
  return [...ids];
}

/**
 * docs/api.md §6.2, partial copies: a store that holds part of Wikidata has statements whose item values point
 * at items it does not hold. The existence check applies to the values an edit introduces or changes, so the
 * entity ids that `kept` (the statements the edit starts from) already hold as values count as existing, and a
 * property they use keeps the data type they record when the store does not know it.
 */
export function keepingStoredReferences(lookup: ReferenceLookup, kept: readonly Statement[]): ReferenceLookup {
  const held = new Set<string>();
  const dataTypes = new Map<string, string>();
  const visit = (snak: Snak) => {
    if (snak.property['data-type']) dataTypes.set(snak.property.id, snak.property['data-type']);
    const content = snak.value.type === 'value' ? snak.value.content : undefined;
    const id = typeof content === 'string' ? parseEntityId(content) : null;
    if (id) held.add(id.id);
  };
  for (const statement of kept) {
    visit(statement);
    statement.qualifiers.forEach(visit);
    for (const reference of statement.references) reference.parts.forEach(visit);
  }
  if (held.size === 0 && dataTypes.size === 0) return lookup;
  return {
    dataTypeOf: (id) => lookup.dataTypeOf(id) ?? dataTypes.get(id),
    exists: (id) => held.has(id) || lookup.exists(id),
    unitBases: lookup.unitBases,
  };
}

// ---- Snaks: the property–value pair of a statement, qualifier or reference part (docs/api.md §4.4, §5) ----

/** The upper-cased property id of an input's `property.id`, or the raw value when it is not a valid id. */
function rawPropertyId(input: Record<string, unknown>): unknown {
  const id = isPlainObject(input.property) ? input.property.id : undefined;
  return (typeof id === 'string' && parseIdOfKind(PROPERTY, id)) || id;
}

function hasPropertyId(input: Record<string, unknown>): boolean {
  return isPlainObject(input.property) && has(input.property, 'id');
}

function parseProperty(input: Record<string, unknown>, path: string, lookup: ReferenceLookup) {
  if (!has(input, 'property')) problem({ type: 'missing', path, field: 'property' });
  const property = input.property;
  const propertyPath = pointer(path, 'property');
  if (!isPlainObject(property)) return problem({ type: 'invalid', path: propertyPath, value: property });
  if (!has(property, 'id')) problem({ type: 'missing', path: propertyPath, field: 'id' });
  const idPath = pointer(propertyPath, 'id');
  const id = typeof property.id === 'string' ? parseIdOfKind(PROPERTY, property.id) : null;
  if (id === null) return problem({ type: 'invalid', path: idPath, value: property.id });
  const dataType = lookup.dataTypeOf(id);
  if (dataType === undefined) return problem({ type: 'not-found', path: idPath, value: id });
  return { id, dataType };
}

function parseValue(input: unknown, dataType: string, path: string, lookup: ReferenceLookup): Value {
  if (!isPlainObject(input)) return problem({ type: 'invalid', path, value: input });
  if (!has(input, 'type')) problem({ type: 'missing', path, field: 'type' });
  const type = input.type;
  if (typeof type !== 'string' || !VALUE_TYPES.includes(type)) {
    return problem({ type: 'invalid', path: pointer(path, 'type'), value: type });
  }
  // §4.4: somevalue/novalue carry no content; any given is ignored.
  if (type !== 'value') return { type: type as 'somevalue' | 'novalue' };
  if (!has(input, 'content')) problem({ type: 'missing', path, field: 'content' });
  return { type, content: normaliseContent(dataType, input.content, pointer(path, 'content'), lookup) };
}

/** A qualifier, a reference part, or the main snak of a statement; `data-type` on input is ignored. */
function parseSnak(input: Record<string, unknown>, path: string, lookup: ReferenceLookup): Snak {
  const { id, dataType } = parseProperty(input, path, lookup);
  if (!has(input, 'value')) problem({ type: 'missing', path, field: 'value' });
  const value = parseValue(input.value, dataType, pointer(path, 'value'), lookup);
  return { property: { id, 'data-type': dataType }, value };
}

function arrayField(input: Record<string, unknown>, field: string, path: string): unknown[] {
  const list = input[field] ?? [];
  return Array.isArray(list) ? list : problem({ type: 'invalid', path: pointer(path, field), value: list });
}

function objectAt(input: unknown, path: string): Record<string, unknown> {
  return isPlainObject(input) ? input : problem({ type: 'invalid', path, value: input });
}

// ---- References (docs/api.md §3 "Reference hash", §4.4) -------------------------------------------------

/** JSON with sorted keys, so that a hash (or a comparison) depends on content only, never on key order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** SHA-1 of the parts without their `data-type`, which is derived and may become null later. */
export function referenceHash(parts: Snak[]): string {
  const content = parts.map((p) => ({ property: p.property.id, value: p.value }));
  return hash('sha1', canonical(content));
}

function parseReference(input: unknown, path: string, lookup: ReferenceLookup): Reference {
  const reference = objectAt(input, path);
  if (!has(reference, 'parts')) problem({ type: 'missing', path, field: 'parts' });
  if (!Array.isArray(reference.parts)) problem({ type: 'invalid', path: pointer(path, 'parts'), value: reference.parts });
  const parts = (reference.parts as unknown[]).map((part, i) => {
    const partPath = pointer(pointer(path, 'parts'), i);
    return parseSnak(objectAt(part, partPath), partPath, lookup);
  });
  // §3: the hash is the service's; one given on input is ignored.
  return { hash: referenceHash(parts), parts };
}

// ---- Statements (docs/api.md §6.3) ----------------------------------------------------------------------

/** Parses a statement from a request body or patch result; the result gets `id` = opts.id. */
export function parseStatement(input: unknown, path: string, lookup: ReferenceLookup, opts: { id: string }): Statement {
  const statement = objectAt(input, path);
  // The order of checks is upstream's (docs/api.md "Order of checks"): the types of id, rank, qualifiers and
  // references first, then property and value, then each qualifier and each reference.
  if (has(statement, 'id') && typeof statement.id !== 'string') {
    problem({ type: 'invalid', path: pointer(path, 'id'), value: statement.id });
  }
  const rank = statement.rank ?? 'normal';
  if (typeof rank !== 'string' || !RANKS.includes(rank)) problem({ type: 'invalid', path: pointer(path, 'rank'), value: rank });
  arrayField(statement, 'qualifiers', path);
  arrayField(statement, 'references', path);
  const { property, value } = parseSnak(statement, path, lookup);
  const qualifiers = arrayField(statement, 'qualifiers', path).map((q, i) => {
    const qualifierPath = pointer(pointer(path, 'qualifiers'), i);
    return parseSnak(objectAt(q, qualifierPath), qualifierPath, lookup);
  });
  const references = arrayField(statement, 'references', path)
    .map((r, i) => parseReference(r, pointer(pointer(path, 'references'), i), lookup));
  // Key order follows upstream (§4.4): id, rank, qualifiers, references, property, value.
  return { id: opts.id, rank: rank as Rank, qualifiers, references, property, value };
}

/** PUT (§6.3, §10.4): the id may be repeated but not changed, and the property cannot change. */
export function replaceStatement(existing: Statement, input: unknown, path: string, lookup: ReferenceLookup): Statement {
  const statement = objectAt(input, path);
  if (has(statement, 'id') && statement.id !== existing.id) problem({ type: 'read-only', path: pointer(path, 'id') });
  const propertyId = rawPropertyId(statement);
  // Only a well-formed, different id is a change; a missing or malformed one is reported by parseStatement.
  if (typeof propertyId === 'string' && parseIdOfKind(PROPERTY, propertyId) && propertyId !== existing.property.id) {
    problem({ type: 'read-only', path: pointer(pointer(path, 'property'), 'id') });
  }
  return parseStatement(statement, path, lookup, { id: existing.id });
}

/** A statement as a patch or a client sees it, minus what input ignores: `data-type` and reference hashes. */
function comparable(statement: Record<string, unknown>): unknown {
  const snak = (s: unknown) => isPlainObject(s) && isPlainObject(s.property)
    ? { ...s, property: { ...s.property, 'data-type': undefined } } : s;
  const reference = (r: unknown) => isPlainObject(r)
    ? { ...r, hash: undefined, parts: Array.isArray(r.parts) ? r.parts.map(snak) : r.parts } : r;
  return JSON.parse(JSON.stringify({
    ...(snak(statement) as object),
    qualifiers: Array.isArray(statement.qualifiers) ? statement.qualifiers.map(snak) : statement.qualifiers,
    references: Array.isArray(statement.references) ? statement.references.map(reference) : statement.references,
  }));
}

/** Whether a patch left the stored statement as it was; such a statement is kept as is (§10.1, §11). */
function isUnchanged(original: Statement, patched: Record<string, unknown>): boolean {
  return sameJson(comparable({ ...patched, id: original.id }), comparable({ ...original }));
}

/** PATCH result of one statement (§10.4); paths are relative to the statement document. */
export function patchedStatement(original: Statement, patched: unknown, lookup: ReferenceLookup): Statement {
  const statement = objectAt(patched, '');
  // Removing `id` is ignored; changing it is not.
  if (has(statement, 'id') && statement.id !== original.id) problem({ type: 'read-only', path: '/id' });
  if (hasPropertyId(statement) && rawPropertyId(statement) !== original.property.id) {
    problem({ type: 'read-only', path: '/property/id' });
  }
  // The stored statement itself: a copy-on-write patch (domain/patch.ts) left it alone.
  if ((statement as unknown) === original || isUnchanged(original, statement)) return original;
  return parseStatement(statement, '', lookup, { id: original.id });
}

// ---- Statement maps (docs/api.md §6.2, §10.1 "Statements") ----------------------------------------------

interface MapContext {
  lookup: ReferenceLookup;
  subjectId: string;
  existing?: Map<string, Statement>;
  seen: Set<string>;
  /** A new statement may keep an id it brings, if that id is a valid, unused statement id of this entity. */
  clientIds?: boolean;
}

/**
 * A statements map from creation (`existing` undefined: ids ignored, all new) or from an entity PATCH result
 * (`existing` given: unchanged statements kept as they are, new ones get ids, ids must be this entity's).
 */
export function parseStatementMap(input: unknown, path: string, lookup: ReferenceLookup,
  opts: { subjectId: string; existing?: StatementMap; clientIds?: boolean }): StatementMap {
  // §6.2: an empty array is what an empty map looks like to upstream.
  if (Array.isArray(input) && input.length === 0) return {};
  const groups = objectAt(input, path);
  const existing = opts.existing && new Map(Object.values(opts.existing).flat().map((s) => [s.id, s]));
  const context: MapContext = { lookup, subjectId: opts.subjectId, existing, seen: new Set(), clientIds: opts.clientIds };
  const result: StatementMap = {};
  for (const [key, group] of Object.entries(groups)) {
    const groupPath = pointer(path, key);
    if (!Array.isArray(group)) problem({ type: 'invalid', path: groupPath, value: group });
    const groupId = parseIdOfKind(PROPERTY, key);
    if (groupId === null) problem({ type: 'invalid-key', path, key });
    const statements = (group as unknown[]).map((s, i) => mapStatement(s, key, pointer(groupPath, i), context));
    // An empty group says nothing; it is dropped rather than stored.
    if (statements.length > 0) result[groupId] = [...(result[groupId] ?? []), ...statements];
  }
  return result;
}

function mapStatement(input: unknown, groupKey: string, path: string, context: MapContext): Statement {
  const statement = objectAt(input, path);
  const { existing, lookup } = context;
  // A new statement: on creation every statement is new and any id given is ignored (§6.2).
  if (!existing || !has(statement, 'id')) {
    const { id: _ignored, ...fresh } = statement;
    checkGroup(fresh, groupKey, path);
    return parseStatement(fresh, path, lookup, { id: newStatementId(context.subjectId) });
  }
  const id = statement.id;
  const stored = typeof id === 'string' ? existing.get(id) : undefined;
  const chosen = !stored && context.clientIds && typeof id === 'string' ? parseStatementId(id) : null;
  if (chosen && chosen.subjectId === context.subjectId && !existing.has(chosen.id) && !context.seen.has(chosen.id)) {
    context.seen.add(chosen.id);
    checkGroup(statement, groupKey, path);
    return parseStatement(statement, path, lookup, { id: chosen.id });
  }
  // An id that is new, another entity's, or used twice would let a patch forge or clone statements.
  if (!stored || context.seen.has(stored.id)) return problem({ type: 'read-only', path: pointer(path, 'id') });
  context.seen.add(stored.id);
  checkGroup(statement, groupKey, path);
  // A missing property or id is left to parseStatement; any other id than the stored one is a move.
  if (hasPropertyId(statement) && rawPropertyId(statement) !== stored.property.id) {
    problem({ type: 'read-only', path: pointer(pointer(path, 'property'), 'id') });
  }
  if ((statement as unknown) === stored || isUnchanged(stored, statement)) return stored;
  return parseStatement(statement, path, lookup, { id: stored.id });
}

/** §6.2: a statement's property must be its group's key. */
function checkGroup(statement: Record<string, unknown>, groupKey: string, path: string): void {
  const propertyId = rawPropertyId(statement);
  if (typeof propertyId === 'string' && parseIdOfKind(PROPERTY, propertyId) && propertyId !== parseIdOfKind(PROPERTY, groupKey)) {
    problem({
      type: 'group-mismatch', path: pointer(pointer(path, 'property'), 'id'),
      groupPropertyId: groupKey, statementPropertyId: propertyId,
    });
  }
}
