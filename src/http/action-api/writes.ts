// The Action API's edit modules (docs/api.md §10.15). Each one only says how its parameters change an entity's
// document; the rest is the REST routes' edit path: the document is parsed by the same domain parsers as an
// entity PATCH (every value, language, site and badge checked the same way), then written by commitEdit (data
// policy, size, rate limit, one atomic revision) in the entity's turn (runEdit), with the same permissions.
import type { Entity, Snak, Statement } from '../../domain/entity.js';
import { parseNewEntity, patchedEntity } from '../../domain/entity-input.js';
import { ITEM, PROPERTY, kindNamed, parseEntityId, type Kind } from '../../domain/kinds.js';
import { parseStatementId } from '../../domain/statements.js';
import { BODY, inMode, isPlainObject } from '../../domain/problems.js';
import { toWikidataClaim } from '../../domain/wikidata-export.js';
import { isTermLanguage } from '../../domain/languages.js';
import { changedParts } from '../../domain/entity-parts.js';
import type { TermField } from '../../domain/entity.js';
import { commitEdit, type Committed } from '../edit.js';
import { runEdit } from '../edit-queue.js';
import { RedirectRefused } from '../../store/store.js';
import { rulesFor } from '../handlers/entities.js';
import { renderSitelink } from '../render.js';
import { editableDocument, emptyDocument, type Doc } from '../document-edit.js';
import type { Services } from '../services.js';
import { actionEntity } from './reads.js';
import { wbmergeitems } from './merge.js';
import {
  hashedClaim, snakListFromAction, statementById, statementFromAction, storedSnakHash, valueFromAction,
} from './claims.js';
import { entityToEdit, jsonParam, list, param, refuse, required, type Json, type WriteCall } from './protocol.js';


interface Edited {
  done: Committed;
  before: Entity | null;
}

const ALL_PROPS = new Set(['info', 'sitelinks', 'sitelinks/urls', 'aliases', 'labels', 'descriptions', 'claims', 'datatype']);

// ---- The edit path ---------------------------------------------------------------------------------------

/** The entity an edit names: `id`, or the item linked from `site` + `title`. */
async function targetId(call: WriteCall, idParam = 'id'): Promise<string> {
  const raw = param(call.params, idParam);
  if (raw !== undefined) return parsedId(raw);
  const site = param(call.params, 'site');
  const title = param(call.params, 'title');
  if (site === undefined || title === undefined) return refuse('param-missing', `Either provide the entity "${idParam}" or "site" and "title".`);
  const page = title.replaceAll('_', ' ');
  const owner = (await call.store.sitelinkOwners([[site, page]])).get(`${site}\u0000${page}`);
  return owner ?? refuse('no-such-entity-link', `No entity found matching site link "${title}" on "${site}".`);
}

function parsedId(raw: string): string {
  return parseEntityId(raw)?.id ?? refuse('invalid-entity-id', `Invalid entity ID "${raw}".`, { id: raw });
}

/** Applies `change` to the entity's current document and writes the result through the shared edit path. */
async function editDocument(call: WriteCall, id: string, change: (doc: Doc, entity: Entity) => void): Promise<Edited> {
  const { ctx } = call;
  return runEdit(call.edits, call.store, id, async () => {
    const read = await entityToEdit(call.store, id);
    const since = await changedSinceBase(call, id, read.entity, read.head.revision);
    await ctx.services.guard.authorize(ctx, id);
    const kind = parseEntityId(id)!.kind;
    const doc = editableDocument(read.entity, ctx.services.sites);
    change(doc, read.entity);
    const rules = await rulesFor(ctx, doc, read.entity);
    const next = inMode(BODY, () => patchedEntity(kind, read.entity, doc, { ...rules, clientStatementIds: true }));
    // Made against an older revision: applied unless it changes a part that was changed since (as Wikibase does).
    if (since) {
      const overlap = [...changedParts(read.entity, next)].filter((part) => since.parts.has(part));
      if (overlap.length) {
        refuse('editconflict', `Edit conflict: ${overlap.slice(0, 5).join(', ')} of ${id} changed after revision ${since.base}; `
          + `its latest revision is ${read.head.revision}.`);
      }
    }
    return { done: await commitEdit(ctx, { previous: { entity: read.entity, head: read.head }, next, meta: call.meta }), before: read.entity };
  });
}

