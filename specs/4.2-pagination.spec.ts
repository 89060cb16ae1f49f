/**
 * §4.2 List payments of a merchant: pagination (rules PAG-ECHO, PAG-DEFAULT, PAG-SIZE, PAG-TOTAL, PAG-PARTITION,
 * PAG-EMPTY) on every listing the configuration can read: the test key's sandbox listing, and the live merchant's
 * test-key and live-key listings; unfiltered, filtered (COMPLETED) and sorted. Totals are learned from the target
 * first (reference reads at offset 0, limit 100); whole sets are walks at limit 100 (fixtures/walk.ts, memoised per
 * worker). A suspect total counts only once the reference total is read again unchanged; otherwise the check is
 * inconclusive.
 */
import fc from 'fast-check';
import {
  capBasis,
  defaultLimitViolation,
  echoViolation,
  emptyViolation,
  pageBasis,
  sizeViolation,
} from '../checks/envelope.ts';
import {
  countViolation,
  enumerationViolation,
  sameSetViolation,
  sliceViolation,
  totalAgreementViolation,
  walkViolation,
} from '../checks/pages.ts';
import { fetchPage } from '../core/client/http.ts';
import { ABSURD_OFFSET, absurdOffsetArb, limitArb, offsetArb, pageRequestArb } from '../core/generate/arbitraries.ts';
import {
  describeListing,
  describeRequest,
  identity,
  limitInForce,
  liveListing,
  MAX_LIMIT,
  type PageRequest,
  readEnvelope,
  SELECTIONS,
  type Selection,
  SPEC_STATUS,
  sandboxListing,
  withSelection,
} from '../core/model/listing.ts';
import { derivationsFrom, type ResultSet } from '../core/model/result-set.ts';
import { assertNoViolation, derive, excerpt } from '../core/model/verdict.ts';
import { type CheckContext, notExercised } from '../core/run/check.ts';
import { enumerateEach, learnListings, references } from '../core/run/learn.ts';
import { type ListingCase, listingProperty, sameSetTotal } from '../core/run/listing-property.ts';
import { forAll } from '../core/run/property.ts';
import { walk } from '../core/run/walk.ts';
import { settle, test } from '../fixtures/test.ts';

/** A walk at limit L reads at most this many pages. */
const MAX_WALK_PAGES = 12;

/** A case on listing `i` with one of SELECTIONS (by index `s`) and a window from `offset` and `limit`. */
function selectionCaseArb(
  listings: number,
  total: (i: number, s: Selection) => number,
  offset: (t: number) => fc.Arbitrary<number | undefined>,
  limit: fc.Arbitrary<number | undefined>,
): fc.Arbitrary<ListingCase> {
  return fc
    .record({ i: fc.nat({ max: listings - 1 }), s: fc.nat({ max: SELECTIONS.length - 1 }) })
    .chain(({ i, s }) => {
      const sel = SELECTIONS[s] as Selection;
      return fc.record({ offset: offset(total(i, sel)), limit }).map((w) => ({ i, r: dropOmitted({ ...sel, ...w }) }));
    });
}

const dropOmitted = (r: PageRequest): PageRequest =>
  Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as PageRequest;

/** Cases of one listing, from plain requests. */
const on = (i: number, ...rs: PageRequest[]): ListingCase[] => rs.map((r) => ({ i, r }));

test.describe('§4.2 List payments: echoed offset and limit, default limit, page size', () => {
  // "The response echoes offset, limit and total next to data." Reading: offset as sent (0 when omitted);
  // limit as the limit in force (requested if 1..100, the default when omitted, 100 when clamped).
  test(
    'PAG-ECHO any request on any listing: offset echoed as sent (0 if omitted), limit as the limit in force',
    settle(async (ctx) => {
      const { arb, examples, known, listings } = await anyRequests(ctx);
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        (e, c) => echoViolation(e, c.r, ctx.target.defaultLimit),
        known,
      );
    }),
  );

  // "limit | Maximum number of records returned. Default is typically 10." (§8: "typically 10 when omitted")
  test(
    'PAG-DEFAULT limit omitted: the default limit is in force at any offset, on any listing, filtered and sorted',
    settle(async (ctx) => {
      const { listings, reference } = await references(ctx, [undefined, SPEC_STATUS]);
      const total = (i: number, s: Selection) => reference(i, s.status).total;
      const arb = selectionCaseArb(listings.length, total, offsetArb, fc.constant(undefined));
      const t = total(0, {});
      const examples = [
        ...on(
          0,
          {},
          { offset: 0 },
          { offset: Math.max(0, t - 3) },
          { status: SPEC_STATUS },
          { sort: '-amount', offset: 3 },
        ),
        ...on(0, { offset: t + 1 }),
        ...listings.slice(1).flatMap((_, k) => on(k + 1, {}, { offset: Math.max(0, total(k + 1, {}) - 3) })),
      ];
      await listingProperty(ctx, listings, arb, examples, (e, c) => {
        const { defaultLimit } = ctx.target;
        const basis = pageBasis(e, c.r, defaultLimit, reference(c.i, c.r.status).total);
        return derive(defaultLimitViolation(e, defaultLimit), basis);
      });
    }),
  );

  // "Records are returned starting at index offset, up to limit records."
  test(
    'PAG-SIZE any request on any listing: data.length = max(0, min(limit, total - offset))',
    settle(async (ctx) => {
      const { arb, examples, known, listings, total, totalFlaws } = await anyRequests(ctx);
      // The size expected comes from the page's own echo and total: where those break another rule, it says so.
      await listingProperty(
        ctx,
        listings,
        arb,
        examples,
        (e, c) => derive(sizeViolation(e), [...pageBasis(e, c.r, ctx.target.defaultLimit, total(c)), ...totalFlaws(c)]),
        known,
      );
    }),
  );
});

