/**
 * One HTTP probe per fault: the same request to the clean and the faulty mock, asserting that the faulty
 * answer deviates exactly as the fault's description says (and the clean one does not).
 */
import assert from 'node:assert/strict';
import type { MockEnv, RunningMock } from '../../mock/index.ts';
import { TARGET } from '../../mock/target.ts';
import { call, type EnvelopeJson, ids, KEYS, list, MERCHANTS, page, type Res } from './support.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;
const UNKNOWN = 'msb_doesNotExist';

const statuses = (r: Res) => new Set(r.body.data.map((p) => p.status));
const amounts = (env: EnvelopeJson) => env.data.map((p) => Number(p.amount));
const isSorted = (xs: readonly (number | string)[], dir: 1 | -1 = 1) =>
  xs.every((x, i) => i === 0 || dir * (x > (xs[i - 1] as typeof x) ? 1 : x < (xs[i - 1] as typeof x) ? -1 : 0) >= 0);

export type Probe = (faulty: string, env: MockEnv) => Promise<void>;

/** Probes against a running clean mock, keyed by fault name. */
export function faultProbes(clean: RunningMock): Record<string, Probe> {
  /** The same request to the clean and the faulty mock. */
  async function both(faulty: string, path: string, key: string | null = KEYS.test, auth?: string) {
    const [c, f] = await Promise.all([call(clean.url, path, { key, auth }), call(faulty, path, { key, auth })]);
    return { c, f };
  }

  return {
    'envelope-success-string': async (u) => {
      const { c, f } = await both(u, list(SB));
      assert.deepEqual([c.body.success, f.body.success], [true, 'true']);
    },
    'envelope-missing-message': async (u) => {
      const { c, f } = await both(u, list(SB));
      assert.deepEqual(['message' in c.body, 'message' in f.body], [true, false]);
    },
    'envelope-total-string': async (u) => {
      const { c, f } = await both(u, list(SB));
      assert.deepEqual([c.body.total, f.body.total], [237, '237']);
    },
    'echo-offset-zero': async (u) => {
      const { c, f } = await both(u, list(SB, 'offset=20&limit=5'));
      assert.deepEqual([c.body.offset, f.body.offset], [20, 0]);
      assert.deepEqual(ids(f.body.data), ids(c.body.data));
    },
    'echo-limit-omitted-zero': async (u) => {
      const { c, f } = await both(u, list(SB));
      assert.deepEqual([c.body.limit, f.body.limit, f.body.data.length], [10, 0, 10]);
      assert.equal((await page(u, SB, 'limit=5')).limit, 5);
    },
    'echo-offset-clamped': async (u) => {
      const { c, f } = await both(u, list(SB, 'offset=500'));
      assert.deepEqual([c.body.offset, f.body.offset], [500, 237]);
    },
    'default-limit-25': async (u, env) => {
      const { c, f } = await both(u, list(SB));
      assert.deepEqual([c.body.data.length, f.body.data.length, f.body.limit], [10, 25, 25]);
      assert.equal(env.API_DEFAULT_LIMIT, String(TARGET.defaultLimit), 'the announced default stays');
    },
    'page-size-one-short': async (u) => {
      const { c, f } = await both(u, list(SB, 'limit=10'));
      assert.deepEqual([c.body.data.length, f.body.data.length, f.body.limit], [10, 9, 10]);
      assert.equal((await page(u, SB, 'offset=230&limit=10')).data.length, 7, 'a partial last page is unchanged');
    },
    'total-is-page-size': async (u) => {
      const { c, f } = await both(u, list(SB, 'limit=10'));
      assert.deepEqual([c.body.total, f.body.total], [237, 10]);
    },
    'total-after-offset': async (u) => {
      const { c, f } = await both(u, list(SB, 'offset=100'));
      assert.deepEqual([c.body.total, f.body.total], [237, 137]);
    },
    'offset-off-by-one-low': async (u) => {
      const { f } = await both(u, list(SB, 'offset=10&limit=10'));
      assert.deepEqual(ids(f.body.data), ids((await page(clean.url, SB, 'offset=9&limit=10')).data));
      assert.equal(f.body.offset, 10);
    },
    'offset-off-by-one-high': async (u) => {
      const { f } = await both(u, list(SB, 'offset=10&limit=10'));
      assert.deepEqual(ids(f.body.data), ids((await page(clean.url, SB, 'offset=11&limit=10')).data));
    },
    'past-end-nonempty': async (u) => {
      const { c, f } = await both(u, list(SB, 'offset=237&limit=10'));
      assert.deepEqual(c.body.data, []);
      assert.deepEqual(ids(f.body.data), ids((await page(clean.url, SB, 'offset=227&limit=10')).data));
    },
    'past-end-total-zero': async (u) => {
      const { c, f } = await both(u, list(SB, 'offset=300'));
      assert.deepEqual([c.body.total, f.body.total, f.body.data.length], [237, 0, 0]);
    },
    uncapped: async (u) => {
      const { c, f } = await both(u, list(SB, 'limit=150'));
      assert.deepEqual([c.body.data.length, c.body.limit], [100, 100]);
      assert.deepEqual([f.body.data.length, f.body.limit], [150, 150]);
    },
    'cap-off-by-one': async (u) => {
      const { f } = await both(u, list(SB, 'limit=150'));
      assert.deepEqual([f.body.data.length, f.body.limit], [101, 101]);
    },
    'cap-echo-requested': async (u) => {
      const { f } = await both(u, list(SB, 'limit=150'));
      assert.deepEqual([f.body.data.length, f.body.limit], [100, 150]);
    },
    'filter-ignored': async (u) => {
      const { c, f } = await both(u, list(SB, 'filter[status]=COMPLETED&limit=100'));
      assert.deepEqual([c.body.total, f.body.total], [107, 237]);
      assert.deepEqual([statuses(c).size, statuses(f).size > 1], [1, true]);
    },
    'filter-case-insensitive': async (u) => {
      const { c, f } = await both(u, list(SB, 'filter[status]=completed'));
      assert.deepEqual([c.body.total, f.body.total], [0, 107]);
    },
    'filter-total-unfiltered': async (u) => {
      const { c, f } = await both(u, list(SB, 'filter[status]=COMPLETED'));
      assert.deepEqual([c.body.total, f.body.total], [107, 237]);
      assert.deepEqual(ids(f.body.data), ids(c.body.data));
    },
    'filter-after-pagination': async (u) => {
      const { c, f } = await both(u, list(SB, 'filter[status]=COMPLETED&limit=10'));
      const unfiltered = (await page(clean.url, SB, 'limit=10')).data.filter((p) => p.status === 'COMPLETED');
      assert.equal(c.body.data.length, 10);
      assert.ok(f.body.data.length < 10);
      assert.deepEqual(ids(f.body.data), ids(unfiltered));
    },
    'sort-direction-inverted': async (u) => {
      const { f } = await both(u, list(SB, 'sort=-amount&limit=100'));
      assert.deepEqual(ids(f.body.data), ids((await page(clean.url, SB, 'sort=amount&limit=100')).data));
    },
    'sort-per-page': async (u) => {
      const { c, f } = await both(u, list(SB, 'sort=amount&offset=10&limit=10'));
      const window = (await page(clean.url, SB, 'offset=10&limit=10')).data;
      assert.deepEqual(ids(f.body.data).sort(), ids(window).sort());
      assert.ok(isSorted(amounts(f.body)));
      assert.notDeepEqual(ids(f.body.data), ids(c.body.data));
    },
    'sort-as-strings': async (u) => {
      const { c, f } = await both(u, list(SB, 'sort=amount&limit=100'));
      assert.ok(isSorted(amounts(c.body)) && !isSorted(amounts(f.body)));
      assert.ok(isSorted(amounts(f.body).map(String)));
    },
    'sort-unstable-ties': async (u) => {
      const first = await page(u, SB, 'sort=amount&limit=100');
      const second = await page(u, SB, 'sort=amount&limit=100');
      assert.deepEqual(amounts(first), amounts(second));
      assert.notDeepEqual(ids(first.data), ids(second.data));
    },
    'sort-ignored-with-filter': async (u) => {
      const { c, f } = await both(u, list(SB, 'filter[status]=COMPLETED&sort=amount&limit=50'));
      assert.ok(isSorted(amounts(c.body)) && !isSorted(amounts(f.body)));
      assert.deepEqual(ids(f.body.data), ids((await page(clean.url, SB, 'filter[status]=COMPLETED&limit=50')).data));
      assert.ok(isSorted(amounts(await page(u, SB, 'sort=amount&limit=50'))), 'sort alone still works');
    },
    'auth-missing-allowed': async (u) => {
      const { c, f } = await both(u, list(SB), null);
      assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
      assert.equal((await call(u, '/merchant/status', { key: null })).status, 401);
    },
    'status-missing-allowed': async (u) => {
      const { c, f } = await both(u, '/merchant/status', null);
      assert.deepEqual([c.status, f.status], [401, 200]);
      assert.equal((await call(u, list(SB), { key: null })).status, 401);
    },
    'auth-prefix-only': async (u) => {
      const { c, f } = await both(u, list(SB), 'sk_test_anythingAtAll');
      assert.deepEqual([c.status, f.status], [401, 200]);
      assert.equal((await call(u, list(LIVE), { key: 'sk_live_x' })).body.total, 143);
      assert.equal((await call(u, list(SB), { key: KEYS.revoked })).status, 401, 'exact keys keep their meaning');
    },
    'auth-truncated-accepted': async (u) => {
      for (const key of [KEYS.test.slice(0, -3), `${KEYS.test}xyz`]) {
        const { c, f } = await both(u, list(SB), key);
        assert.deepEqual([c.status, f.status], [401, 200]);
      }
    },
    'auth-case-insensitive': async (u) => {
      const { c, f } = await both(u, list(SB), KEYS.test.toUpperCase());
      assert.deepEqual([c.status, f.status], [401, 200]);
    },
    'revoked-accepted': async (u) => {
      const { c, f } = await both(u, list(SB), KEYS.revoked);
      assert.deepEqual([c.status, f.status], [401, 200]);
    },
    'auth-after-merchant': async (u) => {
      const { c, f } = await both(u, list(UNKNOWN), null);
      assert.deepEqual([c.status, f.status], [401, 404]);
      assert.equal((await call(u, list(SB), { key: null })).status, 401);
    },
    'restricted-401': async (u) => {
      const { c, f } = await both(u, list(SB), KEYS.restricted);
      assert.deepEqual([c.status, f.status], [403, 401]);
    },
    'restricted-200': async (u) => {
      const { c, f } = await both(u, list(SB), KEYS.restricted);
      assert.deepEqual([c.status, f.status], [403, 200]);
    },
    'status-rejects-restricted': async (u) => {
      const { c, f } = await both(u, '/merchant/status', KEYS.restricted);
      assert.deepEqual([c.status, f.status], [200, 403]);
      assert.equal((await call(u, '/merchant/status')).status, 200);
    },
    'test-on-sandbox-403': async (u) => {
      const { c, f } = await both(u, list(SB));
      assert.deepEqual([c.status, f.status], [200, 403]);
    },
    'live-on-sandbox-200': async (u) => {
      const { c, f } = await both(u, list(SB), KEYS.live);
      assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
    },
    'live-on-sandbox-403': async (u) => {
      const { c, f } = await both(u, list(SB), KEYS.live);
      assert.deepEqual([c.status, f.status], [404, 403]);
    },
    'live-on-live-404': async (u) => {
      const { c, f } = await both(u, list(LIVE), KEYS.live);
      assert.deepEqual([c.status, f.status], [200, 404]);
      assert.equal((await call(u, list(LIVE))).status, 200, 'the test key still lists it');
    },
    'test-on-live-404': async (u) => {
      const { c, f } = await both(u, list(LIVE));
      assert.deepEqual([c.status, f.status], [200, 404]);
    },
    'mode-leak-live-into-test': async (u) => {
      const { c, f } = await both(u, list(LIVE, 'limit=100'));
      assert.deepEqual([c.body.total, f.body.total], [61, 204]);
      assert.ok(f.body.data.some((p) => p.id.startsWith('pay_live_')));
    },
    'mode-leak-test-into-live': async (u) => {
      const { c, f } = await both(u, list(LIVE, 'limit=100'), KEYS.live);
      assert.deepEqual([c.body.total, f.body.total], [143, 204]);
      assert.ok(f.body.data.some((p) => p.id.startsWith('pay_test_')));
    },
    'merchant-leak': async (u) => {
      const { c, f } = await both(u, list(SB, 'limit=100&offset=200'));
      assert.deepEqual([c.body.total, f.body.total], [237, 277]);
      assert.ok(f.body.data.some((p) => p.merchantId === MERCHANTS.otherSandbox));
    },
    'unknown-merchant-200': async (u) => {
      const { c, f } = await both(u, list(UNKNOWN));
      assert.deepEqual([c.status, f.status, f.body.total, f.body.data], [404, 200, 0, []]);
    },
    'key-echo-body': async (u) => {
      const wrong = `${KEYS.test}x`;
      const { c, f } = await both(u, list(SB), wrong);
      assert.ok(!c.text.includes(wrong) && f.text.includes(wrong));
      const ok = await call(u, list(SB));
      assert.equal(ok.body.requestedBy, KEYS.test);
    },
    'key-echo-header': async (u) => {
      const { c, f } = await both(u, list(SB));
      assert.deepEqual([c.headers.get('x-api-key'), f.headers.get('x-api-key')], [null, KEYS.test]);
    },
    'odd-input-500': async (u) => {
      for (const value of ['abc', '1e3', '1.5']) {
        const { c, f } = await both(u, list(SB, `limit=${value}`));
        assert.deepEqual([c.status, f.status], [400, 500]);
        assert.match(f.text, /^RangeError: .*\n\s+at /);
      }
      assert.equal((await call(u, list(SB, 'limit=-1'))).status, 400, 'numeric odd values stay 400');
      assert.equal((await call(u, list(SB))).status, 200, 'the server survives');
    },
    'odd-input-negative-echo': async (u) => {
      const { c, f } = await both(u, list(SB, 'offset=-5'));
      assert.deepEqual([c.status, f.status, f.body.offset], [400, 200, -5]);
      assert.deepEqual(ids(f.body.data), ids((await page(clean.url, SB, 'offset=232&limit=5')).data));
    },
    'live-key-format': async (u, env) => {
      assert.match(env.API_LIVE_KEY, /^sk_prod_/);
      assert.equal((await call(u, list(LIVE), { key: env.API_LIVE_KEY })).status, 200);
      assert.equal((await call(u, list(LIVE), { key: KEYS.live })).status, 401);
      assert.equal(clean.env.API_LIVE_KEY, KEYS.live);
    },
    'unknown-path-403': async (u) => {
      const { c, f } = await both(u, '/merchant/statuses', null);
      assert.deepEqual([c.status, f.status], [401, 403]);
      assert.equal((await call(u, list(UNKNOWN), { key: null })).status, 401, 'the spec endpoints keep 401');
    },
    'scheme-basic-accepted': async (u) => {
      for (const auth of [`Basic ${KEYS.test}`, KEYS.test]) {
        const { c, f } = await both(u, list(SB), null, auth);
        assert.deepEqual([c.status, f.status], [401, 200]);
      }
    },
  };
}
