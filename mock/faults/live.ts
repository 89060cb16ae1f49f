/**
 * Faults of the live merchant's listings (§4.2 on the live data): one code path, the live one, forgets what the
 * sandbox path does, so a suite that walks only the sandbox listing misses them.
 */
import assert from 'node:assert/strict';
import type { Access } from '../authorize.ts';
import { listingKey } from '../data.ts';
import { type Fault, fault } from './fault.ts';
import { amounts, ids, isSorted, KEYS, list, MERCHANTS, page, statuses } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;
const onLiveMerchant = (a: Access) => a.merchant?.kind === 'live';
const liveKeyOnLive = (a: Access) => onLiveMerchant(a) && a.mode === 'live';

export const LIVE_FAULTS: readonly Fault[] = [
  fault(
    'live-total-counts-both-modes',
    'PAG-TOTAL',
    "on the live merchant, total counts both modes' records (the count query forgets the mode); the data is right",
    {
      echo: (e, f) => {
        const { merchant } = f.access;
        if (merchant?.kind !== 'live') return;
        const both = f.store.listing([listingKey(merchant.id, 'live'), listingKey(merchant.id, 'test')]);
        e.total = both.totals[f.plan.total];
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(LIVE, 'limit=5'));
      assert.deepEqual([c.body.total, f.body.total], [61, 204]);
      assert.deepEqual(ids(f.body.data), ids(c.body.data));
      const live = await p.both(list(LIVE, 'filter[status]=COMPLETED'), KEYS.live);
      assert.deepEqual([live.c.body.total, live.f.body.total], [64, 92]);
      assert.equal((await page(p.faulty.url, SB)).total, 237, 'the sandbox merchant: right');
    },
  ),
  fault(
    'live-filter-ignored',
    'FLT-STATUS',
    "filter[status] is ignored on the live merchant's listings (both keys)",
    {
      plan: (plan, c) => {
        if (onLiveMerchant(c.access)) Object.assign(plan, { rows: 'all', total: 'all' });
      },
    },
    async (p) => {
      for (const [key, filtered, all] of [
        [KEYS.test, 12, 61],
        [KEYS.live, 29, 143],
      ] as const) {
        const { c, f } = await p.both(list(LIVE, 'filter[status]=PENDING&limit=100'), key);
        assert.deepEqual([c.body.total, f.body.total], [filtered, all]);
        assert.ok(statuses(f.body).size > 1);
      }
      assert.equal((await page(p.faulty.url, SB, 'filter[status]=PENDING')).total, 47, 'sandbox: filtered');
    },
  ),
  fault(
    'live-sort-ignored',
    'SRT-AMOUNT',
    "sort is ignored on the live key's listing of the live merchant",
    {
      plan: (plan, c) => {
        if (liveKeyOnLive(c.access)) plan.order = 'unsorted';
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(LIVE, 'sort=amount&limit=100'), KEYS.live);
      assert.ok(isSorted(amounts(c.body)) && !isSorted(amounts(f.body)));
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, LIVE, 'limit=100', KEYS.live)).data));
      assert.ok(isSorted(amounts(await page(p.faulty.url, LIVE, 'sort=amount&limit=100'))), 'the test key: sorted');
    },
  ),
  fault(
    'live-offset-ignored',
    'PAG-PARTITION',
    "on the live key's listing of the live merchant, offset is echoed as sent but the page always starts at 0",
    {
      slice: (s, f) => {
        if (liveKeyOnLive(f.access)) Object.assign(s, { start: 0, end: Math.min(f.query.limit, f.total) });
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(LIVE, 'offset=20&limit=10'), KEYS.live);
      assert.deepEqual([c.body.offset, f.body.offset], [20, 20]);
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, LIVE, 'limit=10', KEYS.live)).data));
      assert.notDeepEqual(ids(f.body.data), ids(c.body.data));
      const test = await p.both(list(LIVE, 'offset=20&limit=10'));
      assert.deepEqual(ids(test.f.body.data), ids(test.c.body.data), 'the test key: the right page');
    },
  ),
];
