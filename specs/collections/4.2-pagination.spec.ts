/**
 * §4.2 pagination (rules PAG-ECHO, PAG-DEFAULT, PAG-SIZE, PAG-TOTAL, PAG-PARTITION, PAG-EMPTY) on every other
 * collection the run was given (`--collections`): the rules §2 and §4.2 state for collection endpoints, on each of
 * its listings the configuration can read, unfiltered, filtered by its declared fields and sorted by its declared
 * sorts, with its own default and maximum limit. Fewer cases than on payments: a collection's share is bounded
 * (core/run/collection-listings.ts).
 */
import fc from 'fast-check';
import {
  defaultLimitViolation,
  echoViolation,
  emptyViolation,
  pageBasis,
  sizeViolation,
} from '../../checks/envelope.ts';
import {
  countViolation,
  enumerationViolation,
  sameSetViolation,
  sliceViolation,
  totalAgreementViolation,
  walkViolation,
} from '../../checks/pages.ts';
import { fetchPage } from '../../core/client/http.ts';
import { ABSURD_OFFSET, absurdOffsetArb, limitArb } from '../../core/generate/arbitraries.ts';
import { collectionRequestArb } from '../../core/generate/collection-arbitraries.ts';
import type { Collection } from '../../core/model/collection.ts';
import { isClientError } from '../../core/model/exchange.ts';
import {
  defaultLimitOf,
  describeListing,
  describeRequest,
  identity,
  type Listing,
  limitInForce,
  maxLimitOf,
  type PageRequest,
  withSelection,
} from '../../core/model/listing.ts';
import { assertNoViolation, derive } from '../../core/model/verdict.ts';
import { type CheckContext, NotRun, notExercised } from '../../core/run/check.ts';
import { collectionRuns, directions, learnCollection } from '../../core/run/collection-listings.ts';
import { type ListingCase, listingProperty, sameSetTotal } from '../../core/run/listing-property.ts';
import { forAll } from '../../core/run/property.ts';
import { enumerate, walk } from '../../core/run/walk.ts';
import { detailsOf, eachCollection, onCollection, titled } from '../../fixtures/collections.ts';
import { test } from '../../fixtures/test.ts';

/** A walk at a smaller limit reads at most this many pages. */
const MAX_WALK_PAGES = 6;

const on = (i: number, ...rs: PageRequest[]): ListingCase[] => rs.map((r) => ({ i, r }));

/** The collection learned, its listings, and the requests of its properties: any mix of its parameters. */
async function anyRequests(ctx: CheckContext, c: Collection) {
  const learned = await learnCollection(ctx, c);
  if (learned.listings.length === 0) throw new NotRun('needs input', `no key may list ${c.name} (its access.keys)`);
  const listings = learned.listings.map((l) => l.listing);
  const total = (i: number) => learned.listings[i]?.set.total ?? 0;
  const sorts = c.sorts.flatMap(directions);
  const arb = fc
    .nat({ max: listings.length - 1 })
    .chain((i) => collectionRequestArb(total(i), learned.filters(i), sorts).map((r) => ({ i, r })));
  const t = total(0);
  const max = maxLimitOf(listings[0] as Listing);
  const [filter] = learned.filters(0);
  const sort = sorts[1] ?? sorts[0];
  const examples: ListingCase[] = [
    ...on(0, {}, { offset: 0 }, { limit: 1 }, { offset: 5, limit: 7 }, { offset: Math.max(0, t - 1), limit: 10 }),
    ...on(0, { offset: t + 1, limit: 10 }, { limit: max + 1 }, { offset: 3, limit: 10, filter, sort }),
    ...listings.slice(1).flatMap((_, k) => on(k + 1, {}, { offset: Math.max(0, total(k + 1) - 2), limit: 5 })),
  ].map((e) => ({ ...e, r: Object.fromEntries(Object.entries(e.r).filter(([, v]) => v !== undefined)) }));
  const known = () => new Set(c.filters.flatMap((f) => [...learned.known(f.field)]));
  return { learned, listings, arb, examples, known, total };
}

const defaultOf = (ctx: CheckContext, l: Listing) => defaultLimitOf(l, ctx.target.defaultLimit);

