/**
 * §7 Errors: odd query input (rule INP-ROBUST). The spec does not show how invalid pagination parameters are
 * answered; the reading allows a 4xx (any status 400-499, any body), or a 200 whose envelope satisfies every
 * invariant for the values it echoes. A 5xx is never legal. Echoing odd values as sent is not required. First the
 * coverage phase (core/generate/coverage.ts): the boundary classes of every parameter, deterministic; then a random
 * sample of odd values in notation, length and character set, alone or next to a filter or sort, on every listing.
 */
import fc from 'fast-check';
import { robustnessViolation } from '../checks/envelope.ts';
import type { ApiClient } from '../core/client/http.ts';
import { ODD_INPUTS, type OddInput, oddValueArb, repeatTo } from '../core/generate/arbitraries.ts';
import { coverageCases, coverageSummary } from '../core/generate/coverage.ts';
import type { Exchange } from '../core/model/exchange.ts';
import {
  describeListing,
  type Listing,
  paymentsPath,
  readableListings,
  requestQuery,
  type Selection,
  SPEC_STATUS,
  withSelection,
} from '../core/model/listing.ts';
import { assertNoViolation, type Violation } from '../core/model/verdict.ts';
import { forAll } from '../core/run/property.ts';
import { settle, test } from '../fixtures/test.ts';

/** The odd values are sent alone, and next to a filter or a sort (a repeated parameter is odd input too). */
const SELECTIONS_NEXT_TO: Selection[] = [{}, { status: SPEC_STATUS }, { sort: '-amount' }];

/** Sends the odd pairs after the listing's own parameters. */
function sendOdd(api: ApiClient, listing: Listing, odd: OddInput): Promise<Exchange> {
  return api.get(paymentsPath(listing.merchant), {
    query: [...requestQuery(listing), ...odd.pairs],
    auth: listing.auth,
  });
}

/** An odd value of `length` characters repeating `unit` on `name`. */
const oddString = (name: string, unit: string, length: number): OddInput => {
  const value = repeatTo(unit, length);
  return {
    label: `${name}=${JSON.stringify(Array.from(value).slice(0, 6).join(''))}… (${length} characters)`,
    pairs: [[name, value]],
  };
};

const labelOf = (listing: Listing, odd: OddInput) => `${odd.label} on ${describeListing(listing)}`;

test.describe('§7 Errors: odd query input', () => {
  // "Behavior for invalid pagination parameters: not shown." Reading: "legal answers are a 4xx, or a 200
  // whose envelope satisfies every invariant for the values it echoes. A 5xx is never legal."
  test(
    'INP-ROBUST coverage phase: every length, character class, number form and structure of every parameter, on every listing next to a filter or sort, gets a 4xx or a valid 200',
    settle(async (ctx) => {
      const { target, api } = ctx;
      const listings = readableListings(target);
      const cases = coverageCases();
      ctx.notes.add(coverageSummary(cases));
      const failed: Array<{ label: string; violation: Violation }> = [];
      for (const [k, c] of cases.entries()) {
        // Spread over the listings, alone or next to a filter or a sort that is not the parameter itself.
        const next = SELECTIONS_NEXT_TO.filter(
          (s) => !(c.parameter === 'filter[status]' && s.status) && !(c.parameter === 'sort' && s.sort),
        );
        const listing = withSelection(listings[k % listings.length] as Listing, next[k % next.length] ?? {});
        const label = labelOf(listing, c);
        const violation = robustnessViolation(await sendOdd(api, listing, c), label);
        if (violation) failed.push({ label, violation });
      }
      // Report the first in full and name the others: one run shows every odd input the target mishandles.
      const first = failed[0]?.violation;
      if (first && failed.length > 1) {
        const others = failed.slice(1).map((f) => f.label);
        first.received += ` (${others.length} more odd inputs fail too: ${others.slice(0, 6).join('; ')}${others.length > 6 ? '; …' : ''})`;
      }
      assertNoViolation(first);
    }),
  );

  test(
    'INP-ROBUST any odd value of any length and character set, alone or next to a filter or sort, on any listing, gets a 4xx or a valid 200',
    settle(async (ctx) => {
      const { target, api } = ctx;
      const listings = readableListings(target);
      const arb = fc.record({
        i: fc.nat({ max: listings.length - 1 }),
        s: fc.nat({ max: SELECTIONS_NEXT_TO.length - 1 }),
        odd: oddValueArb(),
      });
      const pick = (label: string) => ODD_INPUTS.find((o) => o.label.startsWith(label)) as OddInput;
      const examples = [
        { i: 0, s: 1, odd: pick('offset=-1 ') },
        { i: 0, s: 2, odd: pick('limit=abc ') },
        { i: 0, s: 1, odd: pick('limit=1e2 ') },
        { i: 0, s: 2, odd: pick('limit=0 ') },
        // The middle of the length range, and the character sets a parser or a column may choke on.
        { i: 0, s: 0, odd: oddString('filter[status]', 'A', 300) },
        { i: 0, s: 1, odd: oddString('sort', 'é中😀', 40) },
        { i: 0, s: 2, odd: oddString('filter[status]', '\u0001\u001f', 3) },
        ...listings.slice(1).map((_, k) => ({ i: k + 1, s: 0, odd: pick('offset=1.5 ') })),
      ].filter((e) => e.odd !== undefined);
      const listingOf = (c: { i: number; s: number }) =>
        withSelection(listings[c.i] as Listing, SELECTIONS_NEXT_TO[c.s] ?? {});
      await forAll(
        ctx,
        arb,
        async (c) => robustnessViolation(await sendOdd(api, listingOf(c), c.odd), labelOf(listingOf(c), c.odd)),
        { describe: (c) => labelOf(listingOf(c), c.odd), examples, numRuns: examples.length + target.fcNumRuns },
      );
    }),
  );
});
