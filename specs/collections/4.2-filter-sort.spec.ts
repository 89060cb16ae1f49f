/**
 * §4.2 filters and sorts (rules FLT-STATUS, FLT-BEFORE-PAGE, SRT-AMOUNT, SRT-FILTER) on every other collection the run
 * was given (`--collections`), for each filter and sort it declares: `filter[<field>]` restricts the listing to the
 * records with that value (its values declared, or learned from the data), before pagination; `sort=field` and
 * `sort=-field` order it by the field's type (checks/field-order.ts), across pages, with ties in one order on every
 * request. The rule ids are the payments' (the filter and sort rules of §4.2); each title names the field.
 */
import fc from 'fast-check';
import {
  describeFilter,
  expectedFieldMatches,
  fieldFilterViolation,
  fieldTotalViolation,
  fullFieldPageViolation,
  matches,
  unknownValueViolation,
} from '../../checks/field-filter.ts';
import {
  comparatorOf,
  describeFieldRecord,
  fieldTieSplittingLimits,
  reverseViolation,
  sameFieldSequenceViolation,
  typedSortViolation,
} from '../../checks/field-order.ts';
import { permutationViolation, walkLimits } from '../../checks/order.ts';
import { fetchPage } from '../../core/client/http.ts';
import { unknownValues } from '../../core/generate/collection-arbitraries.ts';
import type { Collection, CollectionFilter, CollectionSort } from '../../core/model/collection.ts';
import {
  describeListing,
  type FieldFilter,
  type Listing,
  maxLimitOf,
  withSelection,
} from '../../core/model/listing.ts';
import { basedOn, basedOnPages, fieldOf, type ResultSet } from '../../core/model/result-set.ts';
import { assertNoViolation } from '../../core/model/verdict.ts';
import { type CheckContext, NotRun, notExercised } from '../../core/run/check.ts';
import { collectionRuns, type LearnedCollection, learnCollection } from '../../core/run/collection-listings.ts';
import { forAll } from '../../core/run/property.ts';
import { enumerate, walk } from '../../core/run/walk.ts';
import { detailsOf, eachCollection, onCollection, titled } from '../../fixtures/collections.ts';
import { test } from '../../fixtures/test.ts';

/** A walk at a smaller limit reads at most this many pages. */
const MAX_WALK_PAGES = 4;

async function learned(ctx: CheckContext, c: Collection): Promise<LearnedCollection> {
  const l = await learnCollection(ctx, c);
  if (l.listings.length === 0) throw new NotRun('needs input', `no configured key may list ${c.name}`);
  return l;
}

/** The (listing, value) pairs of one filter field on every listing. */
const filterCases = (l: LearnedCollection, f: CollectionFilter) =>
  l.listings.flatMap((x, i) =>
    l
      .filters(i)
      .filter((v) => v.field === f.field)
      .map((filter) => ({ ...x, filter })),
  );

/** Two different values of the field in one listing: a sort can show an order, a filter that ignores its value can show. */
const twoValues = (l: LearnedCollection, field: string) =>
  l.listings.some(({ set }) => new Set(set.records.map((r) => JSON.stringify(fieldOf(r, field)))).size >= 2);

/** The records of `set` that match the filter, when given. */
const matching = (set: ResultSet, filter?: FieldFilter) =>
  filter ? set.records.filter((r) => matches(r, filter)) : set.records;

/**
 * SRT-AMOUNT / SRT-FILTER: the whole listing read sorted both ways: each in the field's order, the reverse of the
 * other apart from ties, and (when read whole) the same records as the unsorted set.
 */
async function bothWays(ctx: CheckContext, listing: Listing, base: ResultSet, s: CollectionSort, filter?: FieldFilter) {
  const describe = (r: unknown) => describeFieldRecord(r, s.field);
  const read = async (sort: string) => enumerate(ctx, withSelection(listing, { filter, sort }));
  const [up, down] = [await read(s.field), await read(`-${s.field}`)];
  for (const [set, descending] of [
    [up, false],
    [down, true],
  ] as const) {
    const label = `${describeListing(set.listing)} read at limit ${set.limit}`;
    if (filter) assertNoViolation(fieldFilterViolation(set, filter, ctx.rule));
    assertNoViolation(basedOnPages(typedSortViolation(set, s, descending, ctx.rule, label), set));
    if (set.complete && base.complete) {
      const want = matching(base, filter);
      assertNoViolation(
        basedOn(permutationViolation(set, want, ctx.rule, `${label}: the unsorted set`, describe), base, set),
      );
    }
  }
  // A typed field's order holds both ways above; a string without a collation has none: the reverse is its order.
  if (!comparatorOf(s) && up.complete && down.complete) {
    const label = describeListing(withSelection(listing, { filter }));
    assertNoViolation(basedOn(reverseViolation(up, down, s.field, ctx.rule, label), up, down));
  }
  return { up, down };
}

