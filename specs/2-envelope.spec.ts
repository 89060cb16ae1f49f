/**
 * §2 Resources: the paginated collection envelope (rule ENV-SCHEMA), on the pages a client meets, on every listing
 * the configuration can read: first pages of every selection, every page of whole result sets, the last page and
 * the pages past the end.
 */
import { envelopeViolation } from '../checks/envelope.ts';
import { fetchPage } from '../core/client/http.ts';
import type { Exchange } from '../core/model/exchange.ts';
import {
  describeListing,
  liveListing,
  readableListings,
  readEnvelope,
  SELECTIONS,
  sandboxListing,
  withSelection,
} from '../core/model/listing.ts';
import { assertNoViolation, type Violation } from '../core/model/verdict.ts';
import { enumerateEach } from '../core/run/learn.ts';
import { settle, test } from '../fixtures/test.ts';

/** The first envelope violation among the exchanges, naming the request it answered. */
function firstEnvelopeViolation(exchanges: readonly Exchange[], note = ''): Violation | undefined {
  for (const e of exchanges) {
    const v = envelopeViolation(e);
    if (v) return { ...v, expected: `${v.expected} for GET ${e.path}${queryText(e)}${note}` };
  }
  return undefined;
}

function queryText(e: Exchange): string {
  return e.query.length === 0 ? '' : `?${e.query.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

test.describe('§2 Paginated collection envelope', () => {
  // "Collection endpoints return an object with these fields: success (boolean), message (string), data
  // (array), offset (integer), limit (integer), total (integer)." Read: success true, integers >= 0.
  test(
    'ENV-SCHEMA first pages match the envelope on every listing: default limit, limit 1, filtered, sorted',
    settle(async ({ target, api }) => {
      const exchanges: Exchange[] = [];
      for (const listing of readableListings(target)) {
        for (const s of SELECTIONS) exchanges.push(await fetchPage(api, withSelection(listing, s)));
        exchanges.push(await fetchPage(api, listing, { offset: 0, limit: 1 }));
      }
      assertNoViolation(firstEnvelopeViolation(exchanges));
    }),
  );

  test(
    'ENV-SCHEMA every page of the whole result set at limit 100 matches the envelope (every listing)',
    settle(async (ctx) => {
      for (const set of (await enumerateEach(ctx, SELECTIONS.slice(0, 2))).sets) {
        assertNoViolation(firstEnvelopeViolation(set.pages.map((p) => p.exchange)));
      }
    }),
  );

  test(
    'ENV-SCHEMA the last page, the pages past the end and an empty result match the envelope (every listing)',
    settle(async ({ target, api }) => {
      for (const [i, base] of readableListings(target).entries()) {
        // Unfiltered on every listing; filtered too on the sandbox listing.
        for (const s of SELECTIONS.slice(0, i === 0 ? 2 : 1)) {
          const listing = withSelection(base, s);
          const first = await fetchPage(api, listing, { offset: 0, limit: 1 });
          assertNoViolation(firstEnvelopeViolation([first]));
          const total = readEnvelope(first)?.total ?? 0;
          const exchanges: Exchange[] = [];
          for (const offset of new Set([Math.max(0, total - 1), total, total + 7])) {
            exchanges.push(await fetchPage(api, listing, { offset, limit: 10 }));
          }
          assertNoViolation(firstEnvelopeViolation(exchanges, ` (${describeListing(listing)}, total ${total})`));
        }
      }
      // A status that matches nothing may be refused (reading); answered with 200, it is an empty envelope.
      const none = await fetchPage(api, sandboxListing(target, { status: 'NO_SUCH_STATUS' }));
      if (none.status === 200) assertNoViolation(firstEnvelopeViolation([none]));
    }),
  );
});

test.describe('§2 The live listing (cutover checklist)', () => {
  // Before the go-live cutover: the live key's own listing has the same envelope (one request).
  test(
    "ENV-SCHEMA the live key's listing of the live merchant matches the envelope",
    { tag: '@cutover' },
    settle(
      async ({ target, api }) => {
        const e = await fetchPage(api, liveListing(target), { offset: 0, limit: 5 });
        assertNoViolation(envelopeViolation(e));
      },
      { needs: ['live', 'liveMerchant'] },
    ),
  );
});
