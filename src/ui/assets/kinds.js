// @ts-check
// The kinds of entity, as the server's descriptor (domain/kinds.ts) hands them to the scripts in a JSON data block
// (ui/layout.tsx), their words already in the page's language: the scripts choose by these facts, never by a
// kind's name, so a new kind needs nothing here.

/**
 * @typedef {object} Kind
 * @property {string} name `item`
 * @property {string} prefix `Q`
 * @property {string} segment the API's path segment: `items`
 * @property {string} createField the creation body's field: `item`
 * @property {string} dataType the data type whose values are its ids: `wikibase-item`
 * @property {boolean} hasDataType whether its entities have a data type (they are what statements are made of)
 * @property {boolean} redirects whether one may become a redirect to another (merging)
 * @property {string} one its noun: `Item`
 * @property {string} pick what an id input of the kind suggests typing: `Q42 or a name`
 */

const block = document.getElementById('ui-kinds');
/** @type {Kind[]} */
const KINDS = block?.textContent ? JSON.parse(block.textContent) : [];

/** @param {string | undefined} segment the kind whose API path segment this is */
export const kindAt = (segment) => KINDS.find((k) => k.segment === segment);

/** @param {string | undefined} name */
export const kindNamed = (name) => KINDS.find((k) => k.name === name);

/** @param {string | null | undefined} dataType the kind whose ids a data type's values are, if any */
export const kindOfDataType = (dataType) => KINDS.find((k) => k.dataType === dataType);

/** The kind of the entities a statement is made with (those with a data type). */
export const STATEMENT_PROPERTY = /** @type {Kind} */ (KINDS.find((k) => k.hasDataType));

const PREFIXES = KINDS.map((k) => k.prefix).join('');
/** An id of any kind, alone (`q42` too). */
export const WHOLE_ID = new RegExp(`^[${PREFIXES}]\\d+$`, 'i');
/** An id of any kind at the start of a text (`Q42 (Douglas Adams)`). */
export const LEADING_ID = new RegExp(`^\\s*([${PREFIXES}][1-9]\\d*)\\b`, 'i');
