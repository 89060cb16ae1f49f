/** Faults of the cap (§8): more than 100 records in one answer, or a clamp echoed wrongly. */
import assert from 'node:assert/strict';
import { type Fault, fault } from './fault.ts';
import { list, MERCHANTS } from './probe.ts';

const SB = MERCHANTS.sandbox;
const DIGITS = /^\d+$/;

export const CAP_FAULTS: readonly Fault[] = [
  fault(
    'uncapped',
    'LIM-CAP',
    'no cap: limit > 100 serves and echoes that many records',
    {
      settings: (s) => {
        s.maxLimit = Number.MAX_SAFE_INTEGER;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'limit=150'));
      assert.deepEqual([c.body.data.length, c.body.limit], [100, 100]);
      assert.deepEqual([f.body.data.length, f.body.limit], [150, 150]);
    },
  ),
  fault(
    'cap-off-by-one',
    'LIM-CAP',
    'caps at 101 instead of 100',
    {
      settings: (s) => {
        s.maxLimit += 1;
      },
    },
    async (p) => {
      const { f } = await p.both(list(SB, 'limit=150'));
      assert.deepEqual([f.body.data.length, f.body.limit], [101, 101]);
    },
  ),
  fault(
    'cap-echo-requested',
    'LIM-CAP',
    'limit > 100 serves 100 records but echoes the requested limit',
    {
      settings: (s) => {
        s.overLimit = 'clamp';
      },
      echo: (e, f) => {
        // The requested limit (first value, as the validator read it); above the limit in force, it was clamped.
        const requested = new URLSearchParams(f.request.search).get('limit') ?? '';
        const n = DIGITS.test(requested) ? Number(requested) : Number.NaN;
        if (n > f.query.limit) e.limit = n;
      },
    },
    async (p) => {
      const { f } = await p.both(list(SB, 'limit=150'));
      assert.deepEqual([f.body.data.length, f.body.limit], [100, 150]);
    },
  ),
];
