/**
 * §4.2 List payments of a merchant: `filter[status]` and `sort` (rules FLT-STATUS, FLT-BEFORE-PAGE, SRT-AMOUNT,
 * SRT-FILTER) on every listing the configuration can read. The statuses and the sets are learned from the target
 * first (each listing enumerated unfiltered, once per worker); walks at smaller limits take at most MAX_WALK_PAGES
 * pages each.
 */
import fc from 'fast-check';
import {
  caseChanged,
  expectedMatches,
  filteredTotalViolation,
  fullPageViolation,
  statusViolation,
  unknownStatusViolation,
  withStatus,
} from '../checks/filter.ts';
import {
  AMOUNT_SORTS,
  type AmountSort,
  amountOf,
  orderedWalkViolation,
  permutationViolation,
  sortViolation,
  tieSplittingLimits,
  walkLimits,
} from '../checks/order.ts';
import { fetchPage } from '../core/client/http.ts';
import { inCapLimitArb, unknownStatusArb } from '../core/generate/arbitraries.ts';
import { PATTERN_VALUES } from '../core/generate/coverage.ts';
import { describeListing, MAX_LIMIT, SPEC_STATUS, withSelection } from '../core/model/listing.ts';
import { basedOn, basedOnPages, type ResultSet, statusCounts } from '../core/model/result-set.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { type CheckContext, notExercised } from '../core/run/check.ts';
import { type Learned, learnListings } from '../core/run/learn.ts';
import { forAll } from '../core/run/property.ts';
import { enumerate, walk } from '../core/run/walk.ts';
import { settle, test } from '../fixtures/test.ts';

/** At most this many statuses are checked one by one on the sandbox listing (the most frequent, and COMPLETED)… */
const MAX_STATUSES = 12;
/** …and on the other listings, which are read for the code paths they take, not for more statuses. */
const MAX_STATUSES_ELSEWHERE = 2;
/** A walk at a small limit reads at most this many pages (a prefix of a larger set). */
const MAX_WALK_PAGES = 6;

/** The statuses checked one by one on a listing: COMPLETED first, then the most frequent seen. */
const statusesOf = (l: Learned, i: number) =>
  [...new Set([SPEC_STATUS, ...l.statuses])].slice(0, i === 0 ? MAX_STATUSES : MAX_STATUSES_ELSEWHERE);

/** A (listing, status) pair for every status checked on every readable listing. */
const statusCases = (learned: Learned[]) =>
  learned.flatMap((l, i) => statusesOf(l, i).map((status) => ({ l, status })));

/**
 * The number of `status` records, and the set it was counted from: the unfiltered set, or the filtered set's total
 * when the unfiltered one was capped.
 */
async function matchCount(ctx: CheckContext, l: Learned, status: string): Promise<{ n: number; from: ResultSet }> {
  const range = expectedMatches(l.set, status);
  if (range.min === range.max) return { n: range.min, from: l.set };
  const filtered = await enumerate(ctx, withSelection(l.listing, { status }));
  return { n: filtered.total, from: filtered };
}

/** The sorted result sets (at limit 100) of a listing, filtered by `status` or not, in both directions. */
async function sortedSets(ctx: CheckContext, l: Learned, status?: string) {
  const sets = new Map<AmountSort, ResultSet>();
  for (const sort of AMOUNT_SORTS) {
    sets.set(sort, await enumerate(ctx, withSelection(l.listing, { status, sort })));
  }
  return (sort: AmountSort) => sets.get(sort) as ResultSet;
}

/** Two different amounts: records that can show an order. */
const twoAmounts = (records: readonly unknown[]) => new Set(records.map((r) => String(amountOf(r)))).size >= 2;

