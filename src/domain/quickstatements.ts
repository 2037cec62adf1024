// QuickStatements batches (docs/api.md §10.17): the two syntaxes Wikidata's editors write, V1 (TAB- or
// `|`-separated commands) and CSV, read into commands; and a command's values into the contract's values for
// the property's data type. Pure: http/quickstatements.ts runs the commands through the one edit path.
import { parse as parseCsvText } from 'csv-parse/sync';
import type { Value } from './entity.js';
import { DATA_TYPES } from './values/index.js';
import { isIdOfKind, ITEM, parseEntityId, PROPERTY } from './kinds.js';

/** A value as QuickStatements writes it, before the property's data type says what it becomes. */
export type QsValue =
  | { kind: 'entity'; id: string }
  | { kind: 'string'; text: string }
  | { kind: 'monolingualtext'; language: string; text: string }
  | { kind: 'time'; time: string; precision: number; julian: boolean }
  | { kind: 'coordinate'; latitude: number; longitude: number }
  | { kind: 'quantity'; amount: string; tolerance: string | null; unit: string | null }
  | { kind: 'somevalue' }
  | { kind: 'novalue' };

export interface QsSnak {
  property: string;
  value: QsValue;
}

/** The entity a command edits: an id, or `LAST`, the item the latest CREATE made. */
export type QsEntity = string;

export type QsCommand =
  | { op: 'create' }
  | { op: 'merge'; from: string; into: string }
  | { op: 'statement'; remove: boolean; entity: QsEntity; property: string; value: QsValue; qualifiers: QsSnak[]; references: QsSnak[][] }
  | { op: 'remove-statement'; statementId: string }
  | { op: 'term'; remove: boolean; entity: QsEntity; field: 'labels' | 'descriptions' | 'aliases'; language: string; text: string }
  | { op: 'sitelink'; remove: boolean; entity: QsEntity; site: string; title: string };

/** One command of a batch as read: where it was, its text, and the command or why it could not be read. */
export interface QsLine {
  /** 1-based line of the V1 text, or row of the CSV (the header is row 1). */
  line: number;
  text: string;
  /** The command's `/* … *\/` comment (V1) or `#` column (CSV): its edit summary. */
  comment: string | null;
  command: QsCommand | { op: 'invalid'; reason: string };
}

/** Commands one batch may hold. */
export const MAX_COMMANDS = 10_000;

const ENTITY = /^(Q|P)[1-9]\d{0,9}$/;
const TERM = /^([LDA])([a-z]{2,3}(?:-[a-z0-9]{1,8})*)$/;
const SITELINK = /^S([a-z][a-z0-9_]*)$/;
const SOURCE = /^(!?)S([1-9]\d{0,9})$/;
const COMMENT = /^(.*?)\s*\/\*\s*(.*?)\s*\*\/\s*$/s;
const TERM_FIELDS = { L: 'labels', D: 'descriptions', A: 'aliases' } as const;

class Invalid extends Error {}
const invalid = (reason: string): never => {
  throw new Invalid(reason);
};

// ---- V1 ---------------------------------------------------------------------------------------------------

/** A V1 batch: one command per line (or per `||`), fields separated by TAB, or by `|` on a line without TAB. */
export function parseV1(text: string): QsLine[] {
  const out: QsLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    for (const part of raw.split('||')) {
      if (part.trim() === '') continue;
      const commented = COMMENT.exec(part);
      const body = commented ? commented[1] : part;
      const fields = (body.includes('\t') ? body.split('\t') : body.split('|')).map((f) => f.trim());
      out.push({ line: i + 1, text: part.trim(), comment: commented?.[2] || null, command: readCommand(fields) });
    }
  });
  return out;
}

function readCommand(fields: string[]): QsLine['command'] {
  try {
    return v1Command(fields);
  } catch (e) {
    if (e instanceof Invalid) return { op: 'invalid', reason: e.message };
    throw e;
  }
}

