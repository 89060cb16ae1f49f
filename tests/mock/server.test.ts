/**
 * The clean mock over HTTP: authentication, modes and merchants, routing, headers (§4.1, §5, §7 and
 * reading.md "Keys, modes, merchants", "Bodies and headers"). Pagination, filter and sort: query.test.ts.
 */
import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { MESSAGES } from '../../mock/errors.ts';
import { IDENTITY, type RecordedRequest, type RunningMock, startMock } from '../../mock/index.ts';
import {
  ALL_KEYS,
  call,
  type EnvelopeJson,
  ids,
  KEYS,
  leaksKey,
  list,
  MERCHANTS,
  type Res,
  raw,
  walk,
} from './support.ts';

let mock: RunningMock;
let base: string;
before(async () => {
  mock = await startMock();
  base = mock.url;
});
after(() => mock.stop());

const sandboxList = list(MERCHANTS.sandbox);
const unknownList = list('msb_doesNotExist');

interface StatusJson {
  success: boolean;
  message: string;
  mode: string;
}

function assertError(res: Res<unknown>, status: number, message: string): void {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(res.body, { success: false, message });
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
}

describe('AUTH-MISSING, AUTH-FIRST: no key is 401 on every path, existing or not', () => {
  for (const path of ['/merchant/status', sandboxList, unknownList, '/nowhere', '/', '/merchant/status/']) {
    test(`GET ${path}`, async () => {
      assertError(await call(base, path, { key: null }), 401, MESSAGES.missingKey);
    });
  }
  test('a blank Authorization header counts as missing', async () => {
    assertError(await call(base, sandboxList, { auth: '  ' }), 401, MESSAGES.missingKey);
  });
  test('non-GET without a key is 401 too (auth before method)', async () => {
    assertError(await call(base, sandboxList, { key: null, method: 'POST', body: '{}' }), 401, MESSAGES.missingKey);
  });
});

/** The key with the case of its last letter swapped. */
function flipLastLetter(key: string): string {
  const i = key.search(/[a-zA-Z][^a-zA-Z]*$/);
  const c = key.charAt(i);
  return key.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + key.slice(i + 1);
}

describe('AUTH-INVALID: only the exact issued string is a key', () => {
  const k = KEYS.test;
  const altered = `${k.slice(0, -1)}${k.endsWith('6') ? '7' : '6'}`;
  const invalid: [string, string][] = [
    ['case-changed', k.toUpperCase()],
    ['one letter case-changed', flipLastLetter(k)],
    ['truncated', k.slice(0, -1)],
    ['truncated to the prefix', 'sk_test_'],
    ['extended', `${k}0`],
    ['one character altered', altered],
    ['unknown', 'sk_test_unknownKEY000000000000000'],
    ['malformed', 'not-a-key'],
  ];
  for (const [name, key] of invalid) {
    test(`${name} key: 401 on list and status`, async () => {
      assertError(await call(base, sandboxList, { key }), 401, MESSAGES.invalidKey);
      assertError(await call(base, '/merchant/status', { key }), 401, MESSAGES.invalidKey);
    });
  }
  const schemes: [string, string][] = [
    ['Basic <key>', `Basic ${k}`],
    ['bare key', k],
    ['Token <key>', `Token ${k}`],
    ['Bearer without key', 'Bearer'],
    ['Bearer <key> with trailing junk', `Bearer ${k} x`],
  ];
  for (const [name, auth] of schemes) {
    test(`${name}: 401 (ADV-SCHEME clean)`, async () => {
      assertError(await call(base, sandboxList, { auth }), 401, MESSAGES.invalidKey);
    });
  }
  test('more than the key in the header, or the key glued to its scheme: 401 (another credential)', async () => {
    const more = [
      `Bearer ${k} ${k}`,
      `Bearer ${k},`,
      `Bearer ${k}, Bearer not-a-key`,
      `Bearer ${k}, Bearer ${KEYS.live}`,
      `Bearer ${k}, Basic Zm9vOmJhcg==`,
      `Bearer ${k};`,
      `Bearer ${k}; realm=x`,
      `Bearer "${k}"`,
      `Bearer not-a-key, Bearer ${k}`,
      `Bearer${k}`,
      `Bearer: ${k}`,
    ];
    for (const auth of more) {
      assertError(await call(base, sandboxList, { auth }), 401, MESSAGES.invalidKey);
      assertError(await call(base, '/merchant/status', { auth }), 401, MESSAGES.invalidKey);
    }
  });
  test('whitespace before the value or after the key is no part of it (HTTP strips it): the key', async () => {
    // node:http sends a header value as given (fetch would trim it first).
    const status = (authorization: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const req = httpGet(`${base}${sandboxList}`, { headers: { authorization } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
      });
    for (const auth of [` Bearer ${k}`, `Bearer ${k} `, `Bearer ${k}\t`, `\tbearer\t${k} \t`]) {
      assert.equal(await status(auth), 200, JSON.stringify(auth.replace(k, '<key>')));
    }
  });
  test('one or more spaces or tabs between scheme and key (spacing=lenient)', async () => {
    for (const gap of ['  ', '\t', ' \t ']) {
      assert.equal((await call(base, sandboxList, { auth: `Bearer${gap}${k}` })).status, 200, JSON.stringify(gap));
    }
  });
  test('the scheme name is case-insensitive (RFC 9110 §11.1)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const res = await call(base, sandboxList, { auth: `${scheme} ${k}` });
      assert.equal(res.status, 200, scheme);
    }
  });
});

