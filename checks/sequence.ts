/**
 * The sequence of a sorted listing from request to request (payment-api.md §4.2 `sort`; reading.md "Order"): ties may
 * come in any order, but the same on every request, so pages at any limit concatenate to one sequence; a string
 * sort without a named collation assumes none, so `-field` must be `field` in reverse apart from ties.
 */
import type { CollectionSort } from '../core/model/collection.ts';
import type { Exchange } from '../core/model/exchange.ts';
import { identity } from '../core/model/listing.ts';
import {
  basedOn,
  basedOnPages,
  fieldOf,
  type ResultSet,
  readBefore,
  type SetSource,
} from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import type { Violation } from '../core/model/verdict.ts';
import { comparatorOf } from './compare.ts';
import { absent, describeRecord, orderViolation, pageOf, permutationViolation, type Walked } from './order.ts';

/** Whether two records tie under the sort: equal by its comparator, else the same value. */
function tiedUnder(sort: CollectionSort): (a: unknown, b: unknown) => boolean {
  const compare = comparatorOf(sort);
  const value = (r: unknown) => fieldOf(r, sort.field);
  return compare
    ? (a, b) => compare(value(a), value(b)) === 0
    : (a, b) => JSON.stringify(value(a)) === JSON.stringify(value(b));
}

/**
 * The walk lists the records in the same sequence as `reference` (the same query read at another limit), over their
 * common length: ties in any order, but the same on every request.
 */
export function sameSequenceViolation(
  walk: Walked,
  reference: Walked,
  sort: CollectionSort,
  rule: RuleId,
  label: string,
): Violation | undefined {
  const key = identity([...reference.records, ...walk.records]);
  const tied = tiedUnder(sort);
  const n = Math.min(walk.records.length, reference.records.length);
  for (let i = 0; i < n; i++) {
    const got = walk.records[i];
    const want = reference.records[i];
    if (key(got) === key(want)) continue;
    const tie = tied(got, want);
    return {
      rule,
      expected: `${label}: record #${i} is the same as when read at another limit (${describeRecord(want, sort.field)})${tie ? '; ties may come in any order, but the same on every request' : ''}`,
      received: `${describeRecord(got, sort.field)}${tie ? ' (a tie came in another order)' : ''}`,
      exchange: pageOf(walk, i).page,
      related: [pageOf(reference, i).page].filter((e): e is Exchange => e !== undefined),
    };
  }
  return undefined;
}

/**
 * The limits in [lo, hi] that put a page boundary inside a group of tied values within the first `pages` pages:
 * walks at them show whether ties keep one order from request to request.
 */
export function tieSplittingLimits(
  sorted: readonly unknown[],
  sort: CollectionSort,
  lo: number,
  hi: number,
  pages: number,
): number[] {
  const tied = tiedUnder(sort);
  const splits = new Set<number>();
  for (let i = 1; i < sorted.length; i++) if (tied(sorted[i - 1], sorted[i])) splits.add(i);
  const limits: number[] = [];
  for (let limit = lo; limit <= hi; limit++) {
    for (let k = 1; k < pages && k * limit < sorted.length; k++) {
      if (splits.has(k * limit)) {
        limits.push(limit);
        break;
      }
    }
  }
  return limits;
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
      received: `${describeRecord(group[0], field)} and ${describeRecord(other, field)} are kept in the same order both ways (and so tied) though their ${field} differ`,
      exchange: pageOf(ascending, i).page,
      related: [pageOf(ascending, j).page, descending.pages[0]?.exchange].filter((e) => e !== undefined) as NonNullable<
        Violation['exchange']
      >[],
    };
  }
  return undefined;
}

/**
 * The sort rule on a walk at some limit: sorted throughout; exactly `expected` (when given and the walk reached the
 * end); and the same sequence as `reference`, the same query read at another limit.
 */
export function orderedWalkViolation(
  walk: Walked & SetSource & Pick<ResultSet, 'complete' | 'read'>,
  order: { sort: CollectionSort; descending: boolean; required?: boolean },
  reference: Walked & SetSource & Pick<ResultSet, 'read'>,
  expected: readonly unknown[] | undefined,
  rule: RuleId,
  label: string,
  /** The sets `expected` was taken from: what their pages break is named by a membership failure. */
  expectedFrom: readonly SetSource[] = [],
): Violation | undefined {
  const { sort } = order;
  // Which records, and in which sequence, come from the sets compared: their flaws explain a difference; an order
  // broken within the walk is the walk's own.
  const describe = (r: unknown) => describeRecord(r, sort.field);
  const same = walk.complete && expected ? permutationViolation(walk, expected, rule, label, describe) : undefined;
  return (
    // The reference was read before the walk: its records existed when the walk began (the order under growth).
    basedOnPages(orderViolation(walk, order, rule, label, readBefore(reference, walk)), walk) ??
    basedOn(same, ...expectedFrom, walk) ??
    basedOn(sameSequenceViolation(walk, reference, sort, rule, label), reference, walk)
  );
}

/**
 * Limits [min, max] for walks over n records: at most `pages` pages when n is small, more than one page when n > 1;
 * for a large n, limits of 50 to `top` (the listing's maximum) read a prefix.
 */
export function walkLimits(n: number, pages: number, top = 100): { min: number; max: number } {
  const min = Math.min(Math.floor(top / 2), Math.max(1, Math.ceil(n / pages)));
  return { min, max: Math.max(min, Math.min(top, n - 1)) };
}