/** What a listing can show, for the checks that need it (a check none of whose listings can is "not exercised"). */
const CAN_SHOW = {
  exclusion: {
    can: (l: Learned) => l.statuses.length >= 2,
    unshown: 'no listing holds two statuses: a filter that ignored the status could not show',
  },
  emptyMatch: {
    can: (l: Learned) => l.set.total > 0,
    unshown: 'every listing is empty: an unknown status that matched everything could not show',
  },
  shortPage: {
    can: (l: Learned) => statusCounts(l.set.records).some(([, n]) => n >= 2),
    unshown: 'no status has two matches in a listing: a filtered page cannot fall short',
  },
  order: {
    can: (l: Learned) => twoAmounts(l.set.records),
    unshown: 'no listing holds two different amounts: there is no order to show',
  },
  filteredOrder: {
    can: (l: Learned) => l.statuses.some((s) => twoAmounts(withStatus(l.set.records, s))),
    unshown: 'no status holds two different amounts in a listing: there is no order to show',
  },
} as const;

/** The readable listings, learned; the check is "not exercised" when none of them can show what it needs. */
async function learnedFor(ctx: CheckContext, what: keyof typeof CAN_SHOW): Promise<Learned[]> {
  const learned = await learnListings(ctx);
  if (!learned.some(CAN_SHOW[what].can)) notExercised(ctx, CAN_SHOW[what].unshown);
  return learned;
}

test.describe('§4.2 List payments: filter[status]', () => {
  // "filter[status] | Restricts results to payments with this status (for example COMPLETED)";
  // "total is the count of all records matching the query (after filtering)".
  test(
    'FLT-STATUS filter[status]=S lists only S records, total = the S records of the unfiltered set (each status, every listing)',
    settle(async (ctx) => {
      for (const { l, status } of statusCases(await learnedFor(ctx, 'exclusion'))) {
        const set = await enumerate(ctx, withSelection(l.listing, { status }));
        const first = set.pages[0]?.exchange;
        const total = first && filteredTotalViolation(first, status, expectedMatches(l.set, status), l.set.total);
        assertNoViolation(statusViolation(set, status, ctx.rule) ?? basedOn(total, l.set));
      }
    }),
  );

  // Reading: "Unknown filter[status] value: a 4xx, or a 200 with total 0 and data []". Values match exactly:
  // `completed` is not `COMPLETED`.
  test(
    'FLT-STATUS an unknown, case-changed or pattern-like status (%, _, *, ?) gives a 4xx or an empty 200 (total 0, data []) on every listing',
    settle(async (ctx) => {
      const learned = await learnedFor(ctx, 'emptyMatch');
      const known = new Set([...learned.flatMap((l) => l.statuses), SPEC_STATUS]);
      const arb = fc.record({ i: fc.nat({ max: learned.length - 1 }), value: unknownStatusArb([...known]) });
      // A value a server might read as a pattern (SQL LIKE, a glob) must never widen what the filter matches.
      const patterns = PATTERN_VALUES.map((value, k) => ({ i: k % learned.length, value }));
      const examples = [
        ...[...caseChanged(known), 'NO_SUCH_STATUS'].map((value) => ({ i: 0, value })),
        ...patterns,
        ...learned.slice(1).map((_, k) => ({ i: k + 1, value: SPEC_STATUS.toLowerCase() })),
      ];
      const listingOf = ({ i, value }: { i: number; value: string }) =>
        withSelection((learned[i] as Learned).listing, { status: value });
      await forAll(ctx, arb, async (c) => unknownStatusViolation(await fetchPage(ctx.api, listingOf(c)), c.value), {
        describe: (c) => describeListing(listingOf(c)),
        examples,
      });
    }),
  );

  // "Filters and sorting are applied before pagination": a page holds min(limit, matches - offset) records.
  test(
    'FLT-BEFORE-PAGE a filtered walk at a small limit has full pages while matches remain, and every match once',
    settle(async (ctx) => {
      for (const { l, status } of statusCases(await learnedFor(ctx, 'shortPage'))) {
        const { n, from } = await matchCount(ctx, l, status);
        const limit = Math.min(MAX_LIMIT, Math.max(1, Math.ceil(n / 4)));
        const listing = withSelection(l.listing, { status });
        const w = await walk(ctx, listing, { limit, maxPages: MAX_WALK_PAGES });
        for (const page of w.pages) {
          assertNoViolation(basedOn(fullPageViolation(page.exchange, status, { offset: page.offset, limit }, n), from));
        }
        if (!w.complete || !l.set.complete) continue;
        const label = `${describeListing(listing)} read at limit ${limit}: the ${n} ${status} records of the unfiltered set`;
        const v = permutationViolation(w, withStatus(l.set.records, status), ctx.rule, label);
        assertNoViolation(basedOn(v, l.set));
      }
    }),
  );

  test(
    'FLT-BEFORE-PAGE any filtered window on any listing holds min(limit, matches - offset) records',
    settle(async (ctx) => {
      const cases = statusCases(await learnedFor(ctx, 'shortPage'));
      const counts: Array<{ n: number; from: ResultSet }> = [];
      for (const { l, status } of cases) counts.push(await matchCount(ctx, l, status));
      const n = (k: number) => counts[k]?.n ?? 0;
      const arb = fc.nat({ max: cases.length - 1 }).chain((k) =>
        fc.record({
          k: fc.constant(k),
          offset: fc.oneof(fc.integer({ min: 0, max: n(k) }), fc.constantFrom(0, Math.max(0, n(k) - 1), n(k))),
          limit: inCapLimitArb(),
        }),
      );
      // The first page at the largest limit for the first statuses, and the last match of the most frequent.
      const examples = [0, 1, 2].filter((k) => k < cases.length).map((k) => ({ k, offset: 0, limit: MAX_LIMIT }));
      examples.push({ k: 0, offset: Math.max(0, n(0) - 1), limit: 10 });
      const listingOf = (k: number) => {
        const c = cases[k] as (typeof cases)[number];
        return { c, listing: withSelection(c.l.listing, { status: c.status }) };
      };
      await forAll(
        ctx,
        arb,
        async ({ k, offset, limit }) => {
          const { c, listing } = listingOf(k);
          const e = await fetchPage(ctx.api, listing, { offset, limit });
          const from = counts[k]?.from;
          const v = fullPageViolation(e, c.status, { offset, limit }, n(k));
          return from ? basedOn(v, from) : v;
        },
        { describe: (v) => `${describeListing(listingOf(v.k).listing)} offset=${v.offset} limit=${v.limit}`, examples },
      );
    }),
  );
});

