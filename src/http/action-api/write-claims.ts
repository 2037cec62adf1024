// The Action API's statement modules (wbcreateclaim, wbsetclaim, wbsetclaimvalue, wbremoveclaims,
// wbsetqualifier, wbremovequalifiers, wbsetreference, wbremovereferences): each says how its parameters change
// the entity's statements; write-path.ts writes the document.
import type { Entity, Snak, Statement } from '../../domain/entity.js';
import { parseStatementId } from '../../domain/statements.js';
import { isPlainObject } from '../../domain/problems.js';
import type { Doc } from '../document-edit.js';
import { snakListFromAction, statementById, statementFromAction, storedSnakHash, valueFromAction } from './claims.js';
import { entityIdOf, jsonParam, list, param, refuse, required, type Json, type WriteCall } from './protocol.js';
import { type Edited, editDocument, pageAnswer, claimOf, addedStatement } from './write-path.js';

/** Claims: with `remove`, deleted by id; with a known id, replaced in place; otherwise added. */
export function applyClaims(doc: Doc, input: unknown): void {
  if (input === undefined) return;
  const claims = Array.isArray(input) ? input : isPlainObject(input) ? Object.values(input).flat() : null;
  if (claims === null) return refuse('not-recognized-array', '"claims" must be an object or a list.');
  for (const raw of claims) {
    if (isPlainObject(raw) && raw.remove !== undefined) {
      if (typeof raw.id !== 'string' || !removeStatement(doc, raw.id)) refuse('no-such-claim', `Could not find a claim with the GUID "${String(raw.id)}".`);
      continue;
    }
    putStatement(doc, statementFromAction(raw));
  }
}

/** Replaces the statement with the same id, or adds it (without an id the parser gives it a new one). */
function putStatement(doc: Doc, statement: Json): void {
  const propertyId = (statement.property as Json).id as string;
  const id = typeof statement.id === 'string' ? statement.id : undefined;
  if (id !== undefined) {
    for (const [pid, group] of Object.entries(doc.statements)) {
      const at = group.findIndex((s) => s.id === id);
      if (at < 0) continue;
      if (pid === propertyId) { group[at] = statement; return; }
      group.splice(at, 1);
      break;
    }
  }
  // An id this entity does not hold is Wikibase's way of choosing a new statement's GUID: kept when it is a valid
  // statement id of this entity (the parser checks it is unused), else the new statement gets one of its own.
  if (id !== undefined && !hasStatement(doc, id) && parseStatementId(id)?.subjectId !== doc.id) delete statement.id;
  (doc.statements[propertyId] ??= []).push(statement);
}

function hasStatement(doc: Doc, id: string): boolean {
  return Object.values(doc.statements).some((g) => g.some((s) => s.id === id));
}

function removeStatement(doc: Doc, id: string): boolean {
  for (const [pid, group] of Object.entries(doc.statements)) {
    const at = group.findIndex((s) => s.id === id);
    if (at < 0) continue;
    group.splice(at, 1);
    if (group.length === 0) delete doc.statements[pid];
    return true;
  }
  return false;
}

/**
 * The document's statement with this GUID, for the modules that edit one statement: a copy, put in its group in
 * place of the stored one (editableDocument), with its own qualifier and reference lists.
 */
function statementIn(doc: Doc, id: string): Json {
  for (const group of Object.values(doc.statements)) {
    const at = group.findIndex((s) => s.id === id);
    if (at < 0) continue;
    const stored = group[at];
    group[at] = { ...stored, qualifiers: [...(stored.qualifiers as Json[])], references: [...(stored.references as Json[])] };
    return group[at];
  }
  return refuse('no-such-claim', `Could not find a claim with the GUID "${id}".`);
}

/** The entity a claim GUID belongs to, and the GUID as stored (the entity part upper-cased). */
function claimSubject(guid: string): { entityId: string; guid: string } {
  const parsed = parseStatementId(guid);
  if (!parsed) return refuse('invalid-guid', `Invalid claim GUID "${guid}".`);
  return { entityId: parsed.subjectId, guid: parsed.id };
}

