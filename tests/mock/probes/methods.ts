/** Probes of the method faults (mock/faults/methods.ts): the same HEAD or OPTIONS to a clean and a faulty mock. */
import assert from 'node:assert/strict';
import { type CallOptions, call, KEYS, list, MERCHANTS } from '../support.ts';
import type { Probe, ProbeContext } from './probe.ts';

const SB = MERCHANTS.sandbox;

/** The same request of any method to the clean (c) and the faulty (f) mock. */
async function both(p: ProbeContext, method: string, path: string, opts: CallOptions = {}) {
  const [c, f] = await Promise.all([
    call(p.clean.url, path, { ...opts, method }),
    call(p.faulty.url, path, { ...opts, method }),
  ]);
  return { c, f };
}

export const METHOD_PROBES: Record<string, Probe> = {
  'head-no-auth': async (p) => {
    for (const path of [list(SB), '/merchant/status']) {
      const { c, f } = await both(p, 'HEAD', path, { key: null });
      assert.deepEqual([c.status, f.status, f.text], [401, 200, ''], path);
    }
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'GET without a key: 401');
  },
  'head-mode-unchecked': async (p) => {
    const { c, f } = await both(p, 'HEAD', list(SB), { key: KEYS.live });
    assert.deepEqual([c.status, f.status], [404, 200]);
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.live })).status, 404, 'GET: 404');
    assert.equal((await call(p.faulty.url, list(SB), { key: null, method: 'HEAD' })).status, 401, 'no key: 401');
  },
  'head-permission-unchecked': async (p) => {
    const { c, f } = await both(p, 'HEAD', list(SB), { key: KEYS.restricted });
    assert.deepEqual([c.status, f.status], [403, 200]);
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.restricted })).status, 403, 'GET: 403');
  },
  'options-get-handler': async (p) => {
    const { c, f } = await both(p, 'OPTIONS', list(SB), { key: null });
    assert.deepEqual([c.status, f.status, f.body.total, f.body.data.length], [401, 200, 237, 10]);
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'GET without a key: 401');
    assert.equal((await call(p.faulty.url, '/nowhere', { key: null, method: 'OPTIONS' })).status, 401);
  },
  'head-key-echo': async (p) => {
    const { c, f } = await both(p, 'HEAD', list(SB));
    assert.deepEqual([c.status, f.status], [200, 200]);
    assert.deepEqual([c.headers.get('x-authenticated-key'), f.headers.get('x-authenticated-key')], [null, KEYS.test]);
    assert.equal((await call(p.faulty.url, list(SB))).headers.get('x-authenticated-key'), null, 'GET: no echo');
  },
  'options-key-echo': async (p) => {
    const wrong = `${KEYS.test}x`;
    const { c, f } = await both(p, 'OPTIONS', '/merchant/status', { key: wrong });
    assert.deepEqual([c.status, f.status], [401, 401]);
    const header = 'x-reflected-authorization';
    assert.deepEqual([c.headers.get(header), f.headers.get(header)], [null, `Bearer ${wrong}`]);
    assert.equal(
      (await call(p.faulty.url, list(SB), { method: 'OPTIONS' })).headers.get(header),
      `Bearer ${KEYS.test}`,
    );
    assert.equal((await call(p.faulty.url, list(SB))).headers.get(header), null, 'GET: no echo');
  },
};