/** The requests of PAG-ECHO and PAG-SIZE: any mix of parameters, from each listing's total and statuses seen. */
async function anyRequests(ctx: Parameters<typeof learnListings>[0]) {
  const learned = await learnListings(ctx);
  const arb = fc
    .nat({ max: learned.length - 1 })
    .chain((i) => pageRequestArb(learned[i]?.set.total ?? 0, learned[i]?.statuses ?? []).map((r) => ({ i, r })));
  const sandbox = learned[0];
  const t = sandbox?.set.total ?? 0;
  const completed = sandbox?.set.records.filter((r) => (r as { status?: unknown }).status === SPEC_STATUS).length ?? 0;
  const examples: ListingCase[] = [
    ...on(0, {}, { offset: 0 }, { limit: 1 }, { offset: 5, limit: 7 }, { offset: Math.max(0, t - 1), limit: 10 }),
    ...on(0, { offset: Math.max(0, t - 3), limit: 100 }, { offset: t + 1, limit: 10 }, { offset: t + 1000 }),
    ...on(0, { limit: MAX_LIMIT + 1 }, { offset: 3, limit: 10, status: SPEC_STATUS, sort: '-amount' }),
    ...on(0, { offset: completed + 1, limit: 5, status: SPEC_STATUS }),
    ...learned.slice(1).flatMap((l, k) => {
      const n = l.set.total;
      return on(k + 1, {}, { offset: Math.max(0, n - 2), limit: 5 }, { offset: 1, limit: 10, status: SPEC_STATUS });
    }),
  ];
  const known = (i: number) => new Set([...(learned[i]?.statuses ?? []), SPEC_STATUS]);
  // The listing's total as its whole read says (its first page), for an unfiltered request; a filter's is FLT-STATUS's.
  const total = (c: ListingCase) => (c.r.status === undefined ? learned[c.i]?.set.total : undefined);
  // An unfiltered page's total is the whole read's: where that read shows the total wrong (its pages end before it,
  // or go on past it), an expectation computed from it may follow from PAG-TOTAL.
  const totalFlaws = (c: ListingCase) => {
    const set = learned[c.i]?.set;
    return set && c.r.status === undefined
      ? derivationsFrom(set, 'PAG-SIZE').filter((d) => d.rule === 'PAG-TOTAL')
      : [];
  };
  return { arb, examples, known, listings: learned.map((l) => l.listing), total, totalFlaws };
}

