/** Probes of the authentication faults (mock/faults/auth.ts). */
import assert from 'node:assert/strict';
import { call, KEYS, list, MERCHANTS, UNKNOWN_MERCHANT } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;
/** The part of a key after its mode prefix. */
const randomPart = (key: string) => key.replace(/^sk_(test|live)_/, '');

export const AUTH_PROBES: Record<string, Probe> = {
  'auth-missing-allowed': async (p) => {
    const { c, f } = await p.both(list(SB), null);
    assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
    assert.equal((await call(p.faulty.url, '/merchant/status', { key: null })).status, 401);
  },
  'status-missing-allowed': async (p) => {
    const { c, f } = await p.both('/merchant/status', null);
    assert.deepEqual([c.status, f.status], [401, 200]);
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401);
  },
  'auth-prefix-only': async (p) => {
    const { c, f } = await p.both(list(SB), 'sk_test_anythingAtAll');
    assert.deepEqual([c.status, f.status], [401, 200]);
    assert.equal((await call(p.faulty.url, list(LIVE), { key: 'sk_live_x' })).body.total, 143);
    const revoked = await call(p.faulty.url, list(SB), { key: KEYS.revoked });
    assert.equal(revoked.status, 401, 'exact keys keep their meaning');
  },
  'auth-truncated-accepted': async (p) => {
    for (const key of [KEYS.test.slice(0, -3), `${KEYS.test}xyz`]) {
      const { c, f } = await p.both(list(SB), key);
      assert.deepEqual([c.status, f.status], [401, 200]);
    }
  },
  'auth-case-insensitive': async (p) => {
    const { c, f } = await p.both(list(SB), KEYS.test.toUpperCase());
    assert.deepEqual([c.status, f.status], [401, 200]);
  },
  'prefix-swap-accepted': async (p) => {
    const swapped = `sk_live_${randomPart(KEYS.test)}`;
    const { c, f } = await p.both(list(SB), swapped);
    assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
    const status = await call<{ mode: string }>(p.faulty.url, '/merchant/status', { key: swapped });
    assert.equal(status.body.mode, 'sandbox', 'taken as the test key');
    assert.equal((await call(p.faulty.url, list(SB), { key: `${KEYS.test}x` })).status, 401, 'other keys: 401');
  },
  'revoked-accepted': async (p) => {
    const { c, f } = await p.both(list(SB), KEYS.revoked);
    assert.deepEqual([c.status, f.status], [401, 200]);
  },
  'revoked-accepted-with-filter': async (p) => {
    const { c, f } = await p.both(list(SB, 'filter[status]=COMPLETED'), KEYS.revoked);
    assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 107]);
    for (const path of [list(SB), list(SB, 'sort=amount'), '/merchant/status']) {
      assert.equal((await call(p.faulty.url, path, { key: KEYS.revoked })).status, 401, path);
    }
  },
  'revoked-accepted-lowercase-scheme': async (p) => {
    for (const scheme of ['bearer', 'BEARER']) {
      const { c, f } = await p.both(list(SB), null, `${scheme} ${KEYS.revoked}`);
      assert.deepEqual([c.status, f.status], [401, 200]);
    }
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.revoked })).status, 401, '"Bearer": 401');
    assert.equal((await call(p.faulty.url, list(SB), { auth: `bearer ${KEYS.test}x` })).status, 401);
  },
  'auth-after-merchant': async (p) => {
    const { c, f } = await p.both(list(UNKNOWN_MERCHANT), null);
    assert.deepEqual([c.status, f.status], [401, 404]);
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401);
  },
  'auth-first-skipped-with-query': async (p) => {
    const { c, f } = await p.both(list(UNKNOWN_MERCHANT, 'limit=5'), 'sk_test_wrong');
    assert.deepEqual([c.status, f.status], [401, 404]);
    assert.equal((await call(p.faulty.url, list(UNKNOWN_MERCHANT), { key: null })).status, 401, 'no query: 401');
    assert.equal((await call(p.faulty.url, list(SB, 'limit=5'), { key: null })).status, 401, 'known merchant');
  },
  'scheme-basic-accepted': async (p) => {
    for (const auth of [`Basic ${KEYS.test}`, KEYS.test]) {
      const { c, f } = await p.both(list(SB), null, auth);
      assert.deepEqual([c.status, f.status], [401, 200]);
    }
  },
};
