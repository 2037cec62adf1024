// @ts-check
// A value input suited to a property's data type: a picker with suggestions for items and properties, a date
// for times, an amount and a unit for quantities, latitude and longitude for coordinates, a language and a text
// for monolingual text, a line of text for the rest. read() turns what was typed into the API's value shape.
import { t } from './i18n.js';
import { kindOfDataType, LEADING_ID, WHOLE_ID } from './kinds.js';

/** @typedef {import('./kinds.js').Kind} Kind */

const GREGORIAN = 'http://www.wikidata.org/entity/Q1985727';
const JULIAN = 'http://www.wikidata.org/entity/Q1985786';
const GLOBE = 'http://www.wikidata.org/entity/Q2';
const ENTITY_URI = 'http://www.wikidata.org/entity/';
/** A quantity's unit is an item, as in Wikibase: an entity of the kind of `wikibase-item` values. */
const UNIT = /** @type {Kind} */ (kindOfDataType('wikibase-item'));
let counter = 0;

/**
 * @param {string} text
 * @param {HTMLElement} control
 */
function labelled(text, control) {
  const label = document.createElement('label');
  const span = document.createElement('span');
  span.textContent = text;
  label.append(span, control);
  return label;
}

/** @param {Partial<HTMLInputElement>} props */
function input(props) {
  const el = document.createElement('input');
  Object.assign(el, { type: 'text', ...props });
  return el;
}

/**
 * An id input whose suggestions come from the API's suggest route (a native datalist: keyboard and screen
 * readers know it).
 * @param {Kind} kind
 * @param {string} value
 * @param {string} name
 */
export function entityPicker(kind, value, name) {
  const list = document.createElement('datalist');
  list.id = `suggest-${++counter}`;
  const el = input({ value, name, autocomplete: 'off', placeholder: kind.pick });
  el.setAttribute('list', list.id);
  let pending = 0;
  el.addEventListener('input', async () => {
    const q = el.value.trim();
    if (q.length < 1 || WHOLE_ID.test(q)) return;
    const mine = ++pending;
    const lang = document.body.dataset.language ?? 'en';
    const res = await fetch(`/v1/suggest/${kind.segment}?${new URLSearchParams({ q, lang, limit: '8' })}`);
    if (!res.ok || mine !== pending) return;
    const { results } = await res.json();
    list.replaceChildren(...results.map((/** @type {any} */ hit) => {
      const option = document.createElement('option');
      option.value = hit.id;
      option.label = [hit['display-label']?.value, hit.description?.value].filter(Boolean).join(' — ');
      return option;
    }));
  });
  const wrap = document.createElement('span');
  wrap.append(el, list);
  return { wrap, el };
}

/** @param {string} text @returns {string} the entity id a picker holds */
export function idIn(text) {
  const m = LEADING_ID.exec(text);
  if (!m) throw new Error(t('“{0}” is not an id such as Q42: pick a suggestion or type the id.', text));
  return m[1].toUpperCase();
}

/**
 * A value's content inputs, added to `box`; returns how to read the content (throwing an Error whose message
 * tells what to fix). One per data type that has inputs of its own; any other is a text input.
 * @typedef {(box: HTMLElement, content: any, dataType: string) => () => any} ContentInputs
 */

/** @type {ContentInputs} */
function timeInputs(box, content) {
  const precisionNow = typeof content?.precision === 'number' ? content.precision : null;
  const parts = content ? /^([+-])(\d+)-(\d\d)-(\d\d)/.exec(String(content.time)) : null;
  // The date as far as its precision goes: Wikidata writes a year as its first of January.
  const shown = parts ? [`${parts[1] === '-' ? '-' : ''}${parts[2].replace(/^0+(?=\d{4})/, '')}`,
    ...((precisionNow ?? 11) >= 10 && parts[3] !== '00' ? [parts[3]] : []), ...((precisionNow ?? 11) >= 11 && parts[4] !== '00' ? [parts[4]] : [])].join('-') : '';
  const el = input({ value: shown, name: 'value', placeholder: t('YYYY-MM-DD, YYYY-MM or YYYY') });
  const precision = document.createElement('select');
  precision.name = 'precision';
  for (const [value, text] of [['', t('as written')], ['11', t('day')], ['10', t('month')], ['9', t('year')], ['8', t('decade')],
    ['7', t('century')], ['6', t('millennium')]]) {
    precision.append(new Option(text, value, false, String(precisionNow ?? '') === value));
  }
  const calendar = document.createElement('select');
  calendar.name = 'calendar';
  for (const [value, text] of [[GREGORIAN, t('Gregorian')], [JULIAN, t('Julian')]]) {
    calendar.append(new Option(text, value, false, (content?.calendarmodel ?? GREGORIAN) === value));
  }
  box.append(labelled(t('Date'), el), labelled(t('Precision'), precision), labelled(t('Calendar'), calendar));
  return () => {
    const m = /^(-?)(\d{1,16})(?:-(\d\d)(?:-(\d\d))?)?$/.exec(el.value.trim());
    if (!m) throw new Error(t('Write the date as 1831-07-21, 1831-07 or 1831.'));
    const [, minus, year, month, day] = m;
    const written = day ? 11 : month ? 10 : 9;
    const chosen = precision.value === '' ? written : Number(precision.value);
    if (chosen > written) throw new Error(t('A date at this precision needs its month and day written too.'));
    // Parts finer than the precision are left out, as Wikibase stores them.
    const time = `${minus || '+'}${year.padStart(4, '0')}-${chosen >= 10 ? month : '00'}-${chosen >= 11 ? day : '00'}T00:00:00Z`;
    return { time, precision: chosen, calendarmodel: calendar.value };
  };
}