test.describe('§4.2 List payments: total', () => {
  // "total is the count of all records matching the query (after filtering), not the size of the page."
  test(
    'PAG-TOTAL total is the same on every page, at every limit and sort, as on the reference read (any listing)',
    settle(async (ctx) => {
      const { listings, reference } = await references(ctx, [undefined, SPEC_STATUS]);
      const total = (i: number, s: Selection) => reference(i, s.status).total;
      const half = (i: number, s: Selection) => Math.floor(total(i, s) / 2);
      const done = { status: SPEC_STATUS };
      const examples = [
        ...on(
          0,
          { offset: 0, limit: 10 },
          { offset: half(0, {}), limit: 7 },
          { offset: Math.max(0, total(0, {}) - 1), limit: 10 },
        ),
        ...on(0, { sort: 'amount', limit: 50 }, { sort: '-amount', offset: half(0, {}), limit: 1 }),
        ...on(0, { ...done, offset: half(0, done) }, { ...done, sort: '-amount', offset: 1, limit: 100 }),
        ...listings
          .slice(1)
          .flatMap((_, k) => on(k + 1, { offset: half(k + 1, {}), limit: 7 }, { ...done, sort: 'amount', offset: 1 })),
      ];
      const arb = selectionCaseArb(listings.length, total, offsetArb, limitArb());
      await listingProperty(ctx, listings, arb, examples, async (e, c) => {
        const ref = reference(c.i, c.r.status);
        const v = totalAgreementViolation(
          { label: `${describeListing(ref.listing)} offset=0 limit=${MAX_LIMIT}`, exchange: ref.exchange },
          { label: `${describeListing(ref.listing)} ${describeRequest(c.r)}`, exchange: e },
        );
        return v;
      });
    }),
  );

  test(
    'PAG-TOTAL total equals the number of records enumerated, on every listing, unfiltered, filtered and sorted',
    settle(async (ctx) => {
      for (const set of (await enumerateEach(ctx, SELECTIONS)).sets) {
        assertNoViolation(countViolation(set, identity(set.records), describeListing(set.listing)));
      }
    }),
  );
});

/** Every set of every readable listing, for the partition checks: "not exercised" when none holds two records. */
async function partitioned(ctx: CheckContext) {
  const each = await enumerateEach(ctx, SELECTIONS);
  if (!each.sets.some((set) => set.records.length >= 2)) {
    notExercised(ctx, 'no listing holds two records: pages cannot show a gap or a duplicate');
  }
  return each;
}

test.describe('§4.2 List payments: pages partition the result set', () => {
  // "Page 1 with limit L has offset=0. Page n has offset=(n-1)*L." Reading: the order without sort is stable
  // from request to request, and ties under sort come in the same order on every request.
  test(
    'PAG-PARTITION the pages at limit 100 hold every record once, and the same records at every sort (any listing)',
    settle(async (ctx) => {
      const unsorted = new Map<string, ResultSet>();
      for (const set of (await partitioned(ctx)).sets) {
        const { listing } = set;
        assertNoViolation(enumerationViolation(set, identity(set.records), describeListing(listing)));
        const key = describeListing(withSelection(listing, { status: listing.status }));
        const base = unsorted.get(key);
        if (!base) unsorted.set(key, set);
        else {
          const labels: [string, string] = [describeListing(base.listing), describeListing(listing)];
          assertNoViolation(sameSetViolation(base, set, identity(base.records), labels));
        }
      }
    }),
  );

  test(
    'PAG-PARTITION pages at offsets 0, L, 2L, … at any limit L concatenate to the whole result set (any listing)',
    settle(async (ctx) => {
      const { sets } = await partitioned(ctx);
      const covered = (k: number) => {
        const set = sets[k] as ResultSet;
        return set.complete ? set.total : set.records.length;
      };
      // L runs from 100 down to the smallest limit that covers the set in MAX_WALK_PAGES pages; `below` shrinks
      // toward 0, i.e. toward limit 100, the cheapest walk.
      const limitOf = ({ k, below }: { k: number; below: number }) =>
        Math.max(MAX_LIMIT - below, Math.min(MAX_LIMIT, Math.ceil(covered(k) / MAX_WALK_PAGES)));
      const arb = fc.record({ k: fc.nat({ max: sets.length - 1 }), below: fc.nat({ max: MAX_LIMIT - 1 }) });
      const onListing = (i: number) => i * SELECTIONS.length; // the unfiltered selection of readable listing i
      const examples = [
        { k: 0, below: MAX_LIMIT - 1 },
        { k: 1, below: MAX_LIMIT - 7 },
        { k: 3, below: 1 },
        { k: 2, below: 67 },
        ...[1, 2].filter((i) => onListing(i) < sets.length).map((i) => ({ k: onListing(i), below: MAX_LIMIT - 9 })),
      ];
      await forAll(
        ctx,
        arb,
        async (v) => {
          const set = sets[v.k] as ResultSet;
          const limit = limitOf(v);
          const opts = { limit, maxPages: MAX_WALK_PAGES, reference: set.pages[0]?.exchange };
          const w = await walk(ctx, set.listing, opts);
          return walkViolation(w, set, identity(set.records));
        },
        {
          describe: (v) => `${describeListing((sets[v.k] as ResultSet).listing)}, pages of limit=${limitOf(v)}`,
          examples,
          numRuns: Math.min(ctx.target.fcNumRuns, examples.length + 2),
        },
      );
    }),
  );

  test(
    'PAG-PARTITION any (offset, limit) window is the matching slice of the result set (any listing)',
    settle(async (ctx) => {
      const { listings, set: setOf } = await partitioned(ctx);
      const t = (i: number, s: Selection) => setOf(i, s).total;
      const examples = [
        ...on(0, { offset: 1, limit: 10 }, { offset: 99, limit: 3 }, { sort: '-amount', offset: 100, limit: 1 }),
        ...on(
          0,
          { status: SPEC_STATUS, offset: Math.max(0, t(0, { status: SPEC_STATUS }) - 2), limit: 5 },
          { sort: 'amount', offset: 13 },
        ),
        ...listings
          .slice(1)
          .flatMap((_, k) => on(k + 1, { offset: 7, limit: 5 }, { sort: '-amount', offset: 3, limit: 4 })),
      ];
      const arb = selectionCaseArb(listings.length, t, offsetArb, limitArb());
      await listingProperty(ctx, listings, arb, examples, async (e, c) => {
        const set = setOf(c.i, c.r);
        await sameSetTotal(ctx, set, e);
        const window = { offset: c.r.offset ?? 0, limit: limitInForce(c.r, ctx.target.defaultLimit) };
        return derive(sliceViolation(e, window, set, identity(set.records)), capBasis(e, c.r));
      });
    }),
  );
});

