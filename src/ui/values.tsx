// How a statement's value reads to a person, by its property's data type: items and properties by their
// labels, times at their precision and calendar, quantities with their unit, coordinates with a map link.
import type { ComponentChildren } from 'preact';
import type { Snak, Value } from '../domain/entity.js';
import type { Shown } from './language.js';
import { interfaceLanguage, translator, type Translate } from './messages.js';
import { ENTITY_ID_PATTERN, kindOfDataType, parseEntityId } from '../domain/kinds.js';

/** Labels of the entities a page refers to, already fetched in one batch (entity-page.ts). */
export interface Labels {
  language: string;
  label(id: string): Shown | null;
}

const ENTITY_URI = new RegExp(`^https?://[^/]+/entity/(${ENTITY_ID_PATTERN})$`);
const JULIAN = 'Q1985786';

/** The ids a value mentions: an entity value, or a quantity's unit given by its concept URI. */
export function idsInValue(value: Value): string[] {
  if (value.type !== 'value') return [];
  const c = value.content;
  if (typeof c === 'string') return parseEntityId(c)?.id === c ? [c] : [];
  const unit = (c as { unit?: unknown } | null)?.unit;
  const id = typeof unit === 'string' ? ENTITY_URI.exec(unit)?.[1] : undefined;
  return id ? [id] : [];
}

/** A link to an entity page showing its label (or its id when it has none), the id alongside. */
export function EntityLink({ id, labels }: { id: string; labels: Labels }) {
  const shown = labels.label(id);
  if (!shown) return <a href={`/${id}`} class="entity-link">{id}</a>;
  return (
    <a href={`/${id}`} class="entity-link" lang={shown.language === labels.language ? undefined : shown.language}>
      {shown.text} <span class="id">({id})</span>
    </a>
  );
}

export function ValueView({ snak, labels }: { snak: Snak; labels: Labels }) {
  // Not useT(): a page shows thousands of values, and a hook in each costs (bench:ui).
  const t = translator(labels.language);
  const { value } = snak;
  if (value.type === 'somevalue') return <em class="special-value">{t('unknown value')}</em>;
  if (value.type === 'novalue') return <em class="special-value">{t('no value')}</em>;
  return <>{contentView(snak.property['data-type'], value.content, labels, t)}</>;
}

function contentView(dataType: string | null, content: unknown, labels: Labels, t: Translate): ComponentChildren {
  if (typeof content === 'string') return stringView(dataType, content, labels);
  const c = (content ?? {}) as Record<string, unknown>;
  if (typeof c.time === 'string') return timeView(c.time, Number(c.precision), String(c.calendarmodel ?? ''), t, interfaceLanguage(labels.language));
  if (typeof c.amount === 'string') return quantityView(c, labels);
  if (typeof c.latitude === 'number' && typeof c.longitude === 'number') return coordinateView(c.latitude, c.longitude);
  if (typeof c.text === 'string' && typeof c.language === 'string') {
    return <><span lang={c.language}>{c.text}</span> <span class="language-code">({c.language})</span></>;
  }
  return <code>{JSON.stringify(content)}</code>;
}

function stringView(dataType: string | null, text: string, labels: Labels): ComponentChildren {
  if (kindOfDataType(dataType)) return <EntityLink id={text} labels={labels} />;
  switch (dataType) {
    case 'url':
      return /^https?:\/\//i.test(text) ? <a href={text} rel="nofollow noopener noreferrer" class="external">{text}</a> : text;
    case 'commonsMedia':
      return <a href={`https://commons.wikimedia.org/wiki/File:${encodeURIComponent(text.replace(/ /g, '_'))}`} rel="noopener noreferrer" class="external">{text}</a>;
    case 'geo-shape':
    case 'tabular-data':
      return <a href={`https://commons.wikimedia.org/wiki/${encodeURIComponent(text.replace(/ /g, '_')).replace('%3A', ':')}`} rel="noopener noreferrer" class="external">{text}</a>;
    case 'external-id':
      return <code class="external-id">{text}</code>;
    default:
      return text;
  }
}

