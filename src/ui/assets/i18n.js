// @ts-check
// The interface's words in the page's language: the server puts the scripts' messages of that language in the
// page (a JSON data block, ui/messages.ts); English is the text in the code, used when none is given.
const block = document.getElementById('ui-messages');
/** @type {Record<string, string>} */
const messages = block?.textContent ? JSON.parse(block.textContent) : {};

/** Marks a message kept in a table and translated where it is shown (as ui/messages.ts's msg). @param {string} english */
export const msg = (english) => english;

/**
 * A message in the page's language, its `{0}`, `{1}` filled with the parameters.
 * @param {string} text the English message @param {...(string | number)} params
 */
export function t(text, ...params) {
  const shown = messages[text] ?? text;
  return params.length ? shown.replace(/\{(\d)\}/g, (whole, i) => String(params[Number(i)] ?? whole)) : shown;
}
