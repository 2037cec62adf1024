// action=paraminfo (docs/api.md §10.15): what each module Entia answers takes, in MediaWiki's shape, for clients
// that read it before they call anything (Pywikibot learns module paths, prefixes, which modules must be posted
// and which token each needs from it). One catalogue, declared here as data; the modules themselves are in
// index.ts, reads.ts, pages.ts and writes.ts.
import { TERM_LANGUAGES } from '../../domain/languages.js';
import { list, param, type Json } from './protocol.js';
import { KINDS } from '../../domain/kinds.js';

interface ParamSpec {
  name: string;
  /** A value type, or the list of values the parameter takes. */
  type?: string | string[];
  multi?: boolean;
  required?: boolean;
  tokentype?: string;
  /** For the parameters that name submodules (`action`, `prop`, `list`, `meta`): value → module path. */
  submodules?: Record<string, string>;
}

interface ModuleSpec {
  path: string;
  group: 'action' | 'prop' | 'list' | 'meta' | null;
  prefix: string;
  mustbeposted?: boolean;
  /** Whether it changes data (MediaWiki's `writerights`). */
  write?: boolean;
  parameters: ParamSpec[];
}

/** MediaWiki's token types: every one is answered, with the session's CSRF token where it is not `login`. */
export const TOKEN_TYPES = ['createaccount', 'csrf', 'deleteglobalaccount', 'login', 'patrol', 'rollback',
  'setglobalaccountstatus', 'userrights', 'watch'];

const PROPS = ['info', 'revisions'];
const LISTS = ['search'];
const METAS = ['siteinfo', 'tokens', 'userinfo', 'wikibase'];

const s = (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'string', ...extra });
const token: ParamSpec = { name: 'token', type: 'string', required: true, tokentype: 'csrf' };
const editMeta = [s('summary'), s('tags', { multi: true }), s('bot', { type: 'boolean' }), s('baserevid', { type: 'integer' })];

/** The write modules and the parameters each reads besides `token` and the edit's metadata. */
const WRITES: Record<string, ParamSpec[]> = {
  wbeditentity: [s('id'), s('new'), s('site'), s('title'), s('data', { required: true }), s('clear', { type: 'boolean' })],
  wbsetlabel: [s('id'), s('language', { required: true }), s('value')],
  wbsetdescription: [s('id'), s('language', { required: true }), s('value')],
  wbsetaliases: [s('id'), s('language', { required: true }), s('set', { multi: true }), s('add', { multi: true }), s('remove', { multi: true })],
  wbsetsitelink: [s('id'), s('linksite', { required: true }), s('linktitle'), s('badges', { multi: true })],
  wbcreateclaim: [s('entity', { required: true }), s('property', { required: true }), s('snaktype', { required: true }), s('value')],
  wbsetclaim: [s('claim', { required: true }), s('index', { type: 'integer' })],
  wbsetclaimvalue: [s('claim', { required: true }), s('snaktype', { required: true }), s('value')],
  wbremoveclaims: [s('claim', { required: true, multi: true })],
  wbsetqualifier: [s('claim', { required: true }), s('property'), s('snaktype'), s('value'), s('snakhash')],
  wbremovequalifiers: [s('claim', { required: true }), s('qualifiers', { required: true, multi: true })],
  wbsetreference: [s('statement', { required: true }), s('snaks', { required: true }), s('snaks-order'), s('reference'), s('index', { type: 'integer' })],
  wbremovereferences: [s('statement', { required: true }), s('references', { required: true, multi: true })],
  wbcreateredirect: [s('from', { required: true }), s('to', { required: true })],
  wbmergeitems: [s('fromid', { required: true }), s('toid', { required: true }),
    s('ignoreconflicts', { multi: true, type: ['description', 'sitelink', 'statement'] })],
};

const READS: Record<string, ParamSpec[]> = {
  wbgetentities: [s('ids', { multi: true }), s('sites', { multi: true }), s('titles', { multi: true }), s('props', { multi: true }),
    s('languages', { multi: true }), s('languagefallback', { type: 'boolean' })],
  // Pywikibot's search_entities checks the language against this list before it searches.
  wbsearchentities: [s('search', { required: true }), s('language', { required: true, type: [...TERM_LANGUAGES] }),
    s('type', { type: KINDS.map((k) => k.name) }), s('limit', { type: 'limit' }),
    s('continue', { type: 'integer' }), s('strictlanguage', { type: 'boolean' })],
  wbgetclaims: [s('entity'), s('claim'), s('property'), s('rank')],
  wbcheckconstraints: [s('id', { multi: true }), s('claimid', { multi: true }), s('constraintid', { multi: true }),
    s('status', { multi: true, type: ['violation', 'warning', 'suggestion', 'bad-parameters'] })],
};

const submodules = (names: string[], parent: string | null) => Object.fromEntries(names.map((n) => [n, parent ? `${parent}+${n}` : n]));

