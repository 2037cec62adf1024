// @ts-check
// Editing on an entity page: terms per language, statements (edit-statements.js), sitelinks (add, remove),
// merging an item, and revert from the history or an old revision. Every edit is one API request sent with
// If-Match: the revision the page showed. A 412 means someone else edited first: the editor says so and shows
// their version instead of overwriting it (edit-kit.js).
import { call, explain } from './api.js';
import { button, clipped, editor, el, field, flash, refusal, revisionIfUnchanged, sendOnTop, summary } from './edit-kit.js';
import { t } from './i18n.js';
import { kindAt } from './kinds.js';
import { loadPart } from './parts.js';
import { enhanceStatements } from './edit-statements.js';
import { entityPicker, idIn } from './value-input.js';

/** @typedef {import('./api.js').Answer} Answer */

/** What changed in one language's terms, as Wikibase's summaries say it. @param {string} language
 * @param {{ label: string, description: string, aliases: string[] }} old @param {{ label: string, description: string, aliases: string[] }} now */
function termsSummary(language, old, now) {
  const parts = [];
  const text = (/** @type {string} */ what, /** @type {string} */ before, /** @type {string} */ after) => {
    if (before === after) return;
    parts.push(after === '' ? `Removed ${what} [${language}]: ${before}` : `${before === '' ? 'Added' : 'Changed'} ${what} [${language}]: ${after}`);
  };
  text('label', old.label, now.label);
  text('description', old.description, now.description);
  const added = now.aliases.filter((a) => !old.aliases.includes(a));
  const removed = old.aliases.filter((a) => !now.aliases.includes(a));
  if (added.length) parts.push(`Added ${language} aliases: ${added.join(', ')}`);
  if (removed.length) parts.push(`Removed ${language} aliases: ${removed.join(', ')}`);
  return parts.join('; ');
}

export function enhanceEntity(/** @type {HTMLElement} */ article) {
  const id = /** @type {string} */ (article.dataset.entity);
  const kind = /** @type {string} */ (article.dataset.kind);
  const revision = Number(article.dataset.revision);
  const base = `/v1/entities/${kind}/${id}`;
  const saved = (/** @type {Answer} */ answer) => {
    flash(t('Saved: {0} is now at revision {1}.', id, answer.revision ?? '?'));
    location.reload();
  };
  enhanceTerms(article, base, revision, saved);
  enhanceStatements(article, base, revision, saved);
  enhanceSitelinks(article, base, revision, saved);
  const of = kindAt(kind);
  if (of?.redirects) enhanceMerge(article, id, base, revision, of);
}

/**
 * Merging this item into another (POST …/merge, Wikibase's rules): its content moves there and it becomes a
 * redirect; the editor then opens the item it was merged into.
 * @param {HTMLElement} article @param {string} id @param {string} base @param {number} revision
 * @param {import('./kinds.js').Kind} kind the entity's, which it merges into another of
 */
function enhanceMerge(article, id, base, revision, kind) {
  const meta = article.querySelector('.entity-meta');
  if (!meta) return;
  const open = () => {
    const target = entityPicker(kind, '', 'into');
    const ignore = [
      ['description', t('Keep descriptions that differ on this item instead of stopping')],
      ['sitelink', t('Keep sitelinks that differ on this item instead of stopping')],
      ['statement', t('Merge even if one item links to the other')],
    ].map(([value, text]) => el('input', { type: 'checkbox', name: 'ignore', value, title: text }));
    const holder = el('div');
    holder.append(editor({
      title: t('Merge {0} into another item', id),
      fields: [
        field(t('Merge into'), target.wrap),
        ...ignore.map((box) => el('label', { className: 'check' }, [box, el('span', { textContent: box.title })])),
      ],
      save: (comment) => call('POST', `${base}/merge`, {
        body: { into: idIn(target.el.value), ignore_conflicts: ignore.filter((b) => b.checked).map((b) => b.value), comment },
        revision,
      }),
      theirs: async () => `${id} was edited after this page was shown.`,
      done: (answer) => {
        const into = answer.body.target.id;
        flash(answer.body.source.redirect ? t('Merged {0} into {1}: {0} now redirects here.', id, into) : t('Merged {0} into {1}; what conflicted stayed on {0}.', id, into));
        location.href = `/${into}`;
      },
      close: () => holder.remove(),
    }));
    meta.after(holder);
  };
  meta.append(' · ', button(t('Merge into…'), open, 'link'));
}

/**
 * The editor of an entity's terms in one language (its label, description and aliases, sent as one PATCH), placed
 * after `anchor`; `row` is the terms table's row of that language, if the page shows one.
 * @param {HTMLTableRowElement | null} row @param {string} language @param {HTMLElement} anchor
 * @param {{ base: string, revision: number, saved: (a: Answer) => void }} page
 */
