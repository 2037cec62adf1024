// The Action API at /w/api.php (docs/api.md §10.15): MediaWiki's request conventions (GET or a form POST,
// `format=json`, `formatversion`), its login and tokens, and its entity modules, for tools written against
// Wikibase (wikibase-sdk, wikibase-edit, bots). A dialect, not a second service: reads use the same store
// reads, searches the kernel's search (http/search.ts), edits the one write pipeline (write/index.ts, through
// writes.ts's modules).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEntiaError } from '../../domain/errors.js';
import { ITEM, KINDS } from '../../domain/kinds.js';
import type { Store } from '../../store/store.js';
import { parseMeta } from '../meta.js';
import { jsonBuffer, MalformedBody } from '../reply-error.js';
import { parseFormBody } from '../body.js';
import { requestContext, type Ctx } from '../context.js';
import type { Identity, Services } from '../services.js';
import { ApiError, fromEntiaError, list, param, refuse, type Call, type Json, type WriteCall } from './protocol.js';
import { listSearch, wbgetclaims, wbgetentities, wbsearchentities } from './reads.js';
import { buildSessions, checkCsrf, type Sessions } from './session.js';
import { WRITE_MODULES } from './writes.js';
import { pages } from './pages.js';
import { paraminfo, TOKEN_TYPES } from './paraminfo.js';
import { hash } from 'node:crypto';
import { wbcheckconstraints } from './constraints.js';

const ACTION_API_PATH = '/w/api.php';

/** One request's call with who sent it; what each kind of module needs on top of Call. */
interface Request extends Call {
  req: FastifyRequest;
  reply: FastifyReply;
  identity: Identity;
  bearer: string | null;
  sessions: Sessions;
}

const READ_MODULES: Record<string, (call: Request) => Promise<Json>> = {
  wbgetentities, wbsearchentities, wbgetclaims, wbcheckconstraints, query, login, logout,
  paraminfo: async (call) => paraminfo(call.params, call.v2),
  // Entia has no deletion: answered as a wiki answers a user without the right (docs/api.md §10.15).
  delete: async () => refuse('permissiondenied', 'You don\'t have permission to delete pages: Entia does not delete entities.'),
};

/** Modules MediaWiki serves only to a POST (they change state), and whose token must not travel in a URL. */
const POST_ONLY = new Set([...Object.keys(WRITE_MODULES), 'login', 'logout', 'delete']);

async function login(call: Request): Promise<Json> {
  const { body, cookie } = await call.sessions.login(call.params, call.req.ip);
  if (cookie) call.reply.header('set-cookie', cookie);
  return body;
}

async function logout(call: Request): Promise<Json> {
  await checkCsrf(call.sessions, call.bearer, param(call.params, 'token'));
  call.reply.header('set-cookie', call.sessions.logoutCookie());
  return {};
}

/** action=query: the meta modules tools ask for (tokens, who am I, the site) and list=search. */
async function query(call: Request): Promise<Json> {
  const out: Json = {};
  /** Warnings by module, as MediaWiki gives them beside the result (a value a module does not know). */
  const warnings: Record<string, string> = {};
  for (const meta of list(param(call.params, 'meta'))) {
    if (meta === 'tokens') out.tokens = await tokens(call);
    else if (meta === 'userinfo') out.userinfo = userinfo(call);
    else if (meta === 'siteinfo') {
      const { info, unknown } = siteinfo(call);
      Object.assign(out, info);
      if (unknown.length) warnings.siteinfo = `Unrecognized value${unknown.length > 1 ? 's' : ''} for parameter "siprop": ${unknown.join(', ')}.`;
    }
    else if (meta === 'wikibase') out.wikibase = wikibaseInfo(call);
    else refuse('badvalue', `Unrecognized value for parameter "meta": ${meta}.`);
  }
  for (const name of list(param(call.params, 'list'))) {
    if (name !== 'search') refuse('badvalue', `Unrecognized value for parameter "list": ${name}.`);
    out.search = await listSearch(call);
  }
  const props = list(param(call.params, 'prop'));
  if (props.length || param(call.params, 'titles') !== undefined || param(call.params, 'pageids') !== undefined) {
    Object.assign(out, await pages(call, props));
  }
  const warned = Object.entries(warnings).map(([module, text]) => [module, call.v2 ? { warnings: text } : { '*': text }]);
  return { batchcomplete: call.v2 ? true : '', ...(warned.length ? { warnings: Object.fromEntries(warned) } : {}), query: out };
}