/** Every module, by path. */
function catalogue(): Map<string, ModuleSpec> {
  const actions = ['paraminfo', 'query', 'login', 'logout', 'delete', ...Object.keys(READS), ...Object.keys(WRITES)].sort();
  const modules: ModuleSpec[] = [
    { path: 'main', group: null, prefix: '', parameters: [
      { name: 'action', type: actions, submodules: submodules(actions, null) },
      { name: 'format', type: ['json'], submodules: { json: 'json' } },
      s('maxlag', { type: 'integer' }), s('assert', { type: ['anon', 'user', 'bot'] }), s('formatversion', { type: ['1', '2', 'latest'] }),
      s('uselang'), s('origin'),
    ] },
    { path: 'paraminfo', group: 'action', prefix: '', parameters: [s('modules', { multi: true }), s('helpformat')] },
    { path: 'query', group: 'action', prefix: '', parameters: [
      { name: 'prop', type: PROPS, multi: true, submodules: submodules(PROPS, 'query') },
      { name: 'list', type: LISTS, multi: true, submodules: submodules(LISTS, 'query') },
      { name: 'meta', type: METAS, multi: true, submodules: submodules(METAS, 'query') },
      // No generators: Entia's query modules are not page generators.
      { name: 'generator', type: [], submodules: {} },
      s('titles', { multi: true }), s('pageids', { type: 'integer', multi: true }), s('continue'),
    ] },
    { path: 'query+info', group: 'prop', prefix: 'in', parameters: [s('prop', { multi: true })] },
    { path: 'query+revisions', group: 'prop', prefix: 'rv', parameters: [s('prop', { multi: true }), s('limit', { type: 'limit' }), s('slots', { multi: true })] },
    { path: 'query+search', group: 'list', prefix: 'sr', parameters: [s('search', { required: true }), s('namespace', { multi: true }), s('limit', { type: 'limit' }), s('offset', { type: 'integer' })] },
    { path: 'query+siteinfo', group: 'meta', prefix: 'si', parameters: [{ name: 'prop', type: ['general', 'namespaces', 'namespacealiases'], multi: true }] },
    { path: 'query+tokens', group: 'meta', prefix: '', parameters: [{ name: 'type', type: TOKEN_TYPES, multi: true }] },
    { path: 'query+userinfo', group: 'meta', prefix: 'ui', parameters: [{ name: 'prop', type: ['groups', 'rights', 'blockinfo'], multi: true }] },
    { path: 'query+wikibase', group: 'meta', prefix: 'wb', parameters: [] },
    { path: 'login', group: 'action', prefix: 'lg', mustbeposted: true, parameters: [s('name'), s('password'), s('token')] },
    { path: 'logout', group: 'action', prefix: '', mustbeposted: true, parameters: [token] },
    // Always refused (Entia has no deletion), as a wiki refuses a user without the right.
    { path: 'delete', group: 'action', prefix: '', mustbeposted: true, write: true, parameters: [s('title'), s('pageid', { type: 'integer' }), s('reason'), token] },
    ...Object.entries(READS).map(([name, parameters]): ModuleSpec => ({ path: name, group: 'action', prefix: '', parameters })),
    ...Object.entries(WRITES).map(([name, parameters]): ModuleSpec => ({ path: name, group: 'action', prefix: '', mustbeposted: true,
      write: true, parameters: [...parameters, ...editMeta, token] })),
  ];
  return new Map(modules.map((m) => [m.path, m]));
}

const CATALOGUE = catalogue();

/** The catalogue's module names, for a check that it names every module the Action API answers. */
export const DESCRIBED_ACTIONS: readonly string[] = (CATALOGUE.get('main')!.parameters[0].type as string[]);

/** action=paraminfo: `modules` (paths such as `query+info`; a query submodule's bare name is tried as `query+name`). */
export function paraminfo(params: Json, v2: boolean): Json {
  const flag = (v: boolean | undefined) => (v2 ? Boolean(v) : v ? '' : undefined);
  const modules = list(param(params, 'modules')).map((raw) => {
    const spec = CATALOGUE.get(raw) ?? CATALOGUE.get(`query+${raw}`);
    if (!spec) return { name: raw, missing: flag(true) };
    return {
      name: spec.path.split('+').pop(), classname: `Entia\\${spec.path}`, path: spec.path, group: spec.group ?? undefined,
      prefix: spec.prefix, source: 'Entia', sourcename: 'entia', licensetag: 'MIT', licenselink: '',
      readrights: flag(true), writerights: flag(spec.write), mustbeposted: flag(spec.mustbeposted),
      helpurls: [], parameters: spec.parameters.map((p, index) => ({
        index: index + 1, name: p.name, type: p.type ?? 'string', multi: flag(p.multi), required: flag(p.required),
        ...(p.multi ? { limit: 50, lowlimit: 50, highlimit: 500 } : {}),
        // A `limit` parameter's range, which clients page by (500 is the most pages.ts lists at once).
        ...(p.type === 'limit' ? { min: 1, max: 500, highmax: 500 } : {}),
        ...(p.tokentype ? { tokentype: p.tokentype } : {}),
        ...(p.submodules ? { submodules: p.submodules } : {}),
      })),
    };
  });
  return { paraminfo: { helpformat: 'none', modules } };
}
