// @ts-check
// The form of /Special:MergeItems: the two items and the conflicts to leave behind, sent to the API with the
// editor's token (POST /v1/entities/items/{from}/merge), then the merged item's page.
import { call } from './api.js';
import { enhanceApiForm } from './api-form.js';
import { t } from './i18n.js';
import { idIn } from './value-input.js';

/** @param {HTMLFormElement} form */
export function enhanceMerge(form) {
  enhanceApiForm(form, (value) => {
    const from = idIn(value('fromid'));
    const into = idIn(value('toid'));
    const ignore = [...form.querySelectorAll('input[name="ignore"]:checked')].map((box) => /** @type {HTMLInputElement} */ (box).value);
    return call('POST', `/v1/entities/items/${from}/merge`,
      { body: { into, ignore_conflicts: ignore, ...(value('comment') ? { comment: value('comment') } : {}) } });
  }, (answer) => {
    const [from, into] = [answer.body.source.id, answer.body.target.id];
    return { notice: answer.body.source.redirect ? t('Merged {0} into {1}: {0} now redirects here.', from, into)
      : t('Merged {0} into {1}; what conflicted stayed on {0}.', from, into), href: `/${into}` };
  });
}
