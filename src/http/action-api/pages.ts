// action=query's page modules (docs/api.md §10.15): `prop=info` and `prop=revisions` for the entities named by
// `titles` (`Q42`, `Property:P31`) or `pageids`, in MediaWiki's shapes, for the tools that read an entity's
// history through them (wikibase-sdk's getRevisions, wikibase-cli's `wb revisions`, Pywikibot's revisions()).
// Entia has no wiki pages: an entity's page id is derived from its id (pageIdOf), the same on every process.
import { ENTITY_ID_PATTERN, KINDS, kindOfCode, numericPart, pageOf, parseEntityId, type Kind } from '../../domain/kinds.js';
import { toWikidata } from '../../domain/wikidata-export.js';
import type { RevisionRecord } from '../../store/store.js';
import { list, param, refuse, type Call, type Json } from './protocol.js';

/** Most revisions one request lists (`rvlimit=max`), as MediaWiki's limit for clients without the bot right. */
const MAX_REVISIONS = 500;
/** Most pages one request names, as MediaWiki's. */
const MAX_PAGES = 50;

const PAGE_PROPS = new Set(['info', 'revisions']);
const REVISION_PROPS = new Set(['ids', 'flags', 'timestamp', 'user', 'userid', 'size', 'slotsize', 'sha1', 'slotsha1',
  'contentmodel', 'comment', 'parsedcomment', 'content', 'tags', 'roles', 'oresscores']);

/** A page id for an entity: its number times the number of kinds, plus its kind's code (items even, properties odd). */
export function pageIdOf(kind: Kind, id: string): number {
  return numericPart(id) * KINDS.length + kind.code;
}

function entityOfPageId(pageid: number): string | null {
  const kind = Number.isSafeInteger(pageid) ? kindOfCode(pageid % KINDS.length) : null;
  const n = Math.floor(pageid / KINDS.length);
  return kind && n >= 1 ? kind.prefix + n : null;
}

/** `Q42`, `Item:Q42`, `Property:P31`: an id, after its kind's namespace name (MediaWiki's title prefix) or none. */
const TITLE = new RegExp(`^(?:(${KINDS.map((k) => k.noun).join('|')}):)?(${ENTITY_ID_PATTERN})$`, 'i');

/** The entity a title names, or null; a namespace name must be its kind's (`Property:Q1` names nothing). */
function entityOfTitle(title: string): string | null {
  const m = TITLE.exec(title.trim());
  const parsed = m ? parseEntityId(m[2]) : null;
  if (!parsed) return null;
  const namespace = m![1]?.toLowerCase();
  if (namespace !== undefined && namespace !== parsed.kind.noun.toLowerCase()) return null;
  return parsed.id;
}

/** MediaWiki's content model of an entity page: `wikibase-item`, `wikibase-property`. */
const contentModel = (kind: Kind) => `wikibase-${kind.name}`;

const timestamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One revision in MediaWiki's shape, with what `rvprop` asks for. */
function revisionJson(r: RevisionRecord, parent: RevisionRecord | undefined, props: Set<string>, v2: boolean, kind: Kind, content?: string): Json {
  const out: Json = {};
  if (props.has('ids')) Object.assign(out, { revid: r.revision, parentid: parent?.revision ?? 0 });
  // Entia has no minor edits: v1 leaves the `minor` flag out, v2 says false.
  if (props.has('flags') && v2) out.minor = false;
  if (props.has('user')) out.user = r.user;
  if (props.has('userid')) out.userid = 0;
  if (props.has('timestamp')) out.timestamp = timestamp(r.timestamp);
  if (props.has('size')) out.size = r.size;
  if (props.has('comment')) out.comment = r.comment ?? '';
  if (props.has('parsedcomment')) out.parsedcomment = r.comment ?? '';
  if (props.has('tags')) out.tags = r.tags;
  if (content !== undefined) {
    const main = { contentmodel: contentModel(kind), contentformat: 'application/json' };
    out.slots = { main: v2 ? { ...main, content } : { ...main, '*': content } };
  }
  return out;
}

