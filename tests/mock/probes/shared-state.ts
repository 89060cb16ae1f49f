/** Probes of the faults of state shared between concurrent requests (mock/faults/shared-state.ts). */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, ids, KEYS, list, MERCHANTS, page, type Res } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const SB2 = MERCHANTS.otherSandbox;

/** Two requests in flight together, the second sent a moment after the first (it arrives while the first is held). */
async function together(first: () => Promise<Res>, second: () => Promise<Res>): Promise<[Res, Res]> {
  const a = first();
  await sleep(3);
  return Promise.all([a, second()]);
}

export const SHARED_STATE_PROBES: Record<string, Probe> = {
  'principal-in-shared-state': async (p) => {
    const run = (base: string) =>
      together(
        () => call(base, list(SB, 'limit=1'), { key: KEYS.restricted }),
        () => call(base, list(SB, 'limit=1')),
      );
    const [[cr, ct], [fr, ft]] = [await run(p.clean.url), await run(p.faulty.url)];
    assert.deepEqual([cr.status, ct.status], [403, 200], 'clean: each answered as itself');
    assert.deepEqual([fr.status, ft.status], [200, 200], 'faulty: the restricted key judged as the test key');
    const alone = await call(p.faulty.url, list(SB, 'limit=1'), { key: KEYS.restricted });
    assert.equal(alone.status, 403, 'alone, the restricted key is refused');
    const keyless = await together(
      () => call(p.faulty.url, list(SB), { key: null }),
      () => call(p.faulty.url, list(SB)),
    );
    assert.equal(keyless[0].status, 401, 'a request without a key is refused on arrival');
  },
  'query-in-shared-state': async (p) => {
    const run = (base: string) =>
      together(
        () => call(base, list(SB, 'offset=1&limit=3')),
        () => call(base, list(SB2, 'limit=5&sort=-amount')),
      );
    const [[c1], [f1, f2]] = [await run(p.clean.url), await run(p.faulty.url)];
    assert.deepEqual([c1.body.offset, c1.body.limit, c1.body.data.length], [1, 3, 3], 'clean: as sent');
    assert.deepEqual([f1.body.offset, f1.body.limit, f1.body.data.length], [0, 5, 5], "faulty: the other's parameters");
    assert.deepEqual(
      ids(f1.body.data),
      ids((await page(p.clean.url, SB, 'limit=5&sort=-amount')).data),
      'its own merchant',
    );
    assert.equal(f2.body.limit, 5, 'the last arrival is answered as itself');
    const alone = await page(p.faulty.url, SB, 'offset=1&limit=3');
    assert.deepEqual([alone.offset, alone.limit], [1, 3], 'alone, as sent');
  },
  'cache-keyed-by-url': async (p) => {
    const target = list(SB, 'limit=2&offset=7');
    const before = await call(p.faulty.url, target, { key: null });
    assert.equal(before.status, 401, 'nothing cached yet: refused');
    await page(p.faulty.url, SB, 'limit=2&offset=7');
    const [clean, faulty] = await Promise.all([p.clean.url, p.faulty.url].map((u) => call(u, target, { key: null })));
    assert.deepEqual([clean?.status, faulty?.status], [401, 200], 'once a key got it, served without one');
    const other = await call(p.faulty.url, list(SB, 'limit=2&offset=8'), { key: null });
    assert.equal(other.status, 401, 'another target stays refused');
  },
  'merchant-in-shared-state': async (p) => {
    const run = (base: string) =>
      together(
        () => call(base, list(SB, 'limit=5')),
        () => call(base, list(SB2, 'limit=5')),
      );
    const own = ids((await page(p.clean.url, SB, 'limit=5')).data);
    const other = ids((await page(p.clean.url, SB2, 'limit=5')).data);
    const [[c1], [f1, f2]] = [await run(p.clean.url), await run(p.faulty.url)];
    assert.deepEqual(ids(c1.body.data), own, "clean: the merchant's own payments");
    assert.deepEqual(ids(f1.body.data), other, "faulty: the other merchant's, who arrived while it was held");
    assert.deepEqual(ids(f2.body.data), other);
    assert.deepEqual(ids((await page(p.faulty.url, SB, 'limit=5')).data), own, 'alone, its own');
  },
};
