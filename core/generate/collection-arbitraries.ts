/**
 * fast-check arbitraries for another collection's query (core/model/collection.ts): a window like the payments'
 * (core/generate/arbitraries.ts), one of its declared filters with a value learned or declared, one of its sort
 * values, each omitted at times; and the values a filter must match nothing for.
 */
import fc from 'fast-check';
import type { FieldFilter, PageRequest } from '../model/listing.ts';
import { inCapLimitArb, limitArb, offsetArb } from './arbitraries.ts';

/** One of the filters (or omitted), and one of the sort values (or omitted). */
function selectionArb(filters: readonly FieldFilter[], sorts: readonly string[]) {
  return fc.record({
    filter: filters.length
      ? fc.option(fc.constantFrom(...filters), { nil: undefined, freq: 3 })
      : fc.constant(undefined),
    sort: sorts.length ? fc.option(fc.constantFrom(...sorts), { nil: undefined, freq: 3 }) : fc.constant(undefined),
  });
}

/**
 * A request on a collection's listing of `total` records: mostly a window inside the data, otherwise any offset
 * (past the end, absurd) and limit (over the cap), with or without a filter and a sort. Shrinks toward omitted.
 */
export function collectionRequestArb(
  total: number,
  filters: readonly FieldFilter[],
  sorts: readonly string[],
): fc.Arbitrary<PageRequest> {
  const inRange = fc.record({
    offset: total > 0 ? fc.integer({ min: 0, max: total - 1 }) : fc.constant(0),
    limit: inCapLimitArb(),
  });
  const any = fc.record({ offset: offsetArb(total), limit: limitArb() });
  return fc
    .tuple(fc.oneof({ arbitrary: inRange, weight: 2 }, { arbitrary: any, weight: 3 }), selectionArb(filters, sorts))
    .map(([w, s]) => {
      const r: PageRequest = {};
      if (w.offset !== undefined) r.offset = w.offset;
      if (w.limit !== undefined) r.limit = w.limit;
      if (s.filter !== undefined) r.filter = s.filter;
      if (s.sort !== undefined) r.sort = s.sort;
      return r;
    });
}

/**
 * Values of a field no record has: made up, and patterns a server might widen (SQL LIKE, a glob, a regular
 * expression) built from the values it has (`dup%`, `duplicat_`). None is one of `known`.
 */
export function unknownValues(known: ReadonlySet<string>): string[] {
  const seen = [...known];
  const patterns = seen
    .slice(0, 3)
    .flatMap((v) => [`${v.slice(0, 3)}%`, `%${v.slice(1)}`, `${v.slice(0, -1)}_`, `${v.slice(0, 2)}*`]);
  const made = ['NO_SUCH_VALUE', 'no such value', '%', '_', '*', '.*'];
  return [...new Set([...made, ...patterns])].filter((v) => v !== '' && !known.has(v));
}
