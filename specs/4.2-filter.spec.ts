/**
 * §4.2 List payments of a merchant: `filter[status]` (rules FLT-STATUS, FLT-BEFORE-PAGE), on every collection the run
 * checks, for each filter it declares (payments: `status`), on every listing the configuration can read. The values
 * tried are learned from the target first (each listing enumerated unfiltered, once per worker): the spec's named
 * value (COMPLETED) first, then the most frequent seen; walks at smaller limits take at most MAX_WALK_PAGES pages
 * each.
 */
import fc from 'fast-check';
import {
  caseChanged,
  expectedMatches,
  filteredTotalViolation,
  filterViolation,
  fullPageViolation,
  matching,
  unknownValueViolation,
} from '../checks/filter.ts';
import { describeRecord, permutationViolation } from '../checks/order.ts';
import { fetchPage } from '../core/client/http.ts';
import {
  inCapLimitArb,
  normalisedSpellings,
  noSuchValue,
  patternValues,
  unknownValueArb,
} from '../core/generate/arbitraries.ts';
import type { Collection, CollectionFilter } from '../core/model/collection.ts';
import { describeListing, type FieldFilter, maxLimitOf, withSelection } from '../core/model/listing.ts';
import { basedOn, fieldValueCounts, type ResultSet } from '../core/model/result-set.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { type CheckContext, notExercised } from '../core/run/check.ts';
import {
  coversOnce,
  filterCases,
  type Learned,
  type LearnedListing,
  learnReadable,
  runsOn,
  walkPagesOn,
} from '../core/run/learn.ts';
import { forAll } from '../core/run/property.ts';
import { enumerate, walk } from '../core/run/walk.ts';
import { type Check, eachCollection } from '../fixtures/collections.ts';

/** A walk at a small limit reads at most this many pages (a prefix of a larger set). */
const MAX_WALK_PAGES = 6;

/** Records of two values of the field in one listing: a filter that ignores its value can show. */
const twoValues = (learned: Learned, field: string) =>
  learned.listings.some(({ set }) => fieldValueCounts(set.records, field).length >= 2);

/**
 * The number of records with the filter's value, and the set it was counted from: the unfiltered set, or the filtered
 * set's total when the unfiltered one was capped (a lower bound would ask a correct target for too few records).
 */
async function matchCount(
  ctx: CheckContext,
  l: LearnedListing,
  f: FieldFilter,
): Promise<{ n: number; from: ResultSet }> {
  const range = expectedMatches(l.set, f);
  if (range.min === range.max) return { n: range.min, from: l.set };
  const filtered = await enumerate(ctx, withSelection(l.listing, { filter: f }));
  return { n: filtered.total, from: filtered };
}

/** The filters' cases with two matches in their listing: a filtered page that falls short can show. */
async function shortPageCases(ctx: CheckContext, c: Collection) {
  const learned = await learnReadable(ctx, c);
  const cases = filterCases(learned, c.filters, ctx.depth);
  if (!cases.some(({ l, filter }) => matching(l.set.records, filter).length >= 2))
    notExercised(ctx, 'no value has two matches in a listing: a filtered page cannot fall short');
  return cases;
}

/** The letter a filter's value goes by in a title: `S` for `status`. */
const letter = (f: CollectionFilter) => f.field.charAt(0).toUpperCase();

function filterChecks(c: Collection, check: Check, f: CollectionFilter): void {
  const [L, param] = [letter(f), `filter[${f.field}]`];
  // "filter[status] | Restricts results to payments with this status (for example COMPLETED)";
  // "total is the count of all records matching the query (after filtering)".
  check(
    'FLT-FIELD',
    `${param}=${L} lists only ${L} records, total = the ${L} records of the unfiltered set (each ${f.field}, every listing)`,
    async (ctx) => {
      const learned = await learnReadable(ctx, c);
      if (!twoValues(learned, f.field))
        notExercised(ctx, `no listing holds two values of ${f.field}: a filter that ignored its value could not show`);
      for (const { l, filter } of filterCases(learned, [f], ctx.depth)) {
        const set = await enumerate(ctx, withSelection(l.listing, { filter }));
        const first = set.pages[0]?.exchange;
        const range = expectedMatches(l.set, filter);
        const total = first && filteredTotalViolation(first, filter, range, l.set.total, ctx.rule);
        assertNoViolation(filterViolation(set, filter, ctx.rule) ?? basedOn(total, l.set));
      }
    },
  );

  // Reading: "Unknown filter[status] value: a 4xx, or a 200 with total 0 and data []". Values match exactly:
  // `completed` is not `COMPLETED`; a value a server might read as a pattern never widens what the filter matches.
  check(
    'FLT-FIELD',
    `an unknown, ${f.exactCase ? 'case-changed, ' : ''}pattern-like or list-like ${f.field} (%, _, *, ?, A,B) gives a 4xx or an empty 200 (total 0, data []) on every listing`,
    async (ctx) => {
      const learned = await learnReadable(ctx, c);
      if (!learned.listings.some((l) => l.set.total > 0))
        notExercised(ctx, `every listing is empty: an unknown ${f.field} that matched everything could not show`);
      const known = learned.known(f.field);
      const values = { field: f.field, known: [...known], exactCase: f.exactCase };
      const n = learned.listings.length;
      const arb = fc.record({ i: fc.nat({ max: n - 1 }), value: unknownValueArb(values) });
      const seeds = f.named ?? [...known].slice(0, 3);
      // Covered once: each class of unknown value once (the case changes of one value, each wildcard), the
      // listings in turn; else two known values' case changes, every pattern, the named value on every listing.
      const once = coversOnce(ctx.depth);
      const patterns = patternValues(seeds, known, once).map((value, k) => ({ i: k % n, value }));
      const named = f.named?.[0];
      // The case changes of one known value (quick), of two (deeper): one case-blind lookup shows on any value.
      const changed = f.exactCase ? caseChanged(new Set([...known].slice(0, once ? 1 : 2))) : [];
      // A known value as a server that normalises input reads it (NFKC, decoded twice, invisibles stripped).
      const spelled = seeds.slice(0, 1).flatMap((v) => normalisedSpellings(v, known));
      const examples = [
        ...[...changed, noSuchValue(f.field)].map((value) => ({ i: 0, value })),
        ...spelled.map((value, k) => ({ i: (k + 1) % n, value })),
        ...patterns,
        ...(f.exactCase && named && !once
          ? learned.listings.slice(1).map((_, k) => ({ i: k + 1, value: named.toLowerCase() }))
          : []),
      ];
      const listingOf = ({ i, value }: { i: number; value: string }) =>
        withSelection((learned.listings[i] as LearnedListing).listing, { filter: { field: f.field, value } });
      await forAll(
        ctx,
        arb,
        async (k) =>
          unknownValueViolation(await fetchPage(ctx.api, listingOf(k)), { field: f.field, value: k.value }, ctx.rule),
        // Every class of unknown value (case-changed, none such, each pattern) at every depth.
        {
          describe: (k) => describeListing(listingOf(k)),
          examples,
          coverage: true,
          numRuns: runsOn(ctx, c, examples.length),
        },
      );
    },
  );
}

