/** Probes of the cap faults (mock/faults/cap.ts): more than 100 records in one answer, or a clamp echoed wrongly. */
import assert from 'node:assert/strict';
import { call, list, MERCHANTS, page } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
/** More than the cap: the sandbox listing has 237 records. */
const UNCAPPED = 237;

export const CAP_PROBES: Record<string, Probe> = {
  'cap-lenient-parser-bypass': async (p) => {
    for (const limit of ['%20500', '0x1F4', '500abc', '5_00', encodeURIComponent('５００')]) {
      const { c, f } = await p.both(list(SB, `limit=${limit}`));
      assert.equal(c.status, 400, `the clean mock refuses limit=${limit}`);
      assert.deepEqual([f.status, f.body.data.length], [200, UNCAPPED], `limit=${limit}: served uncapped`);
    }
    const { f } = await p.both(list(SB, 'limit=500'));
    assert.equal(f.body.data.length, 100, 'digits: capped');
    assert.equal((await call(p.faulty.url, list(SB, 'limit=500.0'))).status, 400, 'a decimal: refused as before');
  },
  'cap-bracket-bypass': async (p) => {
    for (const name of ['limit%5B%5D', 'limit%5B0%5D']) {
      const { c, f } = await p.both(list(SB, `${name}=500`));
      assert.deepEqual([c.status, c.body.data.length], [200, 10], `the clean mock ignores ${name}: the default limit`);
      assert.deepEqual(
        [f.status, f.body.data.length, f.body.limit],
        [200, UNCAPPED, 500],
        `${name}=500: served uncapped`,
      );
    }
    assert.equal((await page(p.faulty.url, SB, 'limit=500')).data.length, 100, 'a plain limit: capped');
  },
  'limit-zero-unbounded': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=0'));
    assert.equal(c.status, 400, 'the clean mock refuses limit=0');
    assert.deepEqual([f.status, f.body.data.length, f.body.limit], [200, UNCAPPED, 0], 'limit=0: every record');
    assert.equal(
      (await page(p.faulty.url, SB, 'offset=200&limit=0')).data.length,
      UNCAPPED - 200,
      'from the offset on',
    );
    assert.equal((await page(p.faulty.url, SB, 'limit=0.5')).data.length, UNCAPPED, 'a fraction parseInt reads as 0');
    assert.equal((await page(p.faulty.url, SB, 'limit=500')).data.length, 100, 'a plain limit: capped');
  },
  'limit-negative-slice': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=-1'));
    assert.equal(c.status, 400, 'the clean mock refuses limit=-1');
    assert.deepEqual([f.status, f.body.data.length, f.body.limit], [200, UNCAPPED - 1, -1], 'all but the last');
    assert.equal((await page(p.faulty.url, SB, 'offset=5&limit=-1')).data.length, 0, 'slice(5, 4): empty');
    assert.equal((await page(p.faulty.url, SB, 'limit=500')).data.length, 100, 'a plain limit: capped');
  },
  uncapped: async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=150'));
    assert.deepEqual([c.body.data.length, c.body.limit], [100, 100]);
    assert.deepEqual([f.body.data.length, f.body.limit], [150, 150]);
  },
  'cap-off-by-one': async (p) => {
    const { f } = await p.both(list(SB, 'limit=150'));
    assert.deepEqual([f.body.data.length, f.body.limit], [101, 101]);
  },
  'cap-echo-requested': async (p) => {
    const { f } = await p.both(list(SB, 'limit=150'));
    assert.deepEqual([f.body.data.length, f.body.limit], [100, 150]);
  },
  'cap-exponent-bypass': async (p) => {
    for (const value of ['1e3', '5E2']) {
      const { c, f } = await p.both(list(SB, `limit=${value}`));
      assert.deepEqual([c.status, f.status, f.body.data.length], [400, 200, UNCAPPED]);
    }
    assert.equal((await page(p.faulty.url, SB, 'limit=1000')).data.length, 100, 'plain digits are capped');
    assert.equal((await call(p.faulty.url, list(SB, 'limit=abc'))).status, 400);
  },
  'cap-repeated-last-wins': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=5&limit=500'));
    assert.deepEqual([c.status, f.status, f.body.data.length], [400, 200, UNCAPPED]);
    assert.equal((await call(p.faulty.url, list(SB, 'offset=1&offset=2'))).status, 400, 'other repeats: 400');
    assert.equal((await page(p.faulty.url, SB, 'limit=500')).data.length, 100, 'a single limit is capped');
  },
  'cap-plus-sign-bypass': async (p) => {
    for (const value of ['%2B500', '+500']) {
      const { c, f } = await p.both(list(SB, `limit=${value}`));
      assert.deepEqual([c.status, f.status, f.body.data.length], [400, 200, UNCAPPED]);
    }
    assert.equal((await call(p.faulty.url, list(SB, 'limit=-5'))).status, 400, 'a minus sign: 400');
    assert.equal((await page(p.faulty.url, SB, 'limit=500')).data.length, 100, 'plain digits are capped');
  },
};