/** A month's name (1–12) in the interface's language. */
function monthName(t: Translate, month: number): string | null {
  switch (month) {
    case 1: return t('January');
    case 2: return t('February');
    case 3: return t('March');
    case 4: return t('April');
    case 5: return t('May');
    case 6: return t('June');
    case 7: return t('July');
    case 8: return t('August');
    case 9: return t('September');
    case 10: return t('October');
    case 11: return t('November');
    case 12: return t('December');
    default: return null;
  }
}

/**
 * Wikibase's time precisions: 11 day, 10 month, 9 year, 8 decade, 7 century, 6 millennium, 0–5 larger spans;
 * in English unless given the page's translator and language.
 */
export function formatTime(time: string, precision: number, t: Translate = translator('en'), language = 'en'): string {
  const m = /^([+-])0*(\d+)-(\d\d)-(\d\d)T/.exec(time);
  if (!m) return time;
  const [, sign, yearText, month, day] = m;
  const year = Number(yearText);
  const bce = sign === '-';
  const era = (text: string) => (bce ? t('{0} BCE', text) : text);
  const monthText = monthName(t, Number(month)) ?? month;
  if (precision >= 11 && day !== '00') return era(t('{0} {1} {2}', Number(day), monthText, year));
  if (precision >= 10 && month !== '00') return era(`${monthText} ${year}`);
  if (precision >= 9) return era(String(year));
  if (precision === 8) return era(t('{0}s', Math.floor(year / 10) * 10));
  if (precision === 7) return era(t('{0} century', ordinal(t, Math.floor((year - 1) / 100) + 1, language)));
  if (precision === 6) return era(t('{0} millennium', ordinal(t, Math.floor((year - 1) / 1000) + 1, language)));
  const span = 10 ** (9 - precision);
  const rounded = (Math.round(year / span) * span).toLocaleString(language);
  return bce ? t('{0} years ago', rounded) : t('{0} years', rounded);
}

/**
 * An ordinal number as the interface's language writes it (21st, 21., 21e): the language's ordinal plural rule
 * picks the form, and the catalogue says how each form is written.
 */
function ordinal(t: Translate, n: number, language: string): string {
  switch (new Intl.PluralRules(language, { type: 'ordinal' }).select(n)) {
    case 'one': return t('{0}st', n);
    case 'two': return t('{0}nd', n);
    case 'few': return t('{0}rd', n);
    default: return t('{0}th', n);
  }
}

function timeView(time: string, precision: number, calendar: string, t: Translate, language: string) {
  const julian = calendar.endsWith(`/${JULIAN}`);
  return <time datetime={time.replace(/^\+/, '')}>{formatTime(time, precision, t, language)}{julian ? <sup class="calendar">{t('Julian')}</sup> : null}</time>;
}

/** "+11150516" → "11,150,516"; the sign is kept only when negative, as Wikidata shows it. */
export function formatAmount(amount: string): string {
  const m = /^([+-]?)(\d+)(\.\d+)?$/.exec(amount);
  if (!m) return amount;
  const whole = m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${m[1] === '-' ? '−' : ''}${whole}${m[3] ?? ''}`;
}

function quantityView(c: Record<string, unknown>, labels: Labels) {
  const amount = String(c.amount);
  const upper = typeof c.upperBound === 'string' ? Number(c.upperBound) : null;
  const spread = upper === null ? null : upper - Number(amount);
  const unitId = typeof c.unit === 'string' ? ENTITY_URI.exec(c.unit)?.[1] : undefined;
  return (
    <span class="quantity">
      {formatAmount(amount)}
      {spread !== null && spread > 0 ? <>±{Number(spread.toPrecision(6))}</> : null}
      {unitId ? <> <EntityLink id={unitId} labels={labels} /></> : null}
    </span>
  );
}

function coordinateView(latitude: number, longitude: number) {
  const text = `${Math.abs(latitude)}°${latitude < 0 ? 'S' : 'N'}, ${Math.abs(longitude)}°${longitude < 0 ? 'W' : 'E'}`;
  const map = `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=10/${latitude}/${longitude}`;
  return <a href={map} rel="noopener noreferrer" class="external coordinates">{text}</a>;
}

/** A change in bytes as history pages show it: +120, −8, 0 (digits grouped as the language groups them). */
export function sizeChange(bytes: number, language = 'en'): string {
  return bytes > 0 ? `+${bytes.toLocaleString(language)}` : bytes < 0 ? `−${(-bytes).toLocaleString(language)}` : '0';
}