eachCollection('§4.2 Filters:', (c, check) => {
  for (const f of c.filters) filterChecks(c, check, f);
  if (c.filters.length === 0) return;

  // "Filters and sorting are applied before pagination": a page holds min(limit, matches - offset) records.
  check(
    'FLT-BEFORE-PAGE',
    'a filtered walk at a small limit has full pages while matches remain, and every match once',
    async (ctx) => {
      const cases = await shortPageCases(ctx, c);
      // Covered once, one walk (the first listing's value with two matches, else the first): the same invariant on
      // every listing, whose windows the next check reads.
      const walked = coversOnce(ctx.depth)
        ? [
            cases.find(({ l, filter }) => matching(l.set.records, filter).length >= 2) ??
              (cases[0] as (typeof cases)[number]),
          ]
        : cases;
      for (const { l, filter } of walked) {
        const { n, from } = await matchCount(ctx, l, filter);
        const pages = walkPagesOn(c, MAX_WALK_PAGES, ctx.depth);
        const limit = Math.min(maxLimitOf(l.listing), Math.max(1, Math.ceil(n / Math.min(4, pages))));
        const listing = withSelection(l.listing, { filter });
        const w = await walk(ctx, listing, { limit, maxPages: pages });
        for (const page of w.pages) {
          const sent = { offset: page.offset, limit };
          assertNoViolation(basedOn(fullPageViolation(page.exchange, filter, sent, n), from));
        }
        if (!w.complete || !l.set.complete) continue;
        const label = `${describeListing(listing)} read at limit ${limit}: the ${n} matches of the unfiltered set`;
        const describe = (r: unknown) => describeRecord(r, filter.field);
        const v = permutationViolation(w, matching(l.set.records, filter), ctx.rule, label, describe);
        assertNoViolation(basedOn(v, l.set));
      }
    },
  );

  check(
    'FLT-BEFORE-PAGE',
    'any filtered window on any listing holds min(limit, matches - offset) records',
    async (ctx) => {
      const cases = await shortPageCases(ctx, c);
      const counts: Array<{ n: number; from: ResultSet }> = [];
      for (const { l, filter } of cases) counts.push(await matchCount(ctx, l, filter));
      const n = (k: number) => counts[k]?.n ?? 0;
      const max = c.maxLimit ?? 100;
      const arb = fc.nat({ max: cases.length - 1 }).chain((k) =>
        fc.record({
          k: fc.constant(k),
          offset: fc.oneof(fc.integer({ min: 0, max: n(k) }), fc.constantFrom(0, Math.max(0, n(k) - 1), n(k))),
          limit: inCapLimitArb(max),
        }),
      );
      // The first page at the largest limit for the first values, and the last match of the most frequent.
      const examples = [0, 1, 2].filter((k) => k < cases.length).map((k) => ({ k, offset: 0, limit: max }));
      examples.push({ k: 0, offset: Math.max(0, n(0) - 1), limit: 10 });
      // Covered once: the first page at the largest limit is the filtered set's first read, a window past it instead,
      // and none on the first listing but its last match (the walk read its pages).
      if (coversOnce(ctx.depth)) {
        for (const e of examples.slice(0, -1)) e.offset = Math.min(1, n(e.k));
        if (cases.length > 1) examples.shift();
      }
      const listingOf = (k: number) => {
        const x = cases[k] as (typeof cases)[number];
        return { x, listing: withSelection(x.l.listing, { filter: x.filter }) };
      };
      await forAll(
        ctx,
        arb,
        async ({ k, offset, limit }) => {
          const { x, listing } = listingOf(k);
          const e = await fetchPage(ctx.api, listing, { offset, limit });
          const from = counts[k]?.from;
          const v = fullPageViolation(e, x.filter, { offset, limit }, n(k));
          return from ? basedOn(v, from) : v;
        },
        {
          describe: (v) => `${describeListing(listingOf(v.k).listing)} offset=${v.offset} limit=${v.limit}`,
          examples,
          numRuns: runsOn(ctx, c, examples.length),
        },
      );
    },
  );
});
