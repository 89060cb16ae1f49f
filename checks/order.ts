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
import { identity } from '../core/model/listing.ts';
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
    return {
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
    return {
      rule,
      expected: `${label}: ${field} ${descending ? 'descending' : 'ascending'} ${orderWords(sort)} over the whole listing (${walk.records.length} records, ${walk.pages.length} pages)`,
      received: `${shown(i)} before ${shown(j)}${hints.length ? ` (${hints.join('; ')})` : ''}`,
      ...evidence(walk, i, j),
    };
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
