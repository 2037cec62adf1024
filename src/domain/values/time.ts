// The `time` data type (docs/api.md §5.1).
import type { DataType } from './lookup.js';
import { CONCEPT_URI, check, contentObject, requireFields } from './fields.js';

const TIMESTAMP = /^([+-])(\d{1,16})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z$/;
const FIELDS = ['time', 'precision', 'calendarmodel'] as const;

/** Returns the timestamp with its year written in at least four digits, or null when it is not valid. */
function normaliseTimestamp(time: string, precision: number): string | null {
  const m = TIMESTAMP.exec(time);
  if (!m) return null;
  const [, sign, year, month, day, hour, minute, second] = m;
  if (Number(month) > 12 || Number(day) > 31) return null;
  if (Number(day) > 0 && Number(month) === 0) return null;
  // §5.1: no sub-day precision, so the time of day is always midnight.
  if (hour !== '00' || minute !== '00' || second !== '00') return null;
  if (precision >= 10 && month === '00') return null;
  if (precision >= 11 && day === '00') return null;
  // Like upstream's TimeValue: drop leading zeros, then pad to four digits (`+1` → `+0001`).
  const digits = year.replace(/^0+/, '').padStart(4, '0');
  return `${sign}${digits}-${month}-${day}T00:00:00Z`;
}

export const TIME_TYPES: Record<string, DataType> = {
  time: {
    valueType: 'time',
    normalise(content, path) {
      const fields = contentObject(content, path);
      requireFields(fields, path, FIELDS);
      const { time, precision, calendarmodel } = fields;
      check(typeof precision === 'number' && Number.isInteger(precision) && precision >= 0 && precision <= 11,
        path, content);
      check(typeof calendarmodel === 'string' && CONCEPT_URI.test(calendarmodel), path, content);
      const normalised = typeof time === 'string' ? normaliseTimestamp(time, precision as number) : null;
      check(normalised !== null, path, content);
      // Output carries exactly these three fields, in this order.
      return { time: normalised, precision, calendarmodel };
    },
  },
};
