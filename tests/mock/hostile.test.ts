/**
 * Hostile input: malformed targets and encodings, odd paths and methods, bodies, broken HTTP.
 * The mock must never answer 5xx, never crash, and keep answering afterwards; errors are JSON with a message.
 */
import assert from 'node:assert/strict';
import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { issueKeys } from '../../mock/auth.ts';
import { generateDataset } from '../../mock/data.ts';
import { MESSAGES } from '../../mock/errors.ts';
import { switchboard } from '../../mock/faults/index.ts';
import { IDENTITY, type RunningMock, startMock, VARIANT_DEFAULTS } from '../../mock/index.ts';
import { querySettings } from '../../mock/params.ts';
import { createMockServer, lastResort } from '../../mock/server.ts';
import { buildStore } from '../../mock/store.ts';
import { call, KEYS, leaksKey, list, MERCHANTS, type RawResponse, raw, rawGet } from './support.ts';

let mock: RunningMock;
before(async () => {
  mock = await startMock();
});
after(() => mock.stop());

const H = IDENTITY.host;
const AUTH = `Authorization: Bearer ${KEYS.test}\r\n`;

/** The server still serves a normal request. */
async function assertAlive(): Promise<void> {
  const res = await call(mock.url, list(MERCHANTS.sandbox, 'limit=1'));
  assert.equal(res.status, 200);
}