describe('AUTH-REVOKED, AUTH-FORBIDDEN, AUTH-STATUS', () => {
  test('the revoked key is 401 everywhere', async () => {
    for (const path of [sandboxList, '/merchant/status', unknownList, '/nowhere']) {
      assertError(await call(base, path, { key: KEYS.revoked }), 401, MESSAGES.revokedKey);
    }
  });
  test('the restricted key is 403 on the payments list, never 401 or 200', async () => {
    assertError(await call(base, sandboxList, { key: KEYS.restricted }), 403, MESSAGES.forbidden);
    assertError(await call(base, list(MERCHANTS.live), { key: KEYS.restricted }), 403, MESSAGES.forbidden);
  });
  test('/merchant/status accepts the test, live and restricted keys', async () => {
    const modes: [string, string][] = [
      [KEYS.test, 'sandbox'],
      [KEYS.live, 'live'],
      [KEYS.restricted, 'sandbox'],
    ];
    for (const [key, mode] of modes) {
      const res = await call<StatusJson>(base, '/merchant/status', { key });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { success: true, message: MESSAGES.keyAccepted, mode });
    }
  });
  test('a valid key learns the merchant is unknown: 404 (ADV-UNKNOWN-MERCHANT)', async () => {
    assertError(await call(base, unknownList), 404, MESSAGES.merchantNotFound);
    assertError(await call(base, unknownList, { key: KEYS.live }), 404, MESSAGES.merchantNotFound);
    assertError(await call(base, unknownList, { key: KEYS.restricted }), 404, MESSAGES.merchantNotFound);
  });
});

describe('MODE-*, MER-ISOLATION: the key selects the mode; listings never share a record', () => {
  test('MODE-TEST-SANDBOX: test key on the sandbox merchants', async () => {
    const sandbox = await walk(base, MERCHANTS.sandbox, '', 100);
    const other = await walk(base, MERCHANTS.otherSandbox, '', 100);
    assert.equal(sandbox.total, 237);
    assert.equal(other.total, 40);
    assert.ok(sandbox.records.every((r) => r.merchantId === MERCHANTS.sandbox && r.id.startsWith('pay_test_')));
    assert.ok(other.records.every((r) => r.merchantId === MERCHANTS.otherSandbox));
    const shared = ids(sandbox.records).filter((id) => ids(other.records).includes(id));
    assert.deepEqual(shared, []);
  });
  test('MODE-LIVE-SANDBOX: live key on a sandbox merchant is 404', async () => {
    assertError(await call(base, sandboxList, { key: KEYS.live }), 404, MESSAGES.otherMode);
    assertError(await call(base, list(MERCHANTS.otherSandbox), { key: KEYS.live }), 404, MESSAGES.otherMode);
  });
  test('MODE-TEST-LIVE, MODE-ISOLATION: the live merchant shows each key only its mode', async () => {
    const test = await walk(base, MERCHANTS.live, '', 100, KEYS.test);
    const live = await walk(base, MERCHANTS.live, '', 100, KEYS.live);
    assert.equal(test.total, 61);
    assert.equal(live.total, 143);
    assert.ok(test.records.every((r) => r.id.startsWith('pay_test_') && r.merchantId === MERCHANTS.live));
    assert.ok(live.records.every((r) => r.id.startsWith('pay_live_') && r.merchantId === MERCHANTS.live));
    const liveIds = new Set(ids(live.records));
    assert.ok(test.records.every((r) => !liveIds.has(r.id)));
  });
  test('a percent-encoded merchant id names the same merchant', async () => {
    const encoded = `%${MERCHANTS.sandbox.charCodeAt(0).toString(16)}${MERCHANTS.sandbox.slice(1)}`;
    const res = await call(base, `/payments/n1/merchant/${encoded}/payments`);
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 237);
  });
});

