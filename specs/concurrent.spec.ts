/**
 * §1, §2, §4.2, §5, §7 with requests in flight together: each answer is the one its request gets alone — a refused
 * request stays refused, an allowed one is served as its own key, each page is the one its own query asks for
 * (envelope, echo, size, filter, order), and a listing holds only its own merchant's and mode's records —
 * when other keys' requests and other merchants' listings arrive while it is being answered (state a server shares
 * between concurrent requests). One set of bursts per worker, judged by each rule's check (core/run/concurrency.ts).
 * This file sorts after the numbered specs: the checks of every answer judge its answers too.
 */

import { concurrencyCheck } from '../core/run/concurrency.ts';
import { type Need, settle, test } from '../fixtures/test.ts';

/** A check of the rule its title names over the worker's bursts. */
const together = (needs: Need[] = []) => settle(concurrencyCheck, { needs });

test.describe('§1, §2, §4.2, §5, §7 Requests in flight together are each answered as alone', () => {
  // One worker sends the bursts once for every check here (memoised per worker): the checks run in order there.
  test.describe.configure({ mode: 'default' });

  // §5.2 "A request without a valid key is rejected with status 401".
  test('AUTH-MISSING a request without a key stays refused (401) while keyed requests are in flight', together());
  test("AUTH-INVALID a never-issued key stays refused (401) while valid keys' requests are in flight", together());
  test(
    "AUTH-REVOKED the revoked key stays refused (401) while valid keys' requests are in flight",
    together(['revoked']),
  );
  // §7 403 "The key lacks the permissions required".
  test(
    "AUTH-FORBIDDEN the restricted key gets 403 on the payments list while other keys' requests are in flight",
    together(['restricted']),
  );
  // §4.1: any valid key is accepted by /merchant/status.
  test("AUTH-STATUS the test key is accepted by /merchant/status while other keys' requests are in flight", together());
  // §5.5, §5.6: which key lists which merchant.
  test(
    "MODE-TEST-SANDBOX the test key lists the sandbox merchants (200) while other keys' requests are in flight",
    together(),
  );
  test(
    'MODE-LIVE-SANDBOX the live key gets 404 on a sandbox merchant while test-key requests are in flight',
    together(['live']),
  );
  test(
    "MODE-TEST-LIVE the test key lists the live merchant (200) while other keys' requests are in flight",
    together(['liveMerchant']),
  );
  test(
    "MODE-LIVE-LIVE the live key lists the live merchant (200) while other keys' requests are in flight",
    together(['live', 'liveMerchant']),
  );
  // §2, §4.2: each page, as its own request asked for it (a query builder shared between requests mixes them).
  test('ENV-SCHEMA each page in flight together with other requests matches the envelope', together());
  test('PAG-ECHO each page in flight together with other listings echoes its own offset and limit', together());
  test(
    'PAG-SIZE each page in flight together with other listings holds max(0, min(limit, total - offset)) records',
    together(),
  );
  test(
    'FLT-STATUS a filtered page in flight together with other listings holds only records of its status',
    together(['live', 'liveMerchant']),
  );
  test(
    'SRT-AMOUNT a sorted page in flight together with other listings is in its own order',
    together(['otherSandbox']),
  );
  test(
    'SRT-FILTER a filtered and sorted page in flight together with other listings holds only its status, in its order',
    together(),
  );
  // §1 "Objects created in one mode are not accessible from the other"; merchants' data apart (§2).
  test('MER-ISOLATION listings of different merchants in flight together hold no record in common', together());
  test(
    'MODE-ISOLATION the test-key and live-key listings of the live merchant in flight together hold no record in common',
    together(['live', 'liveMerchant']),
  );
});
