/**
 * §2 Resources: "Collection endpoints return an object with these fields" (rule ENV-SCHEMA), on every other collection
 * the run was given (`--collections`): the envelope on the pages a client meets — first pages of every declared filter
 * and sort, every page of the whole set, the last page and past the end — on each listing the configuration can read.
 * The records themselves have no schema the spec shows: only the envelope is judged.
 */
import { envelopeViolation } from '../../checks/envelope.ts';
import { fetchPage } from '../../core/client/http.ts';
import type { Exchange } from '../../core/model/exchange.ts';
import { describeListing, type Listing, withSelection } from '../../core/model/listing.ts';
import { assertNoViolation, type Violation } from '../../core/model/verdict.ts';
import { NotRun } from '../../core/run/check.ts';
import { collectionListings, learnCollection, selectionsOf } from '../../core/run/collection-listings.ts';
import { detailsOf, eachCollection, onCollection, titled } from '../../fixtures/collections.ts';
import { test } from '../../fixtures/test.ts';

/** The first envelope violation among the exchanges, naming the request it answered. */
function firstEnvelopeViolation(exchanges: readonly Exchange[], note = ''): Violation | undefined {
  for (const e of exchanges) {
    const v = envelopeViolation(e, 'other');
    const query = e.query.length ? `?${e.query.map(([k, x]) => `${k}=${x}`).join('&')}` : '';
    if (v) return { ...v, expected: `${v.expected} for GET ${e.path}${query}${note}` };
  }
  return undefined;
}

eachCollection('§2 Envelope:', (c) => {
  test(
    titled(
      'ENV-SCHEMA',
      c,
      'first pages match the envelope on every listing: default limit, limit 1, each filter and sort',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const listings = collectionListings(ctx.target, c);
      if (listings.length === 0) throw new NotRun('needs input', `no configured key may list ${c.name}`);
      const exchanges: Exchange[] = [];
      for (const [i, listing] of listings.entries()) {
        exchanges.push(await fetchPage(ctx.api, listing), await fetchPage(ctx.api, listing, { offset: 0, limit: 1 }));
        if (i > 0) continue;
        // The selections need a filter value: the first page of the listing shows some (or the file names them).
        const first = exchanges[0] as Exchange;
        if (firstEnvelopeViolation([first])) break;
        const learned = await learnCollection(ctx, c);
        for (const s of selectionsOf(c, learned.filters(0)).slice(1))
          exchanges.push(await fetchPage(ctx.api, withSelection(listing, s)));
      }
      assertNoViolation(firstEnvelopeViolation(exchanges));
    }),
  );

  test(
    titled(
      'ENV-SCHEMA',
      c,
      'every page of the whole result set, the last page and the pages past the end match the envelope (every listing)',
    ),
    detailsOf(c),
    onCollection(c, async (ctx) => {
      const learned = await learnCollection(ctx, c);
      if (learned.listings.length === 0) throw new NotRun('needs input', `no configured key may list ${c.name}`);
      for (const { listing, set } of learned.listings) {
        assertNoViolation(firstEnvelopeViolation(set.pages.map((p) => p.exchange)));
        const ends: Exchange[] = [];
        for (const offset of new Set([Math.max(0, set.total - 1), set.total, set.total + 7])) {
          ends.push(await fetchPage(ctx.api, listing as Listing, { offset, limit: 10 }));
        }
        assertNoViolation(firstEnvelopeViolation(ends, ` (${describeListing(listing)}, total ${set.total})`));
      }
    }),
  );
});
