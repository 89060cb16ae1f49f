/**
 * §7 Errors: odd query input (rule INP-ROBUST). The spec does not show how invalid pagination parameters are
 * answered; the reading allows a 4xx (any status 400-499, any body), or a 200 whose envelope satisfies every
 * invariant for the values it echoes. A 5xx is never legal. Echoing odd values as sent is not required.
 */
import fc from 'fast-check';
import { robustnessViolation } from '../checks/envelope.ts';
import { ODD_INPUTS, type OddInput, oddValueArb, SPEC_STATUS } from '../fixtures/arbitraries.ts';
import type { Target } from '../fixtures/config.ts';
import { listingQuery, paymentsPath, type Query, sandboxListing } from '../fixtures/dataset.ts';
import type { ApiClient, Exchange } from '../fixtures/http.ts';
import { forAll } from '../fixtures/property.ts';
import { check, test } from '../fixtures/test.ts';
import { assertNoViolation, type Violation } from '../fixtures/violation.ts';

/** The odd values are sent alone, and next to a filter or a sort (a repeated parameter is odd input too). */
const QUERIES: Query[] = [{}, { status: SPEC_STATUS }, { sort: '-amount' }];

/** Sends the odd pairs after the query's own parameters. */
function sendOdd(api: ApiClient, target: Target, query: Query, odd: OddInput): Promise<Exchange> {
  const listing = sandboxListing(target, query);
  return api.get(paymentsPath(listing.merchant), {
    query: [...listingQuery(listing), ...odd.pairs],
    auth: listing.auth,
  });
}

function labelOf(query: Query, odd: OddInput): string {
  const base = [query.status && `filter[status]=${query.status}`, query.sort && `sort=${query.sort}`].filter(Boolean);
  return base.length > 0 ? `${odd.label} with ${base.join(' ')}` : odd.label;
}

test.describe('§7 Errors: odd query input', () => {
  // "Behavior for invalid pagination parameters: not shown." Reading: "legal answers are a 4xx, or a 200
  // whose envelope satisfies every invariant for the values it echoes. A 5xx is never legal."
  check(
    'INP-ROBUST every catalogued odd offset, limit, filter or sort value gets a 4xx or a valid 200',
    async ({ target, api }) => {
      const failed: Array<{ label: string; violation: Violation }> = [];
      for (const odd of ODD_INPUTS) {
        const violation = robustnessViolation(await sendOdd(api, target, {}, odd), odd.label);
        if (violation) failed.push({ label: odd.label, violation });
      }
      // Report the first in full and name the others: one run shows every odd input the target mishandles.
      const first = failed[0]?.violation;
      if (first && failed.length > 1) {
        const others = failed.slice(1).map((f) => f.label);
        first.received += ` (${others.length} more odd inputs fail too: ${others.slice(0, 6).join('; ')}${others.length > 6 ? '; …' : ''})`;
      }
      assertNoViolation(first);
    },
  );

  check(
    'INP-ROBUST any odd value, alone or next to a filter or sort, gets a 4xx or a valid 200',
    async ({ target, api }) => {
      const arb = fc.record({ i: fc.integer({ min: 0, max: QUERIES.length - 1 }), odd: oddValueArb() });
      const pick = (label: string) => ODD_INPUTS.find((o) => o.label.startsWith(label)) as OddInput;
      const examples = [
        { i: 1, odd: pick('offset=-1 ') },
        { i: 2, odd: pick('limit=abc ') },
        { i: 1, odd: pick('limit=1e2 ') },
        { i: 2, odd: pick('limit=0 ') },
      ].filter((e) => e.odd !== undefined);
      const describe = ({ i, odd }: { i: number; odd: OddInput }) => labelOf(QUERIES[i] ?? {}, odd);
      await forAll(
        target,
        arb,
        async ({ i, odd }) =>
          robustnessViolation(await sendOdd(api, target, QUERIES[i] ?? {}, odd), labelOf(QUERIES[i] ?? {}, odd)),
        { describe, examples },
      );
    },
  );
});
