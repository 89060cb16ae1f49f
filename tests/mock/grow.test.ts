/**
 * The growing data set (MockOptions.grow, `--grow N`): after every N-th request, one new payment in every listing
 * (each merchant, each mode), so every listing's total moves under a client; each list stays a correct listing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateDataset, listingKey, STATUSES } from '../../mock/data.ts';
import { IDENTITY, type RunningMock, resolveVariants, startMock, type VariantInput } from '../../mock/index.ts';
import { buildStore, FILTERS, type Row } from '../../mock/store.ts';
import { call, ids, isSorted, KEYS, MERCHANTS, page, walk } from './support.ts';

/** The listings a client reads, with the key that reads each. */
const LISTINGS = [
  [MERCHANTS.sandbox, KEYS.test],
  [MERCHANTS.otherSandbox, KEYS.test],
  [MERCHANTS.live, KEYS.test],
  [MERCHANTS.live, KEYS.live],
] as const;

async function withMock(
  every: number,
  variants: VariantInput | undefined,
  body: (mock: RunningMock) => Promise<void>,
): Promise<void> {
  const mock = await startMock({ grow: { every }, variants });
  try {
    await body(mock);
  } finally {
    await mock.stop();
  }
}

const totalOf = async (base: string, merchant: string, key: string, query = '') =>
  (await page(base, merchant, query, key)).total;

describe('grow', () => {
  test('every: 1 — each request adds one payment to every listing, whatever the request', async () => {
    await withMock(1, undefined, async (mock) => {
      const before: number[] = [];
      for (const [merchant, key] of LISTINGS) before.push(await totalOf(mock.url, merchant, key));
      assert.deepEqual(before, [237, 40 + 1, 61 + 2, 143 + 3], 'requests 1 to 4 see 0 to 3 new payments');
      // Requests that are refused count too.
      await call(mock.url, '/merchant/status', { key: null });
      await call(mock.url, '/nowhere', { key: 'sk_test_wrong' });
      const after: number[] = [];
      for (const [merchant, key] of LISTINGS) after.push(await totalOf(mock.url, merchant, key));
      assert.deepEqual(after, [237 + 6, 40 + 7, 61 + 8, 143 + 9]);
    });
  });

  test('every: 3 — the total moves after every third request only', async () => {
    await withMock(3, undefined, async (mock) => {
      const totals: number[] = [];
      for (let i = 0; i < 7; i++) totals.push(await totalOf(mock.url, MERCHANTS.sandbox, KEYS.test));
      assert.deepEqual(totals, [237, 237, 237, 238, 238, 238, 239]);
    });
  });

  test('the grown lists stay correct listings: sorted, filtered, new ids, newest last (unsorted=created)', async () => {
    await withMock(1, undefined, async (mock) => {
      for (let i = 0; i < 40; i++) await call(mock.url, '/merchant/status');
      const before = new Set(
        ids(generateDataset(IDENTITY.seed).listings.get(listingKey(MERCHANTS.sandbox, 'test')) ?? []),
      );
      // Walking the listing grows it further; read each list in one page of up to 100 from a listing that stops.
      const last = await page(mock.url, MERCHANTS.otherSandbox, 'limit=100');
      assert.equal(last.total, 40 + 40, 'the 41st request sees 40 new payments');
      const grown = last.data.slice(40);
      assert.ok(grown.every((r) => !before.has(r.id) && /^pay_test_[0-9a-z]{14}$/.test(r.id)));
      assert.ok(isSorted(last.data.map((r) => r.createdAt)), 'creation order, the new ones last');
      const sorted = await page(mock.url, MERCHANTS.otherSandbox, 'sort=-amount&limit=100');
      assert.ok(
        isSorted(
          sorted.data.map((r) => Number(r.amount)),
          -1,
        ),
      );
      for (const status of STATUSES) {
        const filtered = await page(mock.url, MERCHANTS.otherSandbox, `filter[status]=${status}&limit=100`);
        assert.ok(filtered.data.length > 0 && filtered.data.every((r) => r.status === status), status);
      }
      const live = await page(mock.url, MERCHANTS.live, 'limit=100', KEYS.live);
      assert.ok(live.data.every((r) => r.id.startsWith('pay_live_') && r.merchantId === MERCHANTS.live));
    });
  });

  test('variants hold for new payments: newest first, integer ids, decimal amounts', async () => {
    await withMock(1, { unsorted: 'newest', ids: 'integer', amount: 'decimal', data: 'new-account' }, async (mock) => {
      const first = await page(mock.url, MERCHANTS.live, 'limit=100', KEYS.live);
      assert.equal(first.total, 0, 'no live payment yet');
      const second = await page(mock.url, MERCHANTS.live, 'limit=100', KEYS.live);
      assert.equal(second.total, 1, 'the first live payment');
      const third = await page(mock.url, MERCHANTS.live, 'limit=100', KEYS.live);
      assert.equal(third.total, 2);
      assert.equal(third.data[1]?.id, second.data[0]?.id, 'newest first');
      assert.ok(third.data.every((r) => Number.isSafeInteger(r.id) && /^\d+\.\d\d$/.test(String(r.amount))));
      assert.ok(Number(third.data[0]?.id) > Number(third.data[1]?.id), 'integer ids keep counting');
    });
  });

  test('without grow, the data never changes', async () => {
    const mock = await startMock();
    try {
      const a = await walk(mock.url, MERCHANTS.sandbox, 'sort=amount', 100);
      const b = await walk(mock.url, MERCHANTS.sandbox, 'sort=amount', 100);
      assert.deepEqual(ids(a.records), ids(b.records));
      assert.equal(a.total, 237);
    } finally {
      await mock.stop();
    }
  });

  test('a bad grow.every is refused before a port is bound', async () => {
    for (const every of [0, -1, 1.5, Number.NaN]) {
      await assert.rejects(startMock({ grow: { every } }), /grow.every must be a positive integer/);
    }
  });
});

