/**
 * §7 Errors: odd query input (rule INP-ROBUST) on every other collection the run was given (`--collections`): a 4xx, or
 * a 200 whose envelope holds, never a 5xx. First its coverage phase (core/generate/coverage.ts): every length and
 * character class of each of its filter parameters and of `sort`, and the number forms and structures of `offset` and
 * `limit`, spread over its listings; then a sample of odd values on any listing, next to a filter or a sort.
 */
import fc from 'fast-check';
import { robustnessViolation } from '../../checks/envelope.ts';
import { type OddInput, oddValueArb } from '../../core/generate/arbitraries.ts';
import { coverageCases, coverageSummary } from '../../core/generate/coverage.ts';
import type { Collection } from '../../core/model/collection.ts';
import {
  describeListing,
  type Listing,
  listingPath,
  requestQuery,
  type Selection,
  withSelection,
} from '../../core/model/listing.ts';
import { assertNoViolation, type Violation } from '../../core/model/verdict.ts';
import { type CheckContext, NotRun } from '../../core/run/check.ts';
import { collectionListings, collectionRuns, directions } from '../../core/run/collection-listings.ts';
import { forAll } from '../../core/run/property.ts';
import { detailsOf, eachCollection, onCollection, titled } from '../../fixtures/collections.ts';
import { test } from '../../fixtures/test.ts';

const filterParams = (c: Collection) => c.filters.map((f) => `filter[${f.field}]`);

/** Next to an odd value: nothing, a sort (its first field, descending), or its first filter's declared value. */
function nextTo(c: Collection): Selection[] {
  const sort = c.sorts[0] ? [{ sort: directions(c.sorts[0])[1] }] : [];
  const values = c.filters[0]?.values;
  const filter =
    c.filters[0] && Array.isArray(values) && values[0]
      ? [{ filter: { field: c.filters[0].field, value: values[0] } }]
      : [];
  return [{}, ...sort, ...filter];
}

/** An odd input of the payments' catalogue on this collection's parameters: its first filter for `filter[status]`. */
const onCollectionParams = (c: Collection, odd: OddInput): OddInput => {
  const own = filterParams(c)[0] ?? 'filter';
  const swap = (s: string) => s.replaceAll('filter[status]', own);
  return {
    label: swap(odd.label),
    pairs: odd.pairs.map(([k, v, ...rest]) => [swap(k), v, ...rest] as (typeof odd.pairs)[number]),
  };
};

function listingsOf(ctx: CheckContext, c: Collection): Listing[] {
  const listings = collectionListings(ctx.target, c);
  if (listings.length === 0) throw new NotRun('needs input', `no configured key may list ${c.name}`);
  return listings;
}

const send = (ctx: CheckContext, listing: Listing, odd: OddInput) =>
  ctx.api.get(listingPath(listing), { query: [...requestQuery(listing), ...odd.pairs], auth: listing.auth });

eachCollection('§7 Odd input:', (c) => {
  test(
    titled(
      'INP-ROBUST',
      c,
      'coverage phase: every length and character class of its filters and sort, every number form and structure of offset and limit, gets a 4xx or a valid 200',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const listings = listingsOf(ctx, c);
      const cases = coverageCases(filterParams(c), ['offset', 'limit'], c.sorts.length ? ['sort'] : []);
      ctx.notes.add(coverageSummary(cases));
      const around = nextTo(c);
      const failed: Array<{ label: string; violation: Violation }> = [];
      for (const [k, odd] of cases.entries()) {
        const s = around.filter(
          (x) => !(odd.parameter === 'sort' && x.sort) && !(x.filter && odd.parameter === `filter[${x.filter.field}]`),
        );
        const listing = withSelection(listings[k % listings.length] as Listing, s[k % s.length] ?? {});
        const label = `${odd.label} on ${describeListing(listing)}`;
        const violation = robustnessViolation(await send(ctx, listing, odd), label, 'other');
        if (violation) failed.push({ label, violation });
      }
      const first = failed[0]?.violation;
      if (first && failed.length > 1) {
        const others = failed.slice(1).map((f) => f.label);
        first.received += ` (${others.length} more odd inputs fail too: ${others.slice(0, 6).join('; ')}${others.length > 6 ? '; …' : ''})`;
      }
      assertNoViolation(first);
    }),
  );

  test(
    titled(
      'INP-ROBUST',
      c,
      'any odd value of any length and character set, alone or next to a filter or sort, on any listing, gets a 4xx or a valid 200',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const listings = listingsOf(ctx, c);
      const around = nextTo(c);
      const arb = fc.record({
        i: fc.nat({ max: listings.length - 1 }),
        s: fc.nat({ max: around.length - 1 }),
        odd: oddValueArb().map((o) => onCollectionParams(c, o)),
      });
      const listingOf = (k: { i: number; s: number }) => withSelection(listings[k.i] as Listing, around[k.s] ?? {});
      const describe = (k: { i: number; s: number; odd: OddInput }) =>
        `${k.odd.label} on ${describeListing(listingOf(k))}`;
      await forAll(
        ctx,
        arb,
        async (k) => robustnessViolation(await send(ctx, listingOf(k), k.odd), describe(k), 'other'),
        {
          describe,
          numRuns: collectionRuns(ctx.target, 0),
        },
      );
    }),
  );
});