/** A new entity from a document, through the creation path of POST /v1/entities/{kind}. */
async function createDocument(call: WriteCall, kind: Kind, doc: Doc): Promise<Edited> {
  const { ctx } = call;
  const rules = await rulesFor(ctx, doc);
  const entity = inMode(BODY, () => parseNewEntity(kind, doc, rules));
  await ctx.services.guard.authorize(ctx, null);
  return { done: await commitEdit(ctx, { previous: null, next: entity, meta: call.meta }), before: null };
}

/** What every entity module answers: the whole entity, or only the part it edited; its revision; `nochange`. */
function entityAnswer({ done }: Edited, call: WriteCall, part?: Json): Json {
  const entity: Json = part ? { id: done.entity.id, type: done.entity.type, lastrevid: done.head.revision, ...part }
    : actionEntity(done.entity, done.head, ALL_PROPS, null, false, call.services);
  if (!done.changed) entity.nochange = call.v2 ? true : '';
  return { entity, success: 1 };
}

function pageAnswer({ done }: Edited, more: Json = {}): Json {
  return { pageinfo: { lastrevid: done.head.revision }, success: 1, ...more };
}

/**
 * With `baserevid` older than the entity's latest revision: the parts changed since (entity-parts.ts); null when
 * the edit is made against the latest revision. A base that is not a revision of this entity is a conflict.
 */
async function changedSinceBase(call: WriteCall, id: string, current: Entity, head: number): Promise<{ base: number; parts: Set<string> } | null> {
  const raw = param(call.params, 'baserevid');
  if (raw === undefined || raw === String(head)) return null;
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) refuse('badinteger', 'Invalid value for parameter "baserevid".');
  const base = await call.store.readRevision(id, Number(raw));
  if (!base || base.kind !== 'entity' || Number(raw) > head) {
    refuse('editconflict', `Edit conflict: revision ${raw} is not a revision of ${id} this edit can be based on; its latest revision is ${head}.`);
  }
  return { base: Number(raw), parts: changedParts(base.entity, current) };
}

/** The dump-format claim of a statement of the edited entity, with hashes. */
function claimOf(entity: Entity, id: string): Json {
  const statement = statementById(entity.statements, id);
  const claim = statement ? toWikidataClaim(statement, entity.source) : null;
  return claim ? hashedClaim(claim) : {};
}

/** The statement an edit added: the one the entity did not hold before. */
function addedStatement({ done, before }: Edited): Statement | undefined {
  const held = new Set(Object.values(before?.statements ?? {}).flat().map((s) => s.id));
  return Object.values(done.entity.statements).flat().find((s) => !held.has(s.id));
}

// ---- Document changes --------------------------------------------------------------------------------------

/**
 * A language code the field's terms may have, checked before it is used as a key of the document (a code such
 * as `__proto__` or `constructor` would otherwise reach an object's prototype): `not-recognized-language`.
 */
function termLanguage(code: unknown, field: TermField): string {
  if (typeof code !== 'string' || !isTermLanguage(code, field)) {
    return refuse('not-recognized-language', `Unknown language code "${String(code).slice(0, 100)}" for ${field}.`);
  }
  return code;
}

/**
 * A parameter naming a term language (wbsetlabel's `language`) or a site (wbsetsitelink's `linksite`): values
 * of a fixed list, refused as MediaWiki refuses any such parameter, with `badvalue`.
 */
function listedParam(call: WriteCall, name: string, listed: (value: string) => boolean): string {
  const value = required(call.params, name);
  if (!listed(value)) refuse('badvalue', `Unrecognized value for parameter "${name}": ${value.slice(0, 100)}.`);
  return value;
}

const languageParam = (call: WriteCall, field: TermField) => listedParam(call, 'language', (v) => isTermLanguage(v, field));
const siteParam = (call: WriteCall) => listedParam(call, 'linksite', (v) => Object.hasOwn(call.services.sites, v));

/** A site of the site table, checked before it is used as a key: `not-recognized-siteid`. */
function knownSite(sites: Services['sites'], site: unknown): string {
  if (typeof site !== 'string' || !Object.hasOwn(sites, site)) {
    return refuse('not-recognized-siteid', `Unknown site "${String(site).slice(0, 100)}".`);
  }
  return site;
}

/** wbeditentity's `labels` / `descriptions`: `{lang: {language, value}}` or a list; "" or `remove` deletes. */
function applyTerms(target: Json, input: unknown, field: 'labels' | 'descriptions'): void {
  for (const term of termEntries(input, field)) {
    if (term.remove !== undefined || term.value === '') delete target[term.language as string];
    else target[term.language as string] = term.value;
  }
}

