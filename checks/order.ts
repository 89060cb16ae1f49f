/**
 * Pure checks on the order of a listing read as pages (payment-api.md §4.2 `sort`; reading.md "Pagination", "Order"):
 * under `sort=field` (`-field`: descending) the values follow the field's order (checks/compare.ts) across page
 * boundaries, records without the field (null or absent) together at one end, where the field is not one every record
 * has; a string without a named collation assumes none: `-field` must be the exact reverse of `field` apart from ties,
 * and the records a target keeps in one order both ways must be ones a collation could tie. Ties may come in any
 * order, but the same on every request.
 */
import type { CollectionSort } from '../core/model/collection.ts';
import type { Exchange } from '../core/model/exchange.ts';
import { identity, readEnvelope } from '../core/model/listing.ts';
import { fieldOf, pageHolding, type ResultSet } from '../core/model/result-set.ts';
import type { RuleId } from '../core/model/rules.ts';
import type { Violation } from '../core/model/verdict.ts';
import { type Comparator, comparatorOf, hasType, orderWords } from './compare.ts';

/** Records read page by page: their concatenation and the pages they came from (a ResultSet fits). */
export type Walked = Pick<ResultSet, 'records' | 'pages'>;

/** A record without the field: null or absent. */
export const absent = (v: unknown) => v === undefined || v === null;

/** How a record reads in a report: its id (or its JSON), and the field's value when one is named. */
export function describeRecord(record: unknown, field?: string): string {
  const id = (record as { id?: unknown } | null)?.id;
  const who = typeof id === 'string' || typeof id === 'number' ? `id ${id}` : JSON.stringify(record)?.slice(0, 80);
  return field === undefined ? `${who}` : `${who}, ${field} ${JSON.stringify(fieldOf(record, field))}`;
}

/** The response holding record `index` of the concatenation, and that record's page's first index. */
export function pageOf(walk: Walked, index: number): { page: Exchange | undefined; start: number } {
  const { page, start } = pageHolding(walk, index);
  return { page: page?.exchange, start };
}

