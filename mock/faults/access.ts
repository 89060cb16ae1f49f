/**
 * Faults of access after authentication (§1, §4.1, §5.5, §5.6, §7): permissions, modes and merchants.
 */
import assert from 'node:assert/strict';
import { MERCHANTS as ALL_MERCHANTS, listingKey } from '../data.ts';
import { MESSAGES, reject } from '../errors.ts';
import { type Fault, fault, queryHas } from './fault.ts';
import { call, KEYS, list, MERCHANTS, page, UNKNOWN_MERCHANT } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;
const otherSandboxes = (id: string) => ALL_MERCHANTS.filter((m) => m.kind === 'sandbox' && m.id !== id);

export const ACCESS_FAULTS: readonly Fault[] = [
  // Permissions (§7, §4.1)
  fault(
    'restricted-401',
    'AUTH-FORBIDDEN',
    'the restricted key gets 401 on the payments list',
    {
      permission: (c) => {
        if (c.route === 'list' && c.failure?.status === 403) c.failure = reject(401, MESSAGES.invalidKey);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB), KEYS.restricted);
      assert.deepEqual([c.status, f.status], [403, 401]);
    },
  ),
  fault(
    'restricted-200',
    'AUTH-FORBIDDEN',
    'the restricted key lists payments (200)',
    {
      permission: (c) => {
        if (c.route === 'list') c.failure = undefined;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB), KEYS.restricted);
      assert.deepEqual([c.status, f.status], [403, 200]);
    },
  ),
  fault(
    'forbidden-skipped-with-sort',
    'AUTH-FORBIDDEN',
    'the permission check is skipped when the query has sort: the restricted key lists payments with sort=amount',
    {
      permission: (c, r) => {
        if (c.route === 'list' && queryHas(r.search, 'sort')) c.failure = undefined;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'sort=amount'), KEYS.restricted);
      assert.deepEqual([c.status, f.status, f.body.total], [403, 200, 237]);
      assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.restricted })).status, 403, 'without sort: 403');
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
    async (p) => {
      const { c, f } = await p.both(list(LIVE, 'limit=100'), KEYS.restricted);
      assert.deepEqual([c.status, f.status, f.body.total], [403, 200, 61]);
      assert.ok(f.body.data.every((r) => r.id.startsWith('pay_test_')));
      assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.restricted })).status, 403, 'sandbox: 403');
    },
  ),
  fault(
    'status-rejects-restricted',
    'AUTH-STATUS',
    '/merchant/status answers 403 to the restricted key',
    {
      permission: (c) => {
        if (c.route === 'status' && !c.key.permissions.includes('payments:read'))
          c.failure = reject(403, MESSAGES.forbidden);
      },
    },
    async (p) => {
      const { c, f } = await p.both('/merchant/status', KEYS.restricted);
      assert.deepEqual([c.status, f.status], [200, 403]);
      assert.equal((await call(p.faulty.url, '/merchant/status')).status, 200);
    },
  ),
  // Modes and merchants (§1, §5.5, §5.6)
  fault(
    'test-on-sandbox-403',
    'MODE-TEST-SANDBOX',
    'the test key on a sandbox merchant gets 403',
    {
      access: (a) => {
        if (a.merchant?.kind === 'sandbox' && a.mode === 'test') a.failure = reject(403, MESSAGES.modeForbidden);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB));
      assert.deepEqual([c.status, f.status], [200, 403]);
    },
  ),
  fault(
    'live-on-sandbox-200',
    'MODE-LIVE-SANDBOX',
    "the live key lists the sandbox merchant's test payments",
    {
      access: (a) => {
        if (a.merchant?.kind === 'sandbox' && a.mode === 'live')
          Object.assign(a, { failure: undefined, listing: [listingKey(a.merchant.id, 'test')] });
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB), KEYS.live);
      assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
    },
  ),
  fault(
    'live-on-sandbox-403',
    'MODE-LIVE-SANDBOX',
    'the live key on a sandbox merchant gets 403 instead of 404',
    {
      access: (a) => {
        if (a.merchant?.kind === 'sandbox' && a.mode === 'live') a.failure = reject(403, MESSAGES.modeForbidden);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB), KEYS.live);
      assert.deepEqual([c.status, f.status], [404, 403]);
    },
  ),
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
    async (p) => {
      const { c, f } = await p.both(list(SB, 'sort=amount'), KEYS.live);
      assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
      assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.live })).status, 404, 'without sort: 404');
    },
  ),
  fault(
    'live-on-live-404',
    'MODE-LIVE-LIVE',
    'the live key on the live merchant gets 404',
    {
      access: (a) => {
        if (a.merchant?.kind === 'live' && a.mode === 'live') a.failure = reject(404, MESSAGES.otherMode);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(LIVE), KEYS.live);
      assert.deepEqual([c.status, f.status], [200, 404]);
      assert.equal((await call(p.faulty.url, list(LIVE))).status, 200, 'the test key still lists it');
    },
  ),
  fault(
    'test-on-live-404',
    'MODE-TEST-LIVE',
    'the test key on the live merchant gets 404',
    {
      access: (a) => {
        if (a.merchant?.kind === 'live' && a.mode === 'test') a.failure = reject(404, MESSAGES.otherMode);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(LIVE));
      assert.deepEqual([c.status, f.status], [200, 404]);
    },
  ),
  fault(
    'mode-leak-live-into-test',
    'MODE-ISOLATION',
    'the test key on the live merchant also lists its live payments',
    {
      access: (a) => {
        if (a.merchant?.kind === 'live' && a.mode === 'test') a.listing.push(listingKey(a.merchant.id, 'live'));
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(LIVE, 'limit=100'));
      assert.deepEqual([c.body.total, f.body.total], [61, 204]);
      assert.ok(f.body.data.some((r) => r.id.startsWith('pay_live_')));
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
    async (p) => {
      const { c, f } = await p.both(list(LIVE, 'limit=100'), KEYS.live);
      assert.deepEqual([c.body.total, f.body.total], [143, 204]);
      assert.ok(f.body.data.some((r) => r.id.startsWith('pay_test_')));
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
    async (p) => {
      const { c, f } = await p.both(list(LIVE, 'sort=amount&limit=100'));
      assert.deepEqual([c.body.total, f.body.total], [61, 204]);
      assert.ok(f.body.data.some((r) => r.id.startsWith('pay_live_')));
      assert.equal((await page(p.faulty.url, LIVE)).total, 61, 'unsorted: the test payments only');
      assert.equal((await page(p.faulty.url, LIVE, 'sort=amount', KEYS.live)).total, 143, 'the live key: its own');
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
    async (p) => {
      const { c, f } = await p.both(list(SB, 'limit=100&offset=200'));
      assert.deepEqual([c.body.total, f.body.total], [237, 277]);
      assert.ok(f.body.data.some((r) => r.merchantId === MERCHANTS.otherSandbox));
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
    async (p) => {
      const { c, f } = await p.both(list(UNKNOWN_MERCHANT));
      assert.deepEqual([c.status, f.status, f.body.total, f.body.data], [404, 200, 0, []]);
    },
  ),
];
