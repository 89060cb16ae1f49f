/**
 * The one property runner over listing requests (the listing checks of §4.2): each generated request read on its
 * listing and its 200 judged, any other answer judged by the reading of what may be refused.
 */
import type fc from 'fast-check';
import { fetchPage } from '../client/http.ts';
import { ABSURD_OFFSET } from '../generate/arbitraries.ts';
import { type Exchange, isClientError } from '../model/exchange.ts';
import {
  describeListing,
  describeRequest,
  type Listing,
  maxLimitOf,
  type PageRequest,
  SPEC_STATUS,
  withSelection,
} from '../model/listing.ts';
import type { ResultSet } from '../model/result-set.ts';
import { excerpt, type Violation } from '../model/verdict.ts';
import { sameData } from './changes.ts';
import type { CheckContext } from './check.ts';
import { forAll } from './property.ts';

/** A generated request on one of the readable listings (by index). */
export interface ListingCase {
  i: number;
  r: PageRequest;
}

/**
 * A property over listing requests: each case is read on its listing and its 200 judged. A 4xx is legal only over
 * the cap, for an absurd offset, or for a status outside `known` (reading); any other answer than 200 fails the
 * check's rule.
 */
export function listingProperty(
  ctx: CheckContext,
  listings: readonly Listing[],
  arb: fc.Arbitrary<ListingCase>,
  examples: ListingCase[],
  judge: (e: Exchange, c: ListingCase) => Violation | undefined | Promise<Violation | undefined>,
  known: (i: number) => ReadonlySet<string> = () => new Set([SPEC_STATUS]),
  numRuns?: number,
) {
  const listingOf = (c: ListingCase) => withSelection(listings[c.i] as Listing, c.r);
  return forAll(
    ctx,
    arb,
    async (c) => {
      const e = await fetchPage(ctx.api, listingOf(c), c.r);
      if (e.status === 200) return judge(e, c);
      const r = c.r;
      // Another collection's own cap, and its filter's values, where the listing is one.
      const mayRefuse =
        (r.limit ?? 0) > maxLimitOf(listingOf(c)) ||
        (r.offset ?? 0) >= ABSURD_OFFSET ||
        (r.status !== undefined && !known(c.i).has(r.status)) ||
        (r.filter !== undefined && !known(c.i).has(r.filter.value));
      if (isClientError(e.status) && mayRefuse) return undefined;
      return {
        rule: ctx.rule,
        expected: `HTTP 200 listing for ${describeListing(listingOf(c))} ${describeRequest(r)}`,
        received: excerpt(e),
        exchange: e,
      };
    },
    { describe: (c) => `${describeListing(listingOf(c))} ${describeRequest(c.r)}`, examples, numRuns },
  );
}

/** A window of a set is read as part of it: a total other than the set's is judged by `sameData`. */
export const sameSetTotal = (ctx: CheckContext, set: ResultSet, e: Exchange) =>
  set.pages[0] ? sameData(ctx, set.pages[0].exchange, e) : Promise.resolve();
