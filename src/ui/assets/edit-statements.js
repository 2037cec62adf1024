// @ts-check
// Editing statements on an entity page: adding one, changing its value, rank, qualifiers and references, and
// removing it; each edit one request sent with If-Match (edit-kit.js's editor handles conflicts).
import { call } from './api.js';
import { button, clipped, editor, el, field, refusal, revisionIfUnchanged, sendOnTop, summary } from './edit-kit.js';
import { t } from './i18n.js';
import { STATEMENT_PROPERTY } from './kinds.js';
import { entityPicker, idIn, valueInput, valueText } from './value-input.js';

/** @typedef {import('./api.js').Answer} Answer */

/**
 * What an automatic summary adds when the qualifiers or references changed: their counts now.
 * @param {any} before @param {Snak[]} qualifiers @param {{ parts: Snak[] }[]} references
 */
function statementExtras(before, qualifiers, references) {
  const same = (/** @type {any} */ a, /** @type {any} */ b) => JSON.stringify(a) === JSON.stringify(b);
  const changedQualifiers = !same(inputSnaks(before?.qualifiers ?? []), qualifiers);
  const changedReferences = !same((before?.references ?? []).map((/** @type {any} */ r) => inputSnaks(r.parts)), references.map((r) => r.parts));
  if (!changedQualifiers && !changedReferences) return '';
  const count = (/** @type {number} */ n, /** @type {string} */ noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  return `; ${count(qualifiers.length, 'qualifier')}, ${count(references.length, 'reference')}`;
}

/**
 * Snaks as the API reads them back (property id and value): what it answered also carries each property's data
 * type, which an edit need not send.
 * @param {Snak[]} snaks
 */
function inputSnaks(snaks) {
  return snaks.map((s) => ({ property: { id: s.property.id }, value: s.value }));
}

/** A property's data type, or null when there is no such property. @param {string} property */
async function dataTypeOf(property) {
  const info = await fetch(`/w/api.php?action=wbgetentities&format=json&props=info&ids=${property}`).then((r) => r.json());
  return info.entities?.[property]?.datatype ?? null;
}

/** @typedef {{ property: { id: string }, value: any }} Snak */

/** A rank as the editor names it. @param {string} rank */
function rankText(rank) {
  return rank === 'preferred' ? t('preferred rank') : rank === 'deprecated' ? t('deprecated rank') : t('normal rank');
}

/**
 * The words of a snak editor, by what one snak is: a statement's qualifier or a new reference's part.
 * @param {'qualifier' | 'reference part'} noun
 */
function snakWords(noun) {
  return noun === 'qualifier' ? {
    move: t('Move qualifier up'), remove: t('Remove qualifier'), add: t('Add qualifier'),
    pick: t('Pick a property for the qualifier from the suggestions, or type its id such as P585.'),
    property: t('Property of a new qualifier'),
  } : {
    move: t('Move reference part up'), remove: t('Remove reference part'), add: t('Add reference part'),
    pick: t('Pick a property for the reference part from the suggestions, or type its id such as P854.'),
    property: t('Property of a new reference part'),
  };
}

/**
 * Moves entry i of a list one place up (the first stays). @template T @param {T[]} list @param {number} i
 */
function moveUp(list, i) {
  if (i > 0) list.splice(i - 1, 2, list[i], list[i - 1]);
}

/**
 * Snaks to edit (a statement's qualifiers, or the parts of a new reference): each listed with Move up and
 * Remove, and below them a property to pick, whose value input (by its data type) then joins the list. read()
 * gives the snaks in the order shown, in the API's input shape.
 * @param {'qualifier' | 'reference part'} noun what one snak is @param {Snak[]} snaks
 */
function snakEditor(noun, snaks) {
  const words = snakWords(noun);
  /** @typedef {{ snak: Snak } | { property: string, input: { element: HTMLElement, read: () => any } }} Entry */
  /** @type {Entry[]} */
  const entries = inputSnaks(snaks).map((snak) => ({ snak }));
  const list = el('ul', { className: 'snaks' });
  const show = () => list.replaceChildren(...entries.map((entry, i) => el('li', {}, [
    ...('snak' in entry ? [el('span', { textContent: `${entry.snak.property.id}: ${valueText(entry.snak.value)}` })]
      : [el('span', { textContent: `${entry.property}:` }), entry.input.element]),
    ...(i > 0 ? [button(words.move, () => { moveUp(entries, i); show(); }, 'link')] : []),
    button(words.remove, () => { entries.splice(i, 1); show(); }, 'link danger')])));
  show();
  const picker = entityPicker(STATEMENT_PROPERTY, '', `${noun}-property`);
  const problem = el('p', { className: 'editor-error', role: 'alert' });
  const add = button(words.add, async () => {
    problem.textContent = '';
    let property = '';
    try {
      property = idIn(picker.el.value);
    } catch { /* said below */ }
    const dataType = property.startsWith(STATEMENT_PROPERTY.prefix) ? await dataTypeOf(property) : null;
    if (!dataType) return void (problem.textContent = words.pick);
    entries.push({ property, input: valueInput(dataType) });
    picker.el.value = '';
    show();
  }, 'link');
  const element = el('div', { className: 'snak-editor' }, [list, el('div', { className: 'row' }, [field(words.property, picker.wrap), add]), problem]);
  return { element, read: () => /** @type {Snak[]} */ (entries.map((entry) => ('snak' in entry ? entry.snak
    : { property: { id: entry.property }, value: entry.input.read() }))) };
}

/**
 * A statement's references: each listed with Move up and Remove, and a new one made of parts (snakEditor)
 * added on save.
 * @param {{ parts: Snak[] }[]} references
 */
function referenceEditor(references) {
  const kept = references.map((r) => ({ parts: inputSnaks(r.parts) }));
  const list = el('ul', { className: 'references' });
  const show = () => list.replaceChildren(...kept.map((reference, i) => el('li', {}, [
    el('span', { textContent: reference.parts.map((s) => `${s.property.id}: ${valueText(s.value)}`).join('; ') }),
    ...(i > 0 ? [button(t('Move reference up'), () => { moveUp(kept, i); show(); }, 'link')] : []),
    button(t('Remove reference'), () => { kept.splice(i, 1); show(); }, 'link danger')])));
  show();
  const fresh = snakEditor('reference part', []);
  const element = el('fieldset', { className: 'reference-editor' }, [el('legend', { textContent: t('References') }), list,
    el('p', { className: 'hint', textContent: t('A new reference: its parts, such as a reference URL (P854) and a retrieval date (P813).') }), fresh.element]);
  return { element, read: () => {
    const parts = fresh.read();
    return parts.length ? [...kept, { parts }] : kept;
  } };
}

/**
 * Where the page's editors send their edits: the entity's API path, the revision the page shows (each edit is
 * sent on top of it, If-Match) and what to do with a saved edit's answer.
 * @typedef {{ base: string, revision: number, saved: (a: Answer) => void }} PageEdits
 */

/** @param {string} rank */
function rankSelect(rank) {
  const select = el('select', { name: 'rank' });
  for (const r of ['preferred', 'normal', 'deprecated']) select.append(new Option(rankText(r), r, false, r === rank));
  return select;
}

/** A statement as it is now, in words: what a conflict shows as "their version". @param {string} sid */
async function describe(sid) {
  const now = await call('GET', `/v1/statements/${encodeURIComponent(sid)}`);
  return now.ok ? `${valueText(now.body.value)} (${rankText(now.body.rank)})` : t('The statement has been removed.');
}

/**
 * The editor of one statement shown on the page: its value, rank, qualifiers and references, sent as one PATCH.
 * @param {HTMLElement} item the statement's list item @param {string} dataType @param {PageEdits} page
 */
async function statementEditor(item, dataType, page) {
  const sid = /** @type {string} */ (item.dataset.statementId);
  const current = await call('GET', `/v1/statements/${encodeURIComponent(sid)}`);
  const value = valueInput(dataType, current.ok ? current.body.value : undefined);
  const rank = rankSelect(item.dataset.rank ?? 'normal');
  const qualifiers = snakEditor('qualifier', current.ok ? current.body.qualifiers ?? [] : []);
  const references = referenceEditor(current.ok ? current.body.references ?? [] : []);
  const holder = el('div');
  holder.append(editor({
    title: t('Change this statement'),
    fields: [value.element, field(t('Rank'), rank),
      el('fieldset', { className: 'qualifier-editor' }, [el('legend', { textContent: t('Qualifiers') }), qualifiers.element]),
      references.element],
    save: (comment, rev = page.revision) => {
      const next = value.read();
      const property = item.closest('[data-property]')?.getAttribute('data-property') ?? '';
      const nextQualifiers = qualifiers.read();
      const nextReferences = references.read();
      // `add` replaces a member that is there and adds one that is not (RFC 6902).
      return call('PATCH', `${page.base}/statements/${encodeURIComponent(sid)}`, {
        body: { patch: [{ op: 'replace', path: '/value', value: next }, { op: 'replace', path: '/rank', value: rank.value },
          { op: 'add', path: '/qualifiers', value: nextQualifiers }, { op: 'add', path: '/references', value: nextReferences }],
          comment: summary(comment, `Changed claim: ${property}: ${valueText(next)} (${rank.value} rank`
            + `${statementExtras(current.ok ? current.body : null, nextQualifiers, nextReferences)})`) },
        revision: rev,
      });
    },
    // The statement as this editor loaded it: other statements, terms and sitelinks may have changed.
    unchanged: () => revisionIfUnchanged(`/v1/statements/${encodeURIComponent(sid)}`, (b) => b, current.ok ? current.body : undefined),
    theirs: () => describe(sid),
    done: page.saved,
    close: () => holder.remove(),
  }));
  item.append(holder);
}

/**
 * Removes a statement shown on the page, unless it changed since the page showed it.
 * @param {HTMLElement} item @param {HTMLElement} actions where a refusal is shown @param {PageEdits} page
 */
async function removeStatement(item, actions, page) {
  if (!confirm(t('Remove this statement?'))) return;
  const sid = /** @type {string} */ (item.dataset.statementId);
  const property = item.closest('[data-property]')?.getAttribute('data-property') ?? '';
  const shown = item.querySelector('.statement-value')?.textContent?.trim() ?? '';
  const answer = await sendOnTop((rev = page.revision) => call('DELETE', `${page.base}/statements/${encodeURIComponent(sid)}`,
    { body: { comment: clipped(`Removed claim: ${property}: ${shown}`) }, revision: rev }),
  async () => {
    // The statement as the page showed it (its revision), against the statement now.
    const then = await call('GET', `${page.base}/revisions/${page.revision}`);
    const was = then.ok ? Object.values(then.body.statements ?? {}).flat().find((/** @type {any} */ s) => s.id === sid) : undefined;
    return was ? revisionIfUnchanged(`/v1/statements/${encodeURIComponent(sid)}`, (b) => b, was) : null;
  });
  if (answer.ok) return page.saved(answer);
  actions.after(await refusal(answer, async () => t('Someone else edited this entity after you opened the page; nothing was removed. Their version: {0}', await describe(sid))));
}

/**
 * The editor of a new statement of a property, placed after `anchor`.
 * @param {string} property @param {string} dataType @param {HTMLElement} anchor @param {PageEdits} page
 */
function newStatementEditor(property, dataType, anchor, page) {
  const value = valueInput(dataType);
  const rank = rankSelect('normal');
  const holder = el('div');
  holder.append(editor({
    title: t('Add a value for {0}', property),
    fields: [value.element, field(t('Rank'), rank)],
    save: (comment, rev = page.revision) => {
      const next = value.read();
      return call('POST', `${page.base}/statements`, {
        body: { statement: { property: { id: property }, value: next, rank: rank.value },
          comment: summary(comment, `Created claim: ${property}: ${valueText(next)}`) }, revision: rev,
      });
    },
    // A new statement overlaps nothing: it goes on top of whatever others saved meanwhile.
    unchanged: () => revisionIfUnchanged(`${page.base}?_fields=labels`, () => null, null),
    theirs: async () => t('The entity has a newer revision; reload to see it.'),
    done: page.saved,
    close: () => holder.remove(),
  }));
  anchor.after(holder);
}

/**
 * The form that starts a statement of a property the entity has none of yet: pick the property, then its value.
 * @param {PageEdits} page @returns {HTMLElement[]}
 */
function addStatementForm(page) {
  const picker = entityPicker(STATEMENT_PROPERTY, '', 'property');
  const start = el('form', { className: 'row add-statement' }, [field(t('Add a statement with the property'), picker.wrap), el('button', { type: 'submit', textContent: t('Next') })]);
  const problem = el('p', { className: 'editor-error', role: 'alert' });
  start.addEventListener('submit', async (event) => {
    event.preventDefault();
    problem.textContent = '';
    let property = '';
    try {
      property = idIn(picker.el.value);
    } catch { /* said below */ }
    if (!property.startsWith(STATEMENT_PROPERTY.prefix)) return void (problem.textContent = t('Pick a property from the suggestions, or type its id such as P31.'));
    const dataType = await dataTypeOf(property);
    if (!dataType) return void (problem.textContent = t('There is no property {0}.', property));
    newStatementEditor(property, dataType, start, page);
  });
  return [start, problem];
}

/**
 * Gives each statement of the page its edit and remove buttons, each property's statements an "Add value", and
 * the statements section the form that adds a statement of another property.
 * @param {HTMLElement} article @param {string} base @param {number} revision @param {(a: Answer) => void} saved
 */
export function enhanceStatements(article, base, revision, saved) {
  /** @type {PageEdits} */
  const page = { base, revision, saved };
  for (const li of article.querySelectorAll('li.statement')) {
    const item = /** @type {HTMLElement} */ (li);
    const dataType = item.dataset.datatype ?? 'string';
    // The page sends no empty action cell per statement (hundreds on a large item): made here, for editors only.
    const actions = el('span', { className: 'actions' });
    item.querySelector('.statement-main')?.append(actions);
    actions.append(button(t('Edit'), () => statementEditor(item, dataType, page), 'link'),
      button(t('Remove'), () => removeStatement(item, actions, page), 'link danger'));
  }
  for (const group of article.querySelectorAll('.statement-group')) {
    const g = /** @type {HTMLElement} */ (group);
    const list = /** @type {HTMLElement} */ (g.querySelector('ol.statements'));
    list.after(button(t('Add value'), () => newStatementEditor(/** @type {string} */ (g.dataset.property), g.dataset.datatype || 'string', list, page), 'link'));
  }
  article.querySelector('.statements-section')?.append(...addStatementForm(page));
}
