/**
 * Faults of authorization, after authentication (§1, §4.1, §5.5, §5.6, §7): permissions, modes and merchants.
 */
import { listingKey, MERCHANTS } from '../data.ts';
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, fault, queryHas } from './fault.ts';

const otherSandboxes = (id: string) => MERCHANTS.filter((m) => m.kind === 'sandbox' && m.id !== id);

export const AUTHORIZE_FAULTS: readonly Fault[] = [
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
  fault(
    'forbidden-skipped-with-sort',
    'AUTH-FORBIDDEN',
    'the permission check is skipped when the query has sort: the restricted key lists payments with sort=amount',
    {
      permission: (c, r) => {
        if (c.route === 'list' && queryHas(r.search, 'sort')) c.failure = undefined;
      },
    },
  ),
  fault(
    'restricted-allowed-on-live-merchant',
    'AUTH-FORBIDDEN',
    "the permission check runs for sandbox merchants only: the restricted key lists the live merchant's test payments",
    {
      permission: (c) => {
        if (c.route === 'list' && c.merchant?.kind === 'live') c.failure = undefined;
      },
    },
  ),
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
  fault(
    'mode-check-skipped-with-sort',
    'MODE-LIVE-SANDBOX',
    'the mode check is skipped when the query has sort: the live key lists the sandbox payments with sort=amount',
    {
      access: (a, r) => {
        if (a.merchant?.kind === 'sandbox' && a.mode === 'live' && queryHas(r.search, 'sort'))
          Object.assign(a, { failure: undefined, listing: [listingKey(a.merchant.id, 'test')] });
      },
    },
  ),
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
    'live-mode-lost-when-sorted',
    'MODE-ISOLATION',
    'the sorted query path loses the mode filter: the test key on the live merchant with sort also lists live payments',
    {
      access: (a, r) => {
        if (a.merchant?.kind === 'live' && a.mode === 'test' && queryHas(r.search, 'sort'))
          a.listing.push(listingKey(a.merchant.id, 'live'));
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
];
