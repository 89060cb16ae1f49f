/** Probes of what an answer carries beyond its status (mock/faults/refusals.ts). */
import assert from 'node:assert/strict';
import { call, KEYS, list, MERCHANTS, page } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;
const LIVE = MERCHANTS.live;

export const REFUSAL_PROBES: Record<string, Probe> = {
  'forbidden-carries-page': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=3'), KEYS.restricted);
    assert.deepEqual([c.status, f.status], [403, 403]);
    assert.equal(c.body.data, undefined);
    assert.deepEqual(f.body.data, (await page(p.clean.url, SB, 'limit=3')).data, 'the page the listing would serve');
  },
  'other-mode-404-carries-record': async (p) => {
    const { c, f } = await p.both(list(SB), KEYS.live);
    assert.deepEqual([c.status, f.status], [404, 404]);
    assert.equal(c.headers.get('x-debug-record'), null);
    const first = (await page(p.clean.url, SB)).data[0];
    assert.deepEqual(JSON.parse(f.headers.get('x-debug-record') ?? 'null'), first);
    assert.deepEqual(f.body, c.body, 'the body is clean');
  },
  'last-page-in-401': async (p) => {
    const served = await page(p.faulty.url, LIVE, 'limit=2', KEYS.live);
    const { c, f } = await p.both(list(SB), null);
    assert.deepEqual([c.status, f.status], [401, 401]);
    assert.equal((c.body as unknown as { lastResult?: unknown }).lastResult, undefined);
    assert.deepEqual((f.body as unknown as { lastResult?: unknown }).lastResult, served.data, "another caller's page");
  },
  'revoked-401-names-last-payment': async (p) => {
    const served = (await page(p.faulty.url, SB, 'limit=1')).data[0];
    const { c, f } = await p.both(list(SB), KEYS.revoked);
    assert.deepEqual([c.status, f.status], [401, 401]);
    assert.equal(c.headers.get('x-last-activity'), null);
    assert.match(f.headers.get('x-last-activity') ?? '', new RegExp(`id=${served?.id} amount=${served?.amount} `));
    const invalid = await call(p.faulty.url, list(SB), { key: `${KEYS.test}x` });
    assert.equal(invalid.headers.get('x-last-activity'), null, 'the revoked key only');
  },
  'status-filter-forgets-mode': async (p) => {
    const { c, f } = await p.both(list(LIVE, 'filter[status]=PENDING&limit=100'));
    assert.deepEqual([c.status, f.status], [200, 200]);
    assert.ok(c.body.data.every((r) => r.id.startsWith('pay_test_')));
    assert.ok(
      f.body.data.some((r) => r.id.startsWith('pay_live_')),
      'live payments to the test key',
    );
    const completed = await call(p.faulty.url, list(LIVE, 'filter[status]=COMPLETED&limit=100'));
    assert.ok(
      completed.body.data.every((r) => r.id.startsWith('pay_test_')),
      'COMPLETED: the mode holds',
    );
  },
};