describe('routing, methods, headers', () => {
  const unknownPaths = [
    '/nowhere',
    '/merchant/status/',
    '/merchant',
    `/payments/n1/merchant/${MERCHANTS.sandbox}`,
    `/payments/n2/merchant/${MERCHANTS.sandbox}/payments`,
    `${sandboxList}/`,
    `/payments/n1/merchant/${MERCHANTS.sandbox}/x/payments`,
  ];
  for (const path of unknownPaths) {
    test(`unknown path ${path}: 404 JSON after auth`, async () => {
      assertError(await call(base, path), 404, MESSAGES.notFound);
      assertError(await call(base, path, { key: 'sk_test_wrong' }), 401, MESSAGES.invalidKey);
    });
  }
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
    test(`${method} on known paths: 405 with Allow; on an unknown path: 404`, async () => {
      for (const path of [sandboxList, '/merchant/status']) {
        const res = await call(base, path, { method, body: method === 'POST' ? '{"amount":1}' : undefined });
        assertError(res, 405, MESSAGES.methodNotAllowed);
        assert.equal(res.headers.get('allow'), 'GET, HEAD');
      }
      assertError(await call(base, '/nowhere', { method }), 404, MESSAGES.notFound);
    });
  }
  test('HEAD is GET without a body', async () => {
    const get = await call(base, sandboxList);
    const head = await call(base, sandboxList, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(get.text)));
  });
  test('HEAD obeys every status rule of GET; OPTIONS authenticates first (options=auth-first)', async () => {
    const cases: Array<[string, string | null, number]> = [
      [sandboxList, null, 401],
      [sandboxList, 'sk_test_wrong', 401],
      [sandboxList, KEYS.revoked, 401],
      [sandboxList, KEYS.live, 404],
      [sandboxList, KEYS.restricted, 403],
      ['/merchant/status', null, 401],
      ['/merchant/status', KEYS.restricted, 200],
    ];
    for (const [path, key, code] of cases) {
      const [get, head] = await Promise.all([call(base, path, { key }), call(base, path, { key, method: 'HEAD' })]);
      assert.deepEqual([get.status, head.status, head.text], [code, code, ''], `${path} ${key}`);
    }
    for (const path of [sandboxList, '/merchant/status', '/nowhere']) {
      assertError(await call(base, path, { key: null, method: 'OPTIONS' }), 401, MESSAGES.missingKey);
    }
  });
  test('a HEAD answer sends no body bytes on the wire', async () => {
    const res = await raw(
      mock.port,
      `HEAD ${sandboxList} HTTP/1.1\r\nHost: ${IDENTITY.host}\r\nAuthorization: Bearer ${KEYS.test}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(res.status, 200);
    assert.match(res.head, /\r\ncontent-length: [1-9]\d*/i);
    assert.equal(res.body, '');
  });
  test('200 and errors are JSON, not cached, keep-alive', async () => {
    const res = await call(base, sandboxList);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-request-id'), null, 'extras are off by default');
  });
  test('request bodies are ignored: a GET with a body is served, the connection stays usable', async () => {
    const res = await call(base, `${sandboxList}?limit=3`, { method: 'GET', headers: {} });
    const withBody = await fetch(`${base}${sandboxList}?limit=3`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.test}`, 'Content-Type': 'application/json' },
      body: 'x'.repeat(200_000),
    });
    assert.equal(withBody.status, 405);
    await withBody.text();
    assert.equal((await call(base, `${sandboxList}?limit=3`)).text, res.text);
  });
});

describe('KEY-SECRET: no response carries a key', () => {
  test('bodies and headers of 200, 401, 403, 404 and 405 answers', async () => {
    const cases: [string, string | null, string?][] = [
      [sandboxList, KEYS.test],
      ['/merchant/status', KEYS.live],
      [sandboxList, KEYS.restricted],
      [sandboxList, KEYS.revoked],
      [sandboxList, `${KEYS.test}x`],
      [sandboxList, KEYS.live],
      [unknownList, KEYS.test],
      ['/nowhere', KEYS.test],
      [sandboxList, KEYS.test, 'DELETE'],
      [`${sandboxList}?limit=${KEYS.test}`, KEYS.test],
    ];
    for (const [path, key, method] of cases) {
      const res = await call<EnvelopeJson | undefined>(base, path, { key, method });
      assert.ok(!leaksKey(res), `${method ?? 'GET'} ${path} leaks a key: ${res.text}`);
    }
  });
});

describe('onRequest: a recorder sees each request, never a key', () => {
  test('method, target as sent, and the scheme and slot of the key carried', async () => {
    const seen: RecordedRequest[] = [];
    const recorded = await startMock({ onRequest: (r) => void seen.push(r) });
    try {
      await call(recorded.url, `${sandboxList}?limit=3&filter[status]=PAID`, { key: KEYS.test });
      await call(recorded.url, '/merchant/status', { key: null });
      await call(recorded.url, '/merchant/status', { key: `${KEYS.live}x` });
      await fetch(`${recorded.url}/merchant/status`, { headers: { Authorization: `Basic ${KEYS.restricted}` } });
    } finally {
      await recorded.stop();
    }
    assert.deepEqual(seen, [
      { method: 'GET', target: `${sandboxList}?limit=3&filter[status]=PAID`, auth: 'Bearer test' },
      { method: 'GET', target: '/merchant/status', auth: 'none' },
      { method: 'GET', target: '/merchant/status', auth: 'Bearer other' },
      { method: 'GET', target: '/merchant/status', auth: 'Basic restricted' },
    ]);
    assert.ok(!ALL_KEYS.some((k) => JSON.stringify(seen).includes(k)));
  });
});
