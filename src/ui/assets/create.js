// @ts-check
// The form of /Special:NewItem and /Special:NewProperty: the terms (and a property's data type) sent to the API with
// the editor's token, then the new entity's page.
import { call, explain } from './api.js';

/** @param {HTMLFormElement} form */
export function enhanceCreate(form) {
  const kind = form.dataset.kind === 'property' ? 'property' : 'item';
  const message = /** @type {HTMLElement} */ (form.querySelector('.editor-message'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = (/** @type {string} */ name) => /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name))?.value.trim() ?? '';
    const language = value('language');
    /** @type {Record<string, unknown>} */
    const entity = {};
    if (value('label')) entity.labels = { [language]: value('label') };
    if (value('description')) entity.descriptions = { [language]: value('description') };
    const aliases = value('aliases').split('\n').map((a) => a.trim()).filter(Boolean);
    if (aliases.length) entity.aliases = { [language]: aliases };
    if (kind === 'property') entity.data_type = value('data_type');
    const answer = await call('POST', `/v1/entities/${kind === 'item' ? 'items' : 'properties'}`,
      { body: { [kind]: entity, ...(value('comment') ? { comment: value('comment') } : {}) } });
    if (!answer.ok) {
      const p = document.createElement('p');
      p.className = 'editor-error';
      p.textContent = explain(answer);
      message.replaceChildren(p);
      return;
    }
    sessionStorage.setItem('entia.flash', `Created ${answer.body.id}.`);
    location.href = `/${answer.body.id}`;
  });
  /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]')).disabled = false;
}
