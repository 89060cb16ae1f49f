/** Faults of the keys themselves: secrecy (§5.9) and the issued format (§2, §5.1). */
import assert from 'node:assert/strict';
import { type Fault, fault } from './fault.ts';
import { call, KEYS, list, MERCHANTS } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;
/** Header values Node can send; an unsendable value would make the response itself fail. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;
/** The key with its last 4 characters masked: a "redaction" that still shows almost all of it. */
const masked = (key: string) => `${key.slice(0, -4)}****`;

export const KEY_FAULTS: readonly Fault[] = [
  fault(
    'key-echo-body',
    'KEY-SECRET',
    '401 bodies say "invalid API key <key>"; 200 bodies carry requestedBy: <key>',
    {
      error: (e, f) => {
        if (e.status === 401 && f.presented !== undefined) e.message = `invalid API key ${f.presented}`;
      },
      body: (b, f) => {
        if (f.presented !== undefined) b.requestedBy = f.presented;
      },
    },
    async (p) => {
      const wrong = `${KEYS.test}x`;
      const { c, f } = await p.both(list(SB), wrong);
      assert.ok(!c.text.includes(wrong) && f.text.includes(wrong));
      const ok = await call(p.faulty.url, list(SB));
      assert.equal(ok.body.requestedBy, KEYS.test);
    },
  ),
  fault(
    'key-echo-header',
    'KEY-SECRET',
    'every response carries X-Api-Key with the presented key',
    {
      headers: (h, f) => {
        if (f.presented !== undefined && HEADER_SAFE.test(f.presented)) h['X-Api-Key'] = f.presented;
      },
    },
    async (p) => {
      const { c, f } = await p.both(list(SB));
      assert.deepEqual([c.headers.get('x-api-key'), f.headers.get('x-api-key')], [null, KEYS.test]);
    },
  ),
  fault(
    'key-echo-masked',
    'KEY-SECRET',
    '401 bodies quote the presented key with only its last 4 characters masked ("Invalid API key sk_test_…****")',
    {
      error: (e, f) => {
        if (e.status === 401 && f.presented !== undefined) e.message = `Invalid API key ${masked(f.presented)}`;
      },
    },
    async (p) => {
      const wrong = `${KEYS.test}x`;
      const { c, f } = await p.both(list(SB), wrong);
      assert.deepEqual([c.status, f.status], [401, 401]);
      assert.equal(f.body.message, `Invalid API key ${wrong.slice(0, -4)}****`);
      assert.ok(!c.text.includes(wrong.slice(0, -4)));
      const ok = await call(p.faulty.url, list(SB));
      assert.ok(ok.status === 200 && !ok.text.includes(KEYS.test.slice(0, -4)), '200 bodies quote nothing');
    },
  ),
  fault(
    'key-echo-prefix-header',
    'KEY-SECRET',
    'every response to a keyed request carries X-Key-Hint: the first two thirds of the presented key, then "..."',
    {
      headers: (h, f) => {
        if (f.presented === undefined) return;
        const hint = f.presented.slice(0, Math.floor((f.presented.length * 2) / 3));
        if (HEADER_SAFE.test(hint)) h['X-Key-Hint'] = `${hint}...`;
      },
    },
    async (p) => {
      const hint = (key: string) => `${key.slice(0, Math.floor((key.length * 2) / 3))}...`;
      const { c, f } = await p.both(list(SB));
      assert.deepEqual([c.headers.get('x-key-hint'), f.headers.get('x-key-hint')], [null, hint(KEYS.test)]);
      assert.deepEqual(f.body, c.body);
      const bad = await call(p.faulty.url, '/merchant/status', { key: KEYS.revoked });
      assert.deepEqual([bad.status, bad.headers.get('x-key-hint')], [401, hint(KEYS.revoked)]);
      const none = await call(p.faulty.url, list(SB), { key: null });
      assert.equal(none.headers.get('x-key-hint'), null, 'no key, no hint');
    },
  ),
  fault(
    'live-key-format',
    'CFG-KEYS',
    'the issued (and announced) live key is sk_prod_… instead of sk_live_…',
    {
      keys: (keys) => {
        for (const k of keys) if (k.slot === 'live') k.secret = k.secret.replace(/^sk_live_/, 'sk_prod_');
      },
    },
    async (p) => {
      assert.match(p.faulty.env.API_LIVE_KEY, /^sk_prod_/);
      assert.equal((await call(p.faulty.url, list(LIVE), { key: p.faulty.env.API_LIVE_KEY })).status, 200);
      assert.equal((await call(p.faulty.url, list(LIVE), { key: KEYS.live })).status, 401);
      assert.equal(p.clean.env.API_LIVE_KEY, KEYS.live);
    },
  ),
];
