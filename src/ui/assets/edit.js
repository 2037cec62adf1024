// @ts-check
// Editing on an entity page: terms per language, statements (add; change value, rank, qualifiers and
// references; remove), sitelinks
// (add, remove), and revert from the history or an old revision. Every edit is one API request sent with
// If-Match: the revision the page showed. A 412 means someone else edited first: the editor says so and shows
// their version instead of overwriting it.
import { call, explain } from './api.js';
import { t } from './i18n.js';
import { loadPart } from './parts.js';
import { entityPicker, idIn, valueInput, valueText } from './value-input.js';

/** @typedef {import('./api.js').Answer} Answer */

/** @param {string} tag @param {Record<string, any>} [props] @param {(Node | string)[]} [children] */
function el(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** @param {string} text @param {() => void} onClick @param {string} [className] */
function button(text, onClick, className = '') {
  return el('button', { type: 'button', className, textContent: text, onclick: onClick });
}

/** Shown after the reload that follows a saved edit. @param {string} text */
function flash(text) {
  sessionStorage.setItem('entia.flash', text);
}

/**
 * The entity's revision now if the part an edit touches (`part` of what `url` answers) is as the editor saw it,
 * else null: the edit then overlaps nothing others changed meanwhile.
 * @param {string} url @param {(body: any) => unknown} part @param {unknown} seen
 */
async function revisionIfUnchanged(url, part, seen) {
  const now = await call('GET', url);
  if (!now.ok || now.revision === null) return null;
  return JSON.stringify(part(now.body) ?? null) === JSON.stringify(seen ?? null) ? now.revision : null;
}

/**
 * Sends an edit with the page's revision (`send()`); refused because the entity changed since (412), sends it
 * again on top of the newer revision when `unchanged` says the part it edits is as the editor saw it.
 * @param {(revision?: number) => Promise<Answer>} send @param {(() => Promise<number | null>) | undefined} unchanged
 */
async function sendOnTop(send, unchanged) {
  const answer = await send();
  if (answer.status !== 412 || !unchanged) return answer;
  const newer = await unchanged().catch(() => null);
  return newer === null ? answer : send(newer);
}

/**
 * An editor box: its fields, an optional summary, Save and Cancel, and a place for errors and conflicts.
 * A save refused because the entity changed since the page was loaded (412) is sent again on top of the newer
 * revision when `unchanged` finds the part it edits as the editor saw it: edits of different parts do not
 * conflict. Otherwise the editor shows their version and keeps what was typed.
 * @param {{ title: string, fields: HTMLElement[], save: (comment: string | undefined, revision?: number) => Promise<Answer>,
 *   theirs: () => Promise<string>, unchanged?: () => Promise<number | null>, done: (answer: Answer) => void,
 *   close: () => void }} spec
 */
function editor(spec) {
  const summary = el('input', { type: 'text', name: 'comment', maxLength: 500 });
  const message = el('div', { className: 'editor-message', role: 'alert' });
  const save = el('button', { type: 'submit', textContent: t('Save') });
  const form = el('form', { className: 'editor', ariaLabel: spec.title }, [
    el('strong', { textContent: spec.title }),
    ...spec.fields,
    el('label', {}, [el('span', { textContent: t('Edit summary (optional)') }), summary]),
    el('div', { className: 'buttons' }, [save, button(t('Cancel'), spec.close)]),
    message,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.replaceChildren();
    save.disabled = true;
    try {
      const comment = summary.value.trim() || undefined;
      const answer = await sendOnTop((rev) => spec.save(comment, rev), spec.unchanged);
      if (answer.ok) return spec.done(answer);
      if (answer.status === 412) {
        const theirs = await spec.theirs().catch(() => '(could not be read)');
        message.replaceChildren(el('div', { className: 'conflict' }, [
          el('p', { textContent: t('Someone else edited this entity after you opened the page, so your change was not saved.') }),
          el('p', { textContent: t('Their version:') }),
          el('pre', { textContent: theirs }),
          button(t('Reload the page to see it'), () => location.reload(), 'primary'),
        ]));
      } else {
        message.replaceChildren(el('p', { className: 'editor-error', textContent: explain(answer) }));
      }
    } catch (e) {
      message.replaceChildren(el('p', { className: 'editor-error', textContent: e instanceof Error ? e.message : String(e) }));
    } finally {
      save.disabled = false;
    }
  });
  queueMicrotask(() => /** @type {HTMLElement | null} */ (form.querySelector('input, select, textarea'))?.focus());
  return form;
}

/**
 * An edit's summary: the editor's, or one said for them in Wikibase's words ("Changed label [en]: …"), which the
 * history, recent changes and the change feed then show.
 * @param {string | undefined} typed @param {string} automatic
 */
function summary(typed, automatic) {
  return typed ?? clipped(automatic);
}

const COMMENT_MAX_BYTES = 500;
const utf8 = new TextEncoder();

/** A summary cut to the API's limit in bytes, at a whole character, with an ellipsis. @param {string} text */
function clipped(text) {
  if (utf8.encode(text).length <= COMMENT_MAX_BYTES) return text;
  const chars = Array.from(text.slice(0, COMMENT_MAX_BYTES + 1));
  while (utf8.encode(`${chars.join('')}…`).length > COMMENT_MAX_BYTES) chars.pop();
  return `${chars.join('')}…`;
}

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

/** @param {string} label @param {HTMLElement} control */
function field(label, control) {
  return el('label', {}, [el('span', { textContent: label }), control]);
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
  if (kind === 'items') enhanceMerge(article, id, base, revision);
}

/**
 * Merging this item into another (POST …/merge, Wikibase's rules): its content moves there and it becomes a
 * redirect; the editor then opens the item it was merged into.
 * @param {HTMLElement} article @param {string} id @param {string} base @param {number} revision
 */
function enhanceMerge(article, id, base, revision) {
  const meta = article.querySelector('.entity-meta');
  if (!meta) return;
  const open = () => {
    const target = entityPicker('items', '', 'into');
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
 * @param {HTMLElement} article @param {string} base @param {number} revision @param {(a: Answer) => void} saved
 */
function enhanceTerms(article, base, revision, saved) {
  /** @param {HTMLTableRowElement | null} row @param {string} language @param {HTMLElement} anchor */
  const open = (row, language, anchor) => {
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
    const close = () => holder.remove();
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
      close,
    }));
    anchor.after(holder);
  };
  const editButtons = (/** @type {ParentNode} */ root) => {
    for (const row of root.querySelectorAll('table.terms tbody tr')) {
      const language = /** @type {string} */ (/** @type {HTMLElement} */ (row).dataset.language);
      const cell = row.querySelector('td.actions');
      const table = /** @type {HTMLElement} */ (row.closest('table'));
      cell?.append(button(t('Edit'), () => open(/** @type {HTMLTableRowElement} */ (row), language, table), 'link'));
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
    open(row, language, add);
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
  const picker = entityPicker('properties', '', `${noun}-property`);
  const problem = el('p', { className: 'editor-error', role: 'alert' });
  const add = button(words.add, async () => {
    problem.textContent = '';
    let property = '';
    try {
      property = idIn(picker.el.value);
    } catch { /* said below */ }
    const dataType = /^P[1-9]\d*$/.test(property) ? await dataTypeOf(property) : null;
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
 * @param {HTMLElement} article @param {string} base @param {number} revision @param {(a: Answer) => void} saved
 */
function enhanceStatements(article, base, revision, saved) {
  const rankSelect = (/** @type {string} */ rank) => {
    const select = el('select', { name: 'rank' });
    for (const r of ['preferred', 'normal', 'deprecated']) select.append(new Option(rankText(r), r, false, r === rank));
    return select;
  };
  const describe = async (/** @type {string} */ sid) => {
    const now = await call('GET', `/v1/statements/${encodeURIComponent(sid)}`);
    return now.ok ? `${valueText(now.body.value)} (${rankText(now.body.rank)})` : t('The statement has been removed.');
  };
  for (const li of article.querySelectorAll('li.statement')) {
    const item = /** @type {HTMLElement} */ (li);
    const sid = /** @type {string} */ (item.dataset.statementId);
    const dataType = item.dataset.datatype ?? 'string';
    // The page sends no empty action cell per statement (hundreds on a large item): made here, for editors only.
    const actions = el('span', { className: 'actions' });
    item.querySelector('.statement-main')?.append(actions);
    actions.append(
      button(t('Edit'), async () => {
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
          save: (comment, rev = revision) => {
            const next = value.read();
            const property = item.closest('[data-property]')?.getAttribute('data-property') ?? '';
            const nextQualifiers = qualifiers.read();
            const nextReferences = references.read();
            // `add` replaces a member that is there and adds one that is not (RFC 6902).
            return call('PATCH', `${base}/statements/${encodeURIComponent(sid)}`, {
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
          done: saved,
          close: () => holder.remove(),
        }));
        item.append(holder);
      }, 'link'),
      button(t('Remove'), async () => {
        if (!confirm(t('Remove this statement?'))) return;
        const property = item.closest('[data-property]')?.getAttribute('data-property') ?? '';
        const shown = item.querySelector('.statement-value')?.textContent?.trim() ?? '';
        const answer = await sendOnTop((rev = revision) => call('DELETE', `${base}/statements/${encodeURIComponent(sid)}`,
          { body: { comment: clipped(`Removed claim: ${property}: ${shown}`) }, revision: rev }),
        async () => {
          // The statement as the page showed it (its revision), against the statement now.
          const then = await call('GET', `${base}/revisions/${revision}`);
          const was = then.ok ? Object.values(then.body.statements ?? {}).flat().find((/** @type {any} */ s) => s.id === sid) : undefined;
          return was ? revisionIfUnchanged(`/v1/statements/${encodeURIComponent(sid)}`, (b) => b, was) : null;
        });
        if (answer.ok) return saved(answer);
        actions.after(await refusal(answer, async () => t('Someone else edited this entity after you opened the page; nothing was removed. Their version: {0}', await describe(sid))));
      }, 'link danger'),
    );
  }
  /** @param {string} property @param {string} dataType @param {HTMLElement} anchor */
  const addTo = (property, dataType, anchor) => {
    const value = valueInput(dataType);
    const rank = rankSelect('normal');
    const holder = el('div');
    holder.append(editor({
      title: t('Add a value for {0}', property),
      fields: [value.element, field(t('Rank'), rank)],
      save: (comment, rev = revision) => {
        const next = value.read();
        return call('POST', `${base}/statements`, {
          body: { statement: { property: { id: property }, value: next, rank: rank.value },
            comment: summary(comment, `Created claim: ${property}: ${valueText(next)}`) }, revision: rev,
        });
      },
      // A new statement overlaps nothing: it goes on top of whatever others saved meanwhile.
      unchanged: () => revisionIfUnchanged(`${base}?_fields=labels`, () => null, null),
      theirs: async () => t('The entity has a newer revision; reload to see it.'),
      done: saved,
      close: () => holder.remove(),
    }));
    anchor.after(holder);
  };
  for (const group of article.querySelectorAll('.statement-group')) {
    const g = /** @type {HTMLElement} */ (group);
    const list = /** @type {HTMLElement} */ (g.querySelector('ol.statements'));
    list.after(button(t('Add value'), () => addTo(/** @type {string} */ (g.dataset.property), g.dataset.datatype || 'string', list), 'link'));
  }
  const section = article.querySelector('.statements-section');
  const picker = entityPicker('properties', '', 'property');
  const start = el('form', { className: 'row add-statement' }, [field(t('Add a statement with the property'), picker.wrap), el('button', { type: 'submit', textContent: t('Next') })]);
  const problem = el('p', { className: 'editor-error', role: 'alert' });
  start.addEventListener('submit', async (event) => {
    event.preventDefault();
    problem.textContent = '';
    const property = (/^\s*(P[1-9]\d*)/i.exec(picker.el.value)?.[1] ?? '').toUpperCase();
    if (!property) return void (problem.textContent = t('Pick a property from the suggestions, or type its id such as P31.'));
    const dataType = await dataTypeOf(property);
    if (!dataType) return void (problem.textContent = t('There is no property {0}.', property));
    addTo(property, dataType, start);
  });
  section?.append(start, problem);
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

/**
 * The paragraph that says why an edit outside an editor was refused: a 412 tells of the other edit in the
 * words the caller gives (fetched only then), anything else is explained from the API's answer.
 * @param {Answer} answer @param {() => Promise<string>} conflict
 */
async function refusal(answer, conflict) {
  const isConflict = answer.status === 412;
  const text = isConflict ? await conflict() : explain(answer);
  return el('p', { className: isConflict ? 'conflict' : 'editor-error', role: 'alert', textContent: text });
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
