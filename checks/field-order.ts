/**
 * Pure checks on the order of another collection's listing under `sort=field` and `sort=-field` (§4.2 `sort`; reading
 * "Order", "More collections"), by the field's declared type: a number (or numeric string) compares numerically, a
 * date-time as the instant it names (RFC 3339, any UTC offset), a string by the collation the collections file names
 * (`codepoint`, or a locale). A string without a named collation assumes none: `-field` must be the exact reverse of
 * `field` apart from ties, where the records a target keeps in one order both ways must be ones a collation could
 * tie (the same text but for case, accents, spaces and punctuation). Records without the field (null or absent) may
 * come first or last, together. Ties may come in any order, but the same on every request.
 */
import type { CollectionSort } from '../core/model/collection.ts';
import type { Exchange } from '../core/model/exchange.ts';
import { identity } from '../core/model/listing.ts';
import { fieldOf } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import type { Violation } from '../core/model/verdict.ts';
import { compareAmounts, limitsSplittingTies, pageOf, type Walked } from './order.ts';

const absent = (v: unknown) => v === undefined || v === null;

/** How a record reads in a report: its id (or its JSON) and the field's value. */
export function describeFieldRecord(record: unknown, field: string): string {
  const id = (record as { id?: unknown } | null)?.id;
  const who = typeof id === 'string' || typeof id === 'number' ? `id ${id}` : JSON.stringify(record)?.slice(0, 80);
  return `${who}, ${field} ${JSON.stringify(fieldOf(record, field))}`;
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

/**
 * How two present values of the field compare (-1, 0, 1), or undefined when the type names no order (a string
 * without a collation) or a value does not have the type (`bad` says which).
 */
export function comparatorOf(sort: CollectionSort): ((a: unknown, b: unknown) => number) | undefined {
  if (sort.type === 'number') {
    const numeric = (v: unknown) =>
      (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^-?\d+(?:\.\d+)?$/.test(v));
    return (a, b) =>
      numeric(a) && numeric(b) ? compareAmounts(a as number | string, b as number | string) : Number.NaN;
  }
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
function hasType(sort: CollectionSort, compare: ReturnType<typeof comparatorOf>, v: unknown): boolean {
  if (compare) return !Number.isNaN(compare(v, v));
  return sort.type === 'string' ? typeof v === 'string' : true;
}

/** The records without the field must sit together at one end; the others, in order. */
function present(walk: Walked, field: string): { indexes: number[]; stray?: number } {
  const flags = walk.records.map((r) => absent(fieldOf(r, field)));
  const first = flags.indexOf(false);
  const last = flags.lastIndexOf(false);
  const indexes = flags.flatMap((a, i) => (a ? [] : [i]));
  // An absent value between present ones, or absent ones at both ends: not together at one end.
  const between = first < 0 ? -1 : flags.findIndex((a, i) => a && i > first && i < last);
  const stray = between >= 0 ? between : first > 0 && last < flags.length - 1 ? last + 1 : undefined;
  return stray !== undefined ? { indexes, stray } : { indexes };
}

/**
 * SRT-AMOUNT / SRT-FILTER on another collection: under `sort=field` (`descending`: `-field`) every present value has
 * the field's type and follows the one before it in order, over the whole concatenation (page boundaries included);
 * records without the field sit together at one end. A string without a collation names no order: see
 * reverseViolation.
 */
export function typedSortViolation(
  walk: Walked,
  sort: CollectionSort,
  descending: boolean,
  rule: RuleId,
  label: string,
): Violation | undefined {
  const { field } = sort;
  const shown = (i: number) => `record #${i} (${describeFieldRecord(walk.records[i], field)})`;
  const { indexes, stray } = present(walk, field);
  if (stray !== undefined) {
    return {
      rule,
      expected: `${label}: records without ${field} together, first or last`,
      received: `${shown(stray)} has none, between records that have one`,
      exchange: pageOf(walk, stray).page,
    };
  }
  const compare = comparatorOf(sort);
  const wrongType = indexes.find((i) => !hasType(sort, compare, fieldOf(walk.records[i], field)));
  if (wrongType !== undefined) {
    return {
      rule,
      expected: `${label}: every ${field} is a ${sort.type} (as the collections file declares)`,
      received: shown(wrongType),
      exchange: pageOf(walk, wrongType).page,
    };
  }
  if (!compare) return undefined;
  const how =
    sort.type === 'string'
      ? `by ${sort.collation === 'codepoint' ? 'code point' : `the ${sort.collation} collation`}`
      : sort.type === 'date-time'
        ? 'as instants'
        : 'numerically';
  for (let k = 1; k < indexes.length; k++) {
    const [i, j] = [indexes[k - 1] as number, indexes[k] as number];
    const c = compare(fieldOf(walk.records[i], field), fieldOf(walk.records[j], field));
    if ((descending ? -c : c) <= 0) continue;
    const across =
      pageOf(walk, i).page !== pageOf(walk, j).page
        ? ` (across the page boundary at offset ${pageOf(walk, j).start})`
        : '';
    return {
      rule,
      expected: `${label}: ${field} ${descending ? 'descending' : 'ascending'} ${how} over the whole listing (${walk.records.length} records, ${walk.pages.length} pages)`,
      received: `${shown(i)} before ${shown(j)}${across}`,
      exchange: pageOf(walk, j).page,
      related: [pageOf(walk, i).page].filter((e) => e !== undefined && e !== pageOf(walk, j).page) as NonNullable<
        Violation['exchange']
      >[],
    };
  }
  return undefined;
}

/** The text a collation could tie: letters and digits only, accents and case folded away. */
const tieKey = (v: unknown) =>
  String(v)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * SRT-AMOUNT on another collection, for any type (a string without a collation above all): the two directions read
 * whole list the same records, and `-field` is the exact reverse of `field` apart from ties. Records a target keeps in
 * the same order both ways (and any between them) are the ones it ties; they must be ones a collation could tie —
 * the same text apart from case, accents, spaces and punctuation. Records without the field are left aside.
 */
export function reverseViolation(
  ascending: Walked,
  descending: Walked,
  field: string,
  rule: RuleId,
  label: string,
): Violation | undefined {
  const keep = (w: Walked) => w.records.filter((r) => !absent(fieldOf(r, field)));
  const p = keep(ascending);
  const r = [...keep(descending)].reverse();
  const key = identity([...p, ...r]);
  // Both directions read whole (the caller's condition) must list the same records.
  const otherRecords = (): Violation => ({
    rule,
    expected: `${label}: sort=-${field} lists the records of sort=${field} (${p.length} with ${field}), in reverse`,
    received: `sort=-${field} lists ${r.length} with ${field}, not the same records`,
    exchange: descending.pages[0]?.exchange,
    related: [ascending.pages[0]?.exchange].filter((e): e is Exchange => e !== undefined),
  });
  if (p.length !== r.length) return otherRecords();
  // The finest blocks where the prefix of one equals the reversed other as sets: records the target must tie.
  const balance = new Map<string, number>();
  let open = 0;
  let start = 0;
  const blocks: Array<[number, number]> = [];
  for (let i = 0; i < p.length; i++) {
    for (const [k, d] of [
      [key(p[i]), 1],
      [key(r[i]), -1],
    ] as const) {
      const was = balance.get(k) ?? 0;
      const now = was + d;
      balance.set(k, now);
      open += (was === 0 ? 1 : 0) - (now === 0 ? 1 : 0);
    }
    if (open === 0) {
      blocks.push([start, i]);
      start = i + 1;
    }
  }
  if (open !== 0) return otherRecords();
  // Equal values tie under any collation: blocks holding one value are one tie group with all between them.
  const merged: Array<[number, number]> = [];
  const lastOf = new Map<string, number>();
  p.forEach((rec, i) => void lastOf.set(JSON.stringify(fieldOf(rec, field)), i));
  for (const [a, b] of blocks) {
    const reach = Math.max(
      b,
      ...p.slice(a, b + 1).map((rec) => lastOf.get(JSON.stringify(fieldOf(rec, field))) as number),
    );
    const prev = merged.at(-1);
    if (prev && a <= prev[1]) prev[1] = Math.max(prev[1], reach);
    else merged.push([a, reach]);
  }
  for (const [a, b] of merged) {
    const group = p.slice(a, b + 1);
    const other = group.find((rec) => tieKey(fieldOf(rec, field)) !== tieKey(fieldOf(group[0], field)));
    if (other === undefined) continue;
    const i = ascending.records.indexOf(group[0]);
    const j = ascending.records.indexOf(other);
    return {
      rule,
      expected: `${label}: sort=-${field} lists the records of sort=${field} in reverse, apart from ties (records whose ${field} a collation could tie: the same text but for case, accents, spaces, punctuation)`,
      received: `${describeFieldRecord(group[0], field)} and ${describeFieldRecord(other, field)} are kept in the same order both ways (and so tied) though their ${field} differ`,
      exchange: pageOf(ascending, i).page,
      related: [pageOf(ascending, j).page, descending.pages[0]?.exchange].filter((e) => e !== undefined) as NonNullable<
        Violation['exchange']
      >[],
    };
  }
  return undefined;
}

/**
 * The limits in [lo, hi] that put a page boundary inside a group of equal values within the first `pages` pages:
 * walks at them show whether ties keep one order from request to request.
 */
export function fieldTieSplittingLimits(
  sorted: readonly unknown[],
  field: string,
  lo: number,
  hi: number,
  pages: number,
): number[] {
  const value = (r: unknown) => JSON.stringify(fieldOf(r, field));
  return limitsSplittingTies(sorted, (a, b) => value(a) === value(b), lo, hi, pages);
}

/**
 * SRT-AMOUNT / SRT-FILTER: the walk lists the records in the same sequence as `reference` (the same query read at
 * another limit), over their common length: ties in any order, but the same on every request.
 */
export function sameFieldSequenceViolation(
  walk: Walked,
  reference: Walked,
  field: string,
  rule: RuleId,
  label: string,
): Violation | undefined {
  const key = identity([...reference.records, ...walk.records]);
  const n = Math.min(walk.records.length, reference.records.length);
  for (let i = 0; i < n; i++) {
    const got = walk.records[i];
    const want = reference.records[i];
    if (key(got) === key(want)) continue;
    const tie = JSON.stringify(fieldOf(got, field)) === JSON.stringify(fieldOf(want, field));
    return {
      rule,
      expected: `${label}: record #${i} is the same as when read at another limit (${describeFieldRecord(want, field)})${tie ? '; ties may come in any order, but the same on every request' : ''}`,
      received: `${describeFieldRecord(got, field)}${tie ? ' (a tie came in another order)' : ''}`,
      exchange: pageOf(walk, i).page,
      related: [pageOf(reference, i).page].filter((e) => e !== undefined) as NonNullable<Violation['exchange']>[],
    };
  }
  return undefined;
}
