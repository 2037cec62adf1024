// Decimal strings for quantities (docs/api.md §5.2): `^[+-]?(0|[1-9]\d*)(\.\d+)?$`, at most 127 characters,
// always signed on output, zero always `+`. Amounts are compared as strings so no precision is lost.

const DECIMAL = /^([+-]?)(0|[1-9]\d*)(?:\.(\d+))?$/;
const MAX_LENGTH = 127;

/** A JSON number written out as a plain decimal (no exponent), so that it can meet the decimal pattern. */
function numberToDecimal(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', exp] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The normalised decimal (`"+10.38"`), or null when `raw` is neither a decimal string nor a finite number. */
export function parseDecimal(raw: unknown): string | null {
  const text = typeof raw === 'number' && Number.isFinite(raw) ? numberToDecimal(raw) : raw;
  if (typeof text !== 'string' || text.length > MAX_LENGTH) return null;
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const [, sign, int, frac] = m;
  const isZero = int === '0' && !/[1-9]/.test(frac ?? '');
  // `-0` becomes `+0`: zero has one sign.
  return `${isZero || sign !== '-' ? '+' : '-'}${int}${frac === undefined ? '' : `.${frac}`}`;
}

/** Compares two normalised decimals: negative, zero or positive like a sort comparator. */
export function compareDecimals(a: string, b: string): number {
  if (a[0] !== b[0]) return a[0] === '+' ? 1 : -1;
  const magnitude = compareMagnitudes(a.slice(1), b.slice(1));
  return a[0] === '+' ? magnitude : -magnitude;
}

function compareMagnitudes(a: string, b: string): number {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const fa = af.padEnd(width, '0');
  const fb = bf.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
