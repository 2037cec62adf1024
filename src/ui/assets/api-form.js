// @ts-check
// A page's form that the API answers (pages/api-form.tsx: create, merge): `send` turns its fields into one API
// call, whose refusal is said in the form; a success leaves a notice for the next page and opens it. The submit
// button is enabled here, once the form is sent by this script rather than reloaded.
import { explain } from './api.js';

/** @typedef {import('./api.js').Answer} Answer */

/**
 * @param {HTMLFormElement} form
 * @param {(value: (name: string) => string) => Promise<Answer>} send throws to refuse before asking the API
 * @param {(answer: Answer) => { notice: string, href: string }} opened
 */
export function enhanceApiForm(form, send, opened) {
  const message = /** @type {HTMLElement} */ (form.querySelector('.editor-message'));
  const say = (/** @type {string} */ text) => {
    const p = document.createElement('p');
    p.className = 'editor-error';
    p.textContent = text;
    message.replaceChildren(p);
  };
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name))?.value.trim() ?? '';
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let answer;
    try {
      answer = await send(value);
    } catch (e) {
      return say(e instanceof Error ? e.message : String(e));
    }
    if (!answer.ok) return say(explain(answer));
    const next = opened(answer);
    sessionStorage.setItem('entia.flash', next.notice);
    location.href = next.href;
  });
  /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]')).disabled = false;
}