/** A stored statement's GUID in the letter case it is stored with. */
function storedGuid(entity: Entity, guid: string): string {
  return statementById(entity.statements, guid)?.id ?? refuse('no-such-claim', `Could not find a claim with the GUID "${guid}".`);
}

// ---- Modules -----------------------------------------------------------------------------------------------

export async function wbcreateclaim(call: WriteCall): Promise<Json> {
  const id = entityIdOf(required(call.params, 'entity'));
  const property = required(call.params, 'property').toUpperCase();
  const snaktype = required(call.params, 'snaktype');
  const value = valueFromAction(snaktype, snaktype === 'value' ? jsonParam(call.params, 'value') : undefined);
  const edited = await editDocument(call, id, (doc) => {
    (doc.statements[property] ??= []).push({ property: { id: property }, value, rank: 'normal', qualifiers: [], references: [] });
  });
  const added = addedStatement(edited);
  return pageAnswer(edited, { claim: added ? claimOf(edited.entity, added.id) : {} });
}

export async function wbsetclaim(call: WriteCall): Promise<Json> {
  const claim = jsonParam(call.params, 'claim');
  if (!isPlainObject(claim) || typeof claim.id !== 'string') return refuse('invalid-claim', 'The claim needs an "id" (a GUID).');
  const { entityId, guid } = claimSubject(claim.id);
  const statement = statementFromAction({ ...claim, id: guid });
  const edited = await editDocument(call, entityId, (doc, entity) => {
    const stored = statementById(entity.statements, guid);
    putStatement(doc, stored ? { ...statement, id: stored.id } : statement);
  });
  // The statement replaced, or the new one a GUID the entity did not hold made.
  const written = statementById(edited.entity.statements, guid) ?? addedStatement(edited);
  return pageAnswer(edited, { claim: written ? claimOf(edited.entity, written.id) : {} });
}

/** The modules that change one statement, found by its GUID in `param`. */
/** `hashOf`: a stored snak's hash as the Action API shows it (with its entity's source details, ADR 0012). */
async function editStatement(call: WriteCall, paramName: string,
  change: (statement: Json, stored: Statement, hashOf: (snak: Snak) => string | null) => void): Promise<{ edited: Edited; id: string }> {
  const { entityId, guid } = claimSubject(required(call.params, paramName));
  let id = guid;
  const edited = await editDocument(call, entityId, (doc, entity) => {
    id = storedGuid(entity, guid);
    change(statementIn(doc, id), statementById(entity.statements, id)!, (snak) => storedSnakHash(snak, id, entity.source));
  });
  return { edited, id };
}

export async function wbsetclaimvalue(call: WriteCall): Promise<Json> {
  const snaktype = required(call.params, 'snaktype');
  const value = valueFromAction(snaktype, snaktype === 'value' ? jsonParam(call.params, 'value') : undefined);
  const { edited, id } = await editStatement(call, 'claim', (statement) => { statement.value = value; });
  return pageAnswer(edited, { claim: claimOf(edited.entity, id) });
}

export async function wbremoveclaims(call: WriteCall): Promise<Json> {
  const guids = list(required(call.params, 'claim')).map(claimSubject);
  const entityId = guids[0].entityId;
  if (guids.some((g) => g.entityId !== entityId)) refuse('invalid-guid', 'All claims must belong to the same entity.');
  const removed: string[] = [];
  const edited = await editDocument(call, entityId, (doc, entity) => {
    for (const g of guids) {
      const id = storedGuid(entity, g.guid);
      removeStatement(doc, id);
      removed.push(id);
    }
  });
  return pageAnswer(edited, { claims: removed });
}