describe('store.grow', () => {
  const key = listingKey(MERCHANTS.sandbox, 'test');
  const nondecreasing = (rows: readonly Row[], dir: 1 | -1) =>
    rows.every((r, i) => i === 0 || dir * (Number(r.amount) - Number(rows[i - 1]?.amount)) >= 0);

  test('every list gains the new payment where its order puts it; old lists are left as they were', () => {
    const store = buildStore(generateDataset(IDENTITY.seed), resolveVariants({ ties: 'reverse' }));
    const old = store.listing([key]);
    const oldAsc = old.views.all.asc;
    for (let i = 0; i < 12; i++) store.grow();
    const grown = store.listing([key]);
    assert.equal(oldAsc.length, 237, 'a list a request holds does not change');
    assert.equal(grown.totals.all, 237 + 12);
    assert.equal(grown.totals.none, 0);
    for (const filter of FILTERS) {
      const { unsorted, asc, desc } = grown.views[filter];
      assert.equal(unsorted.length, grown.totals[filter], filter);
      assert.ok(nondecreasing(asc, 1) && nondecreasing(desc, -1), filter);
      assert.deepEqual([...asc].map((r) => r.id).sort(), [...unsorted].map((r) => r.id).sort(), filter);
      if (filter !== 'all' && filter !== 'none') assert.ok(unsorted.every((r) => r.status === filter));
    }
    assert.equal(
      FILTERS.filter((f) => f !== 'all').reduce((n, f) => n + grown.totals[f], 0),
      grown.totals.all,
      'the statuses add up',
    );
  });

  test('unions of listings (a fault asks for them) are built again after growth', () => {
    const store = buildStore(generateDataset(IDENTITY.seed), resolveVariants());
    const both = [listingKey(MERCHANTS.live, 'live'), listingKey(MERCHANTS.live, 'test')];
    assert.equal(store.listing(both).totals.all, 143 + 61);
    store.grow();
    assert.equal(store.listing(both).totals.all, 143 + 61 + 2);
    assert.equal(store.listing([]).totals.all, 0);
  });
});
