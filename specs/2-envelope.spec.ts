/**
 * §2 Resources: the paginated collection envelope (rule ENV-SCHEMA), on every collection the run checks (payments, and
 * those of `--collections`: "Collection endpoints return an object with these fields"), on the pages a client meets on
 * every listing the configuration can read: first pages of every selection, every page of whole result sets, the last
 * page and the pages past the end. A collection's records are judged by its record schema where it has one (payments:
 * the payment record); another's have no schema the spec shows.
 */
import { envelopeViolation } from '../checks/envelope.ts';
import { matching } from '../checks/filter.ts';
import { fetchPage } from '../core/client/http.ts';
import { noSuchValue } from '../core/generate/arbitraries.ts';
import type { Collection } from '../core/model/collection.ts';
import type { Exchange } from '../core/model/exchange.ts';
import {
  describeListing,
  type Listing,
  liveListing,
  MAX_LIMIT,
  readEnvelope,
  type Selection,
  selectionsOf,
  withSelection,
} from '../core/model/listing.ts';
import { assertNoViolation, type Violation } from '../core/model/verdict.ts';
import { coversOnce, enumerateEach, firstFilters, learnReadable, readable, selectionsOn } from '../core/run/learn.ts';
import { eachCollection } from '../fixtures/collections.ts';

/** The first envelope violation among the exchanges, naming the request it answered. */
function firstEnvelopeViolation(c: Collection, exchanges: readonly Exchange[], note = ''): Violation | undefined {
  for (const e of exchanges) {
    const v = envelopeViolation(e, c);
    const query = e.query.length === 0 ? '' : `?${e.query.map(([k, x]) => `${k}=${x}`).join('&')}`;
    if (v) return { ...v, expected: `${v.expected} for GET ${e.path}${query}${note}` };
  }
  return undefined;
}

eachCollection('§2 Paginated collection envelope:', (c, check) => {
  // "Collection endpoints return an object with these fields: success (boolean), message (string), data
  // (array), offset (integer), limit (integer), total (integer)." Read: success true, integers >= 0.
  check(
    'ENV-SCHEMA',
    'first pages match the envelope on every listing: default limit, limit 1, filtered, sorted',
    async (ctx) => {
      const selections = selectionsOf(c, await firstFilters(ctx, c));
      const exchanges: Exchange[] = [];
      const listings = readable(ctx.target, c);
      const once = coversOnce(ctx.depth);
      // Covered once: each selection on one listing, the listings in turn, and limit 1 on the first (every
      // listing's pages at limit 100 are the next check's).
      const on = (i: number) =>
        once ? selections.filter((_, k) => k % listings.length === i) : selectionsOn(c, i, selections);
      for (const [i, listing] of listings.entries()) {
        for (const s of on(i)) exchanges.push(await fetchPage(ctx.api, withSelection(listing, s)));
        if (!once || i === 0) exchanges.push(await fetchPage(ctx.api, listing, { offset: 0, limit: 1 }));
      }
      assertNoViolation(firstEnvelopeViolation(c, exchanges));
    },
  );

  check(
    'ENV-SCHEMA',
    `every page of the whole result set at limit ${c.maxLimit ?? MAX_LIMIT} matches the envelope (every listing)`,
    async (ctx) => {
      readable(ctx.target, c);
      const selections = selectionsOf(c, await firstFilters(ctx, c)).slice(0, 2);
      for (const set of (await enumerateEach(ctx, c, selections)).sets) {
        assertNoViolation(
          firstEnvelopeViolation(
            c,
            set.pages.map((p) => p.exchange),
          ),
        );
      }
    },
  );

  check(
    'ENV-SCHEMA',
    'the last page, the pages past the end and an empty result match the envelope (every listing)',
    async (ctx) => {
      const { api } = ctx;
      const selections = selectionsOf(c, await firstFilters(ctx, c));
      // Covered once, the totals are the whole sets' the run read (the first page at limit 1 is the first check's).
      const once = coversOnce(ctx.depth);
      const learned = once ? await learnReadable(ctx, c) : undefined;
      const learnedTotal = (i: number, s: Selection) => {
        const set = learned?.listings[i]?.set;
        return set?.complete ? matching(set.records, s.filter).length : (set?.total ?? 0);
      };
      const firstTotal = async (listing: Listing) => {
        const first = await fetchPage(api, listing, { offset: 0, limit: 1 });
        assertNoViolation(firstEnvelopeViolation(c, [first]));
        return readEnvelope(first)?.total ?? 0;
      };
      // Covered once, each place (the last record, the end, past it) once, on the listings and selections in turn,
      // the filtered one on the first listing.
      let turn = 0;
      const places = (total: number) => {
        const all = [Math.max(0, total - 1), total, total + 7];
        if (!once) return [...new Set(all)];
        return turn < all.length ? [all[turn++] as number] : [];
      };
      for (const [i, base] of readable(ctx.target, c).entries()) {
        // Unfiltered on every listing; filtered too on the first.
        for (const s of selections.slice(0, i === 0 ? 2 : 1)) {
          const listing = withSelection(base, s);
          const total = once ? learnedTotal(i, s) : await firstTotal(listing);
          const exchanges: Exchange[] = [];
          for (const offset of places(total)) {
            exchanges.push(await fetchPage(api, listing, { offset, limit: 10 }));
          }
          assertNoViolation(firstEnvelopeViolation(c, exchanges, ` (${describeListing(listing)}, total ${total})`));
        }
      }
      // A filter value that matches nothing may be refused (reading); answered with 200, it is an empty envelope.
      const [f] = c.filters;
      if (!f) return;
      const filter = { field: f.field, value: noSuchValue(f.field) };
      const [listing] = readable(ctx.target, c);
      const none = await fetchPage(api, withSelection(listing as Listing, { filter }));
      if (none.status === 200) assertNoViolation(firstEnvelopeViolation(c, [none]));
    },
  );

  // Before the go-live cutover: the live key's own listing has the same envelope (one request).
  check(
    'ENV-SCHEMA',
    "the live key's listing of the live merchant matches the envelope",
    async (ctx) => {
      const e = await fetchPage(ctx.api, liveListing(ctx.target, c), { offset: 0, limit: 5 });
      assertNoViolation(envelopeViolation(e, c));
    },
    { liveListing: true },
  );
});