async function tokens(call: Request): Promise<Json> {
  const out: Json = {};
  for (const type of list(param(call.params, 'type') ?? 'csrf')) {
    if (type === 'login') out.logintoken = await call.sessions.loginToken();
    // Every other MediaWiki token type is the session's CSRF token: Entia has one kind of write.
    else if (TOKEN_TYPES.includes(type)) out[`${type}token`] = await call.sessions.csrfToken(call.bearer);
    else refuse('badvalue', `Unrecognized value for parameter "type": ${type}.`);
  }
  return out;
}

/** The groups and rights of each account group, as MediaWiki names them (README, "Security model"). */
const EDITOR_RIGHTS = ['read', 'edit', 'createpage', 'writeapi', 'item-term', 'property-term', 'item-merge', 'item-redirect', 'property-create'];
const GROUP_RIGHTS: Record<string, { groups: string[]; rights: string[] }> = {
  user: { groups: ['*', 'user'], rights: EDITOR_RIGHTS },
  bot: { groups: ['*', 'user', 'bot'], rights: [...EDITOR_RIGHTS, 'bot', 'apihighlimits'] },
  admin: { groups: ['*', 'user', 'sysop'], rights: [...EDITOR_RIGHTS, 'protect', 'editprotected', 'apihighlimits'] },
};

/** A stable positive number for an account (MediaWiki's user id; clients take 0 for "not logged in"). */
function accountId(name: string): number {
  return (hash('sha1', name, 'buffer').readUInt32BE(0) % 2_000_000_000) + 1;
}

/** meta=userinfo: who the request is, with `id`, `groups` and `rights` from Entia's permissions. */
function userinfo(call: Request): Json {
  if (call.identity.kind !== 'user') {
    const open = call.services.config.editMode === 'open';
    return { id: 0, name: call.req.ip, anon: call.v2 ? true : '', groups: ['*'], rights: open ? ['read', 'edit', 'writeapi'] : ['read'] };
  }
  const { name, group, blockReason } = call.identity.account;
  const rights = GROUP_RIGHTS[group] ?? GROUP_RIGHTS.user;
  return { id: accountId(name), name, groups: rights.groups, rights: rights.rights,
    ...(blockReason !== null ? { blockid: 1, blockedby: 'entia', blockreason: blockReason } : {}) };
}

/** meta=wikibase: where this wiki's repository is (itself), as a client wiki tells Pywikibot (`data_repository`). */
function wikibaseInfo(call: Request): Json {
  const base = call.services.config.publicUrl;
  return { repo: { url: { base, scriptpath: '/w', articlepath: '/wiki/$1' } }, siteid: 'entia' };
}

/** The MediaWiki version whose Action API this one follows: clients such as Pywikibot read it from `generator`. */
const MEDIAWIKI_VERSION = '1.43.0';

/** MediaWiki's built-in namespaces (clients assume they exist), then one per kind of entity. */
const BUILTIN_NAMESPACES: [number, string][] = [[-2, 'Media'], [-1, 'Special'], [1, 'Talk'], [2, 'User'], [3, 'User talk'],
  [4, 'Project'], [5, 'Project talk'], [6, 'File'], [7, 'File talk'], [8, 'MediaWiki'], [9, 'MediaWiki talk'],
  [10, 'Template'], [11, 'Template talk'], [12, 'Help'], [13, 'Help talk'], [14, 'Category'], [15, 'Category talk']];

/** The siteinfo properties answered; any other is named in a warning, as MediaWiki does. */
const SITEINFO_PROPS = new Set(['general', 'namespaces', 'namespacealiases', 'extensions']);

/**
 * meta=siteinfo: `general`, `namespaces`, `namespacealiases` and `extensions` as MediaWiki gives them (siprop;
 * `general` by default), and the properties it does not know.
 */
