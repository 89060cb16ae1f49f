import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { accessViolation, expectedAccess, isCanonical } from '../../checks/access-oracle.ts';
import { CANONICAL, keyModes, SPELLINGS } from '../../core/generate/access-cases.ts';
import { arounds, GLUED, spellingClasses } from '../../core/generate/auth-header.ts';
import { keyMutations } from '../../core/generate/key-mutations.ts';
import type { AccessCase, Credential, MerchantRole } from '../../core/model/access.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import type { KeySlot } from '../../core/model/credentials.ts';
import { ACCESS_RULES } from '../../core/model/rules.ts';
import { paymentsCases } from '../support/access.ts';
import { fakeExchange } from '../support/exchange.ts';
import { everyKeyTarget, testTarget } from '../support/target.ts';

const modes = (slot: KeySlot) => (slot === 'live' ? 'live' : 'test');
const liveRestricted = (slot: KeySlot) => (slot === 'live' || slot === 'restricted' ? 'live' : 'test');
const key = (slot: KeySlot): Credential => ({ kind: 'key', slot });
const on = (credential: Credential, merchant: MerchantRole, extra: Partial<AccessCase> = {}): AccessCase => ({
  collection: PAYMENTS,
  credential,
  spelling: CANONICAL,
  endpoint: 'list',
  merchant,
  query: {},
  ...extra,
});
const verdict = (c: AccessCase, status: number, keyMode = modes) => expectedAccess(c, keyMode).allowed(status);

