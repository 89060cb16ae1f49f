/** Probes of the key faults (mock/faults/keys.ts): secrecy and the issued format. */
import assert from 'node:assert/strict';
import { call, KEYS, list, MERCHANTS } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;

export const KEY_PROBES: Record<string, Probe> = {
  'key-echo-body': async (p) => {
    const wrong = `${KEYS.test}x`;
    const { c, f } = await p.both(list(SB), wrong);
    assert.ok(!c.text.includes(wrong) && f.text.includes(wrong));
    const ok = await call(p.faulty.url, list(SB));
    assert.equal(ok.body.requestedBy, KEYS.test);
  },
  'key-echo-header': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.deepEqual([c.headers.get('x-api-key'), f.headers.get('x-api-key')], [null, KEYS.test]);
  },
  'key-echo-json-escaped': async (p) => {
    const wrong = `${KEYS.test}x`;
    const { c, f } = await p.both(list(SB), wrong);
    assert.deepEqual([c.status, f.status], [401, 401]);
    assert.ok(!f.text.includes(wrong), 'the raw bytes hold no key');
    assert.equal(f.body.presented, wrong, 'a client decodes it');
    assert.equal(c.body.presented, undefined);
    assert.equal((await call(p.faulty.url, list(SB))).body.presented, undefined, '200 bodies quote nothing');
  },
  'key-echo-masked': async (p) => {
    const wrong = `${KEYS.test}x`;
    const { c, f } = await p.both(list(SB), wrong);
    assert.deepEqual([c.status, f.status], [401, 401]);
    assert.equal(f.body.message, `Invalid API key ${wrong.slice(0, -4)}****`);
    assert.ok(!c.text.includes(wrong.slice(0, -4)));
    const ok = await call(p.faulty.url, list(SB));
    assert.ok(ok.status === 200 && !ok.text.includes(KEYS.test.slice(0, -4)), '200 bodies quote nothing');
  },
  'key-echo-prefix-header': async (p) => {
    const hint = (key: string) => `${key.slice(0, Math.floor((key.length * 2) / 3))}...`;
    const { c, f } = await p.both(list(SB));
    assert.deepEqual([c.headers.get('x-key-hint'), f.headers.get('x-key-hint')], [null, hint(KEYS.test)]);
    assert.deepEqual(f.body, c.body);
    const bad = await call(p.faulty.url, '/merchant/status', { key: KEYS.revoked });
    assert.deepEqual([bad.status, bad.headers.get('x-key-hint')], [401, hint(KEYS.revoked)]);
    const none = await call(p.faulty.url, list(SB), { key: null });
    assert.equal(none.headers.get('x-key-hint'), null, 'no key, no hint');
  },
  'live-key-format': async (p) => {
    assert.match(p.faulty.env.API_LIVE_KEY, /^sk_prod_/);
    assert.equal((await call(p.faulty.url, list(LIVE), { key: p.faulty.env.API_LIVE_KEY })).status, 200);
    assert.equal((await call(p.faulty.url, list(LIVE), { key: KEYS.live })).status, 401);
    assert.equal(p.clean.env.API_LIVE_KEY, KEYS.live);
  },
};