export async function wbsetqualifier(call: WriteCall): Promise<Json> {
  const snakhash = param(call.params, 'snakhash');
  const property = param(call.params, 'property');
  const snaktype = param(call.params, 'snaktype');
  if (snakhash === undefined && (property === undefined || snaktype === undefined)) {
    refuse('param-missing', 'A new qualifier needs "property" and "snaktype".');
  }
  const { edited, id } = await editStatement(call, 'claim', (statement, stored, hashOf) => {
    const qualifiers = statement.qualifiers as Json[];
    const at = snakhash === undefined ? -1 : stored.qualifiers.findIndex((q) => hashOf(q) === snakhash);
    if (snakhash !== undefined && at < 0) refuse('no-such-qualifier', `The claim has no qualifier with the hash "${snakhash}".`);
    const old = at >= 0 ? qualifiers[at] : undefined;
    const type = snaktype ?? (old!.value as Json).type;
    const value = valueFromAction(type as string, type === 'value' ? jsonParam(call.params, 'value') : undefined);
    const qualifier = { property: { id: (property ?? (old!.property as Json).id as string).toUpperCase() }, value };
    if (at >= 0) qualifiers[at] = qualifier;
    else qualifiers.push(qualifier);
  });
  return pageAnswer(edited, { claim: claimOf(edited.entity, id) });
}

export async function wbremovequalifiers(call: WriteCall): Promise<Json> {
  const hashes = list(required(call.params, 'qualifiers'));
  const { edited } = await editStatement(call, 'claim', (statement, stored, hashOf) => {
    const keep = stored.qualifiers.map((q) => !hashes.includes(hashOf(q) ?? ''));
    const found = keep.filter((k) => !k).length;
    if (found < hashes.length) refuse('no-such-qualifier', 'The claim has no qualifier with one of the given hashes.');
    statement.qualifiers = (statement.qualifiers as Json[]).filter((_, i) => keep[i]);
  });
  return pageAnswer(edited);
}

export async function wbsetreference(call: WriteCall): Promise<Json> {
  const parts = snakListFromAction(jsonParam(call.params, 'snaks'), call.params['snaks-order'] !== undefined ? jsonParam(call.params, 'snaks-order') : undefined);
  const replaced = param(call.params, 'reference');
  const index = param(call.params, 'index');
  if (index !== undefined && !/^\d{1,6}$/.test(index)) refuse('badinteger', 'Invalid value for parameter "index".');
  const { edited, id } = await editStatement(call, 'statement', (statement, stored) => {
    const references = statement.references as Json[];
    const at = replaced === undefined ? -1 : stored.references.findIndex((r) => r.hash === replaced);
    if (replaced !== undefined && at < 0) refuse('no-such-reference', `The statement has no reference with the hash "${replaced}".`);
    if (at >= 0) references.splice(at, 1);
    const position = index !== undefined ? Math.min(Number(index), references.length) : at >= 0 ? at : references.length;
    references.splice(position, 0, { parts });
  });
  // The reference written: the one the statement did not hold before, or the replaced one if it is unchanged.
  const held = new Set(statementById(edited.before!.statements, id)!.references.map((r) => r.hash));
  const references = statementById(edited.entity.statements, id)!.references;
  const reference = references.find((r) => !held.has(r.hash)) ?? references.find((r) => r.hash === replaced);
  const claim = claimOf(edited.entity, id);
  const answered = ((claim.references ?? []) as Json[]).find((r) => r.hash === reference?.hash);
  return pageAnswer(edited, { reference: answered ?? {} });
}

export async function wbremovereferences(call: WriteCall): Promise<Json> {
  const hashes = list(required(call.params, 'references'));
  const { edited } = await editStatement(call, 'statement', (statement, stored) => {
    const missing = hashes.filter((h) => !stored.references.some((r) => r.hash === h));
    if (missing.length) refuse('no-such-reference', `The statement has no reference with the hash "${missing[0]}".`);
    statement.references = (statement.references as Json[]).filter((_, i) => !hashes.includes(stored.references[i].hash));
  });
  return pageAnswer(edited);
}
