/** Probes of the odd query input faults (mock/faults/input.ts). */
import assert from 'node:assert/strict';
import { call, ids, list, MERCHANTS, page, type Res } from '../support.ts';
import type { Probe, ProbeContext } from './probe.ts';

const SB = MERCHANTS.sandbox;
/** The fault's column width and length guard (odd-long-value-500): longer values crash, up to the guard. */
const COLUMN_WIDTH = 255;
const GUARD_LENGTH = 4096;
const crashed = (res: Res) => res.status === 500 && /^RangeError: .*\n\s+at /.test(res.text);

/** The same request to both mocks: the clean one answers below 500, the faulty one crashes. */
async function assertCrash(p: ProbeContext, path: string): Promise<void> {
  const { c, f } = await p.both(path);
  assert.ok(c.status < 500, `${path}: clean ${c.status}`);
  assert.ok(crashed(f), `${path}: faulty ${f.status} ${f.text.slice(0, 80)}`);
}

/** A request both mocks answer alike. */
async function assertSame(p: ProbeContext, path: string): Promise<void> {
  const { c, f } = await p.both(path);
  assert.deepEqual([f.status, f.text], [c.status, c.text], path);
}

export const INPUT_PROBES: Record<string, Probe> = {
  'odd-input-500': async (p) => {
    for (const value of ['abc', '1e3', '1.5']) {
      const { c, f } = await p.both(list(SB, `limit=${value}`));
      assert.deepEqual([c.status, f.status], [400, 500]);
      assert.match(f.text, /^RangeError: .*\n\s+at /);
    }
    assert.equal((await call(p.faulty.url, list(SB, 'limit=-1'))).status, 400, 'numeric odd values stay 400');
    assert.equal((await call(p.faulty.url, list(SB))).status, 200, 'the server survives');
  },
  'odd-input-negative-echo': async (p) => {
    const { c, f } = await p.both(list(SB, 'offset=-5'));
    assert.deepEqual([c.status, f.status, f.body.offset], [400, 200, -5]);
    assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, 'offset=232&limit=5')).data));
  },
  'offset-parser-split': async (p) => {
    for (const [raw, shown, used] of [
      ['1e2', 1, 100],
      ['0x10', 0, 16],
    ] as const) {
      const { c, f } = await p.both(list(SB, `offset=${raw}&limit=5`));
      assert.deepEqual([c.status, f.status, f.body.offset], [400, 200, shown], `offset=${raw}: echoed ${shown}`);
      assert.deepEqual(ids(f.body.data), ids((await page(p.clean.url, SB, `offset=${used}&limit=5`)).data));
    }
    assert.equal((await page(p.faulty.url, SB, 'offset=7')).offset, 7, 'plain digits as before');
  },
  'odd-mid-length-filter-500': async (p) => {
    for (const n of [33, 100, 255]) await assertCrash(p, list(SB, `filter[status]=${'A'.repeat(n)}`));
    for (const n of [1, 32, 256]) await assertSame(p, list(SB, `filter[status]=${'A'.repeat(n)}`));
    await assertSame(p, list(SB, `sort=${'A'.repeat(100)}`));
  },
  'odd-bracketed-filter-500': async (p) => {
    await assertCrash(p, list(SB, 'filter[status][]=X'));
    await assertCrash(p, list(SB, 'filter[status][a]=X'));
    await assertSame(p, list(SB, 'limit[]=5'));
    await assertSame(p, list(SB, 'filter[status]=COMPLETED'));
  },
  'odd-long-value-500': async (p) => {
    for (const name of ['filter[status]', 'sort']) {
      await assertCrash(p, list(SB, `${name}=${'x'.repeat(COLUMN_WIDTH + 1)}`));
      await assertCrash(p, list(SB, `${name}=${'x'.repeat(GUARD_LENGTH)}`));
      await assertSame(p, list(SB, `${name}=${'x'.repeat(COLUMN_WIDTH)}`));
      const guarded = await call(p.faulty.url, list(SB, `${name}=${'x'.repeat(GUARD_LENGTH + 1)}`));
      assert.equal(guarded.status, 400, 'longer: the length guard');
    }
    await assertSame(p, list(SB, `x=${'y'.repeat(1000)}`));
  },
  'odd-non-ascii-500': async (p) => {
    await assertCrash(p, list(SB, 'sort=am%C3%B6unt'));
    await assertCrash(p, list(SB, 'filter[status]=COMPL%C3%89TED'));
    await assertSame(p, list(SB, 'note=%C3%A9&filter[status]=COMPLETED'));
    await assertSame(p, list(SB, 'sort=-amount&limit=5'));
  },
  'odd-control-char-500': async (p) => {
    for (const query of ['sort=amount%00', 'filter[status]=%01', 'limit=5%0A', 'x=%1F']) {
      await assertCrash(p, list(SB, query));
    }
    await assertSame(p, list(SB, 'sort=%7F'));
    await assertSame(p, list(SB, 'filter[status]=PENDING&offset=3'));
  },
};
