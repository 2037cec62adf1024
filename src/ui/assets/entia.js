// @ts-check
// What scripts add to the server-rendered pages: suggestions under the search boxes, signing in with a
// token (kept in this tab's session storage), the notice of a saved edit, and the editors (edit.js).
import { editRights, signedIn, signIn, signOut } from './api.js';
import { t } from './i18n.js';

/** @param {HTMLInputElement} box */
function suggest(box) {
  const list = document.createElement('ul');
  list.className = 'suggestions';
  list.id = `${box.id}-suggestions`;
  list.hidden = true;
  box.setAttribute('aria-controls', list.id);
  box.parentElement?.append(list);
  let pending = 0;
  const close = () => { list.hidden = true; list.replaceChildren(); };
  box.addEventListener('input', async () => {
    const q = box.value.trim();
    if (!q) return close();
    const mine = ++pending;
    const lang = document.body.dataset.language ?? 'en';
    const res = await fetch(`/v1/suggest/${box.dataset.suggest}?${new URLSearchParams({ q, lang, limit: '7' })}`);
    if (mine !== pending || !res.ok) return;
    const { results } = await res.json();
    list.replaceChildren(...results.map((/** @type {any} */ hit) => {
      const a = document.createElement('a');
      a.href = `/${hit.id}`;
      a.textContent = `${hit['display-label']?.value ?? hit.id} (${hit.id})`;
      if (hit.description) {
        const d = document.createElement('span');
        d.className = 'description';
        d.textContent = hit.description.value;
        a.append(d);
      }
      const li = document.createElement('li');
      li.append(a);
      return li;
    }));
    list.hidden = results.length === 0;
  });
  box.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && !list.hidden) {
      event.preventDefault();
      /** @type {HTMLElement | null} */ (list.querySelector('a'))?.focus();
    } else if (event.key === 'Escape') close();
  });
  list.addEventListener('keydown', (event) => {
    const links = [...list.querySelectorAll('a')];
    const at = links.indexOf(/** @type {HTMLAnchorElement} */ (document.activeElement));
    if (event.key === 'ArrowDown') links[Math.min(at + 1, links.length - 1)]?.focus();
    else if (event.key === 'ArrowUp') (at <= 0 ? box : links[at - 1]).focus();
    else if (event.key === 'Escape') { close(); box.focus(); } else return;
    event.preventDefault();
  });
}

function account() {
  const slot = document.getElementById('account');
  if (!slot) return;
  const session = signedIn();
  if (session) {
    const out = document.createElement('button');
    out.type = 'button';
    out.className = 'link';
    out.textContent = t('Sign out');
    out.onclick = () => { signOut(); location.reload(); };
    slot.replaceChildren(t('Signed in as {0}', session.user), ' ', out);
    return;
  }
  const open = document.createElement('button');
  open.type = 'button';
  open.className = 'link';
  open.textContent = t('Sign in');
  open.onclick = () => {
    const form = document.createElement('form');
    form.className = 'row sign-in';
    const label = document.createElement('label');
    const token = document.createElement('input');
    token.type = 'password';
    token.name = 'token';
    token.autocomplete = 'off';
    label.append(t('Your API token'), ' ', token);
    const go = document.createElement('button');
    go.type = 'submit';
    go.textContent = t('Sign in');
    const problem = document.createElement('span');
    problem.className = 'editor-error';
    problem.setAttribute('role', 'alert');
    form.append(label, go, problem);
    form.onsubmit = async (event) => {
      event.preventDefault();
      try {
        await signIn(token.value.trim());
        location.reload();
      } catch (e) {
        problem.textContent = e instanceof Error ? e.message : String(e);
      }
    };
    slot.replaceChildren(form);
    token.focus();
  };
  slot.replaceChildren(open);
}

/** @param {string} text */
function hint(text) {
  const span = document.createElement('span');
  span.className = 'edit-hint';
  span.textContent = text;
  return span;
}

function notice() {
  const text = sessionStorage.getItem('entia.flash');
  const box = document.getElementById('notice');
  if (!text || !box) return;
  sessionStorage.removeItem('entia.flash');
  box.textContent = text;
  box.hidden = false;
}

for (const box of document.querySelectorAll('input[data-suggest]')) suggest(/** @type {HTMLInputElement} */ (box));
account();
notice();
const createForm = /** @type {HTMLFormElement | null} */ (document.querySelector('form.create-entity'));
if (createForm) (await import('./create.js')).enhanceCreate(createForm);
const mergeForm = /** @type {HTMLFormElement | null} */ (document.querySelector('form.merge-items'));
if (mergeForm) (await import('./merge.js')).enhanceMerge(mergeForm);
const article = /** @type {HTMLElement | null} */ (document.querySelector('[data-entity]'));
if (article) {
  (await import('./parts.js')).enhanceParts(article);
  const { enhanceEntity, enhanceReverts } = await import('./edit.js');
  const rights = await editRights();
  const meta = article.querySelector('.entity-meta');
  if (rights.may) {
    if (article.dataset.editable) enhanceEntity(article);
    enhanceReverts(article);
    // Open mode: an anonymous edit is recorded under the visitor's address, as on a wiki.
    if (rights.anonymous && article.dataset.editable) meta?.append(' · ', hint(t('Your edits will be recorded under your IP address.')));
  } else {
    // Controls only for those who may edit: a signed-out visitor of a server that needs tokens is told how to.
    for (const b of article.querySelectorAll('button.revert, button.undo')) b.remove();
    if (article.dataset.editable) meta?.append(' · ', hint(t('Sign in with a token to edit.')));
  }
  // The latest revision only: an old one's marks would be today's.
  if (article.dataset.editable) (await import('./constraints.js')).markConstraints(article).catch(() => undefined);
}
