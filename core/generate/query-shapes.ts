/**
 * The query features that change a server's code path on a listing — a filter, a sort and its direction, an offset
 * past the first pages, the limit at its bounds — and a covering array of them: every pair of two features' values in
 * at least one query (pairwise), deterministic, the same on every run. The door checks send each refused request in
 * each of these shapes (a check one code path forgets is the usual defect: reading "Every code path"); the access
 * matrix can take them as its examples too.
 */
import { type Collection, PAYMENTS } from '../model/collection.ts';
import { type FieldFilter, MAX_LIMIT, type PageRequest } from '../model/listing.ts';

/** One feature: its values, each a part of a query ({} = the parameter left out). */
export type Feature = ReadonlyArray<Partial<PageRequest>>;

/**
 * The features and their values on collection `c`: a value of its filter (`filter`, else its first filter's first
 * named value), its first sort both ways, an offset past the first pages (three default pages), the limit at its
 * bounds (omitted, 1, its maximum, and with `overMax` one past it: a server may refuse that one as a bad request).
 */
export function queryFeatures(
  defaultLimit: number,
  c: Collection,
  opts: { filter?: FieldFilter; overMax?: boolean } = {},
): Feature[] {
  const first = c.filters[0]?.named?.[0];
  const filter = opts.filter ?? (first ? { field: c.filters[0]?.field as string, value: first } : undefined);
  const sort = c.sorts[0]?.field;
  const max = c.maxLimit ?? MAX_LIMIT;
  return [
    [{}, ...(filter ? [{ filter }] : [])],
    [{}, ...(sort ? [{ sort }, { sort: `-${sort}` }] : [])],
    [{}, { offset: 3 * defaultLimit }],
    [{}, { limit: 1 }, { limit: max }, ...(opts.overMax ? [{ limit: max + 1 }] : [])],
  ];
}

/**
 * A covering array over factors of `sizes` values: rows of value indices such that every `strength`-tuple of values
 * of distinct factors is in some row — strength 1, every value once; strength 2 (pairwise), every pair of two
 * factors' values. Greedy and deterministic (the same rows on every run): each row starts from the first tuple still
 * uncovered, and takes for every other factor, in order, the value that covers most tuples still uncovered with the
 * values already chosen (the lowest on a tie).
 */
export function coveringArray(sizes: readonly number[], strength: 1 | 2 = 2): number[][] {
  const n = sizes.length;
  const key = (i: number, a: number, j: number, b: number) => `${i}=${a},${j}=${b}`;
  const uncovered = new Set<string>();
  for (let i = 0; i < n; i++)
    for (let a = 0; a < (sizes[i] as number); a++) {
      if (strength === 1) uncovered.add(key(i, a, i, a));
      else
        for (let j = i + 1; j < n; j++) for (let b = 0; b < (sizes[j] as number); b++) uncovered.add(key(i, a, j, b));
    }
  const rows: number[][] = [];
  while (uncovered.size > 0) {
    const [i, a, j, b] = (uncovered.values().next().value as string).split(/[=,]/).map(Number) as number[];
    const row: number[] = Array(n).fill(-1);
    row[i as number] = a as number;
    row[j as number] = b as number;
    const gain = (k: number, v: number) =>
      strength === 1
        ? Number(uncovered.has(key(k, v, k, v)))
        : row.filter((w, m) => w >= 0 && m !== k && uncovered.has(m < k ? key(m, w, k, v) : key(k, v, m, w))).length;
    for (let k = 0; k < n; k++) {
      if ((row[k] as number) >= 0) continue;
      let best = 0;
      for (let v = 1; v < (sizes[k] as number); v++) if (gain(k, v) > gain(k, best)) best = v;
      row[k] = best;
    }
    for (let k = 0; k < n; k++) {
      uncovered.delete(key(k, row[k] as number, k, row[k] as number));
      for (let m = k + 1; m < n; m++) uncovered.delete(key(k, row[k] as number, m, row[m] as number));
    }
    rows.push(row);
  }
  return rows;
}

/** The queries of the covering array: every pair of two features' values in one of them (strength 1: each value). */
export function queryShapes(defaultLimit: number, strength: 1 | 2 = 2, c: Collection = PAYMENTS): PageRequest[] {
  const features = queryFeatures(defaultLimit, c);
  return coveringArray(
    features.map((f) => f.length),
    strength,
  ).map((row) => Object.assign({}, ...row.map((v, i) => (features[i] as Feature)[v])));
}