test.describe('§4.2 List payments: empty pages', () => {
  // "When total is 0, no records match, and the data array is empty." Reading: offset >= total gives 200 with
  // data [] and the same total (or a 4xx for absurd offsets).
  test(
    'PAG-EMPTY offset at or past the end: data [] and total unchanged, at any limit, on any listing, filtered and sorted',
    settle(async (ctx) => {
      const { listings, reference } = await references(ctx, [undefined, SPEC_STATUS]);
      const t = (i: number, s: Selection) => reference(i, s.status).total;
      const pastEnd = (total: number) =>
        fc.oneof(fc.constantFrom(total, total + 1), fc.integer({ min: total, max: total + 1000 }), absurdOffsetArb());
      const done = { status: SPEC_STATUS };
      const examples = [
        ...on(
          0,
          { offset: t(0, {}), limit: 10 },
          { offset: t(0, {}) + 1 },
          { ...done, offset: t(0, done), limit: 100 },
        ),
        ...on(
          0,
          { sort: '-amount', offset: t(0, {}) + 1, limit: 1 },
          { ...done, sort: '-amount', offset: t(0, done) + 50, limit: 10 },
        ),
        ...on(0, { offset: ABSURD_OFFSET, limit: 10 }),
        ...listings
          .slice(1)
          .flatMap((_, k) => on(k + 1, { offset: t(k + 1, {}), limit: 10 }, { ...done, offset: t(k + 1, done) })),
      ];
      const arb = selectionCaseArb(listings.length, t, pastEnd, limitArb());
      await listingProperty(ctx, listings, arb, examples, (e, c) => {
        const ref = reference(c.i, c.r.status);
        const offset = c.r.offset ?? 0;
        return emptyViolation(e, offset, ref.total, offset >= ABSURD_OFFSET);
      });
    }),
  );

  test(
    'PAG-EMPTY a query that matches nothing (unknown status) gives data [] when it answers 200 with total 0',
    settle(async ({ target, api, rule }) => {
      for (const offset of [undefined, 0, 5]) {
        const e = await fetchPage(api, sandboxListing(target, { status: 'NO_SUCH_STATUS' }), { offset, limit: 10 });
        if (e.status >= 500) {
          assertNoViolation({
            rule,
            expected: 'a 4xx, or HTTP 200 with total 0 and data []',
            received: excerpt(e),
            exchange: e,
          });
        }
        // A 4xx is legal; a total other than 0 is FLT-STATUS's to judge.
        if (readEnvelope(e)?.total === 0) assertNoViolation(emptyViolation(e, offset ?? 0, 0, false));
      }
    }),
  );
});

test.describe('§4.2 The live listing (cutover checklist)', () => {
  // Before the go-live cutover: the live key's listing echoes offset and limit (one request).
  test(
    "PAG-ECHO the live key's listing echoes offset and limit as sent",
    { tag: '@cutover' },
    settle(
      async ({ target, api, rule }) => {
        const sent = { offset: 1, limit: 3 };
        const e = await fetchPage(api, liveListing(target), sent);
        if (e.status !== 200)
          assertNoViolation({ rule, expected: 'HTTP 200 listing', received: excerpt(e), exchange: e });
        assertNoViolation(echoViolation(e, sent, target.defaultLimit));
      },
      { needs: ['live', 'liveMerchant'] },
    ),
  );
});