describe('expectedAccess: the rule and the allowed answers of every request', () => {
  test('no key or an empty header: AUTH-MISSING, 401 only, on any merchant and both endpoints', () => {
    for (const credential of [{ kind: 'none' }, { kind: 'malformed', header: '' }] as Credential[]) {
      for (const m of ['sandbox', 'live', 'unknown'] as MerchantRole[]) {
        assert.equal(expectedAccess(on(credential, m), modes).rule, 'AUTH-MISSING');
        assert.equal(verdict(on(credential, m), 401), true);
        assert.equal(verdict(on(credential, m), 404), false);
      }
      assert.equal(expectedAccess(on(credential, 'sandbox', { endpoint: 'status' }), modes).rule, 'AUTH-MISSING');
    }
  });

  test('malformed headers and tampered keys: AUTH-INVALID, on an unknown merchant AUTH-FIRST; 401 only', () => {
    const [mutation] = keyMutations('sk_test_abcdefghij0123456789');
    const tampered: Credential = { kind: 'key', slot: 'test', mutation };
    for (const credential of [{ kind: 'malformed', header: 'Bearer not-a-key' }, tampered] as Credential[]) {
      assert.equal(expectedAccess(on(credential, 'sandbox'), modes).rule, 'AUTH-INVALID');
      assert.equal(expectedAccess(on(credential, 'sandbox', { endpoint: 'status' }), modes).rule, 'AUTH-INVALID');
      assert.equal(expectedAccess(on(credential, 'unknown'), modes).rule, 'AUTH-FIRST');
      assert.equal(verdict(on(credential, 'unknown'), 404), false);
      assert.equal(verdict(on(credential, 'sandbox'), 200), false);
    }
  });

  test('revoked and rotated-out keys: AUTH-REVOKED in every spelling, AUTH-FIRST on an unknown merchant', () => {
    for (const slot of ['revoked', 'old'] as KeySlot[]) {
      for (const spelling of SPELLINGS) {
        const c = on(key(slot), 'live', { spelling });
        assert.equal(expectedAccess(c, modes).rule, 'AUTH-REVOKED');
        assert.equal(verdict(c, 401), true);
        assert.equal(
          verdict(c, 200),
          false,
          `${spelling.scheme}${spelling.gap}: two spaces do not make a bad key good`,
        );
      }
      assert.equal(expectedAccess(on(key(slot), 'unknown'), modes).rule, 'AUTH-FIRST');
    }
  });

  test('valid keys: the mode table of §5.5/§5.6, and /merchant/status accepts every valid key', () => {
    const table: Array<[KeySlot, MerchantRole, string, number[]]> = [
      ['test', 'sandbox', 'MODE-TEST-SANDBOX', [200]],
      ['test', 'otherSandbox', 'MODE-TEST-SANDBOX', [200]],
      ['test', 'live', 'MODE-TEST-LIVE', [200]],
      ['live', 'sandbox', 'MODE-LIVE-SANDBOX', [404]],
      ['live', 'live', 'MODE-LIVE-LIVE', [200]],
      ['restricted', 'sandbox', 'AUTH-FORBIDDEN', [403]],
      ['restricted', 'live', 'AUTH-FORBIDDEN', [403]],
      ['test', 'unknown', 'ADV-UNKNOWN-MERCHANT', [404, 403]],
      ['live', 'unknown', 'ADV-UNKNOWN-MERCHANT', [404, 403]],
    ];
    for (const [slot, merchant, rule, allowed] of table) {
      const exp = expectedAccess(on(key(slot), merchant), modes);
      assert.equal(exp.rule, rule, `${slot} on ${merchant}`);
      for (const s of [200, 401, 403, 404, 500])
        assert.equal(exp.allowed(s), allowed.includes(s), `${slot} on ${merchant}: ${s}`);
    }
    for (const slot of ['test', 'live', 'restricted'] as KeySlot[]) {
      const exp = expectedAccess(on(key(slot), 'sandbox', { endpoint: 'status' }), modes);
      assert.equal(exp.rule, 'AUTH-STATUS');
      assert.equal(exp.allowed(204), true);
      assert.equal(exp.allowed(403), false);
      assert.equal(exp.allowed(400), false);
      const withQuery = expectedAccess(on(key(slot), 'sandbox', { endpoint: 'status', query: { limit: 5 } }), modes);
      assert.deepEqual([200, 400, 422, 401, 403].map(withQuery.allowed), [true, true, true, false, false]);
    }
  });

  test('a live restricted key on a sandbox merchant may get 403 or 404, never 401 or 200', () => {
    const exp = expectedAccess(on(key('restricted'), 'sandbox'), liveRestricted);
    assert.equal(exp.rule, 'AUTH-FORBIDDEN');
    assert.deepEqual([403, 404, 401, 200].map(exp.allowed), [true, true, false, false]);
  });

  test('only the canonical "Bearer <key>" must be accepted; another spelling may get a 401, never a more open answer', () => {
    const canonical = SPELLINGS.find((s) => s.scheme === 'Bearer' && s.gap === ' ');
    assert.ok(canonical);
    assert.equal(verdict(on(key('test'), 'sandbox', { spelling: canonical }), 401), false);
    for (const spelling of SPELLINGS.filter((s) => s !== canonical)) {
      const how = JSON.stringify(spelling);
      // A valid key: the canonical answer, or a 401.
      assert.equal(verdict(on(key('test'), 'sandbox', { spelling }), 401), true, how);
      assert.equal(verdict(on(key('test'), 'sandbox', { spelling }), 200), true, how);
      assert.equal(verdict(on(key('test'), 'sandbox', { spelling }), 403), false, how);
      // Never more permissive: the live key stays out of the sandbox, the restricted key out of the list.
      assert.equal(verdict(on(key('live'), 'sandbox', { spelling }), 200), false, how);
      assert.equal(verdict(on(key('live'), 'sandbox', { spelling }), 401), true, how);
      assert.equal(verdict(on(key('restricted'), 'sandbox', { spelling }), 200), false, how);
      assert.equal(verdict(on(key('restricted'), 'sandbox', { spelling }), 401), true, how);
      // A bad key stays bad.
      assert.equal(verdict(on(key('revoked'), 'sandbox', { spelling }), 200), false, how);
      assert.equal(verdict(on(key('revoked'), 'sandbox', { spelling }), 403), false, how);
    }
  });
});

