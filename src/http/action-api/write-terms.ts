// The Action API's term and sitelink modules (wbeditentity, wbsetlabel, wbsetdescription, wbsetaliases,
// wbsetsitelink): each says how its parameters change the entity's document; write-path.ts writes it.
import { kindNamed } from '../../domain/kinds.js';
import { isPlainObject } from '../../domain/problems.js';
import type { TermField } from '../../domain/entity.js';
import { renderSitelink } from '../../domain/render.js';
import { emptyDocument, type Doc } from '../document-edit.js';
import type { Services } from '../services.js';
import { jsonParam, list, param, refuse, type Json, type WriteCall } from './protocol.js';
import { targetId, editDocument, createDocument, entityAnswer, termLanguage, languageParam, siteParam, knownSite } from './write-path.js';
import { applyClaims } from './write-claims.js';

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

export async function wbeditentity(call: WriteCall): Promise<Json> {
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
    if (kind.hasDataType) {
      if (typeof data.datatype !== 'string') refuse('param-illegal', `A new ${kind.name} needs a "datatype".`);
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

export function setTerm(field: 'labels' | 'descriptions') {
  return async (call: WriteCall): Promise<Json> => {
    const language = languageParam(call, field);
    const value = param(call.params, 'value') ?? '';
    const edited = await editDocument(call, await targetId(call), (doc) => {
      if (value === '') delete doc[field][language];
      else doc[field][language] = value;
    });
    const term = edited.entity[field][language];
    return entityAnswer(edited, call, {
      [field]: { [language]: term === undefined ? { language, removed: '' } : { language, value: term } },
    });
  };
}

export async function wbsetaliases(call: WriteCall): Promise<Json> {
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
  const after = edited.entity.aliases[language] ?? [];
  return entityAnswer(edited, call, { aliases: { [language]: after.map((value) => ({ language, value })) } });
}

export async function wbsetsitelink(call: WriteCall): Promise<Json> {
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
  const link = edited.entity.sitelinks?.[site];
  return entityAnswer(edited, call, {
    sitelinks: { [site]: link ? { site, title: link.title, badges: link.badges, url: renderSitelink(call.services.sites, site, link).url } : { site, removed: '' } },
  });
}
