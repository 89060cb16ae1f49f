/**
 * §8 Limits: the maximum `limit` of 100 records per request (rule LIM-CAP), on every listing the configuration can
 * read, unfiltered, filtered and sorted, however the number is written. Both legal answers to a larger limit are
 * accepted (reading.md): a 4xx, or a 200 that echoes limit 100 and holds at most 100 records. A limit written in
 * another notation (exponent, decimal, a sign, zeros, repeated) may be read as any number or refused, but never
 * serves more than 100 records.
 */
import fc from 'fast-check';
import { capNotationViolation, capViolation } from '../checks/envelope.ts';
import { fetchPage } from '../core/client/http.ts';
import { type OverCapLimit, overCapNotationArb } from '../core/generate/arbitraries.ts';
import {
  describeListing,
  describeRequest,
  type Listing,
  liveListing,
  MAX_LIMIT,
  paymentsPath,
  readEnvelope,
  requestQuery,
  SELECTIONS,
  withSelection,
} from '../core/model/listing.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { notExercised } from '../core/run/check.ts';
import { references } from '../core/run/learn.ts';
import { forAll } from '../core/run/property.ts';
import { settle, test } from '../fixtures/test.ts';

interface CapCase {
  /** Readable listing and selection (indexes). */
  i: number;
  s: number;
  offset: number | undefined;
  limit: OverCapLimit;
}

/** Why a listing of `n` records cannot show the cap. */
const capUnshown = (n: number) => `${n} records at most in a listing; the cap needs more than ${MAX_LIMIT}`;

const written = (c: CapCase) => c.limit.pairs.map(([k, v]) => `${k}=${v}`).join('&');

test.describe('§8 Limits: maximum limit', () => {
  // "Maximum limit | 100 records per request | Paginated collection endpoints." Reading: over the cap, a 4xx or a
  // 200 that echoes limit 100 and holds at most 100 records; never more than 100 records, however the request
  // was written.
  test(
    'LIM-CAP limit above 100 in any notation, on any listing, filtered or sorted: a 4xx, or at most 100 records',
    settle(async (ctx) => {
      const { api, target } = ctx;
      // The unfiltered totals place the offsets inside the data, where a missing cap shows in the record count.
      const { listings, reference } = await references(ctx, [undefined]);
      const most = Math.max(...listings.map((_, i) => reference(i).total));
      if (most <= MAX_LIMIT) notExercised(ctx, capUnshown(most));
      const arb = fc.nat({ max: listings.length - 1 }).chain((i) =>
        fc.record({
          i: fc.constant(i),
          s: fc.nat({ max: SELECTIONS.length - 1 }),
          offset: fc.option(fc.integer({ min: 0, max: Math.max(0, reference(i).total - 1) }), {
            nil: undefined,
            freq: 2,
          }),
          limit: overCapNotationArb(),
        }),
      );
      const plain = (value: number): OverCapLimit => ({ notation: 'plain', value, pairs: [['limit', String(value)]] });
      const as = (notation: OverCapLimit['notation'], value: number, pairs: Array<[string, string]>): OverCapLimit => ({
        notation,
        value,
        pairs,
      });
      const examples: CapCase[] = [
        { i: 0, s: 0, offset: 0, limit: plain(MAX_LIMIT + 1) },
        { i: 0, s: 0, offset: undefined, limit: plain(MAX_LIMIT + 2) },
        { i: 0, s: 0, offset: 0, limit: plain(10 ** 9) },
        { i: 0, s: 1, offset: 0, limit: plain(MAX_LIMIT + 1) },
        { i: 0, s: 3, offset: 0, limit: plain(1000) },
        { i: 0, s: 4, offset: undefined, limit: plain(MAX_LIMIT + 1) },
        { i: 0, s: 0, offset: 0, limit: as('exponent', 1000, [['limit', '1e3']]) },
        { i: 0, s: 0, offset: 0, limit: as('decimal', 500, [['limit', '500.0']]) },
        { i: 0, s: 0, offset: 0, limit: as('plus sign', 500, [['limit', '+500']]) },
        {
          i: 0,
          s: 2,
          offset: 0,
          limit: as('small then large', 500, [
            ['limit', '5'],
            ['limit', '500'],
          ]),
        },
        {
          i: 0,
          s: 0,
          offset: 0,
          limit: as('large then small', 500, [
            ['limit', '500'],
            ['limit', '5'],
          ]),
        },
        ...listings.slice(1).map((_, k): CapCase => ({ i: k + 1, s: 0, offset: 0, limit: plain(MAX_LIMIT + 1) })),
      ];
      const listingOf = (c: CapCase): Listing => withSelection(listings[c.i] as Listing, SELECTIONS[c.s] ?? {});
      await forAll(
        ctx,
        arb,
        async (c) => {
          const listing = listingOf(c);
          const query = [...requestQuery({ offset: c.offset, ...listing }), ...c.limit.pairs];
          const e = await api.get(paymentsPath(listing.merchant), { query, auth: listing.auth });
          return c.limit.notation === 'plain'
            ? capViolation(e, c.limit.value)
            : capNotationViolation(e, `${written(c)} (${c.limit.notation})`);
        },
        {
          describe: (c) => `${describeListing(listingOf(c))} ${describeRequest({ offset: c.offset })} ${written(c)}`,
          examples,
          numRuns: Math.max(target.fcNumRuns, examples.length),
        },
      );
    }),
  );
});

test.describe('§8 Limits on the live listing (cutover checklist)', () => {
  // Before the go-live cutover: the cap holds for the live key's listing too (one request).
  test(
    "LIM-CAP the live key's listing: limit 101 gets a 4xx, or at most 100 records with limit echoed as 100",
    { tag: '@cutover' },
    settle(
      async (ctx) => {
        const limit = MAX_LIMIT + 1;
        const e = await fetchPage(ctx.api, liveListing(ctx.target), { offset: 0, limit });
        assertNoViolation(capViolation(e, limit));
        const total = readEnvelope(e)?.total ?? 0;
        if (total <= MAX_LIMIT) notExercised(ctx, capUnshown(total));
      },
      { needs: ['live', 'liveMerchant'] },
    ),
  );
});