function termsEditor(row, language, anchor, { base, revision, saved }) {
  const text = (/** @type {string} */ cls) => row?.querySelector(`.${cls}`)?.textContent ?? '';
  const old = {
    label: text('term-label'),
    description: text('term-description'),
    aliases: /** @type {string[]} */ (JSON.parse(row?.querySelector('.term-aliases')?.getAttribute('data-aliases') ?? '[]')),
  };
  const label = el('input', { type: 'text', name: 'label', value: old.label, lang: language });
  const description = el('input', { type: 'text', name: 'description', value: old.description, lang: language });
  const aliases = el('textarea', { name: 'aliases', rows: 3, value: old.aliases.join('\n'), lang: language });
  const holder = el('div');
  holder.append(editor({
    title: t('Terms in {0}', language),
    fields: [field(t('Label'), label), field(t('Description'), description), field(t('Aliases (one per line)'), aliases)],
    save: (comment, rev = revision) => {
      const now = { label: label.value.trim(), description: description.value.trim(),
        aliases: aliases.value.split('\n').map((/** @type {string} */ a) => a.trim()).filter(Boolean) };
      const patch = [
        ...termOps(`/labels/${language}`, old.label, now.label),
        ...termOps(`/descriptions/${language}`, old.description, now.description),
        ...aliasOps(`/aliases/${language}`, old.aliases, now.aliases),
      ];
      if (patch.length === 0) throw new Error(t('Nothing was changed.'));
      return call('PATCH', base, { body: { patch, comment: summary(comment, termsSummary(language, old, now)) }, revision: rev });
    },
    unchanged: () => revisionIfUnchanged(`${base}?_fields=labels,descriptions,aliases`, (b) => ({
      label: b.labels?.[language] ?? '', description: b.descriptions?.[language] ?? '', aliases: b.aliases?.[language] ?? [] }), old),
    theirs: async () => {
      const now = await call('GET', `${base}?_fields=labels,descriptions,aliases`);
      const b = now.body ?? {};
      return `${t('Label')}: ${b.labels?.[language] ?? t('(none)')}\n${t('Description')}: ${b.descriptions?.[language] ?? t('(none)')}\n`
        + `${t('Aliases')}: ${(b.aliases?.[language] ?? []).join(', ') || t('(none)')}`;
    },
    done: saved,
    close: () => holder.remove(),
  }));
  anchor.after(holder);
}

/**
 * Gives each language's row of the terms tables an "Edit", and the terms section the form that opens the editor
 * of any language.
 * @param {HTMLElement} article @param {string} base @param {number} revision @param {(a: Answer) => void} saved
 */
function enhanceTerms(article, base, revision, saved) {
  const page = { base, revision, saved };
  const editButtons = (/** @type {ParentNode} */ root) => {
    for (const row of root.querySelectorAll('table.terms tbody tr')) {
      const language = /** @type {string} */ (/** @type {HTMLElement} */ (row).dataset.language);
      const cell = row.querySelector('td.actions');
      const table = /** @type {HTMLElement} */ (row.closest('table'));
      cell?.append(button(t('Edit'), () => termsEditor(/** @type {HTMLTableRowElement} */ (row), language, table, page), 'link'));
    }
  };
  editButtons(article);
  // The other languages' table of a large entity arrives when it is first opened (parts.js).
  article.querySelector('.all-languages')?.addEventListener('entia:part-loaded', (event) => editButtons(/** @type {HTMLElement} */ (event.target)));
  const section = article.querySelector('.terms-section');
  const code = el('input', { type: 'text', name: 'language', size: 8, placeholder: t('e.g. fr') });
  const add = el('form', { className: 'row add-language' }, [field(t('Add or edit terms in the language'), code), el('button', { type: 'submit', textContent: t('Open') })]);
  add.addEventListener('submit', async (event) => {
    event.preventDefault();
    const language = code.value.trim().toLowerCase();
    if (!language) return;
    // Its terms may be in the part not loaded yet: an editor that saw none would overwrite them.
    const others = /** @type {HTMLElement | null} */ (article.querySelector('.all-languages[data-part]'));
    if (others && !(await loadPart(others))) {
      flash(t('The terms in other languages could not be loaded; try again.'));
      return;
    }
    const row = /** @type {HTMLTableRowElement | null} */ (article.querySelector(`table.terms tr[data-language="${CSS.escape(language)}"]`));
    termsEditor(row, language, add, page);
  });
  section?.append(add);
}

/** @param {string} path @param {string} before @param {string} after */
function termOps(path, before, after) {
  if (before === after) return [];
  if (after === '') return [{ op: 'remove', path }];
  return [{ op: before === '' ? 'add' : 'replace', path, value: after }];
}

/** @param {string} path @param {string[]} before @param {string[]} after */
function aliasOps(path, before, after) {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (after.length === 0) return [{ op: 'remove', path }];
  return [{ op: before.length === 0 ? 'add' : 'replace', path, value: after }];
}

