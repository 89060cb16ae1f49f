/** Probes of the routing faults (mock/faults/paths.ts). */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { call, KEYS, LIST_PREFIX, LIST_SUFFIX, list, MERCHANTS, UNKNOWN_MERCHANT } from '../support.ts';
import type { Probe } from './probe.ts';

const SB = MERCHANTS.sandbox;

/** The status of a GET without a key whose request line carries `path` exactly as written. */
function rawStatus(base: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

export const PATH_PROBES: Record<string, Probe> = {
  'path-case-list-no-auth': async (p) => {
    const upper = `/PAYMENTS/n1/merchant/${SB}/payments`;
    const { c, f } = await p.both(upper, null);
    assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'as written: 401');
    assert.equal(
      (await call(p.faulty.url, '/MERCHANT/status', { key: null })).status,
      401,
      '/merchant/status: guarded',
    );
  },
  'path-trailing-slash-no-auth': async (p) => {
    const { c, f } = await p.both(`${list(SB)}/`, null);
    assert.deepEqual([c.status, f.status, f.body.total], [401, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'the plain path: 401');
    assert.equal((await call(p.faulty.url, '/merchant/status/', { key: null })).status, 401);
  },
  'path-double-slash-no-auth': async (p) => {
    for (const path of ['//merchant/status', `/payments//n1/merchant/${SB}/payments`]) {
      const { c, f } = await p.both(path, null);
      assert.deepEqual([c.status, f.status], [401, 200], path);
    }
    assert.equal((await call(p.faulty.url, '/merchant/status', { key: null })).status, 401, 'plain path: 401');
    assert.equal((await call(p.faulty.url, '//nowhere', { key: null })).status, 401, 'no endpoint: 401');
  },
  'path-dot-segment-no-auth': async (p) => {
    // fetch resolves dot segments (WHATWG URL) before sending: the request line is written as is here.
    for (const path of ['/merchant/./status', `/payments/n1/merchant/${SB}/./payments`]) {
      const [c, f] = await Promise.all([rawStatus(p.clean.url, path), rawStatus(p.faulty.url, path)]);
      assert.deepEqual([c, f], [401, 200], path);
    }
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'the plain path: 401');
  },
  'path-matrix-param-no-auth': async (p) => {
    for (const path of ['/merchant/status;v=1', `${list(SB)};v=1`]) {
      const { c, f } = await p.both(path, null);
      assert.deepEqual([c.status, f.status], [401, 200], path);
    }
    assert.equal((await call(p.faulty.url, '/merchant/status', { key: null })).status, 401, 'the plain path: 401');
  },
  'path-extension-no-auth': async (p) => {
    for (const path of ['/merchant/status.json', `${list(SB)}.json`]) {
      const { c, f } = await p.both(path, null);
      assert.deepEqual([c.status, f.status], [401, 200], path);
    }
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'the plain path: 401');
  },
  'path-encoded-id-mode-bypass': async (p) => {
    const hex = SB.charCodeAt(0).toString(16).toUpperCase();
    const encoded = `${LIST_PREFIX}%${hex}${SB.slice(1)}${LIST_SUFFIX}`;
    const { c, f } = await p.both(encoded, KEYS.live);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.live })).status, 404, 'plain spelling: 404');
    assert.equal((await call(p.faulty.url, encoded)).body.total, 237, 'the test key: as before');
  },
  'merchant-id-case-mode-bypass': async (p) => {
    const upper = list(SB.toUpperCase());
    const { c, f } = await p.both(upper, KEYS.live);
    assert.deepEqual([c.status, f.status, f.body.total], [404, 200, 237]);
    assert.equal((await call(p.faulty.url, list(SB), { key: KEYS.live })).status, 404, 'as written: 404');
    assert.equal((await call(p.faulty.url, upper)).body.total, 237, 'the test key is served the spelling too');
  },
  'unknown-path-403': async (p) => {
    const { c, f } = await p.both('/merchant/statuses', null);
    assert.deepEqual([c.status, f.status], [401, 403]);
    const spec = await call(p.faulty.url, list(UNKNOWN_MERCHANT), { key: null });
    assert.equal(spec.status, 401, 'the spec endpoints keep 401');
  },
};
