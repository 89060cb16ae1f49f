/**
 * Pure checks on the order of a listing read as pages (payment-api.md §4.2 `sort`; reading.md "Pagination"):
 * `amount` compares numerically (a number, or a numeric string), ascending for `sort=amount`, descending for
 * `sort=-amount`, across page boundaries; ties may come in any order, but the same on every request.
 */

import type { Exchange } from '../core/model/exchange.ts';
import { identity } from '../core/model/listing.ts';
import { basedOn, basedOnPages, pageHolding, type ResultSet, type SetSource } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import type { Violation } from '../core/model/verdict.ts';

/** Records read page by page: their concatenation and the pages they came from (a ResultSet fits). */
export type Walked = Pick<ResultSet, 'records' | 'pages'>;

/** A sort value the spec defines. */
export type AmountSort = 'amount' | '-amount';
export const AMOUNT_SORTS: readonly AmountSort[] = ['amount', '-amount'];

export type Amount = number | string;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** The record's `amount` when it is numeric (a finite number or a decimal string), else undefined. */
export function amountOf(record: unknown): Amount | undefined {
  const amount = (record as { amount?: unknown } | null)?.amount;
  if (typeof amount === 'number') return Number.isFinite(amount) ? amount : undefined;
  if (typeof amount === 'string' && DECIMAL.test(amount)) return amount;
  return undefined;
}

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

/** How a record reads in a report: its id (or its JSON) and its amount. */
export function describeRecord(record: unknown): string {
  const o = (record ?? {}) as { id?: unknown; amount?: unknown };
  const id = typeof o.id === 'string' || typeof o.id === 'number' ? `id ${o.id}` : JSON.stringify(record)?.slice(0, 80);
  return `${id}, amount ${JSON.stringify(o.amount)}`;
}

/** The response holding record `index` of the concatenation, and that record's page's first index. */
export function pageOf(walk: Walked, index: number): { page: Exchange | undefined; start: number } {
  const { page, start } = pageHolding(walk, index);
  return { page: page?.exchange, start };
}

/** The exchanges showing records i and j: the first as `exchange`, the other as `related` if on another page. */
function evidence(walk: Walked, i: number, j: number): Pick<Violation, 'exchange' | 'related'> {
  const a = pageOf(walk, i).page;
  const b = pageOf(walk, j).page;
  return { exchange: b ?? a, related: a && a !== b ? [a] : undefined };
}

/**
 * SRT-AMOUNT / SRT-FILTER: every amount is numeric and each record's amount is >= (ascending) or <=
 * (descending) the previous one, over the whole concatenation: page boundaries included.
 */
export function sortViolation(walk: Walked, sort: AmountSort, rule: RuleId, label: string): Violation | undefined {
  const sign = sort === 'amount' ? 1 : -1;
  const word = sort === 'amount' ? 'ascending' : 'descending';
  const amounts: Amount[] = [];
  for (const [i, record] of walk.records.entries()) {
    const amount = amountOf(record);
    if (amount === undefined) {
      return {
        rule,
        expected: `${label}: every record has a numeric amount (a number or a numeric string) to sort by`,
        received: `record #${i}: ${describeRecord(record)}`,
        exchange: pageOf(walk, i).page,
      };
    }
    amounts.push(amount);
  }
  for (let i = 1; i < amounts.length; i++) {
    const prev = amounts[i - 1] as Amount;
    const cur = amounts[i] as Amount;
    if (compareAmounts(prev, cur) * sign <= 0) continue;
    const across = pageOf(walk, i - 1).page !== pageOf(walk, i).page;
    const hints = [
      across ? `across the page boundary at offset ${pageOf(walk, i).start}` : '',
      isSorted(amounts, -sign) ? `the whole listing is ${sort === 'amount' ? 'descending' : 'ascending'}` : '',
      isTextSorted(amounts, sign) ? 'the whole listing is in text order, not numeric' : '',
    ].filter(Boolean);
    return {
      rule,
      expected: `${label}: amounts ${word} numerically over the whole listing (${walk.records.length} records, ${walk.pages.length} pages)`,
      received: `record #${i - 1} (${describeRecord(walk.records[i - 1])}) before #${i} (${describeRecord(walk.records[i])})${hints.length ? ` (${hints.join('; ')})` : ''}`,
      ...evidence(walk, i - 1, i),
    };
  }
  return undefined;
}

function isSorted(amounts: readonly Amount[], sign: number): boolean {
  return amounts.every((a, i) => i === 0 || compareAmounts(amounts[i - 1] as Amount, a) * sign <= 0);
}

/** True when the amounts are in order as text ("10" before "9"), the mark of a string comparison. */
function isTextSorted(amounts: readonly Amount[], sign: number): boolean {
  const text = amounts.map(String);
  return text.every((t, i) => i === 0 || (sign > 0 ? (text[i - 1] as string) <= t : (text[i - 1] as string) >= t));
}

/**
 * SRT-AMOUNT / SRT-FILTER / FLT-BEFORE-PAGE: the walk holds exactly the `expected` records, each once: no
 * duplicate (a record on two pages), no gap, nothing else. Order is not compared here.
 */
