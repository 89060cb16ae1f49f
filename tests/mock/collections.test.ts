/**
 * The example collection the mock serves beside payments (mock/collections.ts): refunds of a merchant, authenticated
 * and authorized like payments, filtered by reason, sorted by createdAt (as instants) and customer (by code point),
 * with its own limits; and faults switched on for it alone (`NAME@refunds`), which leave the payments as they are.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FaultError, faultsByCollection, type RunningMock, startMock } from '../../mock/index.ts';
import { call, KEYS, MERCHANTS } from './support.ts';

const refunds = (merchant: string, query = '') =>
  `/payments/n1/merchant/${encodeURIComponent(merchant)}/refunds${query}`;
const payments = (merchant: string, query = '') =>
  `/payments/n1/merchant/${encodeURIComponent(merchant)}/payments${query}`;
const instant = (s: string) => Date.parse(s);
const codepoints = (s: string) => Array.from(s, (c) => c.codePointAt(0) as number);
const byCodePoint = (a: string, b: string) => {
  const [x, y] = [codepoints(a), codepoints(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
};
interface Refund {
  id: string;
  reason: string;
  customer: string;
  createdAt: string;
}

let mock: RunningMock;
before(async () => {
  mock = await startMock();
});
after(() => mock.stop());

describe('the refunds collection', () => {
  test('its own limits: 20 by default, 50 at most; seeded data, the same on every start', async () => {
    const first = await call(mock.url, refunds(MERCHANTS.sandbox));
    assert.equal(first.status, 200);
    assert.equal(first.body.limit, 20);
    assert.equal(first.body.data.length, 20);
    assert.equal(first.body.total, 130);
    const capped = await call(mock.url, refunds(MERCHANTS.sandbox, '?limit=80'));
    assert.deepEqual([capped.body.limit, capped.body.data.length], [50, 50]);
    const again = await startMock();
    try {
      assert.deepEqual((await call(again.url, refunds(MERCHANTS.sandbox))).body.data, first.body.data);
    } finally {
      await again.stop();
    }
  });

  test('authenticated and authorized like payments: 401, 403 for the restricted key, 404 for the live key on a sandbox merchant', async () => {
    assert.equal((await call(mock.url, refunds(MERCHANTS.sandbox), { key: null })).status, 401);
    assert.equal((await call(mock.url, refunds(MERCHANTS.sandbox), { key: KEYS.restricted })).status, 403);
    assert.equal((await call(mock.url, refunds(MERCHANTS.sandbox), { key: KEYS.live })).status, 404);
    const test = await call(mock.url, refunds(MERCHANTS.live, '?limit=50'));
    const live = await call(mock.url, refunds(MERCHANTS.live, '?limit=50'), { key: KEYS.live });
    assert.deepEqual([test.body.total, live.body.total], [25, 45]);
    const ids = new Set(test.body.data.map((r) => r.id));
    assert.ok(
      live.body.data.every((r) => !ids.has(r.id)),
      'the two modes share no refund',
    );
  });

  test('filter[reason] before pagination; an unknown reason matches nothing; filter[status] is no parameter of it', async () => {
    const all = (await call(mock.url, refunds(MERCHANTS.sandbox, '?limit=50'))).body.data as unknown as Refund[];
    const reason = all[0]?.reason as string;
    const filtered = await call(mock.url, refunds(MERCHANTS.sandbox, `?limit=50&filter%5Breason%5D=${reason}`));
    assert.ok((filtered.body.data as unknown as Refund[]).every((r) => r.reason === reason));
    const none = await call(mock.url, refunds(MERCHANTS.sandbox, '?filter%5Breason%5D=NO_SUCH'));
    assert.deepEqual([none.body.total, none.body.data.length], [0, 0]);
    const status = await call(mock.url, refunds(MERCHANTS.sandbox, '?filter%5Bstatus%5D=COMPLETED'));
    assert.equal(status.body.total, 130);
  });

  test('sort=createdAt ascends as instants (written with several UTC offsets); sort=-customer descends by code point', async () => {
    const up = (await call(mock.url, refunds(MERCHANTS.sandbox, '?limit=50&sort=createdAt'))).body
      .data as unknown as Refund[];
    const times = up.map((r) => r.createdAt);
    assert.ok(new Set(times.map((t) => t.slice(19))).size > 1, 'several offsets');
    assert.ok(times.every((t, i) => i === 0 || instant(times[i - 1] as string) <= instant(t)));
    assert.ok(
      times.some((t, i) => i > 0 && (times[i - 1] as string) > t),
      'not in text order',
    );
    const down = (await call(mock.url, refunds(MERCHANTS.sandbox, '?limit=50&sort=-customer'))).body
      .data as unknown as Refund[];
    assert.ok(down.every((r, i) => i === 0 || byCodePoint((down[i - 1] as Refund).customer, r.customer) >= 0));
    assert.equal(
      (await call(mock.url, refunds(MERCHANTS.sandbox, '?sort=amount'))).status,
      400,
      'not a sort of refunds',
    );
  });
});

describe('faults scoped to the collection', () => {
  test('NAME@refunds: the refunds deviate, the payments do not', async () => {
    const faulty = await startMock({ faults: ['page-size-one-short@refunds'] });
    try {
      assert.equal((await call(faulty.url, refunds(MERCHANTS.sandbox, '?limit=10'))).body.data.length, 9);
      assert.equal((await call(faulty.url, payments(MERCHANTS.sandbox, '?limit=10'))).body.data.length, 10);
    } finally {
      await faulty.stop();
    }
    const plain = await startMock({ faults: ['page-size-one-short'] });
    try {
      assert.equal((await call(plain.url, refunds(MERCHANTS.sandbox, '?limit=10'))).body.data.length, 10);
      assert.equal((await call(plain.url, payments(MERCHANTS.sandbox, '?limit=10'))).body.data.length, 9);
    } finally {
      await plain.stop();
    }
  });

  test('a spelling fault on the refunds reads the refunds path: the exact id is answered as the clean mock does', async () => {
    const clean = await startMock({});
    const faulty = await startMock({ faults: ['merchant-id-trim-permission-skip@refunds'] });
    try {
      const exact = refunds(MERCHANTS.sandbox);
      const want = (await call(clean.url, exact, { key: KEYS.restricted })).status;
      assert.equal(want, 403);
      assert.equal((await call(faulty.url, exact, { key: KEYS.restricted })).status, want);
    } finally {
      await Promise.all([clean.stop(), faulty.stop()]);
    }
  });

  test('an unknown collection, an unknown fault, or one that acts on the keys issued, is refused', () => {
    assert.deepEqual(
      [...faultsByCollection(['uncapped', 'uncapped@refunds'])],
      [
        ['', ['uncapped']],
        ['refunds', ['uncapped']],
      ],
    );
    assert.throws(
      () => faultsByCollection(['uncapped@users']),
      (e) => e instanceof FaultError && /unknown collection "users"/.test(e.message),
    );
    assert.throws(() => faultsByCollection(['no-such@refunds']), FaultError);
    assert.throws(() => faultsByCollection(['live-key-format@refunds']), /cannot be scoped/);
  });
});
