// @ts-check
// What every editor of the entity page uses (edit.js, edit-statements.js): elements, the editor box with its
// Save, Cancel and conflict handling, sending an edit again on top of a newer revision when the part it edits is
// unchanged, and automatic summaries cut to the API's limit.
import { call, explain } from './api.js';
import { t } from './i18n.js';

/** @typedef {import('./api.js').Answer} Answer */

/** @param {string} tag @param {Record<string, any>} [props] @param {(Node | string)[]} [children] */
export function el(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** @param {string} text @param {() => void} onClick @param {string} [className] */
export function button(text, onClick, className = '') {
  return el('button', { type: 'button', className, textContent: text, onclick: onClick });
}

/** Shown after the reload that follows a saved edit. @param {string} text */
export function flash(text) {
  sessionStorage.setItem('entia.flash', text);
}

/**
 * The entity's revision now if the part an edit touches (`part` of what `url` answers) is as the editor saw it,
 * else null: the edit then overlaps nothing others changed meanwhile.
 * @param {string} url @param {(body: any) => unknown} part @param {unknown} seen
 */
export async function revisionIfUnchanged(url, part, seen) {
  const now = await call('GET', url);
  if (!now.ok || now.revision === null) return null;
  return JSON.stringify(part(now.body) ?? null) === JSON.stringify(seen ?? null) ? now.revision : null;
}

/**
 * Sends an edit with the page's revision (`send()`); refused because the entity changed since (412), sends it
 * again on top of the newer revision when `unchanged` says the part it edits is as the editor saw it.
 * @param {(revision?: number) => Promise<Answer>} send @param {(() => Promise<number | null>) | undefined} unchanged
 */
export async function sendOnTop(send, unchanged) {
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
export function editor(spec) {
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
export function summary(typed, automatic) {
  return typed ?? clipped(automatic);
}

const COMMENT_MAX_BYTES = 500;
const utf8 = new TextEncoder();

/** A summary cut to the API's limit in bytes, at a whole character, with an ellipsis. @param {string} text */
export function clipped(text) {
  if (utf8.encode(text).length <= COMMENT_MAX_BYTES) return text;
  const chars = Array.from(text.slice(0, COMMENT_MAX_BYTES + 1));
  while (utf8.encode(`${chars.join('')}…`).length > COMMENT_MAX_BYTES) chars.pop();
  return `${chars.join('')}…`;
}

/** @param {string} label @param {HTMLElement} control */
export function field(label, control) {
  return el('label', {}, [el('span', { textContent: label }), control]);
}

/**
 * The paragraph that says why an edit outside an editor was refused: a 412 tells of the other edit in the
 * words the caller gives (fetched only then), anything else is explained from the API's answer.
 * @param {Answer} answer @param {() => Promise<string>} conflict
 */
export async function refusal(answer, conflict) {
  const isConflict = answer.status === 412;
  const text = isConflict ? await conflict() : explain(answer);
  return el('p', { className: isConflict ? 'conflict' : 'editor-error', role: 'alert', textContent: text });
}