function v1Command(fields: string[]): QsCommand {
  const head = fields[0].toUpperCase();
  if (head === 'CREATE') return fields.length === 1 ? { op: 'create' } : invalid('CREATE takes no other field');
  if (head === 'MERGE') {
    if (fields.length !== 3) invalid('MERGE takes two items');
    const [a, b] = [itemId(fields[1]), itemId(fields[2])];
    // As QuickStatements does: the newer item is merged into the older one, whichever order they are given in.
    return Number(a.slice(1)) > Number(b.slice(1)) ? { op: 'merge', from: a, into: b } : { op: 'merge', from: b, into: a };
  }
  if (head === '-STATEMENT') return fields.length === 2 ? { op: 'remove-statement', statementId: fields[1] } : invalid('-STATEMENT takes a statement id');
  const remove = head.startsWith('-');
  const entity = remove ? head.slice(1) : head;
  if (entity !== 'LAST' && !ENTITY.test(entity)) invalid(`not an entity id or LAST: ${fields[0]}`);
  if (fields.length < 3) invalid('a command needs an entity, a property (or term) and a value');
  const [, what, rawValue, ...rest] = fields;
  const term = TERM.exec(what);
  if (term) {
    if (rest.length) invalid('a term command takes one value');
    return { op: 'term', remove, entity, field: TERM_FIELDS[term[1] as 'L'], language: term[2], text: quoted(rawValue) };
  }
  const sitelink = SITELINK.exec(what);
  if (sitelink) {
    if (rest.length) invalid('a sitelink command takes one title');
    return { op: 'sitelink', remove, entity, site: sitelink[1], title: quoted(rawValue) };
  }
  if (!isIdOfKind(PROPERTY, what)) invalid(`not a property, term or sitelink: ${what}`);
  if (rest.length % 2 !== 0) invalid('qualifiers and sources come in pairs: property, value');
  const qualifiers: QsSnak[] = [];
  const references: QsSnak[][] = [];
  for (let i = 0; i < rest.length; i += 2) {
    const source = SOURCE.exec(rest[i]);
    const snak = { property: source ? `${PROPERTY.prefix}${source[2]}` : rest[i], value: parseValue(rest[i + 1]) };
    if (source) {
      // Sources on one command form one reference; `!S` starts another.
      if (references.length === 0 || source[1] === '!') references.push([]);
      references.at(-1)!.push(snak);
    } else if (isIdOfKind(PROPERTY, rest[i])) {
      qualifiers.push(snak);
    } else {
      invalid(`not a qualifier property or a source: ${rest[i]}`);
    }
  }
  return { op: 'statement', remove, entity, property: what, value: parseValue(rawValue), qualifiers, references };
}

function itemId(raw: string): string {
  const id = raw.toUpperCase();
  return isIdOfKind(ITEM, id) ? id : invalid(`not an item id: ${raw}`);
}

/** A term or title: in double quotes in V1 (taken as given without them). */
function quoted(raw: string): string {
  const m = /^"(.*)"$/s.exec(raw);
  return (m ? m[1] : raw).trim();
}

// ---- Values -----------------------------------------------------------------------------------------------

const TIME = /^([+-]?)(\d{1,16}-\d\d-\d\dT\d\d:\d\d:\d\dZ)(?:\/(\d{1,2}))?(\/J)?$/;
const COORDINATE = /^@\s*([+-]?\d+(?:\.\d+)?)\s*\/\s*([+-]?\d+(?:\.\d+)?)$/;
const QUANTITY = /^([+-]?\d+(?:\.\d+)?)(?:\s*~\s*(\d+(?:\.\d+)?))?(?:U([1-9]\d{0,9}))?$/;

