/** Probes of the key faults (mock/faults/keys.ts): secrecy and the issued format. */
import assert from 'node:assert/strict';
import { base32 } from '@scure/base';
import { decodeHTML } from 'entities';
import { call, KEYS, list, MERCHANTS, UNKNOWN_MERCHANT } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;
const WRONG = `${KEYS.test}x`;

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
  'key-echo-hex-header': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.equal(c.headers.get('x-debug-key'), null);
    assert.equal(Buffer.from(f.headers.get('x-debug-key') ?? '', 'hex').toString(), KEYS.test);
    assert.ok(!f.headers.get('x-debug-key')?.includes(KEYS.test), 'the header holds no key as is');
    const refused = await call(p.faulty.url, list(SB), { key: WRONG });
    assert.equal(Buffer.from(refused.headers.get('x-debug-key') ?? '', 'hex').toString(), WRONG, 'refused keys too');
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).headers.get('x-debug-key'), null, 'no key, none');
  },
  'key-echo-html-entities': async (p) => {
    const { c, f } = await p.both(list(SB), WRONG);
    assert.deepEqual([c.status, f.status], [401, 401]);
    assert.match(c.headers.get('content-type') ?? '', /json/);
    assert.match(f.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(
      !f.text.includes(WRONG) && decodeHTML(f.text).includes(WRONG),
      'the page spells the key, a browser shows it',
    );
    const ok = await call(p.faulty.url, list(SB));
    assert.ok(ok.status === 200 && ok.body.data !== undefined, '200 answers stay JSON');
  },
  'key-echo-base32-trace': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.equal(c.body.trace, undefined);
    assert.equal(Buffer.from(base32.decode(String(f.body.trace))).toString(), `key=${KEYS.test}`);
    assert.deepEqual(f.body.data, c.body.data);
    const refused = await call(p.faulty.url, list(SB), { key: WRONG });
    assert.equal(refused.status, 401);
    assert.ok(!('trace' in (refused.body as object)), 'error bodies carry no trace');
  },
  'key-echo-double-encoded-link': async (p) => {
    const { c, f } = await p.both(list(SB), WRONG);
    assert.deepEqual([c.status, f.status, c.headers.get('link')], [401, 401, null]);
    const link = f.headers.get('link') ?? '';
    assert.ok(!link.includes(WRONG) && !decodeURIComponent(link).includes(WRONG), 'decoded once, still no key');
    assert.ok(decodeURIComponent(decodeURIComponent(link)).includes(`presented=${WRONG}>`), 'decoded twice, the key');
    assert.equal((await call(p.faulty.url, list(SB))).headers.get('link'), null, 'accepted keys get no help link');
  },
  'key-echo-quoted-printable': async (p) => {
    const { c, f } = await p.both(list(UNKNOWN_MERCHANT));
    assert.deepEqual([c.status, f.status], [404, 404]);
    const debug = String((f.body as unknown as { debug: string }).debug);
    const decoded = Buffer.from(debug.replaceAll('=', ''), 'hex').toString();
    assert.equal(decoded, `Authorization: Bearer ${KEYS.test}`);
    assert.equal((c.body as unknown as { debug?: string }).debug, undefined);
    assert.equal((await call(p.faulty.url, list(SB), { key: WRONG })).text.includes('debug'), false, '401s: none');
  },
  'live-key-format': async (p) => {
    assert.match(p.faulty.env.API_LIVE_KEY, /^sk_prod_/);
    assert.equal((await call(p.faulty.url, list(LIVE), { key: p.faulty.env.API_LIVE_KEY })).status, 200);
    assert.equal((await call(p.faulty.url, list(LIVE), { key: KEYS.live })).status, 401);
    assert.equal(p.clean.env.API_LIVE_KEY, KEYS.live);
  },
};