export function permutationViolation(
  walk: Walked,
  expected: readonly unknown[],
  rule: RuleId,
  label: string,
  /** How a record reads in the report (another collection's names its sort field, not `amount`). */
  describe: (record: unknown) => string = describeRecord,
): Violation | undefined {
  const key = identity([...expected, ...walk.records]);
  const want = new Set(expected.map(key));
  const firstAt = new Map<string, number>();
  for (const [i, record] of walk.records.entries()) {
    const k = key(record);
    const earlier = firstAt.get(k);
    if (earlier !== undefined) {
      return {
        rule,
        expected: `${label}: each record once (no duplicate across pages)`,
        received: `record #${earlier} and #${i} are the same record (${describe(record)})`,
        ...evidence(walk, earlier, i),
      };
    }
    firstAt.set(k, i);
  }
  const extra = walk.records.findIndex((r) => !want.has(key(r)));
  if (extra >= 0) {
    return {
      rule,
      expected: `${label}: only the ${expected.length} expected records`,
      received: `record #${extra} (${describe(walk.records[extra])}) is not one of them`,
      exchange: pageOf(walk, extra).page,
    };
  }
  const missing = expected.filter((r) => !firstAt.has(key(r)));
  if (missing.length > 0) {
    return {
      rule,
      expected: `${label}: all ${expected.length} expected records`,
      received: `${missing.length} missing (${walk.records.length} read), e.g. ${missing.slice(0, 3).map(describe).join('; ')}`,
      exchange: walk.pages[0]?.exchange,
      related: walk.pages.slice(1).map((p) => p.exchange),
    };
  }
  return undefined;
}

/**
 * SRT-AMOUNT / SRT-FILTER: the walk lists the records in the same sequence as `reference` (the same query read
 * at another limit), over their common length. Sorted, ties may come in any order, but the same on every request.
 */
export function sameSequenceViolation(
  walk: Walked,
  reference: Walked,
  rule: RuleId,
  label: string,
): Violation | undefined {
  const key = identity([...reference.records, ...walk.records]);
  const n = Math.min(walk.records.length, reference.records.length);
  for (let i = 0; i < n; i++) {
    const got = walk.records[i];
    const want = reference.records[i];
    if (key(got) === key(want)) continue;
    const a = amountOf(got);
    const b = amountOf(want);
    const tie = a !== undefined && b !== undefined && compareAmounts(a, b) === 0;
    return {
      rule,
      expected: `${label}: record #${i} is the same as when read at another limit (${describeRecord(want)})${tie ? '; ties may come in any order, but the same on every request' : ''}`,
      received: `${describeRecord(got)}${tie ? ' (a tie came in another order)' : ''}`,
      exchange: pageOf(walk, i).page,
      related: [pageOf(reference, i).page].filter((e): e is Exchange => e !== undefined),
    };
  }
  return undefined;
}

/**
 * The limits in [lo, hi] that put a page boundary inside a group of equal amounts within the first `pages`
 * pages: walks at them show whether ties keep one order from request to request.
 */
export function tieSplittingLimits(sorted: readonly unknown[], lo: number, hi: number, pages: number): number[] {
  return limitsSplittingTies(
    sorted,
    (x, y) => {
      const [a, b] = [amountOf(x), amountOf(y)];
      return a !== undefined && b !== undefined && compareAmounts(a, b) === 0;
    },
    lo,
    hi,
    pages,
  );
}

/** The limits in [lo, hi] that put a page boundary between two neighbours that `tied` calls equal (any sort's key). */
export function limitsSplittingTies(
  sorted: readonly unknown[],
  tied: (a: unknown, b: unknown) => boolean,
  lo: number,
  hi: number,
  pages: number,
): number[] {
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

/**
 * SRT-AMOUNT / SRT-FILTER on a walk at some limit: sorted throughout; exactly `expected` (when given and the walk
 * reached the end); and the same sequence as `reference`, the same query read at another limit.
 */
export function orderedWalkViolation(
  walk: Walked & SetSource & Pick<ResultSet, 'complete'>,
  sort: AmountSort,
  reference: Walked & SetSource,
  expected: readonly unknown[] | undefined,
  rule: RuleId,
  label: string,
  /** The sets `expected` was taken from: what their pages break is named by a membership failure. */
  expectedFrom: readonly SetSource[] = [],
): Violation | undefined {
  // Which records, and in which sequence, come from the sets compared: their flaws explain a difference; an order
  // broken within the walk is the walk's own.
  const same = walk.complete && expected ? permutationViolation(walk, expected, rule, label) : undefined;
  return (
    basedOnPages(sortViolation(walk, sort, rule, label), walk) ??
    basedOn(same, ...expectedFrom, walk) ??
    basedOn(sameSequenceViolation(walk, reference, rule, label), reference, walk)
  );
}

/**
 * Limits [min, max] for walks over n records: at most `pages` pages when n is small, more than one page when n > 1;
 * for a large n, limits of 50 to 100 read a prefix.
 */
export function walkLimits(n: number, pages: number): { min: number; max: number } {
  const min = Math.min(50, Math.max(1, Math.ceil(n / pages)));
  return { min, max: Math.max(min, Math.min(100, n - 1)) };
}
