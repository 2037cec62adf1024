// Time values as Wikibase's RDF writes them: the `xsd:dateTime` of a time with its precision and calendar
// (Wikibase's JulianDateTimeValueCleaner). Pure.

const WIKIDATA_ENTITY = 'http://www.wikidata.org/entity/';
const GREGORIAN = `${WIKIDATA_ENTITY}Q1985727`;
const JULIAN = `${WIKIDATA_ENTITY}Q1985786`;

/**
 * Wikibase's `xsd:dateTime` of a time value (its JulianDateTimeValueCleaner): a Julian date of day precision
 * converted to the Gregorian calendar; a Gregorian one, or any coarser than a day, with XSD 1.1 years (1 BCE is
 * 0000) and an unknown month or day as 01; null (the time is then written as a plain literal) for a day in
 * another calendar.
 */
export function standardDate(time: string, precision: number, calendar: string): string | null {
  if (calendar === JULIAN && precision >= 11) return julianToGregorian(time);
  if (calendar !== GREGORIAN && precision >= 11) return null;
  const m = /^([+-])(\d+)-(\d\d)-(\d\d)T(.*)$/.exec(time);
  if (!m) return null;
  let minus = m[1] === '-' ? '-' : '';
  let year = m[2].replace(/^0+/, '');
  if (year === '') return null; // year 0 is invalid
  let month = Math.min(12, Math.max(1, Number(m[3])));
  let day = Math.max(1, Number(m[4]));
  if (precision <= 9) { day = 1; month = 1; } else if (precision === 10) day = 1;
  if (!(day <= 28 || (month !== 2 && day <= 30))) day = Math.min(day, daysInMonth(month, Number(year) * (minus ? -1 : 1)));
  if (precision >= 9 && minus) {
    year = (BigInt(year) - 1n).toString();
    if (year === '0') minus = '';
  }
  return `${minus}${year.padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${m[5]}`;
}

function daysInMonth(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A Julian date of day precision as the Gregorian date of the same day (through its Julian day number). */
function julianToGregorian(time: string): string | null {
  const m = /^([+-])(\d+)-(\d\d)-(\d\d)T(.*)$/.exec(time);
  if (!m) return null;
  let year = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  if (year < 0) year += 1; // astronomical numbering: 1 BCE is year 0
  const month = Number(m[3]);
  const day = Number(m[4]);
  if (!Number.isSafeInteger(year) || month < 1 || day < 1) return null;
  const a = Math.floor((14 - month) / 12);
  const y = year + 4800 - a;
  const mm = month + 12 * a - 3;
  const jdn = day + Math.floor((153 * mm + 2) / 5) + 365 * y + Math.floor(y / 4) - 32083;
  const b = jdn + 32044;
  const c = Math.floor((4 * b + 3) / 146097);
  const d = b - Math.floor(146097 * c / 4);
  const e = Math.floor((4 * d + 3) / 1461);
  const f = d - Math.floor(1461 * e / 4);
  const g = Math.floor((5 * f + 2) / 153);
  const gd = f - Math.floor((153 * g + 2) / 5) + 1;
  const gm = g + 3 - 12 * Math.floor(g / 10);
  const gy = 100 * c + e - 4800 + Math.floor(g / 10);
  const sign = gy < 0 ? '-' : '';
  return `${sign}${String(Math.abs(gy)).padStart(4, '0')}-${String(gm).padStart(2, '0')}-${String(gd).padStart(2, '0')}T${m[5]}`;
}