/**
 * @param {HTMLElement} article @param {string} base @param {number} revision @param {(a: Answer) => void} saved
 */
function enhanceSitelinks(article, base, revision, saved) {
  const section = article.querySelector('.sitelinks-section');
  if (!section) return;
  const titleOf = async (/** @type {string} */ site) => {
    const now = await call('GET', `${base}/sitelinks/${site}`);
    return now.ok ? `${site}: ${now.body.title}` : `${site}: no sitelink`;
  };
  for (const row of section.querySelectorAll('tbody tr')) {
    const site = /** @type {string} */ (/** @type {HTMLElement} */ (row).dataset.site);
    row.querySelector('td.actions')?.append(button(t('Remove'), async () => {
      if (!confirm(t('Remove the {0} sitelink?', site))) return;
      const page = row.querySelector('a')?.textContent?.trim() ?? '';
      const shown = row.querySelector('td')?.textContent?.trim();
      const answer = await sendOnTop((rev = revision) => call('DELETE', `${base}/sitelinks/${site}`,
        { body: { comment: clipped(`Removed sitelink [${site}]: ${page}`) }, revision: rev }),
      () => revisionIfUnchanged(`${base}?_fields=sitelinks`, (b) => b.sitelinks?.[site]?.title, shown));
      if (answer.ok) return saved(answer);
      section.append(await refusal(answer, async () => t('Someone else edited this item first; nothing was removed. Now: {0}', await titleOf(site))));
    }, 'link danger'));
  }
  const site = el('input', { type: 'text', name: 'site', size: 12, placeholder: 'enwiki' });
  const title = el('input', { type: 'text', name: 'title' });
  const holder = el('div');
  section.append(button(t('Add a sitelink'), () => {
    holder.replaceChildren(editor({
      title: t('Add a sitelink'),
      fields: [field(t('Site id'), site), field(t('Page title'), title)],
      save: (comment, rev = revision) => call('PUT', `${base}/sitelinks/${encodeURIComponent(site.value.trim())}`, {
        body: { sitelink: { title: title.value.trim(), badges: [] },
          comment: summary(comment, `Added sitelink [${site.value.trim()}]: ${title.value.trim()}`) }, revision: rev,
      }),
      theirs: () => titleOf(site.value.trim()),
      // The site's link as the page showed it (none, or the one listed): other sites and parts may have changed.
      unchanged: () => revisionIfUnchanged(`${base}?_fields=sitelinks`, (b) => b.sitelinks?.[site.value.trim()]?.title,
        section.querySelector(`tr[data-site="${CSS.escape(site.value.trim())}"] td`)?.textContent?.trim()),
      done: saved,
      close: () => holder.replaceChildren(),
    }));
  }, 'link'), holder);
}

/** Revert buttons, on the history page and on an old revision. */
export function enhanceReverts(/** @type {HTMLElement} */ container) {
  const id = /** @type {string} */ (container.dataset.entity);
  const kind = /** @type {string} */ (container.dataset.kind);
  const latest = Number(container.dataset.latest ?? container.dataset.revision);
  for (const b of container.querySelectorAll('button.revert')) {
    const target = Number(/** @type {HTMLElement} */ (b).dataset.revert);
    /** @type {HTMLButtonElement} */ (b).disabled = false;
    b.addEventListener('click', async () => {
      if (!confirm(t('Make revision {0} the current version of {1}? This is recorded as a new revision.', target, id))) return;
      const answer = await call('POST', `/v1/entities/${kind}/${id}/revert`,
        { body: { revision: target, comment: `Restored revision ${target}` }, revision: latest });
      if (!answer.ok) {
        b.after(await refusal(answer, async () => t('Someone else edited this entity after you opened the page, so nothing was reverted. Reload to see their change.')));
        return;
      }
      flash(t('Reverted {0} to revision {1}: it is now at revision {2}.', id, target, answer.revision ?? '?'));
      location.href = `/${id}`;
    });
  }
  // Undo: what one revision changed is taken back, if nothing changed it since (the server checks, 409 if not).
  for (const b of container.querySelectorAll('button.undo')) {
    const button = /** @type {HTMLElement} */ (b);
    const target = Number(button.dataset.undo);
    /** @type {HTMLButtonElement} */ (button).disabled = false;
    button.addEventListener('click', async () => {
      if (!confirm(t('Undo what revision {0} changed in {1}? This is recorded as a new revision.', target, id))) return;
      const answer = await call('POST', `/v1/entities/${kind}/${id}/undo`,
        { body: { revision: target, comment: clipped(`Undid revision ${target} by ${button.dataset.user ?? ''}`) } });
      if (!answer.ok) return void button.after(await refusal(answer, async () => explain(answer)));
      flash(t('Undid revision {0} of {1}: it is now at revision {2}.', target, id, answer.revision ?? '?'));
      location.href = `/${id}`;
    });
  }
}
