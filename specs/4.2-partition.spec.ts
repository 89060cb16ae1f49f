/**
 * §4.2 List payments of a merchant: pages partition the result set, and empty pages (rules PAG-PARTITION,
 * PAG-EMPTY), on every collection the run checks, on every listing the configuration can read, unfiltered, filtered
 * and sorted. Whole sets are walks at the maximum limit (memoised per worker); walks at smaller limits read at most
 * a few pages each.
 */
import fc from 'fast-check';
import { capBasis, emptyViolation } from '../checks/envelope.ts';
import { enumerationViolation, sameSetViolation, sliceViolation, walkViolation } from '../checks/pages.ts';
import { fetchPage } from '../core/client/http.ts';
import { ABSURD_OFFSET, absurdOffsetArb, limitArb, noSuchValue, offsetArb } from '../core/generate/arbitraries.ts';
import { type Collection, directions } from '../core/model/collection.ts';
import {
  defaultLimitOf,
  describeListing,
  identity,
  type Listing,
  limitInForce,
  readEnvelope,
  type Selection,
  selectionsOf,
  withSelection,
} from '../core/model/listing.ts';
import type { ResultSet } from '../core/model/result-set.ts';
import { assertNoViolation, derive, excerpt } from '../core/model/verdict.ts';
import { type CheckContext, notExercised } from '../core/run/check.ts';
import {
  coversOnce,
  enumerateEach,
  firstFilters,
  readable,
  references,
  runsOn,
  walkPagesOn,
} from '../core/run/learn.ts';
import { listingProperty, on, sameSetTotal, selectionCaseArb } from '../core/run/listing-property.ts';
import { forAll } from '../core/run/property.ts';
import { walk } from '../core/run/walk.ts';
import { eachCollection } from '../fixtures/collections.ts';

/** Every set of every readable listing under every selection: "not exercised" when none holds two records. */
async function partitioned(ctx: CheckContext, c: Collection) {
  const selections = selectionsOf(c, await firstFilters(ctx, c));
  const each = await enumerateEach(ctx, c, selections);
  if (!each.sets.some((set) => set.records.length >= 2)) {
    notExercised(ctx, 'no listing holds two records: pages cannot show a gap or a duplicate');
  }
  return { ...each, selections };
}

const filterKnown = (selections: readonly Selection[]) => (field: string) =>
  new Set(selections.flatMap((s) => (s.filter?.field === field ? [s.filter.value] : [])));

