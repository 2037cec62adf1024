// @ts-check
// The form of /Special:MergeItems: the two items and the conflicts to leave behind, sent to the API with the
// editor's token (POST /v1/entities/items/{from}/merge), then the merged item's page.
import { call, explain } from './api.js';
import { idIn } from './value-input.js';

/** @param {HTMLFormElement} form */
export function enhanceMerge(form) {
  const message = /** @type {HTMLElement} */ (form.querySelector('.editor-message'));
  const say = (/** @type {string} */ text) => {
    const p = document.createElement('p');
    p.className = 'editor-error';
    p.textContent = text;
    message.replaceChildren(p);
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = (/** @type {string} */ name) => /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name))?.value.trim() ?? '';
    let from;
    let into;
    try {
      from = idIn(value('fromid'));
      into = idIn(value('toid'));
    } catch (e) {
      return say(e instanceof Error ? e.message : String(e));
    }
    const ignore = [...form.querySelectorAll('input[name="ignore"]:checked')].map((box) => /** @type {HTMLInputElement} */ (box).value);
    const answer = await call('POST', `/v1/entities/items/${from}/merge`,
      { body: { into, ignore_conflicts: ignore, ...(value('comment') ? { comment: value('comment') } : {}) } });
    if (!answer.ok) return say(explain(answer));
    sessionStorage.setItem('entia.flash', answer.body.source.redirect
      ? `Merged ${from} into ${into}: ${from} now redirects here.` : `Merged ${from} into ${into}; what conflicted stayed on ${from}.`);
    location.href = `/${into}`;
  });
  /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]')).disabled = false;
}
