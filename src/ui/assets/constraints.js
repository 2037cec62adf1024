// @ts-check
// Constraint marks on an entity page, as Wikidata's item pages show them: after the page has loaded, the page
// asks the API what the entity breaks (GET …/constraint-violations) and marks each statement with its violations,
// so that a page with many statements is never slowed by the checks.
import { t } from './i18n.js';

/** @param {HTMLElement} article */
export async function markConstraints(article) {
  const res = await fetch(`/v1/entities/${article.dataset.kind}/${article.dataset.entity}/constraint-violations`, {
    headers: { accept: 'application/json' },
  });
  if (!res.ok) return;
  const { violations } = /** @type {{ violations: { statement_id: string, status: string, message: string, place: string,
    constraint: { type: string } }[] }} */ (await res.json());
  /** @type {Map<string, HTMLUListElement>} */
  const lists = new Map();
  for (const v of violations) {
    const statement = article.querySelector(`li[data-statement-id="${CSS.escape(v.statement_id)}"]`);
    if (!statement) continue;
    let list = lists.get(v.statement_id);
    if (!list) {
      list = document.createElement('ul');
      list.className = 'constraint-marks';
      list.setAttribute('aria-label', t('Constraint violations'));
      statement.querySelector('.statement-main')?.after(list);
      lists.set(v.statement_id, list);
    }
    const item = document.createElement('li');
    item.className = `constraint constraint-${v.status}`;
    const where = v.place === 'main' ? '' : ` (${v.place})`;
    item.textContent = `${v.constraint.type.replaceAll('-', ' ')}${where}: ${v.message}`;
    list.append(item);
  }
}
