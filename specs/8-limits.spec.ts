/**
 * §8 Limits: the maximum `limit` of 100 records per request (rule LIM-CAP), on the sandbox merchant's
 * listing, unfiltered, filtered and sorted. Both legal answers to a larger limit are accepted (reading.md): a
 * 4xx, or a 200 that echoes limit 100 and holds at most 100 records.
 */
import fc from 'fast-check';
import { capViolation } from '../checks/envelope.ts';
import { describeWindow, MAX_LIMIT, overCapLimitArb } from '../fixtures/arbitraries.ts';
import {
  describeListing,
  fetchPage,
  LISTING_QUERIES,
  liveListing,
  readEnvelope,
  sandboxListing,
  Unusable,
} from '../fixtures/dataset.ts';
import { forAll } from '../fixtures/property.ts';
import { check, test } from '../fixtures/test.ts';
import { assertNoViolation, excerpt } from '../fixtures/violation.ts';

interface Request {
  i: number;
  offset: number | undefined;
  limit: number;
}

const describe = (r: Request) => describeWindow({ ...LISTING_QUERIES[r.i], offset: r.offset, limit: r.limit });

test.describe('§8 Limits: maximum limit', () => {
  // "Maximum limit | 100 records per request | Paginated collection endpoints." Reading: over the cap, a 4xx
  // or a 200 that echoes limit 100 and holds at most 100 records; never more than 100 records.
  check('LIM-CAP limit above 100: a 4xx, or at most 100 records with limit echoed as 100', async ({ target, api }) => {
    // The unfiltered total places the offsets inside the data, where a missing cap shows in the record count.
    const first = await fetchPage(api, sandboxListing(target), { offset: 0, limit: 1 });
    const total = readEnvelope(first)?.total;
    if (total === undefined) {
      throw new Unusable({
        rule: 'LIM-CAP',
        expected: `HTTP 200 listing for ${describeListing(sandboxListing(target))}`,
        received: excerpt(first),
        exchange: first,
      });
    }
    const arb = fc.record({
      i: fc.integer({ min: 0, max: LISTING_QUERIES.length - 1 }),
      offset: fc.option(fc.integer({ min: 0, max: Math.max(0, total - 1) }), { nil: undefined, freq: 2 }),
      limit: overCapLimitArb(),
    });
    const examples: Request[] = [
      { i: 0, offset: 0, limit: MAX_LIMIT + 1 },
      { i: 0, offset: undefined, limit: MAX_LIMIT + 2 },
      { i: 0, offset: 0, limit: 150 },
      { i: 0, offset: 0, limit: 10 ** 9 },
      { i: 1, offset: 0, limit: MAX_LIMIT + 1 },
      { i: 3, offset: 0, limit: 1000 },
      { i: 4, offset: undefined, limit: MAX_LIMIT + 1 },
    ];
    await forAll(
      target,
      arb,
      async (r) => capViolation(await fetchPage(api, sandboxListing(target, LISTING_QUERIES[r.i]), r), r.limit),
      { describe, examples, numRuns: Math.max(target.fcNumRuns, examples.length) },
    );
  });
});

test.describe('§8 Limits on the live listing (cutover checklist)', () => {
  // Before the go-live cutover: the cap holds for the live key's listing too (one request).
  check(
    "LIM-CAP the live key's listing: limit 101 gets a 4xx, or at most 100 records with limit echoed as 100",
    async ({ target, api }) => {
      const limit = MAX_LIMIT + 1;
      assertNoViolation(capViolation(await fetchPage(api, liveListing(target), { offset: 0, limit }), limit));
    },
    { needs: ['live', 'liveMerchant'], tag: '@cutover' },
  );
});
