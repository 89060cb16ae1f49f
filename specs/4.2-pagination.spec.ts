/**
 * §4.2 List payments of a merchant: echoed offset and limit, the default limit, page size and total (rules PAG-ECHO,
 * PAG-DEFAULT, PAG-SIZE, PAG-TOTAL), on every collection the run checks (§2: the pagination rules hold for collection
 * endpoints), on every listing the configuration can read: the test key's sandbox listing, and the live merchant's
 * test-key and live-key listings; unfiltered, filtered and sorted, with the collection's own default and maximum
 * limit. Totals are learned from the target first (reference reads at offset 0 and the maximum limit); whole sets are
 * walks at the maximum limit (core/run/walk.ts, memoised per worker). A suspect total counts only once the reference
 * total is read again unchanged; otherwise the check is inconclusive.
 */
import fc from 'fast-check';
import { defaultLimitViolation, echoViolation, pageBasis, sizeViolation } from '../checks/envelope.ts';
import { matching } from '../checks/filter.ts';
import { countViolation, totalAgreementViolation } from '../checks/pages.ts';
import { fetchPage } from '../core/client/http.ts';
import { type FilterValues, limitArb, offsetArb, requestArb } from '../core/generate/arbitraries.ts';
import { type Collection, directions } from '../core/model/collection.ts';
import {
  defaultLimitOf,
  describeListing,
  describeRequest,
  identity,
  type Listing,
  liveListing,
  maxLimitOf,
  type Selection,
  selectionsOf,
} from '../core/model/listing.ts';
import { derivationsFrom } from '../core/model/result-set.ts';
import { assertNoViolation, derive, excerpt } from '../core/model/verdict.ts';
import type { CheckContext } from '../core/run/check.ts';
import {
  coversOnce,
  enumerateEach,
  firstFilters,
  type Learned,
  learnReadable,
  references,
  runsOn,
} from '../core/run/learn.ts';
import { type ListingCase, listingProperty, on, selectionCaseArb } from '../core/run/listing-property.ts';
import { eachCollection } from '../fixtures/collections.ts';

/** Each filter of the collection with the values known to the run: what a generated request filters by. */
const filterValues = (c: Collection, learned: Learned): FilterValues[] =>
  c.filters.map((f) => ({ field: f.field, known: [...learned.known(f.field)], exactCase: f.exactCase }));

const defaultOf = (ctx: CheckContext, l: Listing) => defaultLimitOf(l, ctx.target.defaultLimit);

/** The requests of PAG-ECHO and PAG-SIZE: any mix of parameters, from each listing's total and the values seen. */
async function anyRequests(ctx: CheckContext, c: Collection) {
  const learned = await learnReadable(ctx, c);
  const listings = learned.listings.map((l) => l.listing);
  const max = maxLimitOf(listings[0] as Listing);
  const sorts = c.sorts.flatMap(directions);
  const total = (i: number) => learned.listings[i]?.set.total ?? 0;
  const arb = fc
    .nat({ max: listings.length - 1 })
    .chain((i) => requestArb(total(i), filterValues(c, learned), sorts, max).map((r) => ({ i, r })));
  const t = total(0);
  const [filter] = learned.filters(0);
  const sort = sorts[1];
  const matches = matching(learned.listings[0]?.set.records ?? [], filter).length;
  const all: ListingCase[] = [
    ...on(0, {}, { offset: 0 }, { limit: 1 }, { offset: 5, limit: 7 }, { offset: Math.max(0, t - 1), limit: 10 }),
    ...on(0, { offset: Math.max(0, t - 3), limit: max }, { offset: t + 1, limit: 10 }, { offset: t + 1000 }),
    ...on(0, { limit: max + 1 }, { offset: 3, limit: 10, filter, sort }),
    ...(filter ? on(0, { offset: matches + 1, limit: 5, filter }) : []),
    ...learned.listings.slice(1).flatMap((l, k) => {
      const n = l.set.total;
      return on(k + 1, {}, { offset: Math.max(0, n - 2), limit: 5 }, { offset: 1, limit: 10, filter });
    }),
  ];
  // Covered once (quick tries the first few): first the cases that carry a class each — nothing given, past the end,
  // over the cap, filtered and sorted.
  const first = coversOnce(ctx.depth) ? [0, 6, 8, 9].filter((k) => k < all.length) : [];
  const examples = [...first.map((k) => all[k] as ListingCase), ...all.filter((_, k) => !first.includes(k))];
  // The listing's total as its whole read says (its first page), for an unfiltered request; a filter's is its rule's.
  const unfiltered = (k: ListingCase) => (k.r.filter === undefined ? learned.listings[k.i]?.set.total : undefined);
  // An unfiltered page's total is the whole read's: where that read shows the total wrong (its pages end before it,
  // or go on past it), an expectation computed from it may follow from PAG-TOTAL.
  const totalFlaws = (k: ListingCase) => {
    const set = learned.listings[k.i]?.set;
    return set && k.r.filter === undefined
      ? derivationsFrom(set, 'PAG-SIZE').filter((d) => d.rule === 'PAG-TOTAL')
      : [];
  };
  const known = (field: string) => learned.known(field);
  const runs = runsOn(ctx, c, examples.length);
  return { arb, examples, known, listings, unfiltered, totalFlaws, runs };
}