function termEntries(input: unknown, field: TermField): Json[] {
  if (input === undefined) return [];
  const entries = Array.isArray(input) ? input : isPlainObject(input) ? Object.values(input) : null;
  if (entries === null) return refuse('not-recognized-array', `"${field}" must be an object or a list.`);
  return entries.flat().map((e) => {
    if (!isPlainObject(e) || typeof e.language !== 'string' || (e.remove === undefined && typeof e.value !== 'string')) {
      return refuse('invalid-term', `Each entry of "${field}" needs a "language" and a "value".`);
    }
    termLanguage(e.language, field);
    return e;
  });
}

/** Aliases: entries flagged `add` or `remove` change a language's list; unflagged ones replace it. */
function applyAliases(target: Record<string, string[]>, input: unknown): void {
  const byLanguage = new Map<string, Json[]>();
  for (const e of termEntries(input, 'aliases')) {
    const entries = byLanguage.get(e.language as string);
    if (entries) entries.push(e);
    else byLanguage.set(e.language as string, [e]);
  }
  for (const [language, entries] of byLanguage) {
    const flagged = entries.some((e) => e.add !== undefined || e.remove !== undefined);
    // A Set keeps the order of first insertion: linear, where a list's includes() made 20,000 entries quadratic.
    const aliases = new Set(flagged ? target[language] ?? [] : []);
    for (const e of entries) {
      if (e.remove !== undefined) aliases.delete(e.value as string);
      else aliases.add(e.value as string);
    }
    if (aliases.size) target[language] = [...aliases];
    else delete target[language];
  }
}

function applySitelinks(target: Json, input: unknown, sites: Services['sites']): void {
  if (input === undefined) return;
  const entries = Array.isArray(input) ? input : isPlainObject(input) ? Object.values(input) : null;
  if (entries === null) return refuse('not-recognized-array', '"sitelinks" must be an object or a list.');
  for (const e of entries) {
    if (!isPlainObject(e) || typeof e.site !== 'string') return refuse('invalid-sitelink', 'Each sitelink needs a "site".');
    knownSite(sites, e.site);
    if (e.remove !== undefined || e.title === '') { delete target[e.site]; continue; }
    target[e.site] = { title: e.title, badges: e.badges ?? (target[e.site] as Json | undefined)?.badges ?? [] };
  }
}

