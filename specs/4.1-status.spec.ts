/**
 * §4.1 Get API status: `GET /merchant/status` "serves as a check that the API key is accepted".
 * Its payload is not shown (reading.md): any 2xx for a valid key. The restricted key is still a valid key, so
 * the status endpoint accepts it too (reading.md "Keys, modes, merchants").
 */

import type { TestInfo } from '@playwright/test';
import { statusAcceptedViolation } from '../checks/auth.ts';
import { STATUS_PATH } from '../fixtures/dataset.ts';
import { asKey, type Exchange } from '../fixtures/http.ts';
import { check, test } from '../fixtures/test.ts';
import { assertNoViolation } from '../fixtures/violation.ts';

/** A note in the report (no verdict): something worth knowing that no rule requires. */
function note(info: TestInfo, text: string): void {
  info.annotations.push({ type: 'note', description: text });
}

test.describe('§4.1 Get API status', () => {
  // §4.1: "The endpoint serves as a check that the API key is accepted." §5.7: the live cutover swaps the test
  // key for the live key; the checklist runs these first.
  check(
    'AUTH-STATUS the test key is accepted by /merchant/status (any 2xx)',
    async ({ api, info }) => {
      assertNoViolation(statusAcceptedViolation(await api.get(STATUS_PATH, { auth: asKey('test') })));
      // RFC 9110 §11.1: the scheme name is case-insensitive, so `bearer <key>` is the same credential. No rule
      // of rules.md covers a target that refuses it: it is only noted.
      const lower: Exchange = await api.get(STATUS_PATH, { auth: asKey('test', { scheme: 'bearer' }) });
      if (lower.status < 200 || lower.status > 299) {
        note(
          info,
          `the lowercase scheme "bearer" was refused (HTTP ${lower.status}); RFC 9110 §11.1 makes it equal to "Bearer"`,
        );
      }
    },
    { tag: '@cutover' },
  );

  check(
    'AUTH-STATUS the live key is accepted by /merchant/status (any 2xx)',
    async ({ api }) => {
      assertNoViolation(statusAcceptedViolation(await api.get(STATUS_PATH, { auth: asKey('live') })));
    },
    { needs: ['live'], tag: '@cutover' },
  );

  // reading.md: "`/merchant/status` accepts it (it only checks that the key is accepted)".
  check(
    'AUTH-STATUS the restricted key is accepted by /merchant/status (any 2xx)',
    async ({ api }) => {
      assertNoViolation(statusAcceptedViolation(await api.get(STATUS_PATH, { auth: asKey('restricted') })));
    },
    { needs: ['restricted'] },
  );
});
