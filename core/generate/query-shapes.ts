/**
 * The query features that change a server's code path on a listing — a filter, a sort and its direction, an offset
 * past the first pages, the limit at its bounds — and a covering array of them: every pair of two features' values in
 * at least one query (pairwise), deterministic, the same on every run. The door checks send each refused request in
 * each of these shapes (a check one code path forgets is the usual defect: reading "Every code path"); the access
 * matrix can take them as its examples too.
 */
import { type Collection, PAYMENTS } from '../model/collection.ts';
import type { PageRequest } from '../model/listing.ts';

/** One feature: its values, each a part of a query ({} = the parameter left out). */
type Feature = ReadonlyArray<Partial<PageRequest>>;

/**
 * The features and their values on collection `c`: its first filter at its first named value, its first sort both
 * ways, an offset past the first pages (three default pages), the limit at its bounds.
 */
function queryFeatures(defaultLimit: number, c: Collection): Feature[] {
  const [filter, sort] = [c.filters[0], c.sorts[0]?.field];
  const value = filter?.named?.[0];
  return [
    [{}, ...(filter && value ? [{ filter: { field: filter.field, value } }] : [])],
    [{}, ...(sort ? [{ sort }, { sort: `-${sort}` }] : [])],
    [{}, { offset: 3 * defaultLimit }],
    [{}, { limit: 1 }, { limit: 100 }],
  ];
}

/**
 * A covering array of strength 2 over `features`: rows of value indices, every pair of values of two features in
 * some row. Greedy (each row the one of all combinations that covers most pairs still uncovered, the first on a tie),
 * so deterministic.
 */
export function pairwise(sizes: readonly number[]): number[][] {
  const combos: number[][] = sizes.reduce<number[][]>(
    (rows, n) => rows.flatMap((r) => Array.from({ length: n }, (_, v) => [...r, v])),
    [[]],
  );
  const pairsOf = (row: readonly number[]) =>
    row.flatMap((v, i) => row.slice(i + 1).map((w, d) => `${i}=${v},${i + d + 1}=${w}`));
  const uncovered = new Set(combos.flatMap(pairsOf));
  const rows: number[][] = [];
  while (uncovered.size > 0) {
    let best = combos[0] as number[];
    let gain = -1;
    for (const c of combos) {
      const g = pairsOf(c).filter((p) => uncovered.has(p)).length;
      if (g > gain) [best, gain] = [c, g];
    }
    for (const p of pairsOf(best)) uncovered.delete(p);
    rows.push(best);
  }
  return rows;
}

/** The queries of the covering array: every pair of two features' values in one of them. */
export function queryShapes(defaultLimit: number, c: Collection = PAYMENTS): PageRequest[] {
  const features = queryFeatures(defaultLimit, c);
  return pairwise(features.map((f) => f.length)).map((row) =>
    Object.assign({}, ...row.map((v, i) => (features[i] as Feature)[v])),
  );
}
