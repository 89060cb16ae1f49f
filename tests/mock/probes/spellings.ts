/** Probes of the merchant-id spelling faults (mock/faults/spellings.ts). */
import assert from 'node:assert/strict';
import { call, KEYS, LIST_PREFIX, LIST_SUFFIX, list, MERCHANTS } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LV = MERCHANTS.live;
/** Printable ASCII to its fullwidth form (U+FF01..U+FF5E), which NFKC folds back. */
const fullwidth = (s: string) =>
  Array.from(s, (c) => String.fromCodePoint((c.codePointAt(0) as number) + 0xfee0)).join('');
/** A list path with the merchant id segment as sent. */
const at = (segment: string) => `${LIST_PREFIX}${segment}${LIST_SUFFIX}`;

export const SPELLING_PROBES: Record<string, Probe> = {
  'merchant-id-nfkc-mode-bypass': async (p) => {
    const path = list(fullwidth(SB));
    const { c, f } = await p.both(path, KEYS.live);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.live })).status, 404, 'as written: 404');
    assert.equal((await call(p.faulty.url, path)).body.total, 237, 'the test key is served the spelling too');
  },
  'merchant-id-live-lookup-nfkc': async (p) => {
    const path = list(fullwidth(SB));
    const { c, f } = await p.both(path, KEYS.live);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
    assert.equal((await call(p.faulty.url, path)).status, 404, 'the test key is not served the spelling');
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.live })).status, 404, 'as written: 404');
  },
  'merchant-id-trim-permission-skip': async (p) => {
    for (const segment of [`${SB}.`, `${SB}%20`, `%C2%A0${SB}`]) {
      const { c, f } = await p.both(at(segment), KEYS.restricted);
      assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237], segment);
    }
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.restricted })).status, 403, 'as written: 403');
    assert.equal((await call(p.faulty.url, at(`${SB}.`), { key: KEYS.live })).status, 404, 'the mode check holds');
  },
  'merchant-id-confusable-no-auth': async (p) => {
    // The second letter, "s", as the Cyrillic dze U+0455 (UTS #39: the same skeleton).
    const path = list(`${SB[0]}\u0455${SB.slice(2)}`);
    const { c, f } = await p.both(path, null);
    assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'the id itself: 401');
    assert.equal((await call(p.faulty.url, list('msb_unrelated0000'), { key: null })).status, 401, 'no look-alike');
  },
  'merchant-id-encoded-slash-no-auth': async (p) => {
    for (const segment of [`${SB}%2F`, `x%2F..%2F${SB}`, `${SB}%5C`]) {
      const { c, f } = await p.both(at(segment), null);
      assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237], segment);
    }
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'the id itself: 401');
  },
  'merchant-id-prefix-group': async (p) => {
    const path = list(SB.slice(0, -1), 'limit=100');
    const { c, f } = await p.both(path, KEYS.test);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 277], 'both sandbox merchants: 237 + 40');
    assert.ok(
      f.body.data.some((r) => r.merchantId === MERCHANTS.otherSandbox),
      "the other merchant's payments",
    );
    assert.equal((await call(p.faulty.url, list(SB))).body.total, 237, 'the id itself: its own listing');
  },
  'merchant-id-casefold-mode-mix': async (p) => {
    const path = list(LV.toUpperCase());
    const { c, f } = await p.both(path, KEYS.test);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 204], 'test and live payments: 61 + 143');
    assert.equal((await call(p.faulty.url, list(LV))).body.total, 61, 'as written: the test payments only');
    assert.equal((await call(p.faulty.url, list(SB.toUpperCase()))).status, 404, 'a sandbox merchant: unknown');
  },
  'merchant-id-as-pattern': async (p) => {
    const { c, f } = await p.both(`${at('%25')}?limit=100`);
    assert.deepEqual([c.status, f.status], [404, 200], 'every id as a pattern: served');
    const merchants = new Set((f.body.data as Array<{ merchantId: string }>).map((r) => r.merchantId));
    assert.ok(merchants.size >= 2, `records of ${merchants.size} merchant(s) in one page`);
    const prefixed = await call(p.faulty.url, at(`${SB.slice(0, 4)}%25`));
    assert.equal(prefixed.status, 200, 'its prefix and %: served');
    assert.equal((await call(p.faulty.url, at('%25'), { key: null })).status, 401, 'authentication first');
    assert.equal((await call(p.faulty.url, at('%25'), { key: KEYS.restricted })).status, 403, 'then the permission');
    assert.equal((await call(p.faulty.url, list(SB))).body.total, 237, 'the exact id as before');
  },
};
