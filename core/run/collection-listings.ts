/**
 * What the checks of another collection read: its listings the configuration can read (per its access: a merchant's
 * like payments, or the account's per mode), its selections (each declared filter with a value, each declared sort
 * both ways), and what they learn first (every listing read whole, the values of each filter field). A collection's
 * share of the run is bounded: its whole-set reads stop at COLLECTION_MAX_RECORDS records, its properties draw
 * COLLECTION_RUNS cases beyond their examples.
 */

import type { Collection, CollectionSort } from '../model/collection.ts';
import { asKey } from '../model/credentials.ts';
import type { FieldFilter, Listing, Selection } from '../model/listing.ts';
import type { ResultSet } from '../model/result-set.ts';
import { fieldValueCounts } from '../model/result-set.ts';
import type { Target } from '../model/target.ts';
import type { CheckContext } from './check.ts';
import { enumerate } from './walk.ts';

/** A collection's whole-set reads stop here (or at API_MAX_RECORDS, when lower): its share of the run stays bounded. */
export const COLLECTION_MAX_RECORDS = 300;
/** Cases a collection's property draws beyond its examples (or FC_NUM_RUNS, when lower). */
export const COLLECTION_RUNS = 5;
/** Filter values checked one by one on the first listing, and on each other one. */
const VALUES_FIRST = 3;
const VALUES_ELSEWHERE = 1;

/** The target as a collection's checks see it: whole sets read up to COLLECTION_MAX_RECORDS. */
export const boundedTarget = (t: Target): Target => ({
  ...t,
  maxRecords: Math.min(t.maxRecords, COLLECTION_MAX_RECORDS),
});

/** Cases a collection's property draws: COLLECTION_RUNS beyond its examples, or FC_NUM_RUNS when lower. */
export const collectionRuns = (t: Target, examples: number) => examples + Math.min(t.fcNumRuns, COLLECTION_RUNS);

/**
 * The listings of a collection the configuration can read, the sandbox one first. Merchant-scoped: the test key on the
 * sandbox merchant and on the live merchant (its test data, §5.5), the live key on the live merchant. Account-wide:
 * each key of its modes.
 */
export function collectionListings(t: Target, c: Collection): Listing[] {
  const test = c.access.modes.includes('test');
  const live = c.access.modes.includes('live') && t.keys.live !== undefined;
  const of = (merchant: string, slot: 'test' | 'live'): Listing => ({ merchant, auth: asKey(slot), collection: c });
  if (c.access.scope === 'account') return [...(test ? [of('', 'test')] : []), ...(live ? [of('', 'live')] : [])];
  const liveMerchant = t.merchants.live;
  return [
    ...(test ? [of(t.merchants.sandbox, 'test')] : []),
    ...(test && liveMerchant ? [of(liveMerchant, 'test')] : []),
    ...(live && liveMerchant ? [of(liveMerchant, 'live')] : []),
  ];
}

/** A collection's listing as it is learned: its whole set and the values seen of each filter field. */
interface LearnedListing {
  listing: Listing;
  set: ResultSet;
}

/** What a collection's checks learn first: every listing read whole, and the filter values to try on each. */
export interface LearnedCollection {
  collection: Collection;
  listings: LearnedListing[];
  /** The filters to try on listing i: each declared filter with its values (declared, else the most frequent seen). */
  filters(i: number): FieldFilter[];
  /** Every value of a filter field known (declared or seen on any listing). */
  known(field: string): Set<string>;
}

/** Every listing of the collection, read whole (memoised per worker), and the filter values it shows. */
export async function learnCollection(ctx: CheckContext, c: Collection): Promise<LearnedCollection> {
  const listings: LearnedListing[] = [];
  for (const listing of collectionListings(ctx.target, c))
    listings.push({ listing, set: await enumerate(ctx, listing) });
  const valuesOn = (i: number, field: string): string[] => {
    const declared = c.filters.find((f) => f.field === field)?.values;
    if (Array.isArray(declared)) return declared;
    return fieldValueCounts(listings[i]?.set.records ?? [], field).map(([v]) => v);
  };
  return {
    collection: c,
    listings,
    filters: (i) =>
      c.filters.flatMap((f) =>
        valuesOn(i, f.field)
          .slice(0, i === 0 ? VALUES_FIRST : VALUES_ELSEWHERE)
          .map((value) => ({ field: f.field, value })),
      ),
    known: (field) => new Set(listings.flatMap((_, i) => valuesOn(i, field))),
  };
}

/** The two sort values of a declared sort: ascending, then descending. */
export const directions = (s: CollectionSort): [string, string] => [s.field, `-${s.field}`];

/**
 * The selections a collection's checks cover on a listing: unfiltered, each filter (its first value), each sort both
 * ways, and the first filter with the first sort descending.
 */
export function selectionsOf(c: Collection, filters: readonly FieldFilter[]): Selection[] {
  const byField = c.filters.flatMap((f) => filters.find((x) => x.field === f.field) ?? []);
  const sorts = c.sorts.flatMap((s) => directions(s).map((sort) => ({ sort })));
  const both = byField[0] && c.sorts[0] ? [{ filter: byField[0], sort: `-${c.sorts[0].field}` }] : [];
  return [{}, ...byField.map((filter) => ({ filter })), ...sorts, ...both];
}