/** A 4xx JSON error with a message, or a 2xx; never a 5xx. */
function assertSane(res: RawResponse, allowed: readonly number[], label: string): void {
  assert.ok(
    allowed.includes(res.status),
    `${label}: status ${res.status} not in ${allowed} (${res.head.split('\r\n')[0]})`,
  );
  if (res.status >= 400) {
    const body = JSON.parse(res.body) as { success?: unknown; message?: unknown };
    assert.equal(body.success, false, label);
    assert.equal(typeof body.message, 'string', label);
  }
  assert.ok(!res.head.includes(KEYS.test) && !res.body.includes(KEYS.test), `${label} leaks the key`);
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('broken HTTP over a raw socket: a JSON 4xx, connection closed, server alive', () => {
  const cases: [string, string | Buffer, number[]][] = [
    ['garbage request line', 'GARBAGE\r\n\r\n', [400]],
    ['HTTP/2 preface on HTTP/1.1', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', [400]],
    ['unknown method token', `FOO /merchant/status HTTP/1.1\r\nHost: ${H}\r\n\r\n`, [400]],
    ['lower-case method', `get /merchant/status HTTP/1.1\r\nHost: ${H}\r\n\r\n`, [400]],
    ['unsupported HTTP version', `GET /merchant/status HTTP/9.9\r\nHost: ${H}\r\n\r\n`, [400]],
    ['NUL in the path', `GET /merchant/\0status HTTP/1.1\r\nHost: ${H}\r\n\r\n`, [400]],
    ['space in the path', `GET /merchant/ status HTTP/1.1\r\nHost: ${H}\r\n\r\n`, [400]],
    [
      'raw 0xff bytes in the path',
      bytes('GET /merchant/', [0xff, 0xfe], ` HTTP/1.1\r\nHost: ${H}\r\n${AUTH}\r\n`),
      [400],
    ],
    ['header line without colon', `GET / HTTP/1.1\r\nHost: ${H}\r\nNoColonHere\r\n\r\n`, [400]],
    [
      'control character in Authorization',
      `GET /merchant/status HTTP/1.1\r\nHost: ${H}\r\nAuthorization: Bearer \x01x\r\n\r\n`,
      [400],
    ],
    [
      'DEL after the key',
      `GET /merchant/status HTTP/1.1\r\nHost: ${H}\r\nAuthorization: Bearer ${KEYS.test}\x7f\r\n\r\n`,
      [400],
    ],
    ['bare LF line endings', `GET /merchant/status HTTP/1.1\nHost: ${H}\n${AUTH.trim()}\n\n`, [400]],
    ['20 KB header', `GET / HTTP/1.1\r\nHost: ${H}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, [431]],
    ['non-numeric Content-Length', `GET / HTTP/1.1\r\nHost: ${H}\r\nContent-Length: abc\r\n\r\n`, [400]],
    [
      'Content-Length with Transfer-Encoding',
      `POST / HTTP/1.1\r\nHost: ${H}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      [400],
    ],
    ['HTTP/1.1 without Host', `GET /merchant/status HTTP/1.1\r\n${AUTH}\r\n`, [400]],
  ];
  for (const [label, data, allowed] of cases) {
    test(label, async () => {
      assertSane(await raw(mock.port, data), allowed, label);
      await assertAlive();
    });
  }
});

describe('odd targets, methods and headers over a raw socket', () => {
  const cases: [string, string | Buffer, number[]][] = [
    ['//', rawGet('//'), [404]],
    ['/..', rawGet('/..'), [404]],
    ['/%00', rawGet('/%00'), [404]],
    ['merchant id %00', rawGet('/payments/n1/merchant/%00/payments'), [404]],
    ['merchant id ..', rawGet('/payments/n1/merchant/../payments'), [404]],
    ['merchant id %2e%2e', rawGet('/payments/n1/merchant/%2e%2e/payments'), [404]],
    ['merchant id with %2F', rawGet(`/payments/n1/merchant/${MERCHANTS.sandbox}%2Fx/payments`), [404]],
    ['malformed percent-encoding in the merchant id', rawGet('/payments/n1/merchant/%E0%A4%A/payments'), [404]],
    ['absolute-form target', rawGet('http://evil.example/merchant/status'), [404]],
    ['fragment in the target', rawGet('/merchant/status#x'), [404]],
    ['OPTIONS *', `OPTIONS * HTTP/1.1\r\nHost: ${H}\r\n${AUTH}Connection: close\r\n\r\n`, [404]],
    ['PROPFIND', `PROPFIND /merchant/status HTTP/1.1\r\nHost: ${H}\r\n${AUTH}Connection: close\r\n\r\n`, [405]],
    ['TRACE', `TRACE /merchant/status HTTP/1.1\r\nHost: ${H}\r\n${AUTH}Connection: close\r\n\r\n`, [405]],
    ['CONNECT with a key', `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${AUTH}\r\n`, [404]],
    ['CONNECT without a key', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', [401]],
    ['Upgrade: websocket', rawGet('/merchant/status', 'Upgrade: websocket\r\n'), [200]],
    ['HTTP/1.0 without Host', `GET /merchant/status HTTP/1.0\r\n${AUTH}\r\n`, [200]],
    [
      'latin-1 bytes in the key',
      bytes(
        `GET /merchant/status HTTP/1.1\r\nHost: ${H}\r\nAuthorization: Bearer `,
        [0xe9, 0xff],
        '\r\nConnection: close\r\n\r\n',
      ),
      [401],
    ],
    ['two Authorization headers', rawGet('/merchant/status', `Authorization: Bearer ${KEYS.revoked}\r\n`), [200, 401]],
    ['Expect: 100-continue', rawGet('/merchant/status', 'Expect: 100-continue\r\n'), [200]],
    [
      'bad chunked body after the headers',
      `POST /merchant/status HTTP/1.1\r\nHost: ${H}\r\n${AUTH}Transfer-Encoding: chunked\r\n\r\nzz\r\n`,
      [405],
    ],
  ];
  for (const [label, data, allowed] of cases) {
    test(label, async () => {
      assertSane(await raw(mock.port, data), allowed, label);
      await assertAlive();
    });
  }
  test('half-sent and abandoned requests do not disturb the server', async () => {
    const sockets = Array.from({ length: 20 }, (_, i) => {
      const s = connect(mock.port, H);
      s.on('error', () => {});
      s.write(
        i % 2
          ? 'GET /merchant/status HTTP/1.1\r\nHo'
          : `POST /merchant/status HTTP/1.1\r\nHost: ${H}\r\nContent-Length: 1000\r\n\r\nab`,
      );
      return s;
    });
    await new Promise((r) => setTimeout(r, 50));
    for (const s of sockets) s.destroy();
    await assertAlive();
  });
});

describe('routes the variants and path faults open: odd targets answer below 500, the server lives on', () => {
  const SB = MERCHANTS.sandbox;
  const targets = [
    '//',
    '///',
    '//..//',
    '//%00',
    '//%2F/',
    '/merchant/status//',
    '//merchant//status//',
    '/payments//',
    '//payments/n1/merchant//payments',
    `${list(SB)}//`,
    `/payments//n1/merchant/${SB}/payments/`,
    '/payments/n1/merchant/%E0%A4%A/payments/',
    '/payments//n1/merchant/%2e%2e/payments',
    `/payments/n1/merchant/%6D${SB.slice(1)}/payments/`,
    '/payments/n1/merchant/%6D%00/payments',
    'http://evil.example//merchant/status',
  ];
  const setups: [string, Parameters<typeof startMock>[0]][] = [
    ['routing=route-first', { variants: ['routing=route-first'] }],
    ['path-trailing-slash-no-auth', { faults: ['path-trailing-slash-no-auth'] }],
    ['path-double-slash-no-auth', { faults: ['path-double-slash-no-auth'] }],
    ['path-encoded-id-mode-bypass', { faults: ['path-encoded-id-mode-bypass'] }],
  ];
  for (const [label, options] of setups) {
    test(label, async () => {
      const lines: string[] = [];
      const target = await startMock({ ...options, log: (line) => lines.push(line) });
      try {
        for (const path of targets) {
          for (const key of [KEYS.test, KEYS.live, null]) {
            const res = await raw(target.port, rawGet(path, '', key));
            assert.ok(res.status >= 200 && res.status < 500, `${path}: ${res.status}`);
            assert.ok(!res.head.includes(KEYS.test) && !res.body.includes(KEYS.test), `${path} leaks the key`);
          }
        }
        assert.equal((await call(target.url, list(SB, 'limit=1'))).status, 200);
      } finally {
        await target.stop();
      }
      assert.deepEqual(lines, []);
    });
  }
});

describe('every method, known to Node or not, on every kind of path: never a 5xx, under every method variant', () => {
  // Node's parser knows these (any other token, or a lower-case one, gets its 400); the rest are made up.
  const methods = [...METHODS, 'FOO', 'BREW', 'get', 'Options', 'X-CUSTOM'];
  const targets = ['/merchant/status', list(MERCHANTS.sandbox), '/nowhere', '*'];
  const setups: [string, Parameters<typeof startMock>[0]][] = [
    ['defaults', {}],
    ['head=refused,method=404', { variants: ['head=refused,method=404'] }],
    ['options=cors,prefix=api', { variants: ['options=cors,prefix=api'] }],
    ['options=allow', { variants: ['options=allow'] }],
    ['head-no-auth', { faults: ['head-no-auth'] }],
    ['options-get-handler', { faults: ['options-get-handler'] }],
  ];
  for (const [label, options] of setups) {
    test(label, async () => {
      const lines: string[] = [];
      const target = await startMock({ ...options, log: (line) => lines.push(line) });
      const prefix = new URL(target.url).pathname.replace(/\/$/, '');
      try {
        for (const method of methods) {
          for (const path of targets) {
            for (const key of [KEYS.test, null]) {
              const auth = key === null ? '' : `Authorization: Bearer ${key}\r\n`;
              const at = path === '*' ? path : `${prefix}${path}`;
              const request = `${method} ${at} HTTP/1.1\r\nHost: ${H}\r\n${auth}Content-Length: 0\r\nConnection: close\r\n\r\n`;
              const res = await raw(target.port, request);
              const what = `${method} ${path} ${key === null ? 'without a key' : 'with a key'}`;
              assert.ok(res.status >= 200 && res.status < 500, `${what}: ${res.status}`);
              assert.ok(!res.head.includes(KEYS.test) && !res.body.includes(KEYS.test), `${what} leaks the key`);
            }
          }
        }
        assert.equal((await call(target.url, list(MERCHANTS.sandbox, 'limit=1'))).status, 200);
      } finally {
        await target.stop();
      }
      assert.deepEqual(lines, []);
    });
  }
});

describe('odd queries and bodies over fetch', () => {
  const base = () => mock.url;
  const SB = MERCHANTS.sandbox;
  test('malformed percent-encoding in the query: 400 or ignored, never 5xx', async () => {
    for (const query of ['%', 'limit=%', 'offset=%E0%A4%A', '%%%%=%%', 'sort=%FF', 'filter[status]=%C0%AF']) {
      const res = await call(base(), list(SB, query));
      assert.ok(res.status === 200 || res.status === 400, `${query}: ${res.status}`);
    }
  });
  test('a long query (8 KB of unknown parameters) is served; 64 KB gets 431', async () => {
    assert.equal((await call(base(), list(SB, `x=${'a'.repeat(8_000)}`))).status, 200);
    assert.equal(
      (await call(base(), list(SB, Array.from({ length: 1500 }, (_, i) => `p${i}=${i}`).join('&')))).status,
      200,
    );
    const huge = await call(base(), list(SB, `x=${'a'.repeat(64_000)}`));
    assert.equal(huge.status, 431);
    assert.equal(huge.body.message, MESSAGES.headersTooLarge);
    await assertAlive();
  });
  test('unicode and control characters in values', async () => {
    for (const query of ['filter[status]=%E5%AE%8C%E6%88%90', 'sort=%00amount', 'limit=%EF%BC%95', 'offset=1%00']) {
      const res = await call(base(), list(SB, query));
      assert.ok(res.status === 200 || res.status === 400, `${query}: ${res.status}`);
    }
  });
  test('large bodies on GET, POST and DELETE are drained; the connection stays usable', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await fetch(`${base()}${list(SB)}`, {
        method: method === 'GET' ? 'POST' : method,
        headers: { Authorization: `Bearer ${KEYS.test}`, 'Content-Type': 'application/octet-stream' },
        body: Buffer.alloc(1_000_000, 7),
      });
      assert.equal(res.status, 405);
      await res.text();
    }
    const get = await raw(
      mock.port,
      `GET ${list(SB)} HTTP/1.1\r\nHost: ${H}\r\n${AUTH}Content-Length: 5\r\nConnection: close\r\n\r\nhello`,
    );
    assert.equal(get.status, 200);
    await assertAlive();
  });
  test('no hostile answer leaks a key', async () => {
    const res = await call(base(), list(SB, `limit=${KEYS.live}&sort=${KEYS.test}`), {
      auth: `Bearer ${KEYS.test} ${KEYS.live}`,
    });
    assert.ok(!leaksKey(res));
  });
});

describe('last resort: an unexpected exception is a logged 500 and the server lives on', () => {
  test('lastResort logs stack frames only, never the message (which could quote input)', () => {
    const lines: string[] = [];
    const decision = lastResort(new TypeError(`bad ${KEYS.test}`), (line) => lines.push(line));
    assert.deepEqual(decision, { kind: 'failure', failure: { status: 500, message: MESSAGES.internal } });
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /^mock: unexpected TypeError while handling a request\n\s+at /);
    assert.ok(!lines.join('').includes(KEYS.test));
  });
  test('a store that throws: 500 JSON on that route, other routes unaffected', async () => {
    const board = switchboard();
    const store = buildStore(generateDataset(IDENTITY.seed), VARIANT_DEFAULTS);
    const broken = {
      ...store,
      listing: () => {
        throw new Error('broken store');
      },
    };
    const lines: string[] = [];
    const server = createMockServer({
      store: broken,
      keys: issueKeys(board.auth),
      board,
      variants: VARIANT_DEFAULTS,
      settings: querySettings(VARIANT_DEFAULTS, board.params),
      log: (line) => lines.push(line),
    });
    await new Promise<void>((resolve) => server.listen(0, H, resolve));
    const { port } = server.address() as { port: number };
    try {
      const res = await call(`http://${H}:${port}`, list(MERCHANTS.sandbox));
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { success: false, message: MESSAGES.internal });
      assert.equal(lines.length, 1);
      assert.equal((await call(`http://${H}:${port}`, '/merchant/status')).status, 200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
