// Snak and reference hashes exactly as Wikibase computes them (ADR 0012), so that a snak Entia writes has the
// hash Wikidata would give it and tools that address qualifiers and references by hash (wbsetqualifier,
// wbremovereferences, Pywikibot, QuickStatements) find them. Wikibase hashes the pre-PHP-7.4 `serialize()`
// form of its value objects: a snak's is the SHA-1 of `C:<len>:"<class>":<len>:{<data>}`, a reference's the
// SHA-1 of its snaks' hashes, sorted and joined with `|`. Input is the dump format (Wikibase's JSON). Pure.
import { hash } from 'node:crypto';
import { entityIdValueId, ITEM, parseEntityId } from './kinds.js';

type Json = Record<string, any>;

const sha1 = (text: string) => hash('sha1', text);
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** PHP's legacy serialization of an object implementing Serializable. */
const phpObject = (className: string, data: string) => `C:${className.length}:"${className}":${bytes(data)}:{${data}}`;
/** PHP's `serialize()` of a string. */
const phpString = (text: string) => `s:${bytes(text)}:"${text}";`;

/**
 * A float as PHP (serialize_precision -1, as json_encode and serialize use) writes it: the shortest digits that
 * read back the same, always with a fraction (`4.0`), in exponent form when the decimal point would be more than
 * four places left of the first digit or past the seventeenth (`1.0e-5`, `1.0e+25`).
 */
export function phpFloat(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  const decpt = exponent + 1; // value = 0.<digits> × 10^decpt
  const sign = n < 0 ? '-' : '';
  if (decpt < -3 || decpt > 17) {
    const fraction = digits.length > 1 ? digits.slice(1) : '0';
    return `${sign}${digits[0]}.${fraction}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** A number PHP holds as a float (json_encode writes `4.0`, not `4`); other numbers are PHP integers. */
class PhpFloat {
  constructor(readonly value: number) {}
}

/**
 * PHP's `json_encode()` of a list, with its default flags: `/` escaped, every character outside ASCII as
 * `\uXXXX` (UTF-16 units, as JSON.stringify leaves them).
 */
function phpJsonArray(items: (string | number | null | PhpFloat)[]): string {
  return `[${items.map((v) => {
    if (v === null) return 'null';
    if (v instanceof PhpFloat) return phpFloat(v.value);
    if (typeof v === 'number') return String(v);
    return JSON.stringify(v).replace(/\//g, '\\/').replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }).join(',')}]`;
}

const decimal = (amount: string) => phpObject('DataValues\\DecimalValue', phpString(amount));

/** The serialization Wikibase hashes for a data value (its `getSerializationForHash()`). */
function dataValueForHash(datavalue: Json): string {
  const v = datavalue.value;
  switch (datavalue.type) {
    case 'string':
      return phpObject('DataValues\\StringValue', String(v));
    case 'monolingualtext':
      return phpObject('DataValues\\MonolingualTextValue', `a:2:{i:0;${phpString(v.language)}i:1;${phpString(v.text)}}`);
    case 'time':
      return phpObject('DataValues\\TimeValue', phpJsonArray([v.time, v.timezone, v.before, v.after, v.precision, v.calendarmodel]));
    case 'globecoordinate':
      return phpObject('DataValues\\Geo\\Values\\GlobeCoordinateValue', phpJsonArray([new PhpFloat(v.latitude), new PhpFloat(v.longitude),
        null, v.precision === null || v.precision === undefined ? null : new PhpFloat(v.precision), v.globe]));
    case 'quantity': {
      const unbounded = v.upperBound === undefined && v.lowerBound === undefined;
      if (unbounded) {
        return phpObject('DataValues\\UnboundedQuantityValue', `a:2:{i:0;${decimal(v.amount)}i:1;${phpString(v.unit)}}`);
      }
      return phpObject('DataValues\\QuantityValue',
        `a:4:{i:0;${decimal(v.amount)}i:1;${phpString(v.unit)}i:2;${decimal(v.upperBound)}i:3;${decimal(v.lowerBound)}}`);
    }
    case 'wikibase-entityid': {
      // An id of a kind this store does not hold (a lexeme's L1 in an imported dump) is hashed with the item's
      // class, as before the kinds said their classes: its hash is not Wikibase's, and says so in no other way.
      const id = entityIdValueId(v) ?? `${ITEM.prefix}${String(v['numeric-id'])}`;
      const idClass = (parseEntityId(id)?.kind ?? ITEM).phpIdClass;
      return phpObject('Wikibase\\DataModel\\Entity\\EntityIdValue', phpObject(idClass, id));
    }
    default:
      throw new Error(`no hash for data values of type ${String(datavalue.type)}`);
  }
}

/**
 * A data value's own hash (`DataValue::getHash()`), the local name of its RDF value node (`wdv:`): the MD5 of the
 * serialization above; a globe coordinate's is the MD5 of `latitude|longitude|precision|globe` as PHP writes the
 * numbers in a string.
 */
export function valueHash(datavalue: Json): string {
  const md5 = (text: string) => hash('md5', text);
  if (datavalue.type === 'globecoordinate') {
    const v = datavalue.value;
    const num = (n: number | null | undefined) => (n === null || n === undefined ? '' : phpNumberText(n));
    return md5(`${num(v.latitude)}|${num(v.longitude)}|${num(v.precision)}|${v.globe}`);
  }
  return md5(dataValueForHash(datavalue));
}

/**
 * A float as PHP's string conversion writes it (`(string) $f`, `"$a|$b"`): 14 significant digits (PHP's
 * `precision` setting, not json_encode's shortest form), no `.0` on a whole number (`4`), and exponent form as
 * `1.0E-5` when the decimal point would be more than four places left of the first digit or past the
 * fourteenth. A globe coordinate's value hash and its RDF literals are made with it. (An exact tie at the
 * fifteenth digit, possible only for whole numbers past 10^14, rounds up here where PHP rounds it to even.)
 */
export function phpNumberText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exponentText] = Math.abs(n).toExponential(13).split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  const exponent = Number(exponentText);
  const decpt = exponent + 1;
  const sign = n < 0 ? '-' : '';
  if (decpt < -3 || decpt > 14) return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** A snak's hash, as Wikibase computes it, from its dump form (`snaktype`, `property`, `datavalue`). */
export function snakHash(snak: Json): string {
  const property = String(snak.property);
  switch (snak.snaktype) {
    case 'value':
      return sha1(phpObject('Wikibase\\DataModel\\Snak\\PropertyValueSnak',
        `a:2:{i:0;${phpString(property)}i:1;${dataValueForHash(snak.datavalue)}}`));
    case 'novalue':
      return sha1(phpObject('Wikibase\\DataModel\\Snak\\PropertyNoValueSnak', property));
    case 'somevalue':
      return sha1(phpObject('Wikibase\\DataModel\\Snak\\PropertySomeValueSnak', property));
    default:
      throw new Error(`unknown snak type ${String(snak.snaktype)}`);
  }
}

/** A reference's hash: its snaks' hashes, sorted, joined with `|`, hashed (the order of its snaks does not count). */
export function referenceHash(snaks: readonly Json[]): string {
  return sha1(snaks.map(snakHash).sort().join('|'));
}