test.describe('§4.2 List payments: sort', () => {
  // "sort | Sort field. A leading - means descending order (for example -amount gives highest amount first).
  // Without the prefix, ascending order is implied." Reading: amount compares numerically (number or numeric string).
  test(
    'SRT-AMOUNT sort=amount ascends and sort=-amount descends numerically over the whole listing, across pages (every listing)',
    settle(async (ctx) => {
      for (const l of await learnedFor(ctx, 'order')) {
        const sorted = await sortedSets(ctx, l);
        for (const sort of AMOUNT_SORTS) {
          const set = sorted(sort);
          const label = `${describeListing(set.listing)} read at limit ${MAX_LIMIT}`;
          const same =
            l.set.complete && set.complete
              ? permutationViolation(set, l.set.records, ctx.rule, `${label}: the unsorted set`)
              : undefined;
          assertNoViolation(basedOnPages(sortViolation(set, sort, ctx.rule, label), set) ?? basedOn(same, l.set, set));
        }
      }
    }),
  );

  // Reading: "Under sort=amount, ties may come in any order, but the same order on every request": pages at
  // any limit partition the set and concatenate to one sequence. Limits that split tie groups come first.
  test(
    'SRT-AMOUNT pages at any limit concatenate to the same sorted sequence (ties in one order on every request, every listing)',
    settle(async (ctx) => {
      const learned = await learnedFor(ctx, 'order');
      const refs: Array<(s: AmountSort) => ResultSet> = [];
      for (const l of learned) refs.push(await sortedSets(ctx, l));
      const ref = (i: number, sort: AmountSort) => (refs[i] as (s: AmountSort) => ResultSet)(sort);
      const limits = (i: number) => walkLimits((learned[i] as Learned).set.total, MAX_WALK_PAGES);
      const arb = fc
        .record({ i: fc.nat({ max: learned.length - 1 }), sort: fc.constantFrom(...AMOUNT_SORTS) })
        .chain(({ i, sort }) => fc.integer(limits(i)).map((limit) => ({ i, sort, limit })));
      // A limit that splits a tie group: both directions on the sandbox listing, one on each other listing.
      const examples = learned.flatMap((_, i) =>
        (i === 0 ? AMOUNT_SORTS : AMOUNT_SORTS.slice(1)).flatMap((sort) => {
          const { min, max } = limits(i);
          const [limit] = tieSplittingLimits(ref(i, sort).records, min, max, MAX_WALK_PAGES);
          return limit === undefined ? [] : [{ i, sort, limit }];
        }),
      );
      await forAll(
        ctx,
        arb,
        async ({ i, sort, limit }) => {
          const l = learned[i] as Learned;
          const listing = withSelection(l.listing, { sort });
          const w = await walk(ctx, listing, { limit, maxPages: MAX_WALK_PAGES });
          const expected = l.set.complete ? l.set.records : undefined;
          const label = `${describeListing(listing)} read at limit ${limit}`;
          return orderedWalkViolation(w, sort, ref(i, sort), expected, ctx.rule, label, [l.set]);
        },
        {
          describe: (v) =>
            `${describeListing(withSelection((learned[v.i] as Learned).listing, v))}, pages of limit=${v.limit}`,
          examples,
        },
      );
    }),
  );

  // "Filters and sorting are applied before pagination": the filtered set, globally sorted.
  test(
    'SRT-FILTER filter[status]=S with sort=±amount lists exactly the S records, globally sorted (each status, every listing)',
    settle(async (ctx) => {
      for (const { l, status } of statusCases(await learnedFor(ctx, 'filteredOrder'))) {
        const sorted = await sortedSets(ctx, l, status);
        for (const sort of AMOUNT_SORTS) {
          const set = sorted(sort);
          const label = `${describeListing(set.listing)} read at limit ${MAX_LIMIT}`;
          const same =
            l.set.complete && set.complete
              ? permutationViolation(set, withStatus(l.set.records, status), ctx.rule, label)
              : undefined;
          assertNoViolation(
            statusViolation(set, status, ctx.rule) ??
              basedOnPages(sortViolation(set, sort, ctx.rule, label), set) ??
              basedOn(same, l.set, set),
          );
        }
      }
    }),
  );

  test(
    'SRT-FILTER filtered and sorted pages at any limit concatenate to the same sorted sequence (every listing)',
    settle(async (ctx) => {
      const cases = statusCases(await learnedFor(ctx, 'filteredOrder'));
      const refs: Array<(s: AmountSort) => ResultSet> = [];
      for (const { l, status } of cases) refs.push(await sortedSets(ctx, l, status));
      const ref = (k: number, sort: AmountSort) => (refs[k] as (s: AmountSort) => ResultSet)(sort);
      const limits = (k: number) => walkLimits(ref(k, 'amount').total, MAX_WALK_PAGES);
      const arb = fc
        .record({ k: fc.nat({ max: cases.length - 1 }), sort: fc.constantFrom(...AMOUNT_SORTS) })
        .chain(({ k, sort }) => fc.integer(limits(k)).map((limit) => ({ k, sort, limit })));
      const examples = cases.flatMap((_, k) => {
        const { min, max } = limits(k);
        const [limit] = tieSplittingLimits(ref(k, 'amount').records, min, max, MAX_WALK_PAGES);
        return limit === undefined ? [] : [{ k, sort: 'amount' as AmountSort, limit }];
      });
      const listingOf = ({ k, sort }: { k: number; sort: AmountSort }) => {
        const c = cases[k] as (typeof cases)[number];
        return withSelection(c.l.listing, { status: c.status, sort });
      };
      await forAll(
        ctx,
        arb,
        async (v) => {
          const { l, status } = cases[v.k] as (typeof cases)[number];
          const listing = listingOf(v);
          const w = await walk(ctx, listing, {
            limit: v.limit,
            maxPages: MAX_WALK_PAGES,
          });
          const label = `${describeListing(listing)} read at limit ${v.limit}`;
          const expected = l.set.complete ? withStatus(l.set.records, status) : undefined;
          return (
            statusViolation(w, status, ctx.rule) ??
            orderedWalkViolation(w, v.sort, ref(v.k, v.sort), expected, ctx.rule, label, [l.set])
          );
        },
        { describe: (v) => `${describeListing(listingOf(v))}, pages of limit=${v.limit}`, examples },
      );
    }),
  );
});