eachCollection('§4.2 Pagination:', (c) => {
  test(
    titled(
      'PAG-ECHO',
      c,
      'any request on any listing: offset echoed as sent (0 if omitted), limit as the limit in force',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const { listings, arb, examples, known } = await anyRequests(ctx, c);
      const l = (i: number) => listings[i] as Listing;
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        (e, k) => echoViolation(e, k.r, defaultOf(ctx, l(k.i)), maxLimitOf(l(k.i))),
        known,
        collectionRuns(ctx.target, examples.length),
      );
    }),
  );

  test(
    titled(
      'PAG-DEFAULT',
      c,
      'limit omitted: its default limit is in force at any offset, filtered and sorted, on any listing',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const { listings, examples, known, total, learned } = await anyRequests(ctx, c);
      const sorts = c.sorts.flatMap(directions);
      const arb = fc
        .nat({ max: listings.length - 1 })
        .chain((i) =>
          collectionRequestArb(total(i), learned.filters(i), sorts).map((r) => ({ i, r: { ...r, limit: undefined } })),
        );
      const omitted = examples.filter((e) => e.r.limit === undefined);
      await listingProperty(
        ctx,
        listings,
        arb.map((k) => ({ i: k.i, r: Object.fromEntries(Object.entries(k.r).filter(([, v]) => v !== undefined)) })),
        omitted,
        (e, k) => {
          const l = listings[k.i] as Listing;
          return derive(
            defaultLimitViolation(e, defaultOf(ctx, l)),
            pageBasis(e, k.r, defaultOf(ctx, l), undefined, maxLimitOf(l)),
          );
        },
        known,
        collectionRuns(ctx.target, omitted.length),
      );
    }),
  );

  test(
    titled('PAG-SIZE', c, 'any request on any listing: data.length = max(0, min(limit, total - offset))'),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const { listings, arb, examples, known, total } = await anyRequests(ctx, c);
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        (e, k) => {
          const l = listings[k.i] as Listing;
          const unfiltered = k.r.filter === undefined ? total(k.i) : undefined;
          return derive(sizeViolation(e), pageBasis(e, k.r, defaultOf(ctx, l), unfiltered, maxLimitOf(l)));
        },
        known,
        collectionRuns(ctx.target, examples.length),
      );
    }),
  );

  test(
    titled(
      'PAG-TOTAL',
      c,
      'total is the same at every offset, limit and sort as on the first page, and equals the records enumerated',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const { learned } = await anyRequests(ctx, c);
      const sorts = c.sorts.flatMap(directions);
      // The count is judged on sets read whole; a capped one (more records than the run reads) is said so.
      const partial = learned.listings
        .filter(({ set }) => !set.complete)
        .map(({ listing }) => describeListing(listing));
      if (partial.length > 0)
        ctx.notes.add(`the count against the records enumerated not judged on ${partial.join(', ')} (read in part)`);
      for (const [i, { listing, set }] of learned.listings.entries()) {
        const label = describeListing(listing);
        assertNoViolation(countViolation(set, identity(set.records), label));
        for (const filter of learned.filters(i).slice(0, 1)) {
          const filtered = await enumerate(ctx, withSelection(listing, { filter }));
          assertNoViolation(countViolation(filtered, identity(filtered.records), describeListing(filtered.listing)));
        }
      }
      // Other windows and sorts of each listing report the first page's total.
      const cases = learned.listings.flatMap(({ listing, set }) => {
        const first = set.pages[0]?.exchange;
        if (!first) return [];
        return [undefined, ...sorts].map((sort, k) => ({
          sort,
          offset: Math.floor((set.total * (k + 1)) / (sorts.length + 2)),
          limit: 7 + k,
          listing,
          first,
        }));
      });
      if (cases.length === 0) return;
      await forAll(
        ctx,
        fc.constantFrom(...cases),
        async (k) => {
          const e = await fetchPage(ctx.api, withSelection(k.listing, { sort: k.sort }), {
            offset: k.offset,
            limit: k.limit,
          });
          const at = `${describeListing(k.listing)} ${describeRequest({ offset: k.offset, limit: k.limit, sort: k.sort })}`;
          return totalAgreementViolation(
            { label: describeListing(k.listing), exchange: k.first },
            { label: at, exchange: e },
          );
        },
        {
          describe: (k) => `${describeListing(k.listing)} sort=${k.sort ?? '(none)'} offset=${k.offset}`,
          examples: cases,
          numRuns: cases.length,
        },
      );
    }),
  );

  test(
    titled(
      'PAG-PARTITION',
      c,
      'pages hold every record once, the same records at every sort, and pages at other limits and any window are its slices',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const { learned } = await anyRequests(ctx, c);
      if (!learned.listings.some((l) => l.set.records.length >= 2))
        notExercised(ctx, `no listing of ${c.name} holds two records`);
      for (const { listing, set } of learned.listings) {
        const id = identity(set.records);
        const label = describeListing(listing);
        assertNoViolation(enumerationViolation(set, id, label));
      }
      const { listing, set } = learned.listings[0] as (typeof learned.listings)[number];
      for (const sort of c.sorts.flatMap(directions)) {
        const sorted = await enumerate(ctx, withSelection(listing, { sort }));
        const labels: [string, string] = [describeListing(listing), describeListing(sorted.listing)];
        assertNoViolation(sameSetViolation(set, sorted, identity(set.records), labels));
      }
      const max = maxLimitOf(listing);
      const limits = [
        ...new Set([
          Math.max(1, Math.ceil(Math.min(set.total, ctx.target.maxRecords) / MAX_WALK_PAGES)),
          Math.max(1, max - 7),
        ]),
      ];
      for (const limit of limits) {
        const w = await walk(ctx, listing, { limit, maxPages: MAX_WALK_PAGES, reference: set.pages[0]?.exchange });
        assertNoViolation(walkViolation(w, set, identity(set.records)));
      }
      const windows = [
        { offset: 1, limit: 10 },
        { offset: Math.max(0, set.total - 3), limit: 5 },
        { offset: max - 1, limit: 3 },
      ];
      await forAll(
        ctx,
        fc.record({ offset: fc.integer({ min: 0, max: Math.max(0, set.total) }), limit: fc.integer({ min: 1, max }) }),
        async (w) => {
          const e = await fetchPage(ctx.api, listing, w);
          await sameSetTotal(ctx, set, e);
          return sliceViolation(
            e,
            { offset: w.offset, limit: limitInForce(w, defaultOf(ctx, listing), max) },
            set,
            identity(set.records),
          );
        },
        {
          describe: (w) => `${describeListing(listing)} offset=${w.offset} limit=${w.limit}`,
          examples: windows,
          numRuns: collectionRuns(ctx.target, windows.length),
        },
      );
    }),
  );

  test(
    titled(
      'PAG-EMPTY',
      c,
      'offset at or past the end: data [] and total unchanged, at any limit, filtered and sorted, on any listing',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const { learned, listings } = await anyRequests(ctx, c);
      const arb = fc.nat({ max: listings.length - 1 }).chain((i) => {
        const t = learned.listings[i]?.set.total ?? 0;
        const past = fc.oneof(fc.constantFrom(t, t + 1), fc.integer({ min: t, max: t + 1000 }), absurdOffsetArb());
        return fc.record({ i: fc.constant(i), offset: past, limit: limitArb() });
      });
      const t0 = learned.listings[0]?.set.total ?? 0;
      const examples = [
        { i: 0, offset: t0, limit: 10 },
        { i: 0, offset: t0 + 1, limit: undefined },
        { i: 0, offset: ABSURD_OFFSET, limit: 10 },
        ...listings.slice(1).map((_, k) => ({ i: k + 1, offset: learned.listings[k + 1]?.set.total ?? 0, limit: 10 })),
      ];
      await forAll(
        ctx,
        arb,
        async (k) => {
          const listing = listings[k.i] as Listing;
          const e = await fetchPage(ctx.api, listing, { offset: k.offset, limit: k.limit });
          // Over its cap a 4xx is legal too (LIM-CAP's to judge).
          if (isClientError(e.status) && (k.limit ?? 0) > maxLimitOf(listing)) return undefined;
          return emptyViolation(e, k.offset, learned.listings[k.i]?.set.total ?? 0, k.offset >= ABSURD_OFFSET);
        },
        {
          describe: (k) =>
            `${describeListing(listings[k.i] as Listing)} ${describeRequest({ offset: k.offset, limit: k.limit })}`,
          examples,
          numRuns: collectionRuns(ctx.target, examples.length),
        },
      );
    }),
  );
});
