/** Probes of the faults behind inputs the spec does not document (mock/faults/doors.ts). */
import assert from 'node:assert/strict';
import { call, KEYS, list, MERCHANTS, page } from '../support.ts';
import type { Probe, ProbeContext } from './probe.ts';

const SB = MERCHANTS.sandbox;
const JSON_TYPE = { 'content-type': 'application/json' };
const b64json = (s: string | null) => JSON.parse(Buffer.from(s ?? '', 'base64').toString('utf8'));

/** The statuses (clean, faulty) of the sandbox listing without Authorization, the test key in header `name`. */
async function keyInHeader(p: ProbeContext, name: string): Promise<[number, number]> {
  const headers = { [name]: KEYS.test };
  const [c, f] = await Promise.all([p.clean.url, p.faulty.url].map((u) => call(u, list(SB), { key: null, headers })));
  return [c?.status ?? 0, f?.status ?? 0];
}

export const DOOR_PROBES: Record<string, Probe> = {
  'key-in-query-param': async (p) => {
    const { c, f } = await p.both(list(SB), null, undefined);
    assert.deepEqual([c.status, f.status], [401, 401], 'no key anywhere: refused');
    const inQuery = (key: string) => list(SB, `access_token=${key}`);
    const clean = await call(p.clean.url, inQuery(KEYS.test), { key: null });
    const faulty = await call(p.faulty.url, inQuery(KEYS.test), { key: null });
    assert.deepEqual([clean.status, faulty.status], [401, 200], 'the test key as access_token: served');
    const revoked = await call(p.faulty.url, inQuery(KEYS.revoked), { key: null });
    assert.equal(revoked.status, 401, 'a revoked key stays refused there');
  },
  'key-in-x-api-key': async (p) => {
    const { c, f } = await p.both(list(SB), null, undefined);
    assert.deepEqual([c.status, f.status], [401, 401], 'no key anywhere: refused');
    assert.deepEqual(await keyInHeader(p, 'x-api-key'), [401, 200]);
    const revoked = await call(p.faulty.url, list(SB), { key: null, headers: { 'x-api-key': KEYS.revoked } });
    assert.equal(revoked.status, 401, 'a revoked key stays refused there');
  },
  'advertised-credential-header': async (p) => {
    const { c, f } = await p.both(list(SB), null, undefined);
    assert.deepEqual([c.status, f.status], [401, 401], 'no key anywhere: refused');
    assert.match(f.headers.get('access-control-allow-headers') ?? '', /X-Gateway-Credential/);
    assert.deepEqual(await keyInHeader(p, 'x-gateway-credential'), [401, 200]);
  },
  'preflight-credential-header': async (p) => {
    const preflight = { origin: 'https://x.invalid', 'access-control-request-method': 'GET' };
    const [clean, faulty] = await Promise.all(
      [p.clean.url, p.faulty.url].map((u) => call(u, list(SB), { key: null, method: 'OPTIONS', headers: preflight })),
    );
    assert.doesNotMatch(clean?.headers.get('access-control-allow-headers') ?? '', /X-Partner-Token/);
    assert.match(faulty?.headers.get('access-control-allow-headers') ?? '', /X-Partner-Token/);
    const plain = await call(p.faulty.url, list(SB), { key: null });
    assert.doesNotMatch(plain.headers.get('access-control-allow-headers') ?? '', /X-Partner-Token/, 'named only there');
    assert.deepEqual(await keyInHeader(p, 'x-partner-token'), [401, 200]);
  },
  'refusal-varies-on-credential-header': async (p) => {
    const [clean, faulty] = await Promise.all(
      [p.clean.url, p.faulty.url].map((u) => call(u, list(SB, 'filter[status]=COMPLETED'), { key: null })),
    );
    assert.deepEqual([clean?.status, faulty?.status], [401, 401]);
    assert.doesNotMatch(clean?.headers.get('vary') ?? '', /X-Session-Key/);
    assert.match(faulty?.headers.get('vary') ?? '', /X-Session-Key/, 'a refusal of a request with a query names it');
    const plain = await call(p.faulty.url, list(SB), { key: null });
    assert.doesNotMatch(plain.headers.get('vary') ?? '', /X-Session-Key/, 'a refusal without a query does not');
    const served = await call(p.faulty.url, list(SB, 'limit=1'));
    assert.doesNotMatch(served.headers.get('vary') ?? '', /X-Session-Key/, 'nor does an allowed answer');
    assert.deepEqual(await keyInHeader(p, 'x-session-key'), [401, 200]);
  },
  'conditional-before-auth': async (p) => {
    const { c, f } = await p.both(list(SB));
    assert.equal(c.headers.get('etag'), null, 'the clean mock hands out no entity tag');
    const tag = f.headers.get('etag') ?? '';
    assert.match(tag, /^"[0-9a-f]+"$/);
    for (const inm of [tag, '*']) {
      const headers = { 'if-none-match': inm };
      const [clean, faulty] = await Promise.all(
        [p.clean.url, p.faulty.url].map((u) => call(u, list(SB), { key: null, headers })),
      );
      assert.deepEqual([clean?.status, faulty?.status], [401, 304], `no key, If-None-Match: ${inm}`);
    }
    const other = await call(p.faulty.url, list(SB), { key: null, headers: { 'if-none-match': '"other"' } });
    assert.equal(other.status, 401, 'a tag it did not hand out: refused');
    assert.equal((await call(p.faulty.url, list(SB), { key: null })).status, 401, 'not conditional: refused');
  },
  'csv-export-uncapped': async (p) => {
    const accept = { accept: 'text/csv, application/json;q=0.5' };
    const [clean, faulty] = await Promise.all(
      [p.clean.url, p.faulty.url].map((u) => call(u, list(SB, 'limit=5'), { headers: accept })),
    );
    assert.equal(clean?.body?.data.length, 5, 'the clean mock answers JSON, capped');
    assert.match(faulty?.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = (faulty?.text ?? '').split('\n');
    assert.match(lines[0] ?? '', /(^|,)id(,|$)/, 'a header row');
    assert.ok(lines.length - 1 > 100, `every record, past the cap: ${lines.length - 1} rows`);
    const json = await call(p.faulty.url, list(SB, 'limit=5'));
    assert.equal(json.body.data.length, 5, 'JSON stays capped');
  },
  'format-param-csv-uncapped': async (p) => {
    const [clean, faulty] = await Promise.all(
      [p.clean.url, p.faulty.url].map((u) => call(u, list(SB, 'limit=5&format=csv'))),
    );
    assert.equal(clean?.body?.data.length, 5, 'the clean mock ignores the parameter: JSON, capped');
    assert.match(faulty?.headers.get('content-type') ?? '', /^text\/csv/);
    assert.ok((faulty?.text ?? '').split('\n').length - 1 > 100, 'every record, past the cap');
    assert.equal((await call(p.faulty.url, list(SB, 'limit=5'))).body.data.length, 5, 'without it: capped');
  },
  'session-cookie-accepted': async (p) => {
    const { c, f } = await p.both(list(SB, 'limit=1'));
    assert.equal(c.headers.get('set-cookie'), null);
    const cookie = f.headers.get('set-cookie')?.split(';')[0] ?? '';
    assert.match(cookie, /^sid=s_/);
    assert.ok(!cookie.includes(KEYS.test.slice(8)), 'the session holds no key');
    const [clean, faulty] = await Promise.all([
      call(p.clean.url, list(SB), { key: null, headers: { cookie } }),
      call(p.faulty.url, list(SB), { key: null, headers: { cookie } }),
    ]);
    assert.deepEqual([clean.status, faulty.status], [401, 200]);
    const forged = await call(p.faulty.url, list(SB), { key: null, headers: { cookie: 'sid=s_forged' } });
    assert.equal(forged.status, 401);
  },
  'merchant-from-query': async (p) => {
    const { c, f } = await p.both(list(SB, `merchant_id=${MERCHANTS.otherSandbox}&limit=100`));
    assert.deepEqual([c.status, f.status], [200, 200]);
    const other = await page(p.clean.url, MERCHANTS.otherSandbox, 'limit=100');
    assert.deepEqual((await page(p.clean.url, SB, 'limit=100')).data, c.body.data, 'clean: the parameter is ignored');
    assert.deepEqual(f.body.data, other.data, "faulty: the other merchant's payments");
    assert.deepEqual((await page(p.faulty.url, SB, 'limit=100')).data, c.body.data, 'without it: the path merchant');
  },
  'key-list-accepted': async (p) => {
    const { c, f } = await p.both(list(SB), null, `Bearer ${KEYS.test},${KEYS.test}`);
    assert.deepEqual([c.status, f.status], [401, 200]);
    const mixed = await call(p.faulty.url, list(SB), { auth: `Bearer ${KEYS.test},${KEYS.test}x` });
    assert.equal(mixed.status, 401, 'a list of different elements stays refused');
    const trailing = await call(p.faulty.url, list(SB), { auth: `Bearer ${KEYS.test},` });
    assert.equal(trailing.status, 401, 'the grammar table\'s "followed by a comma" stays refused');
  },
  'merchant-id-control-mode-bypass': async (p) => {
    const { c, f } = await p.both(`/payments/n1/merchant/${SB}%00/payments`, KEYS.live);
    assert.deepEqual([c.status, f.status], [404, 200]);
    assert.ok(f.body.data.length > 0, "the sandbox merchant's payments to the live key");
    const plain = await call(p.faulty.url, list(SB), { key: KEYS.live });
    assert.equal(plain.status, 404, 'the id as issued: the mode check holds');
  },
  'invalid-key-401-base64-page': async (p) => {
    const served = await page(p.faulty.url, SB, 'limit=2');
    const { c, f } = await p.both(list(SB), `${KEYS.test}x`);
    assert.deepEqual([c.status, f.status], [401, 401]);
    assert.equal(c.headers.get('x-debug-trace'), null);
    assert.deepEqual(b64json(f.headers.get('x-debug-trace')), served.data);
    const revoked = await call(p.faulty.url, list(SB), { key: KEYS.revoked });
    assert.equal(revoked.headers.get('x-debug-trace'), null, 'an issued key (revoked) gets none');
  },
  'busy-503-carries-page': async (p) => {
    const served = await page(p.faulty.url, SB, 'limit=2');
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await call(p.faulty.url, list(SB), { key: null }));
    const busy = answers.filter((a) => a.status === 503);
    assert.equal(busy.length, 1, 'one request in 20 without a key');
    assert.equal(busy[0]?.headers.get('retry-after'), '0');
    const body = busy[0]?.body as unknown as { lastResult?: unknown } | undefined;
    assert.deepEqual(body?.lastResult, served.data);
    const clean = await call(p.clean.url, list(SB), { key: null });
    assert.equal(clean.status, 401);
  },
  'status-no-content-type-open': async (p) => {
    const { c, f } = await p.both('/merchant/status', null);
    assert.deepEqual([c.status, f.status], [401, 200], 'no key, no Content-Type');
    const typed = await call(p.faulty.url, '/merchant/status', { key: null, headers: JSON_TYPE });
    assert.equal(typed.status, 401, 'with the documented Content-Type: refused');
  },
  'status-accepts-key-shape': async (p) => {
    const shaped = `sk_test_${'x'.repeat(KEYS.test.length - 8)}`;
    const { c, f } = await p.both('/merchant/status', shaped);
    assert.deepEqual([c.status, f.status], [401, 200]);
    const digit = await call(p.faulty.url, '/merchant/status', { key: `${shaped.slice(0, -1)}0` });
    assert.equal(digit.status, 401, 'a digit in it: refused');
    const short = await call(p.faulty.url, '/merchant/status', { key: shaped.slice(0, -1) });
    assert.equal(short.status, 401, 'another length: refused');
    const listed = await call(p.faulty.url, list(SB), { key: shaped });
    assert.equal(listed.status, 401, 'the listing: refused');
  },
  'live-on-sandbox-sorted-deep': async (p) => {
    const { c, f } = await p.both(list(SB, 'sort=-amount&offset=30'), KEYS.live);
    assert.deepEqual([c.status, f.status], [404, 200]);
    for (const q of ['sort=-amount', 'offset=30', 'sort=amount&offset=10']) {
      const r = await call(p.faulty.url, list(SB, q), { key: KEYS.live });
      assert.equal(r.status, 404, `${q}: the mode check holds`);
    }
  },
  'live-on-sandbox-desc-deep-get': async (p) => {
    const { c, f } = await p.both(list(SB, 'sort=-amount&offset=30'), KEYS.live);
    assert.deepEqual([c.status, f.status], [404, 200]);
    for (const q of ['sort=amount&offset=30', 'sort=-amount&offset=10', 'offset=30']) {
      const r = await call(p.faulty.url, list(SB, q), { key: KEYS.live });
      assert.equal(r.status, 404, `${q}: the mode check holds`);
    }
    const head = await call(p.faulty.url, list(SB, 'sort=-amount&offset=30'), { key: KEYS.live, method: 'HEAD' });
    assert.equal(head.status, 404, 'HEAD: the mode check holds');
  },
};
