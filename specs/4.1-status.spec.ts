/**
 * §4.1 Get API status: `GET /merchant/status` "serves as a check that the API key is accepted".
 * Its payload is not shown (reading.md): any 2xx for a valid key. The restricted key is still a valid key, so
 * the status endpoint accepts it too, and the scheme's case changes nothing (RFC 9110 §11.1): the access matrix asks it
 * with every valid key, spelling and query (AUTH-STATUS's cells, specs/5-access.spec.ts).
 */
import { statusAcceptedViolation } from '../checks/auth.ts';
import { asKey } from '../core/model/credentials.ts';
import { STATUS_PATH } from '../core/model/listing.ts';
import { assertNoViolation } from '../core/model/verdict.ts';
import { settle, test } from '../fixtures/test.ts';

test.describe('§4.1 Get API status', () => {
  // §4.1: "The endpoint serves as a check that the API key is accepted." §5.7: the live cutover swaps the test
  // key for the live key; the checklist runs these first.
  test(
    'AUTH-STATUS the test key is accepted by /merchant/status (any 2xx)',
    { tag: '@cutover' },
    settle(async ({ api }) => {
      assertNoViolation(statusAcceptedViolation(await api.get(STATUS_PATH, { auth: asKey('test') })));
    }),
  );

  test(
    'AUTH-STATUS the live key is accepted by /merchant/status (any 2xx)',
    { tag: '@cutover' },
    settle(
      async ({ api }) => {
        assertNoViolation(statusAcceptedViolation(await api.get(STATUS_PATH, { auth: asKey('live') })));
      },
      { needs: ['live'] },
    ),
  );
});
