/**
 * §8 Limits: the maximum `limit` (rule LIM-CAP) — the spec's 100 records per request, or a collection's own maximum —
 * on every collection the run checks, on every listing the configuration can read, unfiltered, filtered and sorted,
 * however the number is written. Both legal answers to a larger limit are accepted (reading.md): a 4xx, or a 200 that
 * echoes the maximum and holds at most that many records. A limit written in another notation (exponent, decimal, a
 * sign, zeros, repeated) may be read as any number or refused, but never serves more than the maximum.
 */
import fc from 'fast-check';
import { capNotationViolation, capOnlyViolation, capViolation } from '../checks/envelope.ts';
import { fetchPage } from '../core/client/http.ts';
import {
  CAP_NOTATIONS,
  type OverCapLimit,
  overCapNotationArb,
  UNBOUNDED_NOTATIONS,
  writeLimit,
} from '../core/generate/arbitraries.ts';
import {
  describeListing,
  describeRequest,
  type Listing,
  listingPath,
  liveListing,
  MAX_LIMIT,
  readEnvelope,
  requestQuery,
  selectionsOf,
  withSelection,
} from '../core/model/listing.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { notExercised } from '../core/run/check.ts';
import { coversOnce, firstFilters, references, runsOn } from '../core/run/learn.ts';
import { forAll } from '../core/run/property.ts';
import { eachCollection } from '../fixtures/collections.ts';

interface CapCase {
  /** Readable listing and selection (indexes). */
  i: number;
  s: number;
  offset: number | undefined;
  limit: OverCapLimit;
}

/** Why a listing of `n` records cannot show the cap. */
const capUnshown = (n: number, max: number) => `${n} records at most in a listing; the cap needs more than ${max}`;

const written = (c: CapCase) => c.limit.pairs.map(([k, v]) => `${k}=${v}`).join('&');

const plain = (value: number): OverCapLimit => ({ notation: 'plain', value, pairs: [['limit', String(value)]] });
const as = (notation: OverCapLimit['notation'], value: number, pairs: OverCapLimit['pairs']): OverCapLimit => ({
  notation,
  value,
  pairs,
});

/** The cases every run tries: the first limits over the cap, each notation, each selection, each listing. */
const examplesOf = (listings: number, max: number): CapCase[] => [
  { i: 0, s: 0, offset: 0, limit: plain(max + 1) },
  { i: 0, s: 0, offset: undefined, limit: plain(max + 2) },
  { i: 0, s: 0, offset: 0, limit: plain(10 ** 9) },
  { i: 0, s: 1, offset: 0, limit: plain(max + 1) },
  { i: 0, s: 3, offset: 0, limit: plain(1000) },
  { i: 0, s: 4, offset: undefined, limit: plain(max + 1) },
  { i: 0, s: 0, offset: 0, limit: as('exponent', 1000, [['limit', '1e3']]) },
  // Every other notation of a number, and of a repeated parameter, once (500: more records than the cap, fewer than a
  // listing of the bundled mock holds), and the limits a query builder may read as none (0, -1).
  ...CAP_NOTATIONS.filter((n) => n !== 'plain' && n !== 'exponent').map(
    (notation): CapCase => ({
      i: 0,
      s: notation === 'small then large' ? 2 : 0,
      offset: 0,
      limit: as(notation, 500, writeLimit(notation, 500)),
    }),
  ),
  ...Array.from({ length: listings - 1 }, (_, k): CapCase => ({ i: k + 1, s: 0, offset: 0, limit: plain(max + 1) })),
];

/**
 * Each notation once (a plain limit: just over the cap, and huge; with and without an offset), case j on listing
 * j mod `listings` and selection j mod `selections`.
 */
function spread(cases: readonly CapCase[], listings: number, selections: number): CapCase[] {
  const key = (k: CapCase) =>
    `${k.limit.notation === 'plain' ? `plain ${k.limit.value > 10_000}` : written(k)} ${k.offset === undefined}`;
  const distinct = cases.filter((k, j) => cases.findIndex((x) => key(x) === key(k)) === j);
  return distinct.map((k, j) => ({ ...k, i: j % listings, s: j % selections }));
}

eachCollection('§8 Limits: maximum limit:', (c, check) => {
  const max = c.maxLimit ?? MAX_LIMIT;
  // "Maximum limit | 100 records per request | Paginated collection endpoints." Reading: over the cap, a 4xx or a
  // 200 that echoes limit 100 and holds at most 100 records; never more than 100 records, however the request
  // was written.
  check(
    'LIM-CAP',
    `limit above ${max} in any notation, on any listing, filtered or sorted: a 4xx, or at most ${max} records`,
    async (ctx) => {
      const { api, target } = ctx;
      const selections = selectionsOf(c, await firstFilters(ctx, c));
      // The unfiltered totals place the offsets inside the data, where a missing cap shows in the record count.
      const { listings, reference } = await references(ctx, c, [undefined]);
      const most = Math.max(...listings.map((_, i) => reference(i).total));
      if (most <= max) notExercised(ctx, capUnshown(most, max));
      const arb = fc.nat({ max: listings.length - 1 }).chain((i) =>
        fc.record({
          i: fc.constant(i),
          s: fc.nat({ max: selections.length - 1 }),
          offset: fc.option(fc.integer({ min: 0, max: Math.max(0, reference(i).total - 1) }), {
            nil: undefined,
            freq: 2,
          }),
          limit: overCapNotationArb(max),
        }),
      );
      const all = examplesOf(listings.length, max).filter((e) => e.s < selections.length);
      // Covered once: each value and notation over the cap once, the listings and the selections in turn.
      // A case on a listing that holds no more than the cap could not show it: it goes to the largest listing, unfiltered.
      const largest = listings.findIndex((_, i) => reference(i).total === most);
      const showable = (k: CapCase): CapCase => (reference(k.i).total > max ? k : { ...k, i: largest, s: 0 });
      const examples = (coversOnce(ctx.depth) ? spread(all, listings.length, selections.length) : all).map(showable);
      const listingOf = (k: CapCase): Listing => withSelection(listings[k.i] as Listing, selections[k.s] ?? {});
      await forAll(
        ctx,
        arb,
        async (k) => {
          const listing = listingOf(k);
          const query = [...requestQuery({ offset: k.offset, ...listing }), ...k.limit.pairs];
          const e = await api.get(listingPath(listing), { query, auth: listing.auth });
          if (k.limit.notation === 'plain') return capViolation(e, k.limit.value, max);
          const words = `${written(k)} (${k.limit.notation})`;
          return UNBOUNDED_NOTATIONS.has(k.limit.notation)
            ? capOnlyViolation(e, words, max)
            : capNotationViolation(e, words, max);
        },
        {
          describe: (k) => `${describeListing(listingOf(k))} ${describeRequest({ offset: k.offset })} ${written(k)}`,
          examples,
          coverage: true, // every notation of a limit above the cap, at every depth
          numRuns: runsOn(ctx, c, examples.length, Math.max(target.fcNumRuns, examples.length)),
        },
      );
    },
  );

  // Before the go-live cutover: the cap holds for the live key's listing too (one request).
  check(
    'LIM-CAP',
    `the live key's listing: limit ${max + 1} gets a 4xx, or at most ${max} records with limit echoed as ${max}`,
    async (ctx) => {
      const e = await fetchPage(ctx.api, liveListing(ctx.target, c), { offset: 0, limit: max + 1 });
      assertNoViolation(capViolation(e, max + 1, max));
      const total = readEnvelope(e)?.total ?? 0;
      if (total <= max) notExercised(ctx, capUnshown(total, max));
    },
    { liveListing: true },
  );
});
