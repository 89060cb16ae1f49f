/** Faults of odd query input (§7): a 5xx, or a 200 that breaks the envelope, for values a client may send. */
import assert from 'node:assert/strict';
import { type Fault, FaultCrash, fault } from './fault.ts';
import { call, ids, list, MERCHANTS, page } from './probe.ts';

const SB = MERCHANTS.sandbox;

export const INPUT_FAULTS: readonly Fault[] = [
  fault(
    'odd-input-500',
    'INP-ROBUST',
    'non-numeric or exponent limit/offset crashes the handler: 500 with a stack trace',
    {
      oddParam: (name, raw) => {
        if (!/^-?\d+$/.test(raw)) throw new FaultCrash(`Cannot convert "${raw}" to an integer for ${name}`);
        return undefined;
      },
    },
    async (p) => {
      for (const value of ['abc', '1e3', '1.5']) {
        const { c, f } = await p.both(list(SB, `limit=${value}`));
        assert.deepEqual([c.status, f.status], [400, 500]);
        assert.match(f.text, /^RangeError: .*\n\s+at /);
      }
      assert.equal((await call(p.faulty.url, list(SB, 'limit=-1'))).status, 400, 'numeric odd values stay 400');
      assert.equal((await call(p.faulty.url, list(SB))).status, 200, 'the server survives');
    },
  ),
  fault(
    'odd-input-negative-echo',
    'INP-ROBUST',
    'negative offset: 200 echoing it, with records from the end of the list',
    {
      oddParam: (name, raw) => (name === 'offset' && /^-\d+$/.test(raw) ? Number(raw) : undefined),
      slice: (s, f) => {
        if (f.query.offset < 0) s.start = Math.max(0, f.total + f.query.offset);
        if (f.query.offset < 0) s.end = Math.min(f.total, s.start + f.query.limit);
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'offset=-5'));
      assert.deepEqual([c.status, f.status, f.body.offset], [400, 200, -5]);
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=232&limit=5')).data));
    },
  ),
];