function filterChecks(c: Collection, f: CollectionFilter): void {
  const param = `filter[${f.field}]`;
  test(
    titled(
      'FLT-STATUS',
      c,
      `${param}=V lists only V records, total = the V records of the unfiltered set (each value, every listing)`,
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const l = await learned(ctx, c);
      if (!twoValues(l, f.field))
        notExercised(
          ctx,
          `no listing of ${c.name} holds two values of ${f.field}: a filter that ignored its value could not show`,
        );
      for (const { listing, set, filter } of filterCases(l, f)) {
        const filtered = await enumerate(ctx, withSelection(listing, { filter }));
        const first = filtered.pages[0]?.exchange;
        const total = first && fieldTotalViolation(first, filter, expectedFieldMatches(set, filter), set.total);
        assertNoViolation(fieldFilterViolation(filtered, filter, ctx.rule) ?? basedOn(total, set));
      }
    }),
  );

  test(
    titled(
      'FLT-STATUS',
      c,
      `${param} with a value no record has (made up, or a pattern: %, _, *) gives a 4xx or an empty 200 on every listing`,
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const l = await learned(ctx, c);
      if (!l.listings.some((x) => x.set.total > 0))
        notExercised(ctx, `every listing of ${c.name} is empty: a value that matched everything could not show`);
      const values = unknownValues(l.known(f.field));
      const cases = values.map((value, k) => ({ i: k % l.listings.length, value }));
      const listingOf = (k: { i: number; value: string }) =>
        withSelection(l.listings[k.i]?.listing as Listing, { filter: { field: f.field, value: k.value } });
      await forAll(
        ctx,
        fc.constantFrom(...cases),
        async (k) => unknownValueViolation(await fetchPage(ctx.api, listingOf(k)), { field: f.field, value: k.value }),
        {
          describe: (k) => describeListing(listingOf(k)),
          examples: cases,
          numRuns: cases.length,
        },
      );
    }),
  );

  test(
    titled(
      'FLT-BEFORE-PAGE',
      c,
      `${param}: filtered pages at a small limit, and any window, hold min(limit, matches - offset) records: every match once`,
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const l = await learned(ctx, c);
      const cases = filterCases(l, f).filter((x) => x.set.records.filter((r) => matches(r, x.filter)).length >= 2);
      if (cases.length === 0)
        notExercised(
          ctx,
          `no value of ${f.field} has two records in a listing of ${c.name}: a filtered page cannot fall short`,
        );
      for (const { listing, set, filter } of cases.slice(0, 2)) {
        const n = expectedFieldMatches(set, filter);
        if (n.min !== n.max) continue; // the set was read in part: the count is not known
        const limit = Math.min(maxLimitOf(listing), Math.max(1, Math.ceil(n.min / 4)));
        const filtered = withSelection(listing, { filter });
        const w = await walk(ctx, filtered, { limit, maxPages: MAX_WALK_PAGES });
        for (const page of w.pages)
          assertNoViolation(
            basedOn(fullFieldPageViolation(page.exchange, filter, { offset: page.offset, limit }, n.min), set),
          );
        if (!w.complete) continue;
        const label = `${describeListing(filtered)} read at limit ${limit}: the ${n.min} matches of the unfiltered set`;
        const v = permutationViolation(w, matching(set, filter), ctx.rule, label, (r) =>
          describeFieldRecord(r, f.field),
        );
        assertNoViolation(basedOn(v, set));
      }
      const [first] = cases;
      if (!first) return;
      // The number of matches: counted in the unfiltered set, or (that set read in part, the count only bounded) the
      // filtered set's own total, as on payments: a lower bound would ask a correct target for too few records.
      const range = expectedFieldMatches(first.set, first.filter);
      const n =
        range.min === range.max
          ? range.min
          : (await enumerate(ctx, withSelection(first.listing, { filter: first.filter }))).total;
      const max = maxLimitOf(first.listing);
      const windows = [
        { offset: 0, limit: max },
        { offset: Math.max(0, n - 1), limit: 10 },
      ];
      await forAll(
        ctx,
        fc.record({ offset: fc.integer({ min: 0, max: n }), limit: fc.integer({ min: 1, max }) }),
        async (w) =>
          fullFieldPageViolation(
            await fetchPage(ctx.api, withSelection(first.listing, { filter: first.filter }), w),
            first.filter,
            w,
            n,
          ),
        {
          describe: (w) => `${describeFilter(first.filter)} offset=${w.offset} limit=${w.limit}`,
          examples: windows,
          numRuns: collectionRuns(ctx.target, windows.length),
        },
      );
    }),
  );
}

