/**
 * §8 Limits (rule LIM-CAP) on every other collection the run was given (`--collections`): the maximum `limit` (the
 * spec's 100, or the collection's own) holds however the number is written, on each listing, filtered and sorted: a
 * 4xx, or a 200 that echoes the maximum and holds at most that many records.
 */
import fc from 'fast-check';
import { capNotationViolation, capViolation } from '../../checks/envelope.ts';
import { type OverCapLimit, overCapNotationArb } from '../../core/generate/arbitraries.ts';
import {
  describeListing,
  type Listing,
  listingPath,
  maxLimitOf,
  requestQuery,
  withSelection,
} from '../../core/model/listing.ts';
import { NotRun, notExercised } from '../../core/run/check.ts';
import { collectionRuns, learnCollection, selectionsOf } from '../../core/run/collection-listings.ts';
import { forAll } from '../../core/run/property.ts';
import { detailsOf, eachCollection, onCollection, titled } from '../../fixtures/collections.ts';
import { test } from '../../fixtures/test.ts';

const written = (l: OverCapLimit) => l.pairs.map(([k, v]) => `${k}=${v}`).join('&');

eachCollection('§8 Limits:', (c) => {
  test(
    titled(
      'LIM-CAP',
      c,
      'limit above its maximum in any notation, on any listing, filtered or sorted: a 4xx, or at most the maximum',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const learned = await learnCollection(ctx, c);
      if (learned.listings.length === 0) throw new NotRun('needs input', `no configured key may list ${c.name}`);
      const max = maxLimitOf(learned.listings[0]?.listing as Listing);
      const most = Math.max(...learned.listings.map((l) => l.set.total));
      if (most <= max)
        notExercised(ctx, `${most} records at most in a listing of ${c.name}; its cap needs more than ${max}`);
      const selections = selectionsOf(c, learned.filters(0));
      const over = (value: number): OverCapLimit => ({ notation: 'plain', value, pairs: [['limit', String(value)]] });
      const examples = [
        ...learned.listings.map((_, i) => ({ i, s: 0, limit: over(max + 1) })),
        { i: 0, s: 0, limit: over(10 ** 9) },
        ...selections.slice(1, 3).map((_, k) => ({ i: 0, s: k + 1, limit: over(max + 2) })),
        {
          i: 0,
          s: 0,
          limit: { notation: 'exponent' as const, value: 1000, pairs: [['limit', '1e3']] as Array<[string, string]> },
        },
        {
          i: 0,
          s: 0,
          limit: {
            notation: 'small then large' as const,
            value: 500,
            pairs: [
              ['limit', '5'],
              ['limit', '500'],
            ] as Array<[string, string]>,
          },
        },
      ];
      const arb = fc.record({
        i: fc.nat({ max: learned.listings.length - 1 }),
        s: fc.nat({ max: selections.length - 1 }),
        limit: overCapNotationArb().filter((l) => l.value > max),
      });
      const listingOf = (k: { i: number; s: number }) =>
        withSelection(learned.listings[k.i]?.listing as Listing, selections[k.s] ?? {});
      await forAll(
        ctx,
        arb,
        async (k) => {
          const listing = listingOf(k);
          const e = await ctx.api.get(listingPath(listing), {
            query: [...requestQuery({ ...listing, offset: 0 }), ...k.limit.pairs],
            auth: listing.auth,
          });
          return k.limit.notation === 'plain'
            ? capViolation(e, k.limit.value, max)
            : capNotationViolation(e, `${written(k.limit)} (${k.limit.notation})`, max);
        },
        {
          describe: (k) => `${describeListing(listingOf(k))} offset=0 ${written(k.limit)}`,
          examples,
          numRuns: collectionRuns(ctx.target, examples.length),
        },
      );
    }),
  );
});