/** A value in QuickStatements' syntax; a text it does not read is refused, not taken as a string. */
export function parseValue(raw: string): QsValue {
  const v = raw.trim();
  if (v === 'somevalue' || v === 'novalue') return { kind: v };
  if (v === 'LAST' || parseEntityId(v)) return { kind: 'entity', id: v.toUpperCase() };
  const mono = /^([a-z]{2,3}(?:-[a-z0-9]{1,8})*):"(.*)"$/s.exec(v);
  if (mono) return { kind: 'monolingualtext', language: mono[1], text: mono[2] };
  const string = /^"(.*)"$/s.exec(v);
  if (string) return { kind: 'string', text: string[1] };
  const time = TIME.exec(v);
  if (time) return { kind: 'time', time: `${time[1] || '+'}${time[2]}`, precision: time[3] ? Number(time[3]) : 9, julian: Boolean(time[4]) };
  const at = COORDINATE.exec(v);
  if (at) return { kind: 'coordinate', latitude: Number(at[1]), longitude: Number(at[2]) };
  const quantity = QUANTITY.exec(v);
  if (quantity) return { kind: 'quantity', amount: quantity[1], tolerance: quantity[2] ?? null, unit: quantity[3] ? `${ITEM.prefix}${quantity[3]}` : null };
  return invalid(`not a value QuickStatements writes: ${raw}`);
}

/** The value kinds each value type accepts (DATA_TYPES: data type → value type). */
const KINDS_BY_VALUE_TYPE: Record<string, QsValue['kind']> = {
  'wikibase-entityid': 'entity', string: 'string', monolingualtext: 'monolingualtext', time: 'time',
  globecoordinate: 'coordinate', quantity: 'quantity',
};

const GREGORIAN = 'http://www.wikidata.org/entity/Q1985727';
const JULIAN = 'http://www.wikidata.org/entity/Q1985786';
const EARTH = 'http://www.wikidata.org/entity/Q2';
/** QuickStatements' precision for `@lat/lon`, which has none of its own. */
const COORDINATE_PRECISION = 0.000001;

/**
 * The contract's value for a property of `dataType`, or the reason the value cannot be one. `unitBase`: the
 * concept base a `U…` unit is named under; `last`: the item the batch's latest CREATE made.
 */
export function contractValue(value: QsValue, dataType: string, unitBase: string, last: string | null): Value {
  if (value.kind === 'somevalue' || value.kind === 'novalue') return { type: value.kind };
  const expected = KINDS_BY_VALUE_TYPE[DATA_TYPES[dataType]];
  if (value.kind !== expected) invalid(`a ${dataType} property does not take this value`);
  switch (value.kind) {
    case 'entity': {
      const id = value.id === 'LAST' ? last ?? invalid('LAST: no item was created before it') : value.id;
      return { type: 'value', content: id };
    }
    case 'string': return { type: 'value', content: value.text };
    case 'monolingualtext': return { type: 'value', content: { text: value.text, language: value.language } };
    case 'time':
      return { type: 'value', content: { time: value.time, precision: value.precision, calendarmodel: value.julian ? JULIAN : GREGORIAN } };
    case 'coordinate':
      return { type: 'value', content: { latitude: value.latitude, longitude: value.longitude, precision: COORDINATE_PRECISION, globe: EARTH } };
    case 'quantity': {
      const unit = value.unit ? `${unitBase}${value.unit}` : '1';
      if (value.tolerance === null) return { type: 'value', content: { amount: value.amount, unit } };
      return { type: 'value', content: {
        amount: value.amount, unit,
        upperBound: addDecimals(value.amount, value.tolerance, 1), lowerBound: addDecimals(value.amount, value.tolerance, -1),
      } };
    }
  }
}

/** Reads why a command or value was refused, for the batch's report. */
export function refusalOf(e: unknown): string | null {
  return e instanceof Invalid ? e.message : null;
}

/** a ± b of two decimal strings, exactly (BigInt on a common scale). */
function addDecimals(a: string, b: string, sign: 1 | -1): string {
  const scale = Math.max(fraction(a), fraction(b));
  const sum = scaled(a, scale) + BigInt(sign) * scaled(b, scale);
  const digits = (sum < 0n ? -sum : sum).toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return `${sum < 0n ? '-' : '+'}${text}`;
}

const fraction = (d: string) => (d.split('.')[1] ?? '').length;
const scaled = (d: string, scale: number): bigint => {
  const [int, frac = ''] = d.replace(/^[+]/, '').split('.');
  return BigInt(int + frac.padEnd(scale, '0'));
};

