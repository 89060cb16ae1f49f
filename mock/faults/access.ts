/**
 * Faults of access: authentication, permissions, modes, merchants, key secrecy, key format and the
 * advisory points (§1, §2, §4.1, §5, §7).
 */
import { listingKey, MERCHANTS } from '../data.ts';
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, fault } from './fault.ts';

const otherSandboxes = (id: string) => MERCHANTS.filter((m) => m.kind === 'sandbox' && m.id !== id);

export const ACCESS_FAULTS: readonly Fault[] = [
  // Authentication (§5, §7)
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
  fault('revoked-accepted', 'AUTH-REVOKED', 'the revoked key is accepted like the test key', {
    keys: (keys) => {
      for (const k of keys) if (k.slot === 'revoked') k.revoked = false;
    },
  }),
  fault('auth-after-merchant', 'AUTH-FIRST', 'an unknown merchant is answered 404 before the key is checked', {
    beforeAuth: (r, store) =>
      r.kind === 'list' && !store.merchant(r.merchantId) ? reject(404, MESSAGES.merchantNotFound) : undefined,
  }),
  // Permissions (§7, §4.1)
  fault('restricted-401', 'AUTH-FORBIDDEN', 'the restricted key gets 401 on the payments list', {
    permission: (c) => {
      if (c.route === 'list' && c.failure?.status === 403) c.failure = reject(401, MESSAGES.invalidKey);
    },
  }),
  fault('restricted-200', 'AUTH-FORBIDDEN', 'the restricted key lists payments (200)', {
    permission: (c) => {
      if (c.route === 'list') c.failure = undefined;
    },
  }),
  fault('status-rejects-restricted', 'AUTH-STATUS', '/merchant/status answers 403 to the restricted key', {
    permission: (c) => {
      if (c.route === 'status' && !c.key.permissions.includes('payments:read'))
        c.failure = reject(403, MESSAGES.forbidden);
    },
  }),
  // Modes and merchants (§1, §5.5, §5.6)
  fault('test-on-sandbox-403', 'MODE-TEST-SANDBOX', 'the test key on a sandbox merchant gets 403', {
    access: (a) => {
      if (a.merchant?.kind === 'sandbox' && a.mode === 'test') a.failure = reject(403, MESSAGES.modeForbidden);
    },
  }),
  fault('live-on-sandbox-200', 'MODE-LIVE-SANDBOX', "the live key lists the sandbox merchant's test payments", {
    access: (a) => {
      if (a.merchant?.kind === 'sandbox' && a.mode === 'live')
        Object.assign(a, { failure: undefined, listing: [listingKey(a.merchant.id, 'test')] });
    },
  }),
  fault('live-on-sandbox-403', 'MODE-LIVE-SANDBOX', 'the live key on a sandbox merchant gets 403 instead of 404', {
    access: (a) => {
      if (a.merchant?.kind === 'sandbox' && a.mode === 'live') a.failure = reject(403, MESSAGES.modeForbidden);
    },
  }),
  fault('live-on-live-404', 'MODE-LIVE-LIVE', 'the live key on the live merchant gets 404', {
    access: (a) => {
      if (a.merchant?.kind === 'live' && a.mode === 'live') a.failure = reject(404, MESSAGES.otherMode);
    },
  }),
  fault('test-on-live-404', 'MODE-TEST-LIVE', 'the test key on the live merchant gets 404', {
    access: (a) => {
      if (a.merchant?.kind === 'live' && a.mode === 'test') a.failure = reject(404, MESSAGES.otherMode);
    },
  }),
  fault(
    'mode-leak-live-into-test',
    'MODE-ISOLATION',
    'the test key on the live merchant also lists its live payments',
    {
      access: (a) => {
        if (a.merchant?.kind === 'live' && a.mode === 'test') a.listing.push(listingKey(a.merchant.id, 'live'));
      },
    },
  ),
  fault(
    'mode-leak-test-into-live',
    'MODE-ISOLATION',
    'the live key on the live merchant also lists its test payments',
    {
      access: (a) => {
        if (a.merchant?.kind === 'live' && a.mode === 'live') a.listing.push(listingKey(a.merchant.id, 'test'));
      },
    },
  ),
  fault(
    'merchant-leak',
    'MER-ISOLATION',
    "a sandbox merchant's listing also holds the other sandbox merchant's payments",
    {
      access: (a) => {
        if (a.merchant?.kind === 'sandbox' && a.failure === undefined)
          a.listing.push(...otherSandboxes(a.merchant.id).map((m) => listingKey(m.id, 'test')));
      },
    },
  ),
  fault(
    'unknown-merchant-200',
    'ADV-UNKNOWN-MERCHANT',
    'a valid key on an unknown merchant gets 200 with an empty list',
    {
      access: (a) => {
        if (a.merchant === undefined) Object.assign(a, { failure: undefined, listing: [] });
      },
    },
  ),
  // Key secrecy (§5.9)
  fault('key-echo-body', 'KEY-SECRET', '401 bodies say "invalid API key <key>"; 200 bodies carry requestedBy: <key>', {
    error: (e, f) => {
      if (e.status === 401 && f.presented !== undefined) e.message = `invalid API key ${f.presented}`;
    },
    body: (b, f) => {
      if (f.presented !== undefined) b.requestedBy = f.presented;
    },
  }),
  fault('key-echo-header', 'KEY-SECRET', 'every response carries X-Api-Key with the presented key', {
    headers: (h, f) => {
      // Only header-safe characters: an unsendable value would make the response itself fail.
      if (f.presented !== undefined && /^[\x21-\x7e]+$/.test(f.presented)) h['X-Api-Key'] = f.presented;
    },
  }),
  // Configuration and advisories (§2, §5.1, §7)
  fault('live-key-format', 'CFG-KEYS', 'the issued (and announced) live key is sk_prod_… instead of sk_live_…', {
    keys: (keys) => {
      for (const k of keys) if (k.slot === 'live') k.secret = k.secret.replace(/^sk_live_/, 'sk_prod_');
    },
  }),
  fault(
    'unknown-path-403',
    'ADV-UNKNOWN-PATH',
    'a path no endpoint serves gets 403 without a key (a gateway that says "missing authentication token")',
    { beforeAuth: (r) => (r.kind === 'unknown' ? reject(403, MESSAGES.missingToken) : undefined) },
  ),
  fault('scheme-basic-accepted', 'ADV-SCHEME', 'accepts "Basic <key>" and a bare key without scheme', {
    credentials: (c) => (c.scheme === '' || c.scheme.toLowerCase() === 'basic' ? c.token : undefined),
  }),
];