describe('expectedAccess over the header grammar (core/generate/auth-header.ts)', () => {
  test('more than the key, or the key glued to its scheme, is another credential: 401 only, by the rule of the key', () => {
    const statuses = [200, 204, 400, 401, 403, 404, 500];
    for (const slot of ['test', 'live', 'restricted', 'revoked'] as KeySlot[]) {
      for (const merchant of ['sandbox', 'live', 'unknown'] as MerchantRole[]) {
        for (const endpoint of ['status', 'list'] as const) {
          for (const spelling of [...spellingClasses(), GLUED]) {
            for (const around of [undefined, ...arounds(slot, 'test')]) {
              const credential: Credential = around ? { kind: 'key', slot, around } : key(slot);
              const c = on(credential, merchant, { spelling, endpoint });
              const exp = expectedAccess(c, modes);
              const how = `${slot} ${around?.name ?? ''} ${JSON.stringify(spelling)} ${endpoint} ${merchant}`;
              if (around || spelling === GLUED || slot === 'revoked') {
                const rule = slot === 'revoked' ? 'AUTH-REVOKED' : 'AUTH-INVALID';
                assert.equal(exp.rule, endpoint === 'list' && merchant === 'unknown' ? 'AUTH-FIRST' : rule, how);
                assert.deepEqual(statuses.filter(exp.allowed), [401], how);
              } else {
                // The key alone in another spelling: the canonical answer or a 401, by the canonical rule.
                const canonical = expectedAccess(on(key(slot), merchant, { endpoint }), modes);
                assert.equal(exp.rule, canonical.rule, how);
                const lenient = !isCanonical(spelling);
                const allowed = statuses.filter((st) => canonical.allowed(st) || (lenient && st === 401));
                assert.deepEqual(statuses.filter(exp.allowed), allowed, how);
              }
            }
          }
        }
      }
    }
  });
});

describe('accessViolation', () => {
  test('names the rule, the required answer, the query and the credential label; nothing when allowed', () => {
    const c = on(key('restricted'), 'sandbox', { query: { sort: 'amount' } });
    const exp = expectedAccess(c, modes);
    assert.equal(accessViolation(exp, fakeExchange({ status: 403 }), c.query), undefined);
    const v = accessViolation(exp, fakeExchange({ status: 200, json: { data: [] } }), c.query);
    assert.equal(v?.rule, 'AUTH-FORBIDDEN');
    assert.match(v?.expected ?? '', /HTTP 403, never 401 or 200 for the restricted key .* with sort=amount/);
    assert.match(v?.received ?? '', /^HTTP 200 .*\(served\)$/);
  });
});

describe('accessCases: every request a rule draws is one its rule fixes', () => {
  const target = everyKeyTarget();
  for (const rule of ACCESS_RULES) {
    test(rule, () => {
      const cases = paymentsCases(target, rule);
      assert.ok(cases, `${rule} has a space`);
      for (const c of [...cases.examples, ...fc.sample(cases.arb, { seed: 7, numRuns: 200 })]) {
        assert.equal(expectedAccess(c, keyModes(target)).rule, rule, JSON.stringify(c));
      }
    });
  }

  test('revoked and restricted keys are tried in every spelling on both endpoints and both merchants', () => {
    const revoked = paymentsCases(target, 'AUTH-REVOKED')?.examples ?? [];
    for (const spelling of SPELLINGS) {
      for (const [endpoint, merchant] of [
        ['status', 'sandbox'],
        ['list', 'sandbox'],
        ['list', 'live'],
      ] as const) {
        assert.ok(
          revoked.some((c) => c.spelling === spelling && c.endpoint === endpoint && c.merchant === merchant),
          `revoked ${spelling.scheme}${spelling.gap}on ${endpoint} ${merchant}`,
        );
      }
    }
    assert.equal(
      revoked.filter((c) => c.credential.kind === 'key' && c.credential.slot === 'old').length,
      0,
      'the old key equals the revoked one here: not sent twice',
    );
    const forbidden = paymentsCases(target, 'AUTH-FORBIDDEN')?.examples ?? [];
    assert.ok(SPELLINGS.every((s) => forbidden.some((c) => c.spelling === s && c.merchant === 'live')));
    assert.ok(forbidden.some((c) => c.query.sort !== undefined && c.query.filter !== undefined));
  });

  test('with the test key alone, too, every request a rule draws is one its rule fixes (the grammar included)', () => {
    const alone = testTarget();
    for (const rule of ACCESS_RULES) {
      const cases = paymentsCases(alone, rule);
      for (const c of [...(cases?.examples ?? []), ...(cases ? fc.sample(cases.arb, { seed: 9, numRuns: 100 }) : [])]) {
        assert.equal(expectedAccess(c, keyModes(alone)).rule, rule, JSON.stringify(c));
      }
    }
    const invalid = paymentsCases(alone, 'AUTH-INVALID')?.examples ?? [];
    assert.ok(invalid.some((c) => c.credential.kind === 'key' && c.credential.around?.name === 'in double quotes'));
  });

  test('a rule without its inputs has no space (the check is skipped)', () => {
    assert.equal(paymentsCases(testTarget(), 'MODE-LIVE-LIVE'), undefined);
    assert.equal(paymentsCases(testTarget(), 'AUTH-REVOKED'), undefined);
  });
});
