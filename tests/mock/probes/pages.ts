/** Probes of the pagination faults (mock/faults/pages.ts): page size, total, partition, past the end. */
import assert from 'node:assert/strict';
import { ids, list, MERCHANTS, page } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;

export const PAGE_PROBES: Record<string, Probe> = {
  'page-size-one-short': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=10'));
    assert.deepEqual([c.body.data.length, f.body.data.length, f.body.limit], [10, 9, 10]);
    const last = await page(p.faulty.url, SB, 'offset=230&limit=10');
    assert.equal(last.data.length, 7, 'a partial last page is unchanged');
  },
  'total-is-page-size': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=10'));
    assert.deepEqual([c.body.total, f.body.total], [237, 10]);
  },
  'total-after-offset': async (p) => {
    const { c, f } = await p.both(list(SB, 'offset=100'));
    assert.deepEqual([c.body.total, f.body.total], [237, 137]);
  },
  'offset-off-by-one-low': async (p) => {
    const { f } = await p.both(list(SB, 'offset=10&limit=10'));
    assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=9&limit=10')).data));
    assert.equal(f.body.offset, 10);
  },
  'offset-off-by-one-high': async (p) => {
    const { f } = await p.both(list(SB, 'offset=10&limit=10'));
    assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=11&limit=10')).data));
  },
  'past-end-nonempty': async (p) => {
    const { c, f } = await p.both(list(SB, 'offset=237&limit=10'));
    assert.deepEqual(c.body.data, []);
    assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=227&limit=10')).data));
  },
  'past-end-total-zero': async (p) => {
    const { c, f } = await p.both(list(SB, 'offset=300'));
    assert.deepEqual([c.body.total, f.body.total, f.body.data.length], [237, 0, 0]);
  },
};