function sortChecks(c: Collection, s: CollectionSort): void {
  const how =
    s.type === 'string' ? (s.collation ? `a string, by ${s.collation}` : 'a string: no collation assumed') : s.type;
  test(
    titled(
      'SRT-AMOUNT',
      c,
      `sort=${s.field} and sort=-${s.field} (${how}) order the whole listing both ways, across pages, each the other's reverse apart from ties (every listing)`,
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const l = await learned(ctx, c);
      if (!twoValues(l, s.field))
        notExercised(ctx, `no listing of ${c.name} holds two values of ${s.field}: there is no order to show`);
      for (const { listing, set } of l.listings) await bothWays(ctx, listing, set, s);
    }),
  );

  test(
    titled(
      'SRT-AMOUNT',
      c,
      `sort=±${s.field}: pages at any limit concatenate to the same sequence (ties in one order on every request, every listing)`,
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const l = await learned(ctx, c);
      if (!twoValues(l, s.field))
        notExercised(ctx, `no listing of ${c.name} holds two values of ${s.field}: there is no order to show`);
      const cases: Array<{ i: number; sort: string; limit: number }> = [];
      const refs = new Map<string, ResultSet>();
      for (const [i, { listing, set }] of l.listings.entries()) {
        for (const sort of i === 0 ? [s.field, `-${s.field}`] : [`-${s.field}`]) {
          const ref = await enumerate(ctx, withSelection(listing, { sort }));
          refs.set(`${i}|${sort}`, ref);
          const { min, max } = walkLimits(Math.min(set.total, ctx.target.maxRecords), MAX_WALK_PAGES);
          const top = Math.min(max, maxLimitOf(listing) - 1);
          const [limit] = fieldTieSplittingLimits(ref.records, s.field, Math.min(min, top), top, MAX_WALK_PAGES);
          cases.push({ i, sort, limit: limit ?? Math.max(1, Math.min(top, min)) });
        }
      }
      for (const { i, sort, limit } of cases) {
        const { listing, set } = l.listings[i] as (typeof l.listings)[number];
        const sorted = withSelection(listing, { sort });
        const w = await walk(ctx, sorted, { limit, maxPages: MAX_WALK_PAGES });
        const ref = refs.get(`${i}|${sort}`) as ResultSet;
        const label = `${describeListing(sorted)} read at limit ${limit}`;
        assertNoViolation(basedOnPages(typedSortViolation(w, s, sort.startsWith('-'), ctx.rule, label), w));
        assertNoViolation(basedOn(sameFieldSequenceViolation(w, ref, s.field, ctx.rule, label), ref, w, set));
      }
    }),
  );
}

eachCollection('§4.2 Filters and sorts:', (c) => {
  for (const f of c.filters) filterChecks(c, f);
  for (const s of c.sorts) sortChecks(c, s);
  if (c.filters.length === 0 || c.sorts.length === 0) return;
  test(
    titled(
      'SRT-FILTER',
      c,
      'each filter with each sort, both ways: exactly the matching records, in order, across pages (every listing)',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const l = await learned(ctx, c);
      let shown = false;
      for (const [i, { listing, set }] of l.listings.entries()) {
        for (const filter of l.filters(i).filter((x, k, all) => all.findIndex((y) => y.field === x.field) === k)) {
          const subset = matching(set, filter);
          for (const s of c.sorts) {
            shown ||= new Set(subset.map((r) => JSON.stringify(fieldOf(r, s.field)))).size >= 2;
            await bothWays(ctx, listing, set, s, filter);
          }
        }
      }
      if (!shown)
        notExercised(
          ctx,
          `no filtered listing of ${c.name} holds two values of a sort field: there is no order to show`,
        );
    }),
  );
});