function siteinfo(call: Request): { info: Json; unknown: string[] } {
  const base = call.services.config.publicUrl;
  const flag = (v: boolean) => (call.v2 ? v : v ? '' : undefined);
  const props = new Set(list(param(call.params, 'siprop') ?? 'general'));
  const out: Json = {};
  if (props.has('general')) {
    out.general = {
      mainpage: 'Main Page', base: `${base}/`, sitename: 'Entia', generator: `MediaWiki ${MEDIAWIKI_VERSION}`,
      case: 'first-letter', lang: 'en', fallback: [], dir: 'ltr', rtl: flag(false), writeapi: flag(true),
      server: base, servername: new URL(base).hostname, scriptpath: '/w', script: '/w/index.php', articlepath: '/wiki/$1',
      wikiid: 'entia', time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), timezone: 'UTC', timeoffset: 0,
      maxarticlesize: call.services.config.maxEntitySizeKb * 1024, maxuploadsize: 0,
      // Wikibase has no images; these are MediaWiki's defaults, which clients read without using.
      thumblimits: { 0: 120, 1: 150, 2: 180, 3: 200, 4: 220, 5: 250, 6: 300, 7: 400 },
      imagelimits: { 0: { width: 320, height: 240 }, 1: { width: 640, height: 480 }, 2: { width: 800, height: 600 },
        3: { width: 1024, height: 768 }, 4: { width: 1280, height: 1024 } },
      magiclinks: { ISBN: false, PMID: false, RFC: false },
      'wikibase-conceptbaseuri': call.services.config.conceptUri,
    };
  }
  if (props.has('namespaces')) {
    const namespace = (id: number, name: string, content: boolean, model?: string): [number, Json] => [id, {
      id, case: 'first-letter', name, canonical: name, subpages: flag(false), content: flag(content),
      nonincludable: flag(false), ...(model ? { defaultcontentmodel: model } : {}), '*': call.v2 ? undefined : name,
    }];
    out.namespaces = Object.fromEntries([
      ...BUILTIN_NAMESPACES.map(([id, name]) => namespace(id, name, false)),
      // One per kind of entity, as the kind descriptor numbers it (items 0, properties 120).
      ...KINDS.map((k) => namespace(k.namespace, k.namespace === 0 ? '' : k.noun, true, `wikibase-${k.name}`)),
    ].sort(([a], [b]) => a - b));
  }
  if (props.has('namespacealiases')) out.namespacealiases = [];
  // What clients test for before they use Wikibase's modules (Pywikibot's has_extension).
  if (props.has('extensions')) {
    out.extensions = ['WikibaseRepository', 'WikibaseClient'].map((name) => ({ type: 'wikibase', name, version: MEDIAWIKI_VERSION }));
  }
  return { info: out, unknown: [...props].filter((p) => !SITEINFO_PROPS.has(p)) };
}

/** The Ctx an edit goes through the write pipeline with: who sends it, and the module's metadata parameters as a body. */
function requestCtx(call: Request, body: Record<string, unknown>): Ctx {
  return requestContext(call.req, { kind: ITEM, store: call.store, services: call.services, identity: call.identity }, { params: {}, query: {}, body });
}

/**
 * A browser's request sent by a page of another site: its `Origin` is neither this server's (ENTIA_PUBLIC_URL)
 * nor one of ENTIA_CORS_ORIGINS, or the browser says so in `Sec-Fetch-Site`. A form post needs no CORS
 * preflight, so without this check any page could edit anonymously through its visitors' browsers.
 */
function crossSite(call: Request): boolean {
  const { origin, 'sec-fetch-site': fetchSite } = call.req.headers;
  if (fetchSite === 'cross-site') return true;
  if (typeof origin !== 'string') return false;
  const allowed = call.services.config.corsOrigins;
  return origin !== new URL(call.services.config.publicUrl).origin && !allowed.includes('*') && !allowed.includes(origin);
}

const ASSERTIONS = new Set(['anon', 'user', 'bot']);

async function write(call: Request, module: (call: WriteCall) => Promise<Json>): Promise<Json> {
  const assert = param(call.params, 'assert');
  if (assert !== undefined && !ASSERTIONS.has(assert)) refuse('badvalue', `Unrecognized value for parameter "assert": ${assert}.`);
  await checkCsrf(call.sessions, call.bearer, param(call.params, 'token'));
  if (call.identity.kind !== 'user' && crossSite(call)) {
    refuse('permissiondenied', 'Anonymous edits from a page of another site are refused: sign in (a token), or send the request from this site.');
  }
  if (assert === 'anon' && call.identity.kind === 'user') refuse('assertanonfailed', 'You are logged in, so the action could not be completed.');
  if (assert === 'user' && call.identity.kind !== 'user') refuse('assertuserfailed', 'You are no longer logged in, so the action could not be completed.');
  if (assert === 'bot' && !(call.identity.kind === 'user' && call.identity.account.group === 'bot')) {
    refuse('assertbotfailed', 'You do not have the "bot" right, so the action could not be completed.');
  }
  const maxlag = param(call.params, 'maxlag');
  if (maxlag !== undefined && !/^-?\d+$/.test(maxlag)) refuse('badinteger', 'Invalid value for parameter "maxlag".');
  const summary = param(call.params, 'summary');
  const tags = list(param(call.params, 'tags'));
  const ctx = requestCtx(call, {
    ...(summary !== undefined ? { comment: summary } : {}), tags, bot: call.params.bot !== undefined,
  });
  return module({ ...call, ctx, meta: parseMeta(ctx) });
}

