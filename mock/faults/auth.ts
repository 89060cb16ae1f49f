/**
 * Faults of authentication (§5.1, §5.2, §7): a missing, invalid or revoked key let in, a merchant revealed
 * before the key is checked, other schemes accepted.
 */
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, fault, queryHas } from './fault.ts';

const PREFIX = /^sk_(test|live)_/;
/** The part of a key after its mode prefix. */
const randomPart = (key: string) => key.replace(PREFIX, '');

export const AUTH_FAULTS: readonly Fault[] = [
  fault('auth-missing-allowed', 'AUTH-MISSING', 'no Authorization header on the payments list passes as the test key', {
    missingKey: (r) => r.kind === 'list',
  }),
  fault('status-missing-allowed', 'AUTH-MISSING', 'no Authorization header on /merchant/status answers 200', {
    missingKey: (r) => r.kind === 'status',
  }),
  fault('auth-prefix-only', 'AUTH-INVALID', "any sk_test_… / sk_live_… string is accepted as that mode's key", {
    matchKey: (t, keys) =>
      keys.find(
        (k) => (k.slot === 'test' && t.startsWith('sk_test_')) || (k.slot === 'live' && t.startsWith('sk_live_')),
      ),
  }),
  fault('auth-truncated-accepted', 'AUTH-INVALID', 'a key matches when either string is a prefix of the other', {
    matchKey: (t, keys) => keys.find((k) => t !== '' && (k.secret.startsWith(t) || t.startsWith(k.secret))),
  }),
  fault('auth-case-insensitive', 'AUTH-INVALID', 'keys are compared case-insensitively', {
    matchKey: (t, keys) => keys.find((k) => k.secret.toLowerCase() === t.toLowerCase()),
  }),
  fault(
    'prefix-swap-accepted',
    'AUTH-INVALID',
    "keys are looked up by their random part only: sk_live_ + the test key's random part is the test key",
    { matchKey: (t, keys) => (PREFIX.test(t) ? keys.find((k) => randomPart(k.secret) === randomPart(t)) : undefined) },
  ),
  fault('revoked-accepted', 'AUTH-REVOKED', 'the revoked key is accepted like the test key', {
    keys: (keys) => {
      for (const k of keys) if (k.slot === 'revoked') k.revoked = false;
    },
  }),
  fault(
    'revoked-accepted-with-filter',
    'AUTH-REVOKED',
    'the revoked key is accepted when the query has filter[status] (the filtered path skips the revocation check)',
    {
      auth: (c, r) => {
        if (c.key?.revoked && queryHas(r.search, 'filter[status]')) c.failure = undefined;
      },
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
  ),
  fault('auth-after-merchant', 'AUTH-FIRST', 'an unknown merchant is answered 404 before the key is checked', {
    beforeAuth: (r, store) =>
      r.kind === 'list' && !store.merchant(r.merchantId) ? reject(404, MESSAGES.merchantNotFound) : undefined,
  }),
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
  ),
  fault('scheme-basic-accepted', 'ADV-SCHEME', 'accepts "Basic <key>" and a bare key without scheme', {
    credentials: (c) => (c.scheme === '' || c.scheme.toLowerCase() === 'basic' ? c.token : undefined),
  }),
];