/** @type {ContentInputs} */
function quantityInputs(box, content) {
  const amount = input({ value: content ? String(content.amount).replace(/^\+/, '') : '', name: 'amount', inputMode: 'decimal' });
  const unitId = typeof content?.unit === 'string' && content.unit !== '1' ? content.unit.split('/').pop() : '';
  const unit = entityPicker(UNIT, unitId, 'unit');
  box.append(labelled(t('Amount'), amount), labelled(t('Unit (optional item)'), unit.wrap));
  return () => {
    const value = amount.value.trim();
    if (!/^-?\d+(\.\d+)?$/.test(value)) throw new Error(t('The amount must be a number such as 42 or -0.5.'));
    const u = unit.el.value.trim();
    return { amount: value.startsWith('-') ? value : `+${value}`, unit: u ? ENTITY_URI + idIn(u) : '1' };
  };
}

/** @type {ContentInputs} */
function coordinateInputs(box, content) {
  const lat = input({ value: content ? String(content.latitude) : '', name: 'latitude', inputMode: 'decimal' });
  const lon = input({ value: content ? String(content.longitude) : '', name: 'longitude', inputMode: 'decimal' });
  box.append(labelled(t('Latitude'), lat), labelled(t('Longitude'), lon));
  return () => {
    const [a, b] = [Number(lat.value), Number(lon.value)];
    if (lat.value.trim() === '' || lon.value.trim() === '' || !(Math.abs(a) <= 90) || !(Math.abs(b) <= 360)) {
      throw new Error(t('Latitude goes from -90 to 90 and longitude from -360 to 360.'));
    }
    const decimals = Math.max(...[lat.value, lon.value].map((v) => (v.split('.')[1] ?? '').length));
    return { latitude: a, longitude: b, precision: 10 ** -Math.min(decimals, 9), globe: GLOBE };
  };
}

/** @type {ContentInputs} */
function monolingualInputs(box, content) {
  const lang = input({ value: content?.language ?? document.body.dataset.language ?? 'en', name: 'language', size: 6 });
  const text = input({ value: content?.text ?? '', name: 'text' });
  box.append(labelled(t('Language'), lang), labelled(t('Text'), text));
  return () => ({ language: lang.value.trim(), text: text.value });
}

/** @type {ContentInputs} */
function textInput(box, content, dataType) {
  const el = input({ value: typeof content === 'string' ? content : '', name: 'value', type: dataType === 'url' ? 'url' : 'text' });
  box.append(labelled(t('Value'), el));
  return () => el.value;
}

/** @type {Record<string, ContentInputs>} */
const CONTENT_INPUTS = { time: timeInputs, quantity: quantityInputs, 'globe-coordinate': coordinateInputs, monolingualtext: monolingualInputs };

/**
 * Builds the inputs; `read()` returns the API value or throws an Error whose message tells what to fix.
 * @param {string} dataType
 * @param {any} [current] the API value being edited
 * @returns {{ element: HTMLElement, read: () => any }}
 */
export function valueInput(dataType, current) {
  const box = document.createElement('div');
  box.className = 'row value-input';
  const content = current?.type === 'value' ? current.content : undefined;

  const kindSelect = document.createElement('select');
  for (const [v, text] of [['value', t('a value')], ['somevalue', t('unknown value')], ['novalue', t('no value')]]) {
    kindSelect.append(new Option(text, v, false, (current?.type ?? 'value') === v));
  }
  box.append(labelled(t('Kind'), kindSelect));

  // An id of a kind (an item, a property) is picked from suggestions.
  const idKind = kindOfDataType(dataType);
  /** @type {() => any} */
  let readContent;
  if (idKind) {
    const picker = entityPicker(idKind, typeof content === 'string' ? content : '', 'value');
    box.append(labelled(idKind.one, picker.wrap));
    readContent = () => idIn(picker.el.value);
  } else {
    readContent = (Object.hasOwn(CONTENT_INPUTS, dataType) ? CONTENT_INPUTS[dataType] : textInput)(box, content, dataType);
  }
  return {
    element: box,
    read: () => (kindSelect.value === 'value' ? { type: 'value', content: readContent() } : { type: kindSelect.value }),
  };
}

/**
 * A value as plain text, for the "their version" of a conflict.
 * @param {any} value
 */
export function valueText(value) {
  if (!value) return t('(nothing)');
  if (value.type !== 'value') return value.type === 'novalue' ? t('no value') : t('unknown value');
  const c = value.content;
  if (typeof c === 'string') return c;
  if (c.time) return c.time;
  if (c.amount) return `${c.amount}${c.unit && c.unit !== '1' ? ` ${c.unit.split('/').pop()}` : ''}`;
  if (c.text !== undefined) return `${c.text} (${c.language})`;
  if (c.latitude !== undefined) return `${c.latitude}, ${c.longitude}`;
  return JSON.stringify(c);
}