/** The exchanges showing records i and j: the second as `exchange`, the first as `related` if on another page. */
function evidence(walk: Walked, i: number, j: number): Pick<Violation, 'exchange' | 'related'> {
  const a = pageOf(walk, i).page;
  const b = pageOf(walk, j).page;
  return { exchange: b ?? a, related: a && a !== b ? [a] : undefined };
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

/** The sort a collection declares for a `sort` value (`amount`, `-amount`), and its direction. */
export function sortOf(sorts: readonly CollectionSort[], value: string): { sort: CollectionSort; descending: boolean } {
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  return { sort: sorts.find((s) => s.field === field) ?? { field, type: 'string' }, descending };
}

/**
 * The sort rule (SRT-AMOUNT, SRT-FILTER): under `sort=field` (`descending`: `-field`) every present value has the
 * field's type and follows the one before it in order, over the whole concatenation (page boundaries included);
 * records without the field sit together at one end, unless every record must have it (`required`). A string without
 * a collation names no order: see reverseViolation.
 */
export function sortViolation(
  walk: Walked,
  sort: CollectionSort,
  descending: boolean,
  rule: RuleId,
  label: string,
  required = false,
): Violation | undefined {
  const { field } = sort;
  const shown = (i: number) => `record #${i} (${describeRecord(walk.records[i], field)})`;
  const compare = comparatorOf(sort);
  const typed = (i: number) => !absent(fieldOf(walk.records[i], field)) || !required;
  const { indexes, stray } = present(walk, field);
  const untyped = walk.records.findIndex(
    (r, i) => !typed(i) || (indexes.includes(i) && !hasType(sort, compare, fieldOf(r, field))),
  );
  if (untyped >= 0) {
    // A value one answer holds: no growth explains it.
    return {
      standsUnderGrowth: true,
      rule,
      expected: `${label}: every ${field} is a ${sort.type}${required ? ' on every record' : ''}, to sort by`,
      received: shown(untyped),
      exchange: pageOf(walk, untyped).page,
    };
  }
  if (stray !== undefined) {
    return {
      rule,
      expected: `${label}: records without ${field} together, first or last`,
      received: `${shown(stray)} has none, between records that have one`,
      exchange: pageOf(walk, stray).page,
    };
  }
  if (!compare) return undefined;
  const value = (i: number) => fieldOf(walk.records[i], field);
  for (let k = 1; k < indexes.length; k++) {
    const [i, j] = [indexes[k - 1] as number, indexes[k] as number];
    if ((descending ? -1 : 1) * compare(value(i), value(j)) <= 0) continue;
    const values = indexes.map(value);
    const hints = [
      pageOf(walk, i).page !== pageOf(walk, j).page
        ? `across the page boundary at offset ${pageOf(walk, j).start}`
        : '',
      inOrder(values, compare, !descending) ? `the whole listing is ${descending ? 'ascending' : 'descending'}` : '',
      sort.type === 'number' && inTextOrder(values, descending)
        ? 'the whole listing is in text order, not numeric'
        : '',
    ].filter(Boolean);
    const onePage = pageOf(walk, i).page === pageOf(walk, j).page;
    return {
      // Two records of one answer out of order: no growth explains it (across pages, see orderUnderGrowth).
      ...(onePage ? { standsUnderGrowth: true as const } : {}),
      rule,
      expected: `${label}: ${field} ${descending ? 'descending' : 'ascending'} ${orderWords(sort)} over the whole listing (${walk.records.length} records, ${walk.pages.length} pages)`,
      received: `${shown(i)} before ${shown(j)}${hints.length ? ` (${hints.join('; ')})` : ''}`,
      ...evidence(walk, i, j),
    };
  }
  return undefined;
}

/**
 * The sort rule where the data may have grown between pages: sortViolation, but an order broken across pages stands
 * only as crossPageUnderGrowth finds it (a record of `known`, the records read before the walk began, listed after a
 * record it sorts strictly before and never before it).
 */
export function orderViolation(
  walk: Walked,
  order: { sort: CollectionSort; descending: boolean; required?: boolean },
  rule: RuleId,
  label: string,
  known: readonly unknown[],
): Violation | undefined {
  const { sort, descending, required = false } = order;
  const v = sortViolation(walk, sort, descending, rule, label, required);
  if (!v || v.standsUnderGrowth) return v;
  return crossPageUnderGrowth(walk, sort, descending, rule, label, known) ?? v;
}

/**
 * The order across pages no growth explains. Payments may appear while pages are read, never vanish or change
 * (reading.md "Data that changes"), so a record's place in the sorted listing only moves back; the pages read places
 * [offset, offset + limit) at increasing offsets. A record that existed before the walk began (one of `known`) and
 * sorts strictly before a record of page k was, when page k was read, at a place before that page's end, and so was
 * on page k or an earlier one when each was read. Listed first on a later page, it is a violation of the order (pages
 * sorted each on its own). Judged while the pages tile the listing: each one, but the last, as long as the next
 * page's offset says.
 */
function crossPageUnderGrowth(
  walk: Walked,
  sort: CollectionSort,
  descending: boolean,
  rule: RuleId,
  label: string,
  known: readonly unknown[],
): Violation | undefined {
  const compare = comparatorOf(sort);
  if (!compare || known.length === 0) return undefined;
  const key = identity([...known, ...walk.records]);
  const before = new Set(known.map(key));
  const { field } = sort;
  const value = (i: number) => fieldOf(walk.records[i], field);
  const sign = descending ? -1 : 1;
  const seen = new Set<string>();
  let last: number | undefined; // the record of the pages so far that sorts last
  let start = 0;
  for (const [p, page] of walk.pages.entries()) {
    const size = readEnvelope(page.exchange)?.data.length ?? 0;
    for (let i = start; i < start + size; i++) {
      const k = key(walk.records[i]);
      if (last === undefined || seen.has(k) || !before.has(k) || absent(value(i))) continue;
      if (sign * compare(value(i), value(last)) >= 0) continue;
      return {
        rule,
        standsUnderGrowth: true,
        expected: `${label}: ${field} ${descending ? 'descending' : 'ascending'} ${orderWords(sort)} across pages, whatever payments appeared meanwhile (a record listed before the walk began comes no later than the page of any record it sorts before)`,
        received: `record #${i} (${describeRecord(walk.records[i], field)}) on the page at offset ${page.offset} sorts before record #${last} (${describeRecord(walk.records[last], field)}) of an earlier page, and was on no earlier page`,
        ...evidence(walk, last, i),
      };
    }
    for (let i = start; i < start + size; i++) {
      seen.add(key(walk.records[i]));
      if (!absent(value(i)) && (last === undefined || sign * compare(value(i), value(last)) > 0)) last = i;
    }
    start += size;
    const next = walk.pages[p + 1];
    if (next && next.offset !== page.offset + size) return undefined; // a short page: the places no longer tile
  }
  return undefined;
}

const inOrder = (values: readonly unknown[], compare: Comparator, descending: boolean) =>
  values.every((v, i) => i === 0 || (descending ? -1 : 1) * compare(values[i - 1], v) <= 0);

/** True when the values are in order as text ("10" before "9"), the mark of a string comparison. */
function inTextOrder(values: readonly unknown[], descending: boolean): boolean {
  const text = values.map(String);
  return text.every((t, i) => i === 0 || (descending ? (text[i - 1] as string) >= t : (text[i - 1] as string) <= t));
}

/**
 * The records in the walk are exactly the `expected` ones, each once: no duplicate (a record on two pages), no gap,
 * nothing else. Order is not compared here.
 */
export function permutationViolation(
  walk: Walked,
  expected: readonly unknown[],
  rule: RuleId,
  label: string,
  /** How a record reads in the report: its id, and the field the check is about. */
  describe: (record: unknown) => string = (r) => describeRecord(r),
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