// ---- CSV --------------------------------------------------------------------------------------------------

/**
 * A CSV batch: a header row (`qid`, then `Len`, `Den`, `Aen`, `Senwiki`, `P31`, `-P31`, `qal…` for a qualifier
 * of the column before, `S…` for a source of it, `s…` for another part of that source, `#` for a comment), then
 * one row per item; an empty qid creates one. Terms and titles are plain text; statement values as in V1.
 */
export function parseCsv(text: string): QsLine[] {
  let rows: string[][];
  try {
    rows = parseCsvText(text, { relax_column_count: true, skip_empty_lines: true, bom: true });
  } catch (e) {
    return [{ line: 1, text: '', comment: null, command: { op: 'invalid', reason: `not CSV: ${(e as Error).message}` } }];
  }
  if (rows.length === 0) return [];
  const header = rows[0].map((h) => h.trim());
  if (header[0]?.toLowerCase() !== 'qid') {
    return [{ line: 1, text: rows[0].join(','), comment: null, command: { op: 'invalid', reason: 'the header\'s first column must be qid' } }];
  }
  return rows.slice(1).flatMap((row, i) => csvRow(header, row, i + 2));
}

function csvRow(header: string[], row: string[], line: number): QsLine[] {
  const out: QsLine[] = [];
  const text = row.join(',');
  const qid = row[0]?.trim() ?? '';
  const entity = qid === '' ? 'LAST' : qid.toUpperCase();
  if (qid === '') out.push({ line, text, comment: null, command: { op: 'create' } });
  let statement: Extract<QsCommand, { op: 'statement' }> | null = null;
  let last: QsLine | null = null;
  for (let c = 1; c < header.length; c++) {
    const cell = (row[c] ?? '').trim();
    const column = header[c];
    if (cell === '') continue;
    const partOfStatement = /^qal[1-9]\d*$/.test(column) || /^[Ss][1-9]\d*$/.test(column);
    // The qualifiers and sources of a statement already refused say nothing more.
    if (partOfStatement && last?.command.op === 'invalid' && !statement) continue;
    try {
      if (column === '#') {
        if (last) last.comment = cell;
        continue;
      }
      if (partOfStatement) {
        if (!statement) invalid(`column ${column} follows no statement column`);
        const snak = { property: `${PROPERTY.prefix}${column.replace(/^(qal|S|s)/, '')}`, value: parseValue(cell) };
        if (column.startsWith('qal')) statement!.qualifiers.push(snak);
        else if (column[0] === 'S' || statement!.references.length === 0) statement!.references.push([snak]);
        else statement!.references.at(-1)!.push(snak);
        continue;
      }
      statement = null;
      if (entity !== 'LAST' && !ENTITY.test(entity)) invalid(`not an entity id: ${qid}`);
      const remove = column.startsWith('-');
      const what = remove ? column.slice(1) : column;
      const term = TERM.exec(what);
      const sitelink = SITELINK.exec(what);
      let command: QsCommand;
      if (term) command = { op: 'term', remove, entity, field: TERM_FIELDS[term[1] as 'L'], language: term[2], text: quoted(cell) };
      else if (sitelink) command = { op: 'sitelink', remove, entity, site: sitelink[1], title: quoted(cell) };
      else if (isIdOfKind(PROPERTY, what)) command = statement = { op: 'statement', remove, entity, property: what, value: parseValue(cell), qualifiers: [], references: [] };
      else command = invalid(`not a column QuickStatements knows: ${column}`);
      out.push(last = { line, text, comment: null, command });
    } catch (e) {
      if (!(e instanceof Invalid)) throw e;
      const refused = { op: 'invalid' as const, reason: `${column}: ${e.message}` };
      // A bad qualifier or source refuses its statement, which must not run without it.
      if (partOfStatement && statement && last) last.command = refused;
      else out.push(last = { line, text, comment: null, command: refused });
      statement = null;
    }
  }
  return out;
}