eachCollection('§4.2 Pagination: pages partition the result set, empty pages:', (c, check) => {
  const max = c.maxLimit ?? 100;
  // "Page 1 with limit L has offset=0. Page n has offset=(n-1)*L." Reading: the order without sort is stable
  // from request to request, and ties under sort come in the same order on every request.
  check(
    'PAG-PARTITION',
    `the pages at limit ${max} hold every record once, and the same records at every sort (any listing)`,
    async (ctx) => {
      const unsorted = new Map<string, ResultSet>();
      for (const set of (await partitioned(ctx, c)).sets) {
        const { listing } = set;
        assertNoViolation(enumerationViolation(set, identity(set.records), describeListing(listing)));
        const key = describeListing(withSelection(listing, { filter: listing.filter }));
        const base = unsorted.get(key);
        if (!base) unsorted.set(key, set);
        else {
          const labels: [string, string] = [describeListing(base.listing), describeListing(listing)];
          assertNoViolation(sameSetViolation(base, set, identity(base.records), labels));
        }
      }
    },
  );

  check(
    'PAG-PARTITION',
    'pages at offsets 0, L, 2L, … at any limit L concatenate to the whole result set (any listing)',
    async (ctx) => {
      const { sets, first } = await partitioned(ctx, c);
      const pages = walkPagesOn(c, 12, ctx.depth);
      const covered = (k: number) => {
        const set = sets[k] as ResultSet;
        return set.complete ? set.total : set.records.length;
      };
      // L runs from the maximum down to the smallest limit that covers the set in `pages` pages; `below` shrinks
      // toward 0, i.e. toward the maximum, the cheapest walk.
      const limitOf = ({ k, below }: { k: number; below: number }) =>
        Math.max(max - below, Math.min(max, Math.ceil(covered(k) / pages)));
      const arb = fc.record({ k: fc.nat({ max: sets.length - 1 }), below: fc.nat({ max: max - 1 }) });
      const examples = [
        { k: 0, below: max - 1 },
        { k: 1, below: max - 7 },
        { k: 3, below: 1 },
        { k: 2, below: 67 },
        // The unfiltered set of each other readable listing.
        ...[1, 2].filter((i) => first(i) < sets.length).map((i) => ({ k: first(i), below: max - 9 })),
      ].filter((e) => e.k < sets.length);
      // Covered once: the last set (another listing's, sorted where one is read sorted); the draw walks another.
      if (coversOnce(ctx.depth)) examples.splice(0, examples.length, { k: sets.length - 1, below: max - 9 });
      await forAll(
        ctx,
        arb,
        async (v) => {
          const set = sets[v.k] as ResultSet;
          const w = await walk(ctx, set.listing, {
            limit: limitOf(v),
            maxPages: pages,
            reference: set.pages[0]?.exchange,
          });
          return walkViolation(w, set, identity(set.records));
        },
        {
          describe: (v) => `${describeListing((sets[v.k] as ResultSet).listing)}, pages of limit=${limitOf(v)}`,
          examples,
          numRuns: runsOn(ctx, c, examples.length, Math.min(ctx.target.fcNumRuns, examples.length + 2)),
        },
      );
    },
  );

  check(
    'PAG-PARTITION',
    'any (offset, limit) window is the matching slice of the result set (any listing)',
    async (ctx) => {
      const { listings, set: setOf, selections, on: selectionsOn } = await partitioned(ctx, c);
      const t = (i: number, s: Selection) => setOf(i, s).total;
      const filtered = selections.find((s) => s.filter) ?? {};
      const [up, down] = c.sorts[0] ? directions(c.sorts[0]) : [];
      const examples = [
        ...on(0, { offset: 1, limit: 10 }, { offset: max - 1, limit: 3 }, { sort: down, offset: max, limit: 1 }),
        ...on(0, { ...filtered, offset: Math.max(0, t(0, filtered) - 2), limit: 5 }, { sort: up, offset: 13 }),
        ...listings.slice(1).flatMap((_, k) => on(k + 1, { offset: 7, limit: 5 }, { sort: down, offset: 3, limit: 4 })),
        // A case is judged against the set read under its selection: only those read on its listing.
      ].filter((k) => selectionsOn(k.i).some((s) => s.sort === k.r.sort && s.filter?.value === k.r.filter?.value));
      const arb = selectionCaseArb(listings.length, selectionsOn, t, offsetArb, limitArb(max));
      const judge = async (
        e: Parameters<typeof capBasis>[0],
        k: { i: number; r: Selection & { offset?: number; limit?: number } },
      ) => {
        const set = setOf(k.i, k.r);
        await sameSetTotal(ctx, set, e);
        const l = listings[k.i] as Listing;
        const window = {
          offset: k.r.offset ?? 0,
          limit: limitInForce(k.r, defaultLimitOf(l, ctx.target.defaultLimit), max),
        };
        return derive(sliceViolation(e, window, set, identity(set.records)), capBasis(e, k.r, max));
      };
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        judge,
        filterKnown(selections),
        runsOn(ctx, c, examples.length),
      );
    },
  );

  // "When total is 0, no records match, and the data array is empty." Reading: offset >= total gives 200 with
  // data [] and the same total (or a 4xx for absurd offsets).
  check(
    'PAG-EMPTY',
    'offset at or past the end: data [] and total unchanged, at any limit, on any listing, filtered and sorted',
    async (ctx) => {
      const first = await firstFilters(ctx, c);
      const selections = selectionsOf(c, first);
      const { listings, reference, has } = await references(ctx, c, [undefined, ...first]);
      const t = (i: number, s: Selection) => reference(i, s.filter)?.total ?? 0;
      const pastEnd = (total: number) =>
        fc.oneof(fc.constantFrom(total, total + 1), fc.integer({ min: total, max: total + 1000 }), absurdOffsetArb());
      const done = selections.find((s) => s.filter) ?? {};
      const down = c.sorts[0] ? directions(c.sorts[0])[1] : undefined;
      const examples = [
        ...on(
          0,
          { offset: t(0, {}), limit: 10 },
          { offset: t(0, {}) + 1 },
          { ...done, offset: t(0, done), limit: max },
        ),
        ...on(
          0,
          { sort: down, offset: t(0, {}) + 1, limit: 1 },
          { ...done, sort: down, offset: t(0, done) + 50, limit: 10 },
        ),
        ...on(0, { offset: ABSURD_OFFSET, limit: 10 }),
        ...listings
          .slice(1)
          .flatMap((_, k) => on(k + 1, { offset: t(k + 1, {}), limit: 10 }, { ...done, offset: t(k + 1, done) })),
      ].filter((k) => has(k.i, k.r.filter));
      // Covered once, a listing's selections are those whose total was read on it.
      const onListing = (i: number) => selections.filter((s) => has(i, s.filter));
      const arb = selectionCaseArb(listings.length, onListing, t, pastEnd, limitArb(max));
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        (e, k) => {
          const offset = k.r.offset ?? 0;
          return emptyViolation(e, offset, reference(k.i, k.r.filter).total, offset >= ABSURD_OFFSET);
        },
        filterKnown(selections),
        runsOn(ctx, c, examples.length),
      );
    },
  );

  const [f] = c.filters;
  if (!f) return;
  check(
    'PAG-EMPTY',
    `a query that matches nothing (unknown ${f.field}) gives data [] when it answers 200 with total 0`,
    async ({ target, api, rule, depth }) => {
      const filter = { field: f.field, value: noSuchValue(f.field) };
      const listing = withSelection(readable(target, c)[0] as Listing, { filter });
      // Covered once: the offset omitted, and past the end of the empty result (0 is the first's echo).
      for (const offset of coversOnce(depth) ? [undefined, 5] : [undefined, 0, 5]) {
        const e = await fetchPage(api, listing, { offset, limit: 10 });
        if (e.status >= 500) {
          const expected = 'a 4xx, or HTTP 200 with total 0 and data []';
          assertNoViolation({ rule, expected, received: excerpt(e), exchange: e });
        }
        // A 4xx is legal; a total other than 0 is the filter rule's to judge.
        if (readEnvelope(e)?.total === 0) assertNoViolation(emptyViolation(e, offset ?? 0, 0, false));
      }
    },
  );
});