/** Claims: with `remove`, deleted by id; with a known id, replaced in place; otherwise added. */
function applyClaims(doc: Doc, input: unknown): void {
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

async function wbeditentity(call: WriteCall): Promise<Json> {
  const data = jsonParam(call.params, 'data');
  if (!isPlainObject(data)) return refuse('invalid-json', 'The "data" parameter must be a JSON object.');
  const fill = (doc: Doc) => {
    applyTerms(doc.labels, data.labels, 'labels');
    applyTerms(doc.descriptions, data.descriptions, 'descriptions');
    applyAliases(doc.aliases as Record<string, string[]>, data.aliases);
    if (kindNamed(doc.type)?.hasSitelinks) applySitelinks(doc.sitelinks ??= {}, data.sitelinks, call.services.sites);
    else if (data.sitelinks !== undefined) refuse('not-supported', 'Properties have no sitelinks.');
    applyClaims(doc, data.claims);
  };
  const fresh = param(call.params, 'new');
  if (fresh !== undefined) {
    if (param(call.params, 'id') !== undefined) refuse('param-illegal', 'Either provide "id" or "new", not both.');
    const kind = kindNamed(fresh) ?? refuse('badvalue', `Unrecognized value for parameter "new": ${fresh}.`);
    const doc = emptyDocument(kind.hasSitelinks);
    doc.type = kind.name;
    if (kind === PROPERTY) {
      if (typeof data.datatype !== 'string') refuse('param-illegal', 'A new property needs a "datatype".');
      doc.data_type = data.datatype;
    }
    fill(doc);
    // New claims get their ids from the store; any given are ignored, as on creation through the REST API.
    return entityAnswer(await createDocument(call, kind, doc), call);
  }
  const clear = call.params.clear !== undefined;
  const id = await targetId(call);
  return entityAnswer(await editDocument(call, id, (doc) => {
    if (data.datatype !== undefined && data.datatype !== doc.data_type) refuse('modification-failed', 'A property\'s data type cannot change.');
    if (clear) {
      doc.labels = {}; doc.descriptions = {}; doc.aliases = {}; doc.statements = {};
      if (kindNamed(doc.type)?.hasSitelinks) doc.sitelinks = {};
    }
    fill(doc);
  }), call);
}

function setTerm(field: 'labels' | 'descriptions') {
  return async (call: WriteCall): Promise<Json> => {
    const language = languageParam(call, field);
    const value = param(call.params, 'value') ?? '';
    const edited = await editDocument(call, await targetId(call), (doc) => {
      if (value === '') delete doc[field][language];
      else doc[field][language] = value;
    });
    const term = edited.done.entity[field][language];
    return entityAnswer(edited, call, {
      [field]: { [language]: term === undefined ? { language, removed: '' } : { language, value: term } },
    });
  };
}

async function wbsetaliases(call: WriteCall): Promise<Json> {
  const language = languageParam(call, 'aliases');
  const set = param(call.params, 'set');
  const add = list(param(call.params, 'add'));
  const remove = list(param(call.params, 'remove'));
  if (set === undefined && add.length === 0 && remove.length === 0) refuse('missingparam', 'At least one of "set", "add" and "remove" must be set.');
  if (set !== undefined && (add.length || remove.length)) refuse('invalidparammix', 'The "set" parameter cannot be used with "add" or "remove".');
  const edited = await editDocument(call, await targetId(call), (doc) => {
    const aliases = doc.aliases as Record<string, string[]>;
    let next = set !== undefined ? list(set) : (aliases[language] ?? []).filter((a) => !remove.includes(a));
    for (const a of add) if (!next.includes(a)) next = [...next, a];
    if (next.length) aliases[language] = next;
    else delete aliases[language];
  });
  const after = edited.done.entity.aliases[language] ?? [];
  return entityAnswer(edited, call, { aliases: { [language]: after.map((value) => ({ language, value })) } });
}

async function wbsetsitelink(call: WriteCall): Promise<Json> {
  const site = siteParam(call);
  const title = param(call.params, 'linktitle');
  const badges = param(call.params, 'badges');
  const edited = await editDocument(call, await targetId(call), (doc) => {
    if (!kindNamed(doc.type)?.hasSitelinks) refuse('not-supported', 'Properties have no sitelinks.');
    const links = (doc.sitelinks ??= {}) as Record<string, Json>;
    if (title === undefined || title === '') {
      if (!links[site]) refuse('no-such-sitelink', `The entity has no sitelink to "${site}".`);
      delete links[site];
      return;
    }
    links[site] = { title, badges: badges !== undefined ? list(badges) : links[site]?.badges ?? [] };
  });
  const link = edited.done.entity.sitelinks?.[site];
  return entityAnswer(edited, call, {
    sitelinks: { [site]: link ? { site, title: link.title, badges: link.badges, url: renderSitelink(call.services.sites, site, link).url } : { site, removed: '' } },
  });
}

async function wbcreateclaim(call: WriteCall): Promise<Json> {
  const id = parsedId(required(call.params, 'entity'));
  const property = required(call.params, 'property').toUpperCase();
  const snaktype = required(call.params, 'snaktype');
  const value = valueFromAction(snaktype, snaktype === 'value' ? jsonParam(call.params, 'value') : undefined);
  const edited = await editDocument(call, id, (doc) => {
    (doc.statements[property] ??= []).push({ property: { id: property }, value, rank: 'normal', qualifiers: [], references: [] });
  });
  const added = addedStatement(edited);
  return pageAnswer(edited, { claim: added ? claimOf(edited.done.entity, added.id) : {} });
}

async function wbsetclaim(call: WriteCall): Promise<Json> {
  const claim = jsonParam(call.params, 'claim');
  if (!isPlainObject(claim) || typeof claim.id !== 'string') return refuse('invalid-claim', 'The claim needs an "id" (a GUID).');
  const { entityId, guid } = claimSubject(claim.id);
  const statement = statementFromAction({ ...claim, id: guid });
  const edited = await editDocument(call, entityId, (doc, entity) => {
    const stored = statementById(entity.statements, guid);
    putStatement(doc, stored ? { ...statement, id: stored.id } : statement);
  });
  // The statement replaced, or the new one a GUID the entity did not hold made.
  const written = statementById(edited.done.entity.statements, guid) ?? addedStatement(edited);
  return pageAnswer(edited, { claim: written ? claimOf(edited.done.entity, written.id) : {} });
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

async function wbsetclaimvalue(call: WriteCall): Promise<Json> {
  const snaktype = required(call.params, 'snaktype');
  const value = valueFromAction(snaktype, snaktype === 'value' ? jsonParam(call.params, 'value') : undefined);
  const { edited, id } = await editStatement(call, 'claim', (statement) => { statement.value = value; });
  return pageAnswer(edited, { claim: claimOf(edited.done.entity, id) });
}

async function wbremoveclaims(call: WriteCall): Promise<Json> {
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

async function wbsetqualifier(call: WriteCall): Promise<Json> {
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
  return pageAnswer(edited, { claim: claimOf(edited.done.entity, id) });
}

async function wbremovequalifiers(call: WriteCall): Promise<Json> {
  const hashes = list(required(call.params, 'qualifiers'));
  const { edited } = await editStatement(call, 'claim', (statement, stored, hashOf) => {
    const keep = stored.qualifiers.map((q) => !hashes.includes(hashOf(q) ?? ''));
    const found = keep.filter((k) => !k).length;
    if (found < hashes.length) refuse('no-such-qualifier', 'The claim has no qualifier with one of the given hashes.');
    statement.qualifiers = (statement.qualifiers as Json[]).filter((_, i) => keep[i]);
  });
  return pageAnswer(edited);
}

async function wbsetreference(call: WriteCall): Promise<Json> {
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
  const references = statementById(edited.done.entity.statements, id)!.references;
  const reference = references.find((r) => !held.has(r.hash)) ?? references.find((r) => r.hash === replaced);
  const claim = claimOf(edited.done.entity, id);
  const answered = ((claim.references ?? []) as Json[]).find((r) => r.hash === reference?.hash);
  return pageAnswer(edited, { reference: answered ?? {} });
}

async function wbremovereferences(call: WriteCall): Promise<Json> {
  const hashes = list(required(call.params, 'references'));
  const { edited } = await editStatement(call, 'statement', (statement, stored) => {
    const missing = hashes.filter((h) => !stored.references.some((r) => r.hash === h));
    if (missing.length) refuse('no-such-reference', `The statement has no reference with the hash "${missing[0]}".`);
    statement.references = (statement.references as Json[]).filter((_, i) => !hashes.includes(stored.references[i].hash));
  });
  return pageAnswer(edited);
}

/** Turns an empty item into a redirect to another item (what a merge leaves behind). */
async function wbcreateredirect(call: WriteCall): Promise<Json> {
  const from = parsedId(required(call.params, 'from'));
  const to = parsedId(required(call.params, 'to'));
  if (parseEntityId(from)!.kind !== ITEM || parseEntityId(to)!.kind !== ITEM) refuse('target-is-incompatible', 'Only items can be redirected.');
  if (from === to) refuse('cant-redirect-self', 'An item cannot redirect to itself.');
  await runEdit(call.edits, call.store, from, async () => {
    const source = await call.store.readEntity(from, 'edit');
    if (source.status === 'missing') refuse('no-such-entity', `Could not find an entity with the ID "${from}".`, { id: from });
    if (source.status === 'found') {
      const e = source.entity;
      const empty = [e.labels, e.descriptions, e.aliases, e.statements, e.sitelinks ?? {}].every((m) => Object.keys(m).length === 0);
      if (!empty) refuse('not-empty', `${from} is not empty: only an empty item can become a redirect.`);
    }
    const target = await call.store.readEntity(to, 'read');
    if (target.status === 'missing') refuse('no-such-entity', `Could not find an entity with the ID "${to}".`, { id: to });
    if (target.status === 'redirect') refuse('target-is-redirect', `${to} is itself a redirect.`);
    await call.ctx.services.guard.authorize(call.ctx, from);
    await call.ctx.services.guard.consume(call.ctx, false);
    try {
      await call.store.redirectEntity(from, to, call.meta);
    } catch (e) {
      // The store checks the target again where it writes: another redirect may have come first.
      if (!(e instanceof RedirectRefused)) throw e;
      if (e.reason === 'target-is-redirect') refuse('target-is-redirect', `${to} is itself a redirect.`);
      refuse('no-such-entity', `Could not find an entity with the ID "${to}".`, { id: to });
    }
  });
  return { success: 1, redirected: 1, from, to };
}

export const WRITE_MODULES: Record<string, (call: WriteCall) => Promise<Json>> = {
  wbeditentity,
  wbsetlabel: setTerm('labels'),
  wbsetdescription: setTerm('descriptions'),
  wbsetaliases,
  wbsetsitelink,
  wbcreateclaim,
  wbsetclaim,
  wbsetclaimvalue,
  wbremoveclaims,
  wbsetqualifier,
  wbremovequalifiers,
  wbsetreference,
  wbremovereferences,
  wbcreateredirect,
  wbmergeitems,
};
