/** Probes of the status filter and amount sort faults (mock/faults/filter-sort.ts). */
import assert from 'node:assert/strict';
import { amounts, ids, isSorted, list, MERCHANTS, page, statuses } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;

export const FILTER_SORT_PROBES: Record<string, Probe> = {
  'filter-ignored': async (p) => {
    const { c, f } = await p.both(list(SB, 'filter[status]=COMPLETED&limit=100'));
    assert.deepEqual([c.body.total, f.body.total], [107, 237]);
    assert.deepEqual([statuses(c.body).size, statuses(f.body).size > 1], [1, true]);
  },
  'filter-case-insensitive': async (p) => {
    const { c, f } = await p.both(list(SB, 'filter[status]=completed'));
    assert.deepEqual([c.body.total, f.body.total], [0, 107]);
  },
  'filter-like-pattern': async (p) => {
    for (const pattern of ['COMP%25', 'COMPLETE_', '%25PLETED']) {
      const { c, f } = await p.both(list(SB, `filter[status]=${pattern}`));
      assert.deepEqual([c.body.total, f.body.total], [0, 107], pattern);
      assert.deepEqual(statuses(f.body), new Set(['COMPLETED']));
    }
    const exact = await p.both(list(SB, 'filter[status]=PENDING'));
    assert.equal(exact.f.body.total, exact.c.body.total, 'an exact status as before');
  },
  'filter-list-first': async (p) => {
    for (const list_ of ['COMPLETED,PENDING', 'COMPLETED%7CFAILED', 'COMPLETED;PENDING']) {
      const { c, f } = await p.both(list(SB, `filter[status]=${list_}`));
      assert.deepEqual([c.body.total, f.body.total], [0, 107], list_);
      assert.deepEqual(statuses(f.body), new Set(['COMPLETED']));
    }
    const exact = await p.both(list(SB, 'filter[status]=PENDING'));
    assert.equal(exact.f.body.total, exact.c.body.total, 'an exact status as before');
  },
  'filter-value-normalised': async (p) => {
    for (const v of [encodeURIComponent('ＣＯＭＰＬＥＴＥＤ'), encodeURIComponent('C\u200BOMPLETED')]) {
      const { c, f } = await p.both(list(SB, `filter[status]=${v}`));
      assert.deepEqual([c.body.total, f.body.total], [0, 107], v);
      assert.deepEqual(statuses(f.body), new Set(['COMPLETED']));
    }
  },
  'filter-double-decoded': async (p) => {
    const { c, f } = await p.both(list(SB, 'filter[status]=%2543OMPLETED'));
    assert.deepEqual([c.body.total, f.body.total], [0, 107]);
    assert.deepEqual(statuses(f.body), new Set(['COMPLETED']));
    const exact = await p.both(list(SB, 'filter[status]=PENDING'));
    assert.equal(exact.f.body.total, exact.c.body.total, 'an exact status as before');
  },
  'filter-total-unfiltered': async (p) => {
    const { c, f } = await p.both(list(SB, 'filter[status]=COMPLETED'));
    assert.deepEqual([c.body.total, f.body.total], [107, 237]);
    assert.deepEqual(ids(f.body.data), ids(c.body.data));
  },
  'filter-after-pagination': async (p) => {
    const { c, f } = await p.both(list(SB, 'filter[status]=COMPLETED&limit=10'));
    const unfiltered = (await page(p.clean.url, SB, 'limit=10')).data.filter((r) => r.status === 'COMPLETED');
    assert.equal(c.body.data.length, 10);
    assert.ok(f.body.data.length < 10);
    assert.deepEqual(ids(f.body.data), ids(unfiltered));
  },
  'sort-direction-inverted': async (p) => {
    const { f } = await p.both(list(SB, 'sort=-amount&limit=100'));
    assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'sort=amount&limit=100')).data));
  },
  'sort-per-page': async (p) => {
    const { c, f } = await p.both(list(SB, 'sort=amount&offset=10&limit=10'));
    const unsorted = (await page(p.clean.url, SB, 'offset=10&limit=10')).data;
    assert.deepEqual(ids(f.body.data).sort(), ids(unsorted).sort());
    assert.ok(isSorted(amounts(f.body)));
    assert.notDeepEqual(ids(f.body.data), ids(c.body.data));
  },
  'sort-as-strings': async (p) => {
    const { c, f } = await p.both(list(SB, 'sort=amount&limit=100'));
    assert.ok(isSorted(amounts(c.body)) && !isSorted(amounts(f.body)));
    assert.ok(isSorted(amounts(f.body).map(String)));
  },
  'sort-unstable-ties': async (p) => {
    const first = await page(p.faulty.url, SB, 'sort=amount&limit=100');
    const second = await page(p.faulty.url, SB, 'sort=amount&limit=100');
    assert.deepEqual(amounts(first), amounts(second));
    assert.notDeepEqual(ids(first.data), ids(second.data));
  },
  'sort-ignored-with-filter': async (p) => {
    const { c, f } = await p.both(list(SB, 'filter[status]=COMPLETED&sort=amount&limit=50'));
    assert.ok(isSorted(amounts(c.body)) && !isSorted(amounts(f.body)));
    const filtered = await page(p.clean.url, SB, 'filter[status]=COMPLETED&limit=50');
    assert.deepEqual(ids(f.body.data), ids(filtered.data));
    assert.ok(isSorted(amounts(await page(p.faulty.url, SB, 'sort=amount&limit=50'))), 'sort alone still works');
  },
  'other-sandbox-filter-ignored': async (p) => {
    const { c, f } = await p.both(list(MERCHANTS.otherSandbox, 'filter[status]=COMPLETED&limit=100'));
    assert.deepEqual([...new Set(statuses(c.body))], ['COMPLETED']);
    assert.ok(new Set(statuses(f.body)).size > 1, 'the second sandbox merchant: every status');
    const all = await page(p.clean.url, MERCHANTS.otherSandbox, 'limit=100');
    assert.equal(f.body.total, all.total, 'the unfiltered total');
    const first = await p.both(list(SB, 'filter[status]=COMPLETED&limit=100'));
    assert.deepEqual(ids(first.f.body.data), ids(first.c.body.data), 'the first sandbox merchant: filtered');
  },
};
