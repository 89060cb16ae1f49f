/**
 * §5, §7, §8 and reading "Inputs the spec does not document": the requests the suite already sends — each credential on
 * /merchant/status and on the listings, refused and allowed — with inputs the spec does not document added (doors):
 * query parameters, headers and cookies from what the target showed, the collections file and the vocabularies, sent
 * in batches and split where an answer differs; the credential and the merchant id changed by operators; the
 * documented Content-Type left out. A refused request stays refused and carries nothing of what it refuses; an
 * allowed one shows no record its key and merchant may not see and never more than 100 records; no answer gives a key
 * back (core/run/doors.ts, judged by checks/doors.ts and the watcher's provenance). Each title names the boundary.
 */

import { doorCheck } from '../core/run/door-check.ts';
import { type Need, settle, test, waitForTheOthers } from '../fixtures/test.ts';

/** A door check of the rule its title names. */
const doors = (needs: Need[] = []) => settle(doorCheck, { needs });

test.describe('§5, §7, §8 No input the spec does not document widens what an answer shows', () => {
  // One worker explores each request once for every check here (memoised per worker): the checks run in order there.
  test.describe.configure({ mode: 'default' });
  // They run after every other check but those of every answer (this file sorts after the numbered specs; with two
  // workers they wait for the others' end): their candidates come from every answer of the run (core/run/doors.ts).
  test.beforeAll(() => waitForTheOthers('beforeDoorsEnded'));

  // §5.2 "A request without a valid key is rejected with status 401"; reading: only Authorization is a credential.
  test(
    'AUTH-MISSING no undocumented input (query, header, cookie, a spelled merchant id, Content-Type left out) opens a request without a key or puts a record in its refusal',
    doors(),
  );
  test(
    'AUTH-INVALID no undocumented input opens a request with a never-issued key, nor does the key changed by an operator (inserted, replaced, repeated as a list, encoded)',
    doors(),
  );
  test('AUTH-REVOKED no undocumented input opens a request with the revoked key', doors(['revoked']));
  test('AUTH-FIRST no undocumented input opens a request with a bad key on an unknown merchant', doors());
  // §7 403 "The key lacks the permissions required".
  test(
    'AUTH-FORBIDDEN no undocumented input lists payments to the restricted key or puts a record in its refusal',
    doors(['restricted']),
  );
  // §5.6 "Only test keys can be used with sandbox merchants", in every shape of the query.
  test(
    "MODE-LIVE-SANDBOX no undocumented input lists a sandbox merchant's payments to the live key, in any query shape",
    doors(['live']),
  );
  // §1 "Objects created in one mode are not accessible from the other".
  test('MODE-ISOLATION no undocumented input shows an allowed request a record of the other mode', doors());
  test("MER-ISOLATION no undocumented input shows an allowed request another merchant's record", doors());
  // §8 "Maximum limit: 100".
  test('LIM-CAP no undocumented input shows an allowed request more than 100 records', doors());
  // §5.9: no key in any answer, whatever the request carried (a key sent in another header included).
  test('KEY-SECRET no answer to a request with undocumented inputs gives a key back', doors());
});