/** The listings, the selections with the first value of each filter, and each listing's reference total. */
async function referenced(ctx: CheckContext, c: Collection) {
  const first = await firstFilters(ctx, c);
  const selections = selectionsOf(c, first);
  const { listings, reference, has } = await references(ctx, c, [undefined, ...first]);
  const total = (i: number, s: Selection) => reference(i, s.filter)?.total ?? 0;
  // The values these requests filter by, which a target may not refuse.
  const known = (field: string) => new Set(first.filter((f) => f.field === field).map((f) => f.value));
  // The selections of listing i whose total was read, and the cases on them (covered once, not every one).
  const on = (i: number) => selections.filter((s) => has(i, s.filter));
  const read = (cases: ListingCase[]) => cases.filter((k) => has(k.i, k.r.filter));
  return { known, listings, selections, reference, total, on, read };
}

eachCollection('§4.2 Pagination: echoed offset and limit, default limit, page size, total:', (c, check) => {
  // "The response echoes offset, limit and total next to data." Reading: offset as sent (0 when omitted);
  // limit as the limit in force (requested if 1..100, the default when omitted, 100 when clamped).
  check(
    'PAG-ECHO',
    'any request on any listing: offset echoed as sent (0 if omitted), limit as the limit in force',
    async (ctx) => {
      const { arb, examples, known, listings, runs } = await anyRequests(ctx, c);
      const l = (i: number) => listings[i] as Listing;
      const echo = (e: Parameters<typeof echoViolation>[0], k: ListingCase) =>
        echoViolation(e, k.r, defaultOf(ctx, l(k.i)), maxLimitOf(l(k.i)));
      await listingProperty(ctx, listings, arb, examples, echo, known, runs);
    },
  );

  // "limit | Maximum number of records returned. Default is typically 10." (§8: "typically 10 when omitted")
  check(
    'PAG-DEFAULT',
    'limit omitted: the default limit is in force at any offset, on any listing, filtered and sorted',
    async (ctx) => {
      const { known, listings, selections, reference, total, on: onListing, read } = await referenced(ctx, c);
      const arb = selectionCaseArb(listings.length, onListing, total, offsetArb, fc.constant(undefined));
      const t = total(0, {});
      const [, filtered, sorted] = [selections[0], selections.find((s) => s.filter), selections.at(-1)];
      const examples = read([
        ...on(0, {}, { offset: 0 }, { offset: Math.max(0, t - 3) }, { ...filtered }, { sort: sorted?.sort, offset: 3 }),
        ...on(0, { offset: t + 1 }),
        ...listings.slice(1).flatMap((_, k) => on(k + 1, {}, { offset: Math.max(0, total(k + 1, {}) - 3) })),
      ]);
      const runs = runsOn(ctx, c, examples.length);
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        (e, k) => {
          const l = listings[k.i] as Listing;
          const basis = pageBasis(e, k.r, defaultOf(ctx, l), reference(k.i, k.r.filter).total, maxLimitOf(l));
          return derive(defaultLimitViolation(e, defaultOf(ctx, l)), basis);
        },
        known,
        runs,
      );
    },
  );

  // "Records are returned starting at index offset, up to limit records."
  check('PAG-SIZE', 'any request on any listing: data.length = max(0, min(limit, total - offset))', async (ctx) => {
    const { arb, examples, known, listings, unfiltered, totalFlaws, runs } = await anyRequests(ctx, c);
    // The size expected comes from the page's own echo and total: where those break another rule, it says so.
    const size = (e: Parameters<typeof sizeViolation>[0], k: ListingCase) => {
      const l = listings[k.i] as Listing;
      const basis = pageBasis(e, k.r, defaultOf(ctx, l), unfiltered(k), maxLimitOf(l));
      return derive(sizeViolation(e), [...basis, ...totalFlaws(k)]);
    };
    await listingProperty(ctx, listings, arb, examples, size, known, runs);
  });

  // "total is the count of all records matching the query (after filtering), not the size of the page."
  check(
    'PAG-TOTAL',
    'total is the same on every page, at every limit and sort, as on the reference read (any listing)',
    async (ctx) => {
      const { known, listings, selections, reference, total, on: onListing, read } = await referenced(ctx, c);
      const half = (i: number, s: Selection) => Math.floor(total(i, s) / 2);
      const filtered = selections.find((s) => s.filter) ?? {};
      const [up, down] = c.sorts[0] ? directions(c.sorts[0]) : [];
      const max = maxLimitOf(listings[0] as Listing);
      const examples = read([
        ...on(
          0,
          { offset: 0, limit: 10 },
          { offset: half(0, {}), limit: 7 },
          { offset: Math.max(0, total(0, {}) - 1), limit: 10 },
        ),
        ...on(0, { sort: up, limit: Math.floor(max / 2) }, { sort: down, offset: half(0, {}), limit: 1 }),
        ...on(0, { ...filtered, offset: half(0, filtered) }, { ...filtered, sort: down, offset: 1, limit: max }),
        ...listings
          .slice(1)
          .flatMap((_, k) => on(k + 1, { offset: half(k + 1, {}), limit: 7 }, { ...filtered, sort: up, offset: 1 })),
      ]);
      const arb = selectionCaseArb(listings.length, onListing, total, offsetArb, limitArb(max));
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        async (e, k) => {
          const ref = reference(k.i, k.r.filter);
          return totalAgreementViolation(
            {
              label: `${describeListing(ref.listing)} offset=0 limit=${maxLimitOf(ref.listing)}`,
              exchange: ref.exchange,
            },
            { label: `${describeListing(ref.listing)} ${describeRequest(k.r)}`, exchange: e },
          );
        },
        known,
        runsOn(ctx, c, examples.length),
      );
    },
  );

  check(
    'PAG-TOTAL',
    'total equals the number of records enumerated, on every listing, unfiltered, filtered and sorted',
    async (ctx) => {
      const { sets } = await enumerateEach(ctx, c, selectionsOf(c, await firstFilters(ctx, c)));
      // The count is judged on sets read whole; a capped one (more records than the run reads) is said so.
      const partial = sets.filter((set) => !set.complete).map((set) => describeListing(set.listing));
      if (partial.length > 0)
        ctx.notes.add(`the count against the records enumerated not judged on ${partial.join(', ')} (read in part)`);
      for (const set of sets)
        assertNoViolation(countViolation(set, identity(set.records), describeListing(set.listing)));
    },
  );

  // Before the go-live cutover: the live key's listing echoes offset and limit (one request).
  check(
    'PAG-ECHO',
    "the live key's listing echoes offset and limit as sent",
    async ({ target, api, rule }) => {
      const sent = { offset: 1, limit: 3 };
      const listing = liveListing(target, c);
      const e = await fetchPage(api, listing, sent);
      if (e.status !== 200)
        assertNoViolation({ rule, expected: 'HTTP 200 listing', received: excerpt(e), exchange: e });
      assertNoViolation(echoViolation(e, sent, defaultLimitOf(listing, target.defaultLimit), maxLimitOf(listing)));
    },
    { liveListing: true },
  );
});
