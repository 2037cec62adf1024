// @ts-check
// The form of /Special:NewItem and /Special:NewProperty: the terms (and a property's data type) sent to the API with
// the editor's token, then the new entity's page.
import { call } from './api.js';
import { enhanceApiForm } from './api-form.js';
import { t } from './i18n.js';
import { kindNamed } from './kinds.js';

/** @param {HTMLFormElement} form */
export function enhanceCreate(form) {
  const kind = kindNamed(form.dataset.kind);
  if (!kind) return;
  enhanceApiForm(form, (value) => {
    const language = value('language');
    /** @type {Record<string, unknown>} */
    const entity = {};
    if (value('label')) entity.labels = { [language]: value('label') };
    if (value('description')) entity.descriptions = { [language]: value('description') };
    const aliases = value('aliases').split('\n').map((a) => a.trim()).filter(Boolean);
    if (aliases.length) entity.aliases = { [language]: aliases };
    if (kind.hasDataType) entity.data_type = value('data_type');
    return call('POST', `/v1/entities/${kind.segment}`,
      { body: { [kind.createField]: entity, ...(value('comment') ? { comment: value('comment') } : {}) } });
  }, (answer) => ({ notice: t('Created {0}.', answer.body.id), href: `/${answer.body.id}` }));
}
