import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  generateDataset,
  LISTING_PLAN,
  listingKey,
  MAX_AMOUNT_DIGITS,
  merchantByRole,
  type Payment,
  STATUS_SHARE,
  STATUSES,
  statusQuota,
} from '../../mock/data.ts';
import { IDENTITY, resolveVariants, VARIANT_DEFAULTS } from '../../mock/index.ts';
import { buildStore, type Row } from '../../mock/store.ts';

const dataset = generateDataset(IDENTITY.seed);
const all: Payment[] = [...dataset.listings.values()].flat();
const listingOf = (role: 'sandbox' | 'live' | 'otherSandbox', mode: 'test' | 'live') =>
  dataset.listings.get(listingKey(merchantByRole(role).id, mode)) ?? [];

/** Amounts that occur more than once in a list. */
function tiedAmounts(payments: readonly Payment[]): number[] {
  const seen = new Map<number, number>();
  for (const p of payments) seen.set(p.amount, (seen.get(p.amount) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([a]) => a);
}

describe('data set', () => {
  test('the same seed gives the same data', () => {
    assert.deepEqual(generateDataset(IDENTITY.seed), dataset);
  });

  test('another seed gives other data', () => {
    const other = [...generateDataset(IDENTITY.seed + 1).listings.values()].flat();
    assert.notDeepEqual(
      other.map((p) => p.id),
      all.map((p) => p.id),
    );
    assert.notDeepEqual(
      other.map((p) => p.amount),
      all.map((p) => p.amount),
    );
  });

  test('counts per merchant and mode', () => {
    assert.equal(listingOf('sandbox', 'test').length, 237);
    assert.equal(listingOf('live', 'live').length, 143);
    assert.equal(listingOf('live', 'test').length, 61);
    assert.equal(listingOf('otherSandbox', 'test').length, 40);
    assert.equal(dataset.listings.get(listingKey(IDENTITY.merchants.sandbox, 'live')), undefined);
    assert.equal(all.length, 237 + 143 + 61 + 40);
  });

  test('each listing holds only its merchant, and ids carry the mode', () => {
    for (const plan of LISTING_PLAN) {
      for (const p of listingOf(plan.role, plan.mode)) {
        assert.equal(p.merchantId, IDENTITY.merchants[plan.role]);
        assert.match(p.id, new RegExp(`^pay_${plan.mode}_[0-9a-z]{14}$`));
      }
    }
  });

  test('ids are unique across everything', () => {
    assert.equal(new Set(all.map((p) => p.id)).size, all.length);
  });

  test('statuses: all five occur in every listing, COMPLETED most common at about 45%', () => {
    for (const plan of LISTING_PLAN) {
      const payments = listingOf(plan.role, plan.mode);
      const counts = Object.fromEntries(STATUSES.map((s) => [s, payments.filter((p) => p.status === s).length]));
      assert.deepEqual(counts, statusQuota(payments.length));
      for (const s of STATUSES) assert.ok((counts[s] ?? 0) > 0, `${plan.role}/${plan.mode} has no ${s}`);
      const completed = counts.COMPLETED ?? 0;
      assert.ok(STATUSES.every((s) => s === 'COMPLETED' || (counts[s] ?? 0) < completed));
      assert.ok(Math.abs(completed / payments.length - STATUS_SHARE.COMPLETED / 100) < 0.02);
    }
    assert.deepEqual(statusQuota(237), { COMPLETED: 107, PENDING: 47, FAILED: 36, REFUNDED: 28, CANCELED: 19 });
  });

  test('amounts are integers of 1 to 6 digits, every magnitude present in every listing', () => {
    for (const plan of LISTING_PLAN) {
      const payments = listingOf(plan.role, plan.mode);
      for (const p of payments) assert.ok(Number.isInteger(p.amount) && p.amount >= 1 && p.amount <= 999_999);
      const digits = new Set(payments.map((p) => String(p.amount).length));
      assert.deepEqual(
        [...digits].sort(),
        Array.from({ length: MAX_AMOUNT_DIGITS }, (_, i) => i + 1),
        `${plan.role}/${plan.mode}`,
      );
    }
  });

  test('ties exist in every listing, also within COMPLETED', () => {
    for (const plan of LISTING_PLAN) {
      const payments = listingOf(plan.role, plan.mode);
      assert.ok(tiedAmounts(payments).length >= 3, `${plan.role}/${plan.mode} has few ties`);
      assert.ok(tiedAmounts(payments.filter((p) => p.status === 'COMPLETED')).length >= 1);
    }
  });

  test('createdAt: distinct ISO timestamps, listings in creation order', () => {
    assert.equal(new Set(all.map((p) => p.createdAt)).size, all.length);
    for (const payments of dataset.listings.values()) {
      for (const p of payments) assert.equal(new Date(p.createdAt).toISOString(), p.createdAt);
      const times = payments.map((p) => p.createdAt);
      assert.deepEqual(times, [...times].sort());
    }
  });

  test('currencies are EUR or USD', () => {
    assert.deepEqual([...new Set(all.map((p) => p.currency))].sort(), ['EUR', 'USD']);
  });
});

describe('precomputed store', () => {
  const sandbox = listingKey(IDENTITY.merchants.sandbox, 'test');
  const nondecreasing = (rows: readonly Row[], tie: 1 | -1) =>
    rows.every((r, i) => {
      const prev = rows[i - 1];
      if (!prev) return true;
      const d = Number(r.amount) - Number(prev.amount);
      return d > 0 || (d === 0 && (tie === 1 ? prev.id < r.id : prev.id > r.id));
    });

  test('orders: unsorted by createdAt, amount asc/desc with ties in ascending id', () => {
    const { views, totals } = buildStore(dataset, VARIANT_DEFAULTS).listing([sandbox]);
    assert.equal(totals.all, 237);
    assert.equal(totals.none, 0);
    assert.deepEqual(
      views.all.unsorted.map((r) => r.id),
      listingOf('sandbox', 'test').map((p) => p.id),
    );
    assert.ok(nondecreasing(views.all.asc, 1));
    assert.ok(nondecreasing([...views.all.desc].reverse(), -1));
    assert.ok(views.COMPLETED.asc.every((r) => r.status === 'COMPLETED'));
    assert.equal(views.COMPLETED.asc.length, totals.COMPLETED);
  });

  test('variants: reverse ties, newest first, string amounts, extra fields', () => {
    const store = buildStore(
      dataset,
      resolveVariants({ ties: 'reverse', unsorted: 'newest', amount: 'string', extras: 'on' }),
    );
    const { views } = store.listing([sandbox]);
    assert.ok(nondecreasing(views.all.asc, -1));
    assert.deepEqual(
      views.all.unsorted.map((r) => r.id),
      listingOf('sandbox', 'test')
        .map((p) => p.id)
        .reverse(),
    );
    assert.ok(views.all.asc.every((r) => typeof r.amount === 'string' && /^\d+$/.test(r.amount)));
    assert.ok(views.all.asc.every((r) => typeof r.description === 'string'));
  });

  test('views are built once: the same array on every call', () => {
    const store = buildStore(dataset, VARIANT_DEFAULTS);
    assert.equal(store.listing([sandbox]).views.all.asc, store.listing([sandbox]).views.all.asc);
    assert.equal(store.listing([]).totals.all, 0);
  });
});
