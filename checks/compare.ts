/**
 * How the values of a sort field compare (§4.2 `sort`; reading "Order", "More collections"), by the field's declared
 * type: a number (or a numeric string, as payments' `amount`) numerically, whatever its length; a date-time as the
 * instant it names (RFC 3339, any UTC offset); a string by the collation the collections file names (`codepoint`, or
 * a locale). A string without a named collation has no order the suite may assume.
 */
import type { CollectionSort } from '../core/model/collection.ts';

/** A number, or a decimal string. */
type Amount = number | string;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

const numeric = (v: unknown): v is Amount =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && DECIMAL.test(v));

/** A decimal as sign and digits, without leading (integer) or trailing (fraction) zeros. */
function canonical(a: Amount): { negative: boolean; int: string; frac: string } | undefined {
  const m = DECIMAL.exec(String(a));
  if (!m) return undefined;
  const int = (m[2] ?? '').replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  return { negative: m[1] === '-' && (int !== '0' || frac !== ''), int, frac };
}

/** Numeric comparison of two amounts (-1, 0, 1); decimal strings compare exactly, whatever their length. */
export function compareAmounts(a: Amount, b: Amount): number {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  const x = canonical(a);
  const y = canonical(b);
  if (!x || !y) return Math.sign(Number(a) - Number(b)); // a number in exponent form
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const magnitude = compareDigits(x.int, y.int) || compareDigits(x.frac, y.frac, true);
  return x.negative ? -magnitude : magnitude;
}

/** Compares digit strings as numbers: integer parts by length first, fraction parts padded on the right. */
function compareDigits(a: string, b: string, fraction = false): number {
  if (fraction) {
    const width = Math.max(a.length, b.length);
    [a, b] = [a.padEnd(width, '0'), b.padEnd(width, '0')];
  } else if (a.length !== b.length) {
    return Math.sign(a.length - b.length);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:?\d{2})$/;

/** An RFC 3339 date-time as the instant it names: milliseconds since the epoch and the digits beyond them. */
export function instantOf(value: unknown): { ms: number; rest: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  const [zh, zm] = /^[Zz]$/.test(zone) ? [0, 0] : [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
  const offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm);
  // RFC 3339 §5.7's ranges (a leap second, 60, included); Date.UTC would roll a 13th month over into the next year.
  const daysIn = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  const ranged = (v: string | undefined, lo: number, hi: number) => Number(v) >= lo && Number(v) <= hi;
  if (!ranged(mo, 1, 12) || !ranged(d, 1, daysIn) || !ranged(h, 0, 23) || !ranged(mi, 0, 59) || !ranged(s, 0, 60))
    return undefined;
  if (zh > 23 || zm > 59) return undefined;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const ms = local - offset * 60_000 + Number(frac.slice(0, 3).padEnd(3, '0'));
  return { ms, rest: frac.slice(3).replace(/0+$/, '') };
}

/** Code point order (not UTF-16 code units). */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return Math.sign((x[i] as number) - (y[i] as number));
  return Math.sign(x.length - y.length);
}

/** Compares two present values of a field (-1, 0, 1), NaN where a value does not have the field's type. */
export type Comparator = (a: unknown, b: unknown) => number;

/** How two values of the field compare, or undefined when the type names no order (a string without a collation). */
export function comparatorOf(sort: CollectionSort): Comparator | undefined {
  if (sort.type === 'number') return (a, b) => (numeric(a) && numeric(b) ? compareAmounts(a, b) : Number.NaN);
  if (sort.type === 'date-time') {
    return (a, b) => {
      const x = instantOf(a);
      const y = instantOf(b);
      if (!x || !y) return Number.NaN;
      return Math.sign(x.ms - y.ms) || compareCodePoints(x.rest.padEnd(9, '0'), y.rest.padEnd(9, '0'));
    };
  }
  if (!sort.collation) return undefined;
  // A locale's alphabet, not its tie-breaking: letters that differ only in case or accents, and punctuation, may come
  // either way (databases' collations differ there).
  const collator =
    sort.collation === 'codepoint'
      ? undefined
      : new Intl.Collator(sort.collation, { sensitivity: 'base', ignorePunctuation: true });
  return (a, b) =>
    typeof a !== 'string' || typeof b !== 'string'
      ? Number.NaN
      : collator
        ? Math.sign(collator.compare(a, b))
        : compareCodePoints(a, b);
}

/** Whether a value has the field's type (a number, an RFC 3339 date-time, a string), by the sort's comparator. */
export function hasType(sort: CollectionSort, compare: Comparator | undefined, v: unknown): boolean {
  if (compare) return !Number.isNaN(compare(v, v));
  return sort.type === 'string' ? typeof v === 'string' : true;
}

/** How a sort compares, in words: numerically, as instants, by code point, by a locale's collation. */
export function orderWords(sort: CollectionSort): string {
  if (sort.type === 'number') return 'numerically';
  if (sort.type === 'date-time') return 'as instants';
  if (!sort.collation) return 'in some order';
  return sort.collation === 'codepoint' ? 'by code point' : `by the ${sort.collation} collation`;
}