function send(reply: FastifyReply, body: Json): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(jsonBuffer(body));
}

function sendError(reply: FastifyReply, e: ApiError): FastifyReply {
  reply.header('mediawiki-api-error', e.code);
  return send(reply, { error: { code: e.code, info: e.info, ...e.extra }, servedby: 'entia' });
}

async function answer(req: FastifyRequest, reply: FastifyReply, store: Store, services: Services, sessions: Sessions): Promise<FastifyReply> {
  const fromUrl = req.query as Json;
  const params: Json = { ...fromUrl, ...(req.method === 'POST' ? (req.body as Json | undefined) ?? {} : {}) };
  try {
    const { identity, bearer } = await sessions.identify(req.headers);
    // Reads spend the read budget as the REST reads do; an edit spends the edit budget instead (commitEdit).
    if (!Object.hasOwn(WRITE_MODULES, String(params.action))) await services.guard.read({ identity, address: req.ip });
    const format = param(params, 'format') ?? 'json';
    if (format !== 'json') refuse('badvalue', `Unrecognized value for parameter "format": ${format}.`);
    const formatversion = param(params, 'formatversion') ?? '1';
    if (!['1', '2', 'latest'].includes(formatversion)) refuse('badvalue', `Unrecognized value for parameter "formatversion": ${formatversion}.`);
    const action = param(params, 'action') ?? 'help';
    const writeModule = Object.hasOwn(WRITE_MODULES, action) ? WRITE_MODULES[action] : null;
    const readModule = Object.hasOwn(READ_MODULES, action) ? READ_MODULES[action] : null;
    if (!writeModule && !readModule) refuse('badvalue', `Unrecognized value for parameter "action": ${action}.`);
    if (POST_ONLY.has(action) && req.method !== 'POST') refuse('mustbeposted', `The "${action}" module requires a POST request.`);
    // Secrets stay out of URLs (and so out of access logs and browser history), as MediaWiki insists too.
    for (const secret of ['token', 'lgpassword', 'lgtoken']) {
      if (fromUrl[secret] !== undefined) refuse('mustpostparams', `The following parameter was found in the query string, but must be in the POST body: ${secret}.`);
    }
    const call: Request = { params, v2: formatversion !== '1', store, services, req, reply, identity, bearer, sessions };
    const body = writeModule ? await write(call, writeModule) : await readModule!(call);
    return send(reply, body);
  } catch (e) {
    if (e instanceof ApiError) return sendError(reply, e);
    if (isEntiaError(e)) {
      if (e.code === 'unexpected-error') req.log.error({ err: e }, 'unexpected error');
      return sendError(reply, fromEntiaError(e));
    }
    req.log.error({ err: e }, 'unexpected error');
    return sendError(reply, new ApiError('internal_api_error', 'An internal error occurred.'));
  }
}

/** The framework's refusals of a request body, as the Action API says them. */
const FRAMEWORK_ERRORS: Record<string, ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new ApiError('badcontenttype', 'POST bodies must be application/x-www-form-urlencoded.'),
  FST_ERR_CTP_BODY_TOO_LARGE: new ApiError('toobig', 'The request body is too large.'),
};

export function registerActionApi(app: FastifyInstance, store: Store, services: Services): void {
  const sessions = buildSessions(services, store.accounts);
  // Its own context: form bodies here only, and every failure in the Action API's shape.
  app.register(async (api) => {
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (req, body, done) => {
      try {
        done(null, parseFormBody(body as Buffer));
      } catch (e) {
        done(e as Error);
      }
    });
    api.setErrorHandler((error, req, reply) => {
      const code = (error as { code?: string }).code ?? '';
      if (Object.hasOwn(FRAMEWORK_ERRORS, code)) return sendError(reply, FRAMEWORK_ERRORS[code]);
      if (error instanceof MalformedBody) {
        return sendError(reply, new ApiError('badvalue', `The request body is not valid form encoding (${error.message}).`));
      }
      req.log.error({ err: error }, 'unexpected error');
      return sendError(reply, new ApiError('internal_api_error', 'An internal error occurred.'));
    });
    api.get(ACTION_API_PATH, (req, reply) => answer(req, reply, store, services, sessions));
    api.post(ACTION_API_PATH, (req, reply) => answer(req, reply, store, services, sessions));
  });
}