/** `prop=info|revisions` over `titles` or `pageids`: `{pages: …}` as MediaWiki answers it (an object in v1, a list in v2). */
export async function pages(call: Call, props: string[]): Promise<Json> {
  for (const p of props) if (!PAGE_PROPS.has(p)) refuse('badvalue', `Unrecognized value for parameter "prop": ${p}.`);
  const titles = list(param(call.params, 'titles'));
  const pageids = list(param(call.params, 'pageids'));
  if (titles.length + pageids.length === 0) return {};
  if (titles.length + pageids.length > MAX_PAGES) refuse('toomanyvalues', `Too many values supplied for parameter "titles". The limit is ${MAX_PAGES}.`);
  const rvprop = new Set(list(param(call.params, 'rvprop') ?? 'ids|timestamp|flags|comment|user'));
  for (const p of rvprop) if (!REVISION_PROPS.has(p)) refuse('badvalue', `Unrecognized value for parameter "rvprop": ${p}.`);
  const rawLimit = param(call.params, 'rvlimit');
  const limit = rawLimit === undefined ? 1 : rawLimit === 'max' ? MAX_REVISIONS : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1) refuse('badinteger', 'Invalid value for parameter "rvlimit".');
  if (rawLimit !== undefined && titles.length + pageids.length > 1) {
    refuse('invalidparammix', 'The "rvlimit" parameter may only be used with a single page.');
  }
  const wanted = [
    ...titles.map((t) => ({ id: entityOfTitle(t), title: t })),
    ...pageids.map((p) => ({ id: entityOfPageId(Number(p)), title: null as string | null, pageid: Number(p) })),
  ];
  const out: Json[] = [];
  let missing = -1;
  for (const w of wanted) {
    if (w.id === null) {
      out.push(w.title !== null ? { title: w.title, invalid: call.v2 ? true : '', _key: missing-- }
        : { pageid: (w as { pageid: number }).pageid, missing: call.v2 ? true : '' });
      continue;
    }
    const kind = parseEntityId(w.id)!.kind;
    const read = await call.store.readEntity(w.id);
    const page: Json = { pageid: pageIdOf(kind, w.id), ...pageOf(kind, w.id) };
    if (read.status === 'missing') {
      out.push({ ...pageOf(kind, w.id), missing: call.v2 ? true : '', _key: missing-- });
      continue;
    }
    const history = await call.store.revisions(w.id, Math.min(MAX_REVISIONS, limit) + 1);
    if (props.includes('info')) {
      Object.assign(page, { contentmodel: contentModel(kind),
        pagelanguage: 'en', pagelanguagehtmlcode: 'en', pagelanguagedir: 'ltr', touched: timestamp(history[0]?.timestamp ?? new Date(0)),
        lastrevid: history[0]?.revision ?? 0, length: history[0]?.size ?? 0 });
      if (read.status === 'redirect') page.redirect = call.v2 ? true : '';
    }
    if (props.includes('revisions')) {
      const shown = history.slice(0, limit);
      page.revisions = await Promise.all(shown.map(async (r, i) => {
        let content: string | undefined;
        if (rvprop.has('content')) {
          const at = await call.store.readRevision(w.id!, r.revision);
          content = at?.kind === 'entity' ? JSON.stringify(toWikidata(at.entity, { id: r.revision, modified: r.timestamp }))
            : at ? JSON.stringify({ entity: w.id, redirect: at.target }) : undefined;
        }
        return revisionJson(r, history[i + 1], rvprop, call.v2, kind, content);
      }));
    }
    out.push(page);
  }
  if (call.v2) return { pages: out.map(({ _key, ...p }) => p) };
  return { pages: Object.fromEntries(out.map(({ _key, ...p }) => [String(p.pageid ?? _key ?? -1), p])) };
}
