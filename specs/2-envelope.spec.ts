/**
 * §2 Resources: the paginated collection envelope (rule ENV-SCHEMA), on the pages a client meets: first
 * pages of every kind of query, every page of a whole result set, the last page and the pages past the end.
 */
import { envelopeViolation } from '../checks/envelope.ts';
import {
  enumerate,
  fetchPage,
  LISTING_QUERIES,
  liveListing,
  readEnvelope,
  sandboxListing,
} from '../fixtures/dataset.ts';
import type { Exchange } from '../fixtures/http.ts';
import { check, test } from '../fixtures/test.ts';
import { assertNoViolation, type Violation } from '../fixtures/violation.ts';

/** The first envelope violation among the exchanges, naming the request it answered. */
function firstViolation(exchanges: readonly Exchange[], note = ''): Violation | undefined {
  for (const e of exchanges) {
    const v = envelopeViolation(e);
    if (v) return { ...v, expected: `${v.expected} for GET ${e.path}${queryText(e)}${note}` };
  }
  return undefined;
}

test.describe('§2 Paginated collection envelope', () => {
  // "Collection endpoints return an object with these fields: success (boolean), message (string), data
  // (array), offset (integer), limit (integer), total (integer)." Read: success true, integers >= 0.

  check(
    'ENV-SCHEMA first pages match the envelope: default limit, limit 1, filtered, sorted',
    async ({ target, api }) => {
      const exchanges: Exchange[] = [];
      for (const query of LISTING_QUERIES) exchanges.push(await fetchPage(api, sandboxListing(target, query)));
      exchanges.push(await fetchPage(api, sandboxListing(target), { offset: 0, limit: 1 }));
      assertNoViolation(firstViolation(exchanges));
    },
  );

  check('ENV-SCHEMA every page of the whole result set at limit 100 matches the envelope', async ({ target, api }) => {
    for (const query of LISTING_QUERIES.slice(0, 2)) {
      const listing = sandboxListing(target, query);
      const set = await enumerate(api, target, listing, 'ENV-SCHEMA');
      assertNoViolation(firstViolation(set.pages));
    }
  });

  check(
    'ENV-SCHEMA the last page, the pages past the end and an empty result match the envelope',
    async ({ target, api }) => {
      for (const query of LISTING_QUERIES.slice(0, 2)) {
        const listing = sandboxListing(target, query);
        const first = await fetchPage(api, listing, { offset: 0, limit: 1 });
        assertNoViolation(firstViolation([first]));
        const total = readEnvelope(first)?.total ?? 0;
        const edges = [...new Set([Math.max(0, total - 1), total, total + 7])];
        const exchanges: Exchange[] = [];
        for (const offset of edges) exchanges.push(await fetchPage(api, listing, { offset, limit: 10 }));
        assertNoViolation(firstViolation(exchanges, ` (total ${total})`));
      }
      // A status that matches nothing may be refused (reading.md); answered with 200, it is an empty envelope.
      const none = await fetchPage(api, sandboxListing(target, { status: 'NO_SUCH_STATUS' }));
      if (none.status === 200) assertNoViolation(firstViolation([none]));
    },
  );
});

function queryText(e: Exchange): string {
  return e.query.length === 0 ? '' : `?${e.query.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

test.describe('§2 The live listing (cutover checklist)', () => {
  // Before the go-live cutover: the live key's own listing has the same envelope (one request).
  check(
    "ENV-SCHEMA the live key's listing of the live merchant matches the envelope",
    async ({ target, api }) => {
      assertNoViolation(envelopeViolation(await fetchPage(api, liveListing(target), { offset: 0, limit: 5 })));
    },
    { needs: ['live', 'liveMerchant'], tag: '@cutover' },
  );
});
