/**
 * The one property runner over listing requests (the listing checks of §4.2): each generated request read on its
 * listing and its 200 judged, any other answer judged by the reading of what may be refused.
 */
import fc from 'fast-check';
import { ABSURD_OFFSET, dropUndefined } from '../generate/arbitraries.ts';
import { type Exchange, isClientError } from '../model/exchange.ts';
import {
  describeListing,
  describeRequest,
  type Listing,
  maxLimitOf,
  type PageRequest,
  type Selection,
  withSelection,
} from '../model/listing.ts';
import type { ResultSet } from '../model/result-set.ts';
import { excerpt, type Violation } from '../model/verdict.ts';
import { sameData } from './changes.ts';
import type { CheckContext } from './check.ts';
import { forAll } from './property.ts';
import { sharedPage } from './walk.ts';

/** A generated request on one of the readable listings (by index). */
export interface ListingCase {
  i: number;
  r: PageRequest;
}

/**
 * A property over listing requests: each case is read on its listing and its 200 judged. A 4xx is legal only over
 * the listing's cap, for an absurd offset, or for a filter value outside `known` (reading); any other answer than 200
 * fails the check's rule.
 */
export function listingProperty(
  ctx: CheckContext,
  listings: readonly Listing[],
  arb: fc.Arbitrary<ListingCase>,
  examples: ListingCase[],
  judge: (e: Exchange, c: ListingCase) => Violation | undefined | Promise<Violation | undefined>,
  known: (field: string) => ReadonlySet<string>,
  numRuns?: number,
) {
  const listingOf = (c: ListingCase) => withSelection(listings[c.i] as Listing, c.r);
  return forAll(
    ctx,
    arb,
    async (c) => {
      const e = await sharedPage(ctx, listingOf(c), c.r);
      if (e.status === 200) return judge(e, c);
      const r = c.r;
      const mayRefuse =
        (r.limit ?? 0) > maxLimitOf(listingOf(c)) ||
        (r.offset ?? 0) >= ABSURD_OFFSET ||
        (r.filter !== undefined && !known(r.filter.field).has(r.filter.value));
      if (isClientError(e.status) && mayRefuse) return undefined;
      return {
        rule: ctx.rule,
        expected: `HTTP 200 listing for ${describeListing(listingOf(c))} ${describeRequest(r)}`,
        received: excerpt(e),
        exchange: e,
      };
    },
    {
      describe: (c) => `${describeListing(listingOf(c))} ${describeRequest(c.r)}`,
      examples,
      numRuns,
      // Each listing is a code path of its own (a mode, a merchant): quick's few examples still meet every one.
      placeOf: (c) => c.i,
    },
  );
}

/** A window of a set is read as part of it: a total other than the set's is judged by `sameData`. */
export const sameSetTotal = (ctx: CheckContext, set: ResultSet, e: Exchange) =>
  set.pages[0] ? sameData(ctx, set.pages[0].exchange, e) : Promise.resolve();

/** Cases of one listing, from plain requests (parameters left undefined are omitted). */
export const on = (i: number, ...rs: PageRequest[]): ListingCase[] => rs.map((r) => ({ i, r: dropUndefined(r) }));

/**
 * A case on listing `i` (of `listings`) with one of its selections (the same on every listing, or `selections(i)`)
 * and a window from `offset` and `limit`.
 */
export function selectionCaseArb(
  listings: number,
  selections: readonly Selection[] | ((i: number) => readonly Selection[]),
  total: (i: number, s: Selection) => number,
  offset: (t: number) => fc.Arbitrary<number | undefined>,
  limit: fc.Arbitrary<number | undefined>,
): fc.Arbitrary<ListingCase> {
  const on = typeof selections === 'function' ? selections : () => selections;
  return fc
    .nat({ max: listings - 1 })
    .chain((i) => fc.record({ i: fc.constant(i), s: fc.nat({ max: on(i).length - 1 }) }))
    .chain(({ i, s }) => {
      const sel = on(i)[s] as Selection;
      return fc
        .record({ offset: offset(total(i, sel)), limit })
        .map((w) => ({ i, r: dropUndefined({ ...sel, ...w }) }));
    });
}
