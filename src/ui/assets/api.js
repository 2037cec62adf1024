// @ts-check
// The browser's side of the API: every edit carries the token kept in this tab's session storage (never a
// URL or a cookie) and If-Match with the revision the page showed, so a concurrent edit is never overwritten.

import { msg, t } from './i18n.js';

const TOKEN_KEY = 'entia.token';
const USER_KEY = 'entia.user';

/** @returns {{ token: string, user: string } | null} */
export function signedIn() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const user = sessionStorage.getItem(USER_KEY);
  return token && user ? { token, user } : null;
}

/**
 * Checks a token with the API and keeps it for this tab.
 * @param {string} token
 * @returns {Promise<string>} the account's name
 */
export async function signIn(token) {
  const res = await fetch('/w/api.php?action=query&meta=userinfo&format=json&formatversion=2', {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || !body.query?.userinfo || body.query.userinfo.anon) {
    throw new Error(body.error?.info ?? body.message ?? t('That token was not accepted.'));
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.setItem(USER_KEY, body.query.userinfo.name);
  return body.query.userinfo.name;
}

/**
 * Whether this visitor may edit: signed in, or the server lets anyone edit (open mode). Asked of the Action API's
 * userinfo, whose rights say what the server's permissions allow an anonymous visitor.
 * @returns {Promise<{ may: boolean, anonymous: boolean }>}
 */
export async function editRights() {
  if (signedIn()) return { may: true, anonymous: false };
  const res = await fetch('/w/api.php?action=query&meta=userinfo&format=json&formatversion=2').catch(() => null);
  const body = res?.ok ? await res.json().catch(() => ({})) : {};
  return { may: Boolean(body.query?.userinfo?.rights?.includes('edit')), anonymous: true };
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

/**
 * @typedef {{ ok: boolean, status: number, body: any, revision: number | null }} Answer
 */

/**
 * @param {string} method
 * @param {string} url
 * @param {{ body?: unknown, revision?: number }} [options] revision: sent as If-Match
 * @returns {Promise<Answer>}
 */
export async function call(method, url, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  const session = signedIn();
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (options.revision !== undefined) headers['if-match'] = `"${options.revision}"`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  const tag = /^"(\d+)"$/.exec(res.headers.get('etag') ?? '');
  return { ok: res.ok, status: res.status, body, revision: tag ? Number(tag[1]) : null };
}

/** @type {Record<string, string>} */
const IN_WORDS = {
  'permission-denied': msg('You may not make this edit.'),
  'request-limit-reached': msg('Too many edits in a short time. Wait a moment, then try again.'),
  'data-policy-violation': msg('Another entity already uses this.'),
  'value-too-long': msg('That text is too long.'),
  'patch-result-value-too-long': msg('That text is too long.'),
  'invalid-value': msg('That value is not valid here.'),
  'patch-result-invalid-value': msg('That value is not valid here.'),
  'redirected-item': msg('This item has become a redirect, so it cannot be edited.'),
  'merge-conflict': msg('The two items disagree, so they were not merged: tick what may stay on this item, or edit one first.'),
  'merge-into-self': msg('An item cannot be merged into itself.'),
  'referenced-resource-not-found': msg('Something this edit points to does not exist.'),
  'unexpected-error': msg('The server failed to save the edit. Try again.'),
};

/**
 * A refused edit explained to a person: a sentence for the common causes, then the API's own message.
 * @param {Answer} answer
 */
export function explain(answer) {
  const body = answer.body ?? {};
  if (answer.status === 401 || body.context?.denial_reason === 'unauthenticated') {
    return t('Editing needs a token: choose “Sign in” at the top of the page and paste yours.');
  }
  const reason = body.context?.denial_reason ? ` (${body.context.denial_reason})` : '';
  const sentence = IN_WORDS[body.code] ? t(IN_WORDS[body.code]) : '';
  const detail = body.message ? `${body.message}${reason}.` : t('The server answered {0}.', answer.status);
  return sentence ? `${sentence} ${detail}` : t('The edit was not saved: {0}', detail);
}
