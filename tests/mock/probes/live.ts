/** Probes of the live merchant's listing faults (mock/faults/live.ts). */
import assert from 'node:assert/strict';
import { amounts, ids, isSorted, KEYS, list, MERCHANTS, page, statuses } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;

export const LIVE_PROBES: Record<string, Probe> = {
  'live-total-counts-both-modes': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'limit=5'));
    assert.deepEqual([c.body.total, f.body.total], [61, 204]);
    assert.deepEqual(ids(f.body.data), ids(c.body.data));
    const live = await p.both(list(LIVE, 'filter[status]=COMPLETED'), KEYS.live);
    assert.deepEqual([live.c.body.total, live.f.body.total], [64, 92]);
    assert.equal((await page(p.faulty.url, SB)).total, 237, 'the sandbox merchant: right');
  },
  'live-filter-ignored': async (p) => {
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
  'live-sort-ignored': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'sort=amount&limit=100'), KEYS.live);
    assert.ok(isSorted(amounts(c.body)) && !isSorted(amounts(f.body)));
    assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, LIVE, 'limit=100', KEYS.live)).data));
    assert.ok(isSorted(amounts(await page(p.faulty.url, LIVE, 'sort=amount&limit=100'))), 'the test key: sorted');
  },
  'live-offset-ignored': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'offset=20&limit=10'), KEYS.live);
    assert.deepEqual([c.body.offset, f.body.offset], [20, 20]);
    assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, LIVE, 'limit=10', KEYS.live)).data));
    assert.notDeepEqual(ids(f.body.data), ids(c.body.data));
    const test = await p.both(list(LIVE, 'offset=20&limit=10'));
    assert.deepEqual(ids(test.f.body.data), ids(test.c.body.data), 'the test key: the right page');
  },
  'live-default-limit': async (p) => {
    const { c, f } = await p.both(list(LIVE, ''), KEYS.live);
    assert.deepEqual([c.body.limit, c.body.data.length], [10, 10]);
    assert.deepEqual([f.body.limit, f.body.data.length], [20, 20], 'the live key, no limit: 20');
    assert.equal((await p.both(list(LIVE, 'limit=5'), KEYS.live)).f.body.data.length, 5, 'a limit given: as given');
    const test = await p.both(list(LIVE, ''));
    assert.deepEqual([test.f.body.limit, test.f.body.data.length], [10, 10], 'the test key: the default');
  },
};
