/** Probes of the authorization faults (mock/faults/authorize.ts): permissions, modes, merchants. */
import assert from 'node:assert/strict';
import { call, KEYS, list, MERCHANTS, page, UNKNOWN_MERCHANT } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;

export const AUTHORIZE_PROBES: Record<string, Probe> = {
  'restricted-401': async (p) => {
    const { c, f } = await p.both(list(SB), KEYS.restricted);
    assert.deepEqual([c.status, f.status], [403, 401]);
  },
  'restricted-200': async (p) => {
    const { c, f } = await p.both(list(SB), KEYS.restricted);
    assert.deepEqual([c.status, f.status], [403, 200]);
  },
  'forbidden-skipped-with-sort': async (p) => {
    const { c, f } = await p.both(list(SB, 'sort=amount'), KEYS.restricted);
    assert.deepEqual([c.status, f.status, f.body.total], [403, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.restricted })).status, 403, 'without sort: 403');
  },
  'restricted-allowed-on-live-merchant': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'limit=100'), KEYS.restricted);
    assert.deepEqual([c.status, f.status, f.body.total], [403, 200, 61]);
    assert.ok(f.body.data.every((r) => r.id.startsWith('pay_test_')));
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.restricted })).status, 403, 'sandbox: 403');
  },
  'status-rejects-restricted': async (p) => {
    const { c, f } = await p.both('/merchant/status', KEYS.restricted);
    assert.deepEqual([c.status, f.status], [200, 403]);
    assert.equal((await call(p.faulty.url, '/merchant/status')).status, 200);
  },
  'test-on-sandbox-403': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.deepEqual([c.status, f.status], [200, 403]);
  },
  'live-on-sandbox-200': async (p) => {
    const { c, f } = await p.both(list(SB), KEYS.live);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
  },
  'live-on-sandbox-403': async (p) => {
    const { c, f } = await p.both(list(SB), KEYS.live);
    assert.deepEqual([c.status, f.status], [404, 403]);
  },
  'mode-check-skipped-with-sort': async (p) => {
    const { c, f } = await p.both(list(SB, 'sort=amount'), KEYS.live);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.live })).status, 404, 'without sort: 404');
  },
  'live-on-live-404': async (p) => {
    const { c, f } = await p.both(list(LIVE), KEYS.live);
    assert.deepEqual([c.status, f.status], [200, 404]);
    assert.equal((await call(p.faulty.url, list(LIVE))).status, 200, 'the test key still lists it');
  },
  'test-on-live-404': async (p) => {
    const { c, f } = await p.both(list(LIVE));
    assert.deepEqual([c.status, f.status], [200, 404]);
  },
  'mode-leak-live-into-test': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'limit=100'));
    assert.deepEqual([c.body.total, f.body.total], [61, 204]);
    assert.ok(f.body.data.some((r) => r.id.startsWith('pay_live_')));
  },
  'mode-leak-test-into-live': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'limit=100'), KEYS.live);
    assert.deepEqual([c.body.total, f.body.total], [143, 204]);
    assert.ok(f.body.data.some((r) => r.id.startsWith('pay_test_')));
  },
  'live-mode-lost-when-sorted': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'sort=amount&limit=100'));
    assert.deepEqual([c.body.total, f.body.total], [61, 204]);
    assert.ok(f.body.data.some((r) => r.id.startsWith('pay_live_')));
    assert.equal((await page(p.faulty.url, LIVE)).total, 61, 'unsorted: the test payments only');
    assert.equal((await page(p.faulty.url, LIVE, 'sort=amount', KEYS.live)).total, 143, 'the live key: its own');
  },
  'merchant-leak': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=100&offset=200'));
    assert.deepEqual([c.body.total, f.body.total], [237, 277]);
    assert.ok(f.body.data.some((r) => r.merchantId === MERCHANTS.otherSandbox));
  },
  'unknown-merchant-200': async (p) => {
    const { c, f } = await p.both(list(UNKNOWN_MERCHANT));
    assert.deepEqual([c.status, f.status, f.body.total, f.body.data], [404, 200, 0, []]);
  },
};
