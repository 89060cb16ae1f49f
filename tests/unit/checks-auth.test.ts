import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  allowedViolation,
  firstViolation,
  keyLeakViolation,
  otherModeViolation,
  spelledPathViolation,
  spellingRefusedViolation,
  statusAcceptedViolation,
  unauthorizedViolation,
  unknownPathViolation,
} from '../../checks/auth.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

const refused = (status: number) => fakeExchange({ status, json: { success: false, message: 'no' } });
const listing = () => fakeExchange({ status: 200, json: envelope({ n: 2 }) });

describe('unauthorizedViolation (AUTH-MISSING, AUTH-INVALID, AUTH-REVOKED, AUTH-FIRST, ADV-SCHEME)', () => {
  test('401 passes', () => {
    for (const rule of ['AUTH-MISSING', 'AUTH-INVALID', 'AUTH-REVOKED', 'AUTH-FIRST', 'ADV-SCHEME'] as const) {
      assert.equal(unauthorizedViolation(rule, refused(401)), undefined);
    }
  });

  test('a served request, 403, 404 or 400 is a violation of the given rule', () => {
    for (const status of [200, 204, 400, 403, 404, 500]) {
      const v = unauthorizedViolation('AUTH-INVALID', status === 200 ? listing() : refused(status), 'a tampered key');
      assert.equal(v?.rule, 'AUTH-INVALID', `HTTP ${status}`);
      assert.match(v?.expected ?? '', /^HTTP 401 for a tampered key: Authorization: Bearer \$API_TEST_KEY on GET \//);
      assert.match(v?.received ?? '', new RegExp(`^HTTP ${status}`));
    }
    assert.equal(unauthorizedViolation('AUTH-FIRST', refused(404))?.rule, 'AUTH-FIRST');
    assert.match(unauthorizedViolation('AUTH-FIRST', refused(404))?.received ?? '', /key check must come first/);
  });
});

describe('statusAcceptedViolation (AUTH-STATUS)', () => {
  test('any 2xx passes', () => {
    for (const status of [200, 202, 204])
      assert.equal(statusAcceptedViolation(fakeExchange({ status, path: '/merchant/status' })), undefined);
  });

  test('401 or 403 is a violation', () => {
    assert.equal(statusAcceptedViolation(refused(401))?.rule, 'AUTH-STATUS');
    assert.match(statusAcceptedViolation(refused(403))?.received ?? '', /needs no permission/);
  });
});

describe('allowedViolation (MODE-TEST-SANDBOX, MODE-TEST-LIVE)', () => {
  test('200 passes', () =>
    assert.equal(allowedViolation('MODE-TEST-LIVE', listing(), 'the test key on the live merchant'), undefined));

  test('404 and 403 are violations of the given rule', () => {
    assert.equal(
      allowedViolation('MODE-TEST-LIVE', refused(404), 'the test key on the live merchant')?.rule,
      'MODE-TEST-LIVE',
    );
    assert.equal(
      allowedViolation('MODE-TEST-SANDBOX', refused(403), 'the test key on the sandbox merchant')?.rule,
      'MODE-TEST-SANDBOX',
    );
  });
});

describe('otherModeViolation (MODE-LIVE-SANDBOX)', () => {
  test('404 passes', () => assert.equal(otherModeViolation(refused(404)), undefined));

  test('200 and 403 are violations', () => {
    assert.match(otherModeViolation(listing())?.received ?? '', /must not reach sandbox data/);
    assert.match(otherModeViolation(refused(403))?.received ?? '', /not 403/);
  });
});

describe('keyLeakViolation (KEY-SECRET)', () => {
  test('no leak passes, whatever the status', () => {
    assert.equal(keyLeakViolation(listing()), undefined);
    assert.equal(keyLeakViolation(refused(401)), undefined);
  });

  test('a leak in the body or a header is a violation naming where, never the key', () => {
    const body = keyLeakViolation(fakeExchange({ status: 401, json: { message: 'x' }, keyLeak: 'body' }));
    assert.equal(body?.rule, 'KEY-SECRET');
    assert.match(body?.received ?? '', /HTTP 401 whose body contains the presented key/);
    const header = keyLeakViolation(fakeExchange({ status: 200, json: envelope(), keyLeak: 'header x-api-key' }));
    assert.match(header?.received ?? '', /header x-api-key/);
  });
});

describe('spellingRefusedViolation (ADV-SCHEME: a valid key in another spelling)', () => {
  test("a 401 is the finding; any other answer is the access matrix's to judge", () => {
    const v = spellingRefusedViolation(refused(401));
    assert.equal(v?.rule, 'ADV-SCHEME');
    assert.match(v?.received ?? '', /a valid key refused for the way the header is written/);
    for (const status of [200, 403, 404, 500]) assert.equal(spellingRefusedViolation(refused(status)), undefined);
    assert.equal(spellingRefusedViolation(listing()), undefined);
  });
});

describe('firstViolation', () => {
  test('none → undefined; one → itself', () => {
    assert.equal(firstViolation([undefined, undefined]), undefined);
    const v = otherModeViolation(refused(401));
    assert.equal(firstViolation([undefined, v]), v);
  });

  test('several → the first, counting the others and attaching their exchanges', () => {
    const a = unauthorizedViolation('AUTH-MISSING', listing());
    const b = unauthorizedViolation('AUTH-MISSING', refused(404));
    const merged = firstViolation([a, undefined, b]);
    assert.equal(merged?.rule, 'AUTH-MISSING');
    assert.equal(merged?.exchange, a?.exchange);
    assert.match(merged?.received ?? '', /and 1 more: HTTP 404/);
    assert.deepEqual(merged?.related, [b?.exchange]);
  });
});

describe('spelledPathViolation (a spelling of a spec path)', () => {
  const spelling = (served: boolean) => ({ name: 'a trailing slash', served, whenServed: [401], why: 'no key' });
  test('served spellings must answer like the spec path; unserved ones anything but a 2xx', () => {
    assert.equal(spelledPathViolation('AUTH-MISSING', refused(401), spelling(true)), undefined);
    assert.equal(spelledPathViolation('AUTH-MISSING', refused(404), spelling(false)), undefined);
    assert.equal(spelledPathViolation('AUTH-MISSING', refused(400), spelling(false)), undefined);
    const v = spelledPathViolation('AUTH-MISSING', refused(404), spelling(true));
    assert.equal(v?.rule, 'AUTH-MISSING');
    assert.match(v?.expected ?? '', /HTTP 401, as on the spec's spelling .* a spelling with a trailing slash/);
  });
  test('data without the right credential fails, served or not, under the given rule', () => {
    for (const served of [true, false]) {
      const v = spelledPathViolation('MODE-LIVE-SANDBOX', listing(), { ...spelling(served), whenServed: [404] });
      assert.equal(v?.rule, 'MODE-LIVE-SANDBOX');
      assert.match(v?.received ?? '', /served by a route that skipped this check/);
    }
  });
});

describe('unknownPathViolation (ADV-UNKNOWN-PATH)', () => {
  test('401 passes; 404 is reported as a target that routes first; anything else is reported too', () => {
    assert.equal(unknownPathViolation(refused(401)), undefined);
    assert.match(
      unknownPathViolation(refused(404))?.received ?? '',
      /accepted: the target routes before it authenticates/,
    );
    assert.equal(unknownPathViolation(refused(403))?.rule, 'ADV-UNKNOWN-PATH');
    assert.match(unknownPathViolation(listing())?.received ?? '', /served without a valid key/);
  });
});
