/** Faults of pagination (§4.2 rules 1, 2, 4): page size, total, partition, past the end. */
import assert from 'node:assert/strict';
import { type Fault, fault } from './fault.ts';
import { ids, list, MERCHANTS, page } from './probe.ts';

const SB = MERCHANTS.sandbox;
const pastEnd = (offset: number, total: number) => offset >= total;

export const PAGE_FAULTS: readonly Fault[] = [
  fault(
    'page-size-one-short',
    'PAG-SIZE',
    'full pages carry limit-1 records',
    {
      slice: (s, f) => {
        if (s.end - s.start === f.query.limit) s.end -= 1;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'limit=10'));
      assert.deepEqual([c.body.data.length, f.body.data.length, f.body.limit], [10, 9, 10]);
      const last = await page(p.faulty.url, SB, 'offset=230&limit=10');
      assert.equal(last.data.length, 7, 'a partial last page is unchanged');
    },
  ),
  fault(
    'total-is-page-size',
    'PAG-TOTAL',
    'total is the size of the page, not the number of matches',
    {
      echo: (e, f) => {
        e.total = f.dataLength;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'limit=10'));
      assert.deepEqual([c.body.total, f.body.total], [237, 10]);
    },
  ),
  fault(
    'total-after-offset',
    'PAG-TOTAL',
    'total counts only the records from offset on (total - offset)',
    {
      echo: (e, f) => {
        e.total = Math.max(0, f.total - f.query.offset);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'offset=100'));
      assert.deepEqual([c.body.total, f.body.total], [237, 137]);
    },
  ),
  fault(
    'offset-off-by-one-low',
    'PAG-PARTITION',
    'offset > 0 starts the slice at offset-1: duplicates at page boundaries',
    {
      slice: (s, f) => {
        if (f.query.offset > 0)
          Object.assign(s, { start: s.start - 1, end: Math.min(s.start - 1 + f.query.limit, f.total) });
      },
    },
    async (p) => {
      const { f } = await p.both(list(SB, 'offset=10&limit=10'));
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=9&limit=10')).data));
      assert.equal(f.body.offset, 10);
    },
  ),
  fault(
    'offset-off-by-one-high',
    'PAG-PARTITION',
    'offset > 0 starts the slice at offset+1: gaps at page boundaries',
    {
      slice: (s, f) => {
        if (f.query.offset > 0)
          Object.assign(s, { start: s.start + 1, end: Math.min(s.start + 1 + f.query.limit, f.total) });
      },
    },
    async (p) => {
      const { f } = await p.both(list(SB, 'offset=10&limit=10'));
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=11&limit=10')).data));
    },
  ),
  fault(
    'past-end-nonempty',
    'PAG-EMPTY',
    'offset >= total returns the last page instead of []',
    {
      slice: (s, f) => {
        if (f.total > 0 && pastEnd(f.query.offset, f.total))
          Object.assign(s, { start: Math.max(0, f.total - f.query.limit), end: f.total });
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'offset=237&limit=10'));
      assert.deepEqual(c.body.data, []);
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=227&limit=10')).data));
    },
  ),
  fault(
    'past-end-total-zero',
    'PAG-EMPTY',
    'offset >= total reports total 0',
    {
      echo: (e, f) => {
        if (pastEnd(f.query.offset, f.total)) e.total = 0;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'offset=300'));
      assert.deepEqual([c.body.total, f.body.total, f.body.data.length], [237, 0, 0]);
    },
  ),
];
