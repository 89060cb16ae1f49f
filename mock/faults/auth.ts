/**
 * Faults of authentication (§5.1, §5.2, §7): a missing, invalid or revoked key let in, a merchant revealed
 * before the key is checked, other schemes accepted.
 */
import assert from 'node:assert/strict';
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, fault, queryHas } from './fault.ts';
import { call, KEYS, list, MERCHANTS, UNKNOWN_MERCHANT } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;
const PREFIX = /^sk_(test|live)_/;
/** The part of a key after its mode prefix. */
const randomPart = (key: string) => key.replace(PREFIX, '');

export const AUTH_FAULTS: readonly Fault[] = [
  fault(
    'auth-missing-allowed',
    'AUTH-MISSING',
    'no Authorization header on the payments list passes as the test key',
    { missingKey: (r) => r.kind === 'list' },
    async (p) => {
      const { c, f } = await p.both(list(SB), null);
      assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
      assert.equal((await call(p.faulty.url, '/merchant/status', { key: null })).status, 401);
    },
  ),
  fault(
    'status-missing-allowed',
    'AUTH-MISSING',
    'no Authorization header on /merchant/status answers 200',
    { missingKey: (r) => r.kind === 'status' },
    async (p) => {
      const { c, f } = await p.both('/merchant/status', null);
      assert.deepEqual([c.status, f.status], [401, 200]);
      assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401);
    },
  ),
  fault(
    'auth-prefix-only',
    'AUTH-INVALID',
    "any sk_test_… / sk_live_… string is accepted as that mode's key",
    {
      matchKey: (t, keys) =>
        keys.find(
          (k) => (k.slot === 'test' && t.startsWith('sk_test_')) || (k.slot === 'live' && t.startsWith('sk_live_')),
        ),
    },
    async (p) => {
      const { c, f } = await p.both(list(SB), 'sk_test_anythingAtAll');
      assert.deepEqual([c.status, f.status], [401, 200]);
      assert.equal((await call(p.faulty.url, list(LIVE), { key: 'sk_live_x' })).body.total, 143);
      const revoked = await call(p.faulty.url, list(SB), { key: KEYS.revoked });
      assert.equal(revoked.status, 401, 'exact keys keep their meaning');
    },
  ),
  fault(
    'auth-truncated-accepted',
    'AUTH-INVALID',
    'a key matches when either string is a prefix of the other',
    { matchKey: (t, keys) => keys.find((k) => t !== '' && (k.secret.startsWith(t) || t.startsWith(k.secret))) },
    async (p) => {
      for (const key of [KEYS.test.slice(0, -3), `${KEYS.test}xyz`]) {
        const { c, f } = await p.both(list(SB), key);
        assert.deepEqual([c.status, f.status], [401, 200]);
      }
    },
  ),
  fault(
    'auth-case-insensitive',
    'AUTH-INVALID',
    'keys are compared case-insensitively',
    { matchKey: (t, keys) => keys.find((k) => k.secret.toLowerCase() === t.toLowerCase()) },
    async (p) => {
      const { c, f } = await p.both(list(SB), KEYS.test.toUpperCase());
      assert.deepEqual([c.status, f.status], [401, 200]);
    },
  ),
  fault(
    'prefix-swap-accepted',
    'AUTH-INVALID',
    "keys are looked up by their random part only: sk_live_ + the test key's random part is the test key",
    { matchKey: (t, keys) => (PREFIX.test(t) ? keys.find((k) => randomPart(k.secret) === randomPart(t)) : undefined) },
    async (p) => {
      const swapped = `sk_live_${randomPart(KEYS.test)}`;
      const { c, f } = await p.both(list(SB), swapped);
      assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
      const status = await call<{ mode: string }>(p.faulty.url, '/merchant/status', { key: swapped });
      assert.equal(status.body.mode, 'sandbox', 'taken as the test key');
      assert.equal((await call(p.faulty.url, list(SB), { key: `${KEYS.test}x` })).status, 401, 'other keys: 401');
    },
  ),
  fault(
    'revoked-accepted',
    'AUTH-REVOKED',
    'the revoked key is accepted like the test key',
    {
      keys: (keys) => {
        for (const k of keys) if (k.slot === 'revoked') k.revoked = false;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB), KEYS.revoked);
      assert.deepEqual([c.status, f.status], [401, 200]);
    },
  ),
  fault(
    'revoked-accepted-with-filter',
    'AUTH-REVOKED',
    'the revoked key is accepted when the query has filter[status] (the filtered path skips the revocation check)',
    {
      auth: (c, r) => {
        if (c.key?.revoked && queryHas(r.search, 'filter[status]')) c.failure = undefined;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'filter[status]=COMPLETED'), KEYS.revoked);
      assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 107]);
      for (const path of [list(SB), list(SB, 'sort=amount'), '/merchant/status']) {
        assert.equal((await call(p.faulty.url, path, { key: KEYS.revoked })).status, 401, path);
      }
    },
  ),
  fault(
    'revoked-accepted-lowercase-scheme',
    'AUTH-REVOKED',
    'the revocation check lives in the "Bearer" branch only: "bearer <revoked key>" (any other case) is accepted',
    {
      auth: (c) => {
        if (c.key?.revoked && c.credentials.scheme !== 'Bearer') c.failure = undefined;
      },
    },
    async (p) => {
      for (const scheme of ['bearer', 'BEARER']) {
        const { c, f } = await p.both(list(SB), null, `${scheme} ${KEYS.revoked}`);
        assert.deepEqual([c.status, f.status], [401, 200]);
      }
      assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.revoked })).status, 401, '"Bearer": 401');
      assert.equal((await call(p.faulty.url, list(SB), { auth: `bearer ${KEYS.test}x` })).status, 401);
    },
  ),
  fault(
    'auth-after-merchant',
    'AUTH-FIRST',
    'an unknown merchant is answered 404 before the key is checked',
    {
      beforeAuth: (r, store) =>
        r.kind === 'list' && !store.merchant(r.merchantId) ? reject(404, MESSAGES.merchantNotFound) : undefined,
    },
    async (p) => {
      const { c, f } = await p.both(list(UNKNOWN_MERCHANT), null);
      assert.deepEqual([c.status, f.status], [401, 404]);
      assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401);
    },
  ),
  fault(
    'auth-first-skipped-with-query',
    'AUTH-FIRST',
    'with a query string, an unknown merchant is answered 404 before the key is checked (without one: 401)',
    {
      beforeAuth: (route, store, r) =>
        route.kind === 'list' && r.search !== '' && !store.merchant(route.merchantId)
          ? reject(404, MESSAGES.merchantNotFound)
          : undefined,
    },
    async (p) => {
      const { c, f } = await p.both(list(UNKNOWN_MERCHANT, 'limit=5'), 'sk_test_wrong');
      assert.deepEqual([c.status, f.status], [401, 404]);
      assert.equal((await call(p.faulty.url, list(UNKNOWN_MERCHANT), { key: null })).status, 401, 'no query: 401');
      assert.equal((await call(p.faulty.url, list(SB, 'limit=5'), { key: null })).status, 401, 'known merchant');
    },
  ),
  fault(
    'scheme-basic-accepted',
    'ADV-SCHEME',
    'accepts "Basic <key>" and a bare key without scheme',
    { credentials: (c) => (c.scheme === '' || c.scheme.toLowerCase() === 'basic' ? c.token : undefined) },
    async (p) => {
      for (const auth of [`Basic ${KEYS.test}`, KEYS.test]) {
        const { c, f } = await p.both(list(SB), null, auth);
        assert.deepEqual([c.status, f.status], [401, 200]);
      }
    },
  ),
];
