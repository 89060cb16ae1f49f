/** Faults of the cap (§8): more than 100 records in one answer, or a clamp echoed wrongly. */
import assert from 'node:assert/strict';
import { TARGET } from '../identity.ts';
import { type Fault, fault } from './fault.ts';
import { call, list, MERCHANTS, page } from './probe.ts';

const SB = MERCHANTS.sandbox;
const DIGITS = /^\d+$/;
/** A limit the query layer can use: what `Number` makes of the raw value, when it is a positive integer. */
const usable = (raw: string) => {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
};
/** More than the cap: the sandbox listing has 237 records. */
const UNCAPPED = 237;

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
  fault(
    'cap-exponent-bypass',
    'LIM-CAP',
    'the validator reads limit with parseInt (1e3 → 1, passes), the query with Number (1e3 → 1000): no cap',
    {
      oddParam: (name, raw) => {
        if (name !== 'limit' || !/^\d+e\d+$/i.test(raw)) return undefined;
        const checked = Number.parseInt(raw, 10);
        return checked >= 1 && checked <= TARGET.maxLimit ? usable(raw) : undefined;
      },
    },
    async (p) => {
      for (const value of ['1e3', '5E2']) {
        const { c, f } = await p.both(list(SB, `limit=${value}`));
        assert.deepEqual([c.status, f.status, f.body.data.length], [400, 200, UNCAPPED]);
      }
      assert.equal((await page(p.faulty.url, SB, 'limit=1000')).data.length, 100, 'plain digits are capped');
      assert.equal((await call(p.faulty.url, list(SB, 'limit=abc'))).status, 400);
    },
  ),
  fault(
    'cap-repeated-last-wins',
    'LIM-CAP',
    'a repeated limit is accepted: the validator checks the first value, the query uses the last (limit=5&limit=500)',
    {
      repeated: (param) => param === 'limit',
      query: (q, search) => {
        const values = new URLSearchParams(search).getAll('limit');
        const last = values.at(-1) ?? '';
        const n = values.length > 1 && DIGITS.test(last) ? usable(last) : undefined;
        if (n !== undefined) q.limit = n;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB, 'limit=5&limit=500'));
      assert.deepEqual([c.status, f.status, f.body.data.length], [400, 200, UNCAPPED]);
      assert.equal((await call(p.faulty.url, list(SB, 'offset=1&offset=2'))).status, 400, 'other repeats: 400');
      assert.equal((await page(p.faulty.url, SB, 'limit=500')).data.length, 100, 'a single limit is capped');
    },
  ),
  fault(
    'cap-plus-sign-bypass',
    'LIM-CAP',
    'limit=+500 passes a validator that only caps plain digit strings and is served uncapped',
    {
      // A literal + in a query string reads as a space; both spellings reach Number() as 500.
      oddParam: (name, raw) => (name === 'limit' && /^[+ ]\d+$/.test(raw) ? usable(raw) : undefined),
    },
    async (p) => {
      for (const value of ['%2B500', '+500']) {
        const { c, f } = await p.both(list(SB, `limit=${value}`));
        assert.deepEqual([c.status, f.status, f.body.data.length], [400, 200, UNCAPPED]);
      }
      assert.equal((await call(p.faulty.url, list(SB, 'limit=-5'))).status, 400, 'a minus sign: 400');
      assert.equal((await page(p.faulty.url, SB, 'limit=500')).data.length, 100, 'plain digits are capped');
    },
  ),
];
