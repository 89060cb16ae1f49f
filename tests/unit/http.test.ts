import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  ApiClient,
  BudgetExhausted,
  TARGET_GONE_AFTER,
  TargetGone,
  Throttled,
  TransportError,
} from '../../core/client/http.ts';
import { openLedger, resetLedger } from '../../core/client/ledger.ts';
import { arounds } from '../../core/generate/auth-header.ts';
import { asKey, authLabel, type KeyMutation, NO_AUTH } from '../../core/model/credentials.ts';
import { buildURL, curlFor } from '../../core/model/exchange.ts';
import type { Target } from '../../core/model/target.ts';
import { testTarget } from '../support/target.ts';

// These tests give each client its own in-memory ledger unless a test shares a file ledger on purpose.

const TEST_KEY = 'sk_test_HttpUnitKEY0a1b2c3d4e5f6';
const LIVE_KEY = 'sk_live_HttpUnitLIVE9z8y7x6w5v4';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  at: number;
}

const requests: Recorded[] = [];
const hitsByPath = new Map<string, number>();
const pending = new Set<ServerResponse>();
/** Hits of /slow since the start (never reset: the timeout test runs concurrently with others). */
let slowHits = 0;
/** Requests to /slow the client closed before they were answered. */
let slowAbandoned = 0;
let server: Server;
let base = '';

/** The credential the client presented: the Authorization header without its scheme. */
function presented(header: string | undefined): string {
  if (!header) return '';
  const space = header.indexOf(' ');
  return space < 0 ? header : header.slice(space + 1);
}

before(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] as string;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: performance.now() });
    const hits = (hitsByPath.get(path) ?? 0) + 1;
    hitsByPath.set(path, hits);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    switch (path) {
      case '/ok':
        return json(200, { success: true, message: 'OK', data: [{ id: 'p1' }] });
      case '/echo-body':
        return json(401, { error: `invalid key ${presented(req.headers.authorization)}` });
      case '/echo-header':
        return json(401, { error: 'invalid key' }, { 'x-api-key': presented(req.headers.authorization) });
      case '/echo-base64': {
        // The key inside a longer Base64 text, one byte off the 3-byte boundary.
        const b64 = Buffer.from(`u=${presented(req.headers.authorization)};`).toString('base64');
        return json(200, { success: true, trace: b64 });
      }
      case '/echo-urlencoded':
        return json(
          302,
          {},
          { location: `/login?key=${encodeURIComponent(`${presented(req.headers.authorization)}+`)}` },
        );
      case '/throttle':
        return json(429, { error: 'slow down' }, { 'retry-after': '0' });
      case '/throttle-once':
        return hits === 1 ? json(429, {}, { 'retry-after': '0' }) : json(200, { success: true });
      case '/busy-once':
        // A 503 "come back later" that carries what it must not: the observers must read it all the same.
        return hits === 1
          ? json(503, { busy: true, last: [{ id: 'pay_leaked', amount: 5 }] }, { 'retry-after': '1' })
          : json(200, { success: true });
      case '/busy':
        return json(503, { busy: true });
      case '/slow': {
        slowHits += 1;
        pending.add(res);
        const timer = setTimeout(() => {
          pending.delete(res);
          json(200, {});
        }, 3000);
        res.on('close', () => {
          clearTimeout(timer);
          if (!res.writableEnded) slowAbandoned += 1; // the client gave up before the answer
        });
        return;
      }
      case '/redirect':
        res.writeHead(302, { location: '/ok' });
        return res.end();
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('not json at all');
      case '/empty':
        res.writeHead(204);
        return res.end();
      default:
        return json(404, { error: 'not found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const res of pending) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
  hitsByPath.clear();
});

function target(over: Partial<Target> = {}): Target {
  return testTarget({ baseURL: base, keys: { test: TEST_KEY, live: LIVE_KEY }, timeoutMs: 5000, ...over });
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function assertKeyFree(text: string, what: string): void {
  for (const key of [TEST_KEY, LIVE_KEY]) {
    assert.ok(!text.includes(key), `${what} contains a key`);
    assert.ok(!text.includes(b64(key)), `${what} contains a key in Base64`);
    assert.ok(!text.includes(key.slice('sk_test_'.length)), `${what} contains a key's secret part`);
  }
}

const EXTENDED: KeyMutation = {
  name: 'extended by one character',
  apply: (k) => `${k}x`,
  shell: (ref) => `\${${ref.slice(1)}}x`,
};

describe('ApiClient: what reaches the server', () => {
  test('one GET with Bearer <key> and Accept: application/json; the Exchange carries no key', async () => {
    const client = new ApiClient(target());
    const e = await client.get('/ok', {
      auth: asKey('test'),
      query: [
        ['filter[status]', 'COMPLETED'],
        ['limit', '5'],
      ],
    });
    assert.equal(requests.length, 1);
    const r = requests[0] as Recorded;
    assert.equal(r.method, 'GET');
    assert.equal(r.url, '/ok?filter[status]=COMPLETED&limit=5');
    assert.equal(r.headers.authorization, `Bearer ${TEST_KEY}`);
    assert.equal(r.headers.accept, 'application/json');
    assert.equal(client.sent, 1);

    assert.equal(e.method, 'GET');
    assert.equal(e.status, 200);
    assert.equal(e.url, `${base}/ok?filter[status]=COMPLETED&limit=5`);
    assert.equal(e.path, '/ok');
    assert.deepEqual(e.query, [
      ['filter[status]', 'COMPLETED'],
      ['limit', '5'],
    ]);
    assert.deepEqual(e.json, { success: true, message: 'OK', data: [{ id: 'p1' }] });
    assert.equal(e.headers['content-type'], 'application/json');
    assert.equal(e.authLabel, 'Authorization: Bearer $API_TEST_KEY');
    assert.equal(
      e.curl,
      `curl -sS -g -i -H "Authorization: Bearer $API_TEST_KEY" '${base}/ok?filter[status]=COMPLETED&limit=5'`,
    );
    assert.equal(e.keyLeak, undefined);
    assert.ok(Object.isFrozen(e));
    assertKeyFree(JSON.stringify(e), 'JSON.stringify(exchange)');
    assertKeyFree(e.curl, 'exchange.curl');
    assertKeyFree(e.authLabel, 'exchange.authLabel');
  });

  test('get sends GET; request sends HEAD and OPTIONS; nothing unsafe reaches the wire', async () => {
    const client = new ApiClient(target());
    await client.get('/ok', { auth: asKey('test') });
    await client.get('/ok', { auth: asKey('live') });
    await client.get('/ok', { auth: NO_AUTH });
    await client.get('/missing', { auth: asKey('test') });
    const head = await client.request('HEAD', '/ok', { auth: asKey('test') });
    const options = await client.request('OPTIONS', '/ok', { auth: NO_AUTH, headers: { Origin: 'https://a.example' } });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'get', 'TRACE', 'CONNECT']) {
      await assert.rejects(
        client.request(method as 'GET', '/ok', { auth: asKey('test') }),
        /safe methods only \(GET, HEAD, OPTIONS\)/,
        method,
      );
    }
    assert.deepEqual(
      requests.map((r) => r.method),
      ['GET', 'GET', 'GET', 'GET', 'HEAD', 'OPTIONS'],
    );
    assert.equal(requests[1]?.headers.authorization, `Bearer ${LIVE_KEY}`);
    assert.equal(requests[2]?.headers.authorization, undefined);
    assert.equal(requests[5]?.headers.origin, 'https://a.example');
    assert.deepEqual([head.method, head.status, head.text], ['HEAD', 200, '']);
    assert.equal(head.curl, `curl -sS -g -i -I -H "Authorization: Bearer $API_TEST_KEY" '${base}/ok'`);
    assert.equal(options.curl, `curl -sS -g -i -X OPTIONS -H 'Origin: https://a.example' '${base}/ok'`);
    await assert.rejects(
      client.get('/ok', { auth: NO_AUTH, headers: { Authorization: 'Bearer x' } }),
      /a credential goes in `auth`/,
    );
  });

  test('every request carries the documented headers of its endpoint (§4.1 Content-Type), whatever else changes', async () => {
    const client = new ApiClient(target());
    const status = [
      '/merchant/status',
      '/merchant/status/',
      '/MERCHANT/status',
      '/merchant/%73tatus',
      '//merchant/status',
    ];
    for (const path of status) await client.get(path, { auth: NO_AUTH });
    await client.get('/merchant/status', { auth: asKey('test', { scheme: 'bearer' }) });
    await client.request('HEAD', '/merchant/status', { auth: asKey('live') });
    await client.get('/payments/n1/merchant/m1/payments', { auth: asKey('test') });
    await client.get('/merchant/statuses', { auth: NO_AUTH });
    assert.deepEqual(
      requests.map((r) => r.headers['content-type']),
      [...status.map(() => 'application/json'), 'application/json', 'application/json', undefined, undefined],
    );
    assert.ok(requests.every((r) => r.headers.accept === 'application/json'));
    const e = await client.get('/merchant/status', { auth: asKey('test') });
    assert.deepEqual(e.sent, { accept: 'application/json', 'content-type': 'application/json' });
    assert.equal(
      e.curl,
      `curl -sS -g -i -H "Authorization: Bearer $API_TEST_KEY" -H 'Content-Type: application/json' '${base}/merchant/status'`,
    );
  });

  test('the live slot, a path prefix in baseURL', async () => {
    const client = new ApiClient(target({ baseURL: `${base}/prefix` }));
    const e = await client.get('/x', { auth: asKey('live') });
    assert.equal(requests[0]?.url, '/prefix/x');
    assert.equal(requests[0]?.headers.authorization, `Bearer ${LIVE_KEY}`);
    assert.equal(e.status, 404);
    assert.equal(e.authLabel, 'Authorization: Bearer $API_LIVE_KEY');
    assertKeyFree(JSON.stringify(e), 'exchange');
  });

  test('no auth: no Authorization header is sent', async () => {
    const e = await new ApiClient(target()).get('/ok', { auth: NO_AUTH });
    assert.equal(requests[0]?.headers.authorization, undefined);
    assert.equal(e.authLabel, 'no Authorization header');
    assert.equal(e.curl, `curl -sS -g -i '${base}/ok'`);
  });

  test('a literal header is sent as given', async () => {
    const e = await new ApiClient(target()).get('/echo-body', {
      auth: { kind: 'literal', header: 'Bearer not-a-key' },
    });
    assert.equal(requests[0]?.headers.authorization, 'Bearer not-a-key');
    assert.equal(e.authLabel, 'Authorization: Bearer not-a-key');
    assert.equal(e.curl, `curl -sS -g -i -H 'Authorization: Bearer not-a-key' '${base}/echo-body'`);
    assert.equal(e.keyLeak, undefined, 'a literal is not a secret of the user');
  });

  test('a key mutation: the mutated key reaches the server, only its name and shell form are recorded', async () => {
    const e = await new ApiClient(target()).get('/ok', { auth: asKey('test', { mutation: EXTENDED }) });
    assert.equal(requests[0]?.headers.authorization, `Bearer ${TEST_KEY}x`);
    assert.equal(e.authLabel, 'Authorization: Bearer $API_TEST_KEY extended by one character');
    assert.equal(e.curl, `curl -sS -g -i -H "Authorization: Bearer \${API_TEST_KEY}x" '${base}/ok'`);
    assertKeyFree(JSON.stringify(e), 'exchange');
  });

  test('an empty scheme sends the bare key; another scheme is used as given', async () => {
    const client = new ApiClient(target());
    const bare = await client.get('/ok', { auth: asKey('test', { scheme: '' }) });
    const basic = await client.get('/ok', { auth: asKey('test', { scheme: 'Basic' }) });
    assert.equal(requests[0]?.headers.authorization, TEST_KEY);
    assert.equal(requests[1]?.headers.authorization, `Basic ${TEST_KEY}`);
    assert.equal(bare.authLabel, 'Authorization: $API_TEST_KEY (no scheme)');
    assert.equal(bare.curl, `curl -sS -g -i -H "Authorization: $API_TEST_KEY" '${base}/ok'`);
    assert.equal(basic.authLabel, 'Authorization: Basic $API_TEST_KEY');
    assertKeyFree(JSON.stringify([bare, basic]), 'exchanges');
  });

  test('a header of the grammar reaches the wire as built (HTTP strips its edges); label and curl show the variables', async () => {
    const client = new ApiClient(target());
    const [, , , , otherKey, , , , quotes] = arounds('test', 'live');
    const again = arounds('live')[1];
    const sent = [
      asKey('test', { scheme: 'bearer', gap: '\t', around: quotes, lead: ' ', trail: ' \t' }),
      asKey('test', { around: otherKey }),
      asKey('live', { around: again, mutation: EXTENDED }),
      asKey('test', { gap: '' }),
    ];
    const exchanges = [];
    for (const auth of sent) exchanges.push(await client.get('/echo-body', { auth }));
    assert.deepEqual(
      requests.map((r) => r.headers.authorization),
      [
        `bearer\t"${TEST_KEY}"`,
        `Bearer ${TEST_KEY}, Bearer ${LIVE_KEY}`,
        `Bearer ${LIVE_KEY}x ${LIVE_KEY}`,
        `Bearer${TEST_KEY}`,
      ],
    );
    assert.equal(
      exchanges[1]?.authLabel,
      'Authorization: Bearer $API_TEST_KEY, Bearer $API_LIVE_KEY (followed by a comma and another key)',
    );
    assert.equal(
      exchanges[1]?.curl,
      `curl -sS -g -i -H "Authorization: Bearer $API_TEST_KEY, Bearer $API_LIVE_KEY" '${base}/echo-body'`,
    );
    assert.equal(
      exchanges[0]?.curl,
      `curl -sS -g -i -H "Authorization:  bearer$(printf '\\t')\\"$API_TEST_KEY\\" $(printf '\\t')" '${base}/echo-body'`,
    );
    // The leak scan looks for the key the header presents (the echo is what follows the first space).
    assert.equal(exchanges[1]?.keyLeak, 'body');
    assert.equal(exchanges[2]?.keyLeak, 'body');
    assertKeyFree(JSON.stringify(exchanges.map((e) => [e.auth, e.authLabel, e.curl, e.keyLeak])), 'exchanges');
  });

  test('a slot that is not configured fails before any request, naming the variable', async () => {
    const client = new ApiClient(target({ keys: { test: TEST_KEY } }));
    await assert.rejects(client.get('/ok', { auth: asKey('restricted') }), {
      message: 'API_RESTRICTED_KEY is not configured (the check should have been skipped)',
    });
    assert.equal(requests.length, 0);
    assert.equal(client.sent, 0);
  });

  test('redirects are not followed', async () => {
    const e = await new ApiClient(target()).get('/redirect', { auth: asKey('test') });
    assert.equal(e.status, 302);
    assert.equal(e.headers.location, '/ok');
    assert.equal(requests.length, 1);
  });

  test('non-JSON and empty bodies: json is undefined, text is kept', async () => {
    const client = new ApiClient(target());
    const text = await client.get('/text', { auth: asKey('test') });
    assert.equal(text.text, 'not json at all');
    assert.equal(text.json, undefined);
    const empty = await client.get('/empty', { auth: asKey('test') });
    assert.equal(empty.status, 204);
    assert.equal(empty.text, '');
    assert.equal(empty.json, undefined);
  });
});

describe('ApiClient: keyLeak', () => {
  test('a key echoed in the body is reported as "body"', async () => {
    const e = await new ApiClient(target()).get('/echo-body', { auth: asKey('test') });
    assert.equal(e.status, 401);
    assert.ok(e.text.includes(TEST_KEY), 'precondition: the server echoed the key');
    assert.equal(e.keyLeak, 'body');
    assertKeyFree(e.curl, 'curl');
    assertKeyFree(e.authLabel, 'authLabel');
  });

  test('a key echoed in a header is reported with the header name', async () => {
    const e = await new ApiClient(target()).get('/echo-header', { auth: asKey('live') });
    assert.equal(e.headers['x-api-key'], LIVE_KEY);
    assert.equal(e.keyLeak, 'header x-api-key');
  });

  test('the presented (mutated, bare) key is the one looked for', async () => {
    const client = new ApiClient(target());
    const mutated = await client.get('/echo-body', { auth: asKey('test', { mutation: EXTENDED }) });
    assert.equal(mutated.keyLeak, 'body');
    const bare = await client.get('/echo-header', { auth: asKey('test', { scheme: '' }) });
    assert.equal(bare.keyLeak, 'header x-api-key');
  });

  test('a key echoed Base64-encoded inside other text, or URL-encoded, is still found', async () => {
    const client = new ApiClient(target());
    const b64 = await client.get('/echo-base64', { auth: asKey('test') });
    assert.ok(!b64.text.includes(TEST_KEY), 'precondition: not there as is');
    assert.equal(b64.keyLeak, 'body (Base64)');
    const url = await client.get('/echo-urlencoded', { auth: asKey('test', { mutation: EXTENDED }) });
    assert.ok(url.headers.location?.includes('key='), 'precondition: the key went into a Location header');
    assert.match(url.keyLeak ?? '', /^header location/);
  });

  test('no echo, no leak', async () => {
    const e = await new ApiClient(target()).get('/ok', { auth: asKey('test') });
    assert.equal(e.keyLeak, undefined);
  });
});

describe('ApiClient: 429 and Retry-After', () => {
  test('429 with Retry-After: 0 is a hint: retried at most 5 times, then Throttled (inconclusive), never returned', async () => {
    const client = new ApiClient(target());
    const started = performance.now();
    await assert.rejects(client.get('/throttle', { auth: asKey('test') }), (error: unknown) => {
      assert.ok(error instanceof Throttled);
      assert.ok(error instanceof TransportError, 'a check that gets it is inconclusive, not failed');
      assert.match(error.message, /kept answering 429 Too Many Requests \(lower API_MAX_RPS\)/);
      return true;
    });
    assert.equal(requests.length, 6, '1 request + 5 retries');
    assert.equal(client.sent, 6);
    assert.ok(performance.now() - started < 1000, 'Retry-After: 0 means no wait');
    assert.ok(requests.every((r) => r.method === 'GET' && r.headers.authorization === `Bearer ${TEST_KEY}`));
  });

  test('a 429 followed by a 200 returns the 200', async () => {
    const client = new ApiClient(target());
    const e = await client.get('/throttle-once', { auth: asKey('test') });
    assert.equal(e.status, 200);
    assert.equal(requests.length, 2);
    assert.equal(client.sent, 2);
  });

  test('retries count against the budget: BudgetExhausted, not a 429', async () => {
    const client = new ApiClient(target({ maxRequests: 2 }));
    await assert.rejects(client.get('/throttle', { auth: asKey('test') }), BudgetExhausted);
    assert.equal(requests.length, 2);
  });
});

describe('ApiClient: 503 with Retry-After, and every answer observed', () => {
  test('a 503 with Retry-After is waited out and asked again; the observers read the 503 first (waitedOut)', async () => {
    const client = new ApiClient(target());
    const seen: Array<{ status: number; waitedOut: boolean; text: string }> = [];
    client.observe((e) => seen.push({ status: e.status, waitedOut: e.waitedOut === true, text: e.text }));
    const started = performance.now();
    const e = await client.get('/busy-once', { auth: asKey('test') });
    assert.equal(e.status, 200);
    assert.ok(performance.now() - started >= 900, 'Retry-After: 1 is waited');
    assert.deepEqual(
      seen.map((x) => [x.status, x.waitedOut]),
      [
        [503, true],
        [200, false],
      ],
    );
    assert.match(seen[0]?.text ?? '', /pay_leaked/);
  });

  test('a 503 without Retry-After is the answer (no wait, no retry)', async () => {
    const client = new ApiClient(target());
    const e = await client.get('/busy', { auth: asKey('test') });
    assert.equal(e.status, 503);
    assert.equal(requests.length, 1);
  });

  test('a 429 that is asked again is observed too', async () => {
    const client = new ApiClient(target());
    const statuses: number[] = [];
    client.observe((e) => statuses.push(e.status));
    await client.get('/throttle-once', { auth: asKey('test') });
    assert.deepEqual(statuses, [429, 200]);
  });
});

describe('ApiClient: inputs the spec does not document', () => {
  test('extra query parameters and headers reach the wire; a key in a header only there, its variable in the curl', async () => {
    const client = new ApiClient(target());
    const e = await client.get('/ok', {
      auth: NO_AUTH,
      query: [['limit', '5']],
      extra: {
        query: [['debug', 'true']],
        headers: [
          { name: 'X-Api-Key', value: [{ slot: 'test' }] },
          { name: 'Cookie', value: ['sid=abc; token=', { slot: 'live' }] },
          { name: 'X-Trace', value: ['plain'] },
        ],
      },
    });
    const r = requests[0];
    assert.equal(r?.url, '/ok?limit=5&debug=true');
    assert.equal(r?.headers['x-api-key'], TEST_KEY);
    assert.equal(r?.headers.cookie, `sid=abc; token=${LIVE_KEY}`);
    assert.equal(r?.headers['x-trace'], 'plain');
    assert.equal(r?.headers.authorization, undefined);
    assert.deepEqual(e.extra?.query, [['debug', 'true']]);
    assert.equal(e.sent['x-trace'], 'plain');
    assert.equal(e.sent['x-api-key'], undefined, 'a header holding a key is not among the plain ones');
    assert.match(e.curl, /-H "X-Api-Key: \$API_TEST_KEY"/);
    assert.match(e.curl, /-H "Cookie: sid=abc; token=\$API_LIVE_KEY"/);
    assertKeyFree(JSON.stringify(e), 'the exchange');
    assertKeyFree(e.curl, 'the curl line');
  });

  test('a documented header left out is not sent (Content-Type on /merchant/status)', async () => {
    const client = new ApiClient(target());
    const e = await client.get('/merchant/status', { auth: NO_AUTH, extra: { omit: ['content-type'] } });
    assert.equal(requests[0]?.headers['content-type'], undefined);
    assert.equal(e.sent['content-type'], undefined);
    assert.doesNotMatch(e.curl, /Content-Type/);
  });

  test('a header that is not a valid HTTP header is refused before sending, never quoting a key', async () => {
    const client = new ApiClient(target());
    await assert.rejects(
      client.get('/ok', { auth: NO_AUTH, extra: { headers: [{ name: 'X Bad', value: [{ slot: 'test' }] }] } }),
      (error: unknown) => {
        assertKeyFree(String(error), 'the error');
        return true;
      },
    );
    assert.equal(requests.length, 0);
  });
});

describe('ApiClient: budget', () => {
  test('with maxRequests 3 the 4th send throws BudgetExhausted and sends nothing', async () => {
    const client = new ApiClient(target({ maxRequests: 3 }));
    for (let i = 0; i < 3; i++) assert.equal((await client.get('/ok', { auth: asKey('test') })).status, 200);
    await assert.rejects(client.get('/ok', { auth: asKey('test') }), (error: unknown) => {
      assert.ok(error instanceof BudgetExhausted);
      assert.equal(error.name, 'BudgetExhausted');
      assert.match(error.message, /^request budget exhausted: .*API_MAX_REQUESTS=3\b/);
      assertKeyFree(error.message, 'message');
      return true;
    });
    assert.equal(requests.length, 3);
    assert.equal(client.sent, 3);
    // Still exhausted afterwards.
    await assert.rejects(client.get('/ok', { auth: NO_AUTH }), BudgetExhausted);
    assert.equal(requests.length, 3);
  });

  test("the budget is the run's: clients sharing a file ledger (workers, restarted workers) share it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    const path = join(dir, '.requests');
    resetLedger(path);
    const a = new ApiClient(target({ maxRequests: 3 }), openLedger(path));
    const b = new ApiClient(target({ maxRequests: 3 }), openLedger(path));
    await a.get('/ok', { auth: asKey('test') });
    await b.get('/ok', { auth: asKey('test') });
    await a.get('/ok', { auth: asKey('test') });
    await assert.rejects(b.get('/ok', { auth: asKey('test') }), BudgetExhausted);
    // A worker that replaces a failed one starts with the same count, not at zero.
    const replaced = new ApiClient(target({ maxRequests: 3 }), openLedger(path));
    await assert.rejects(replaced.get('/ok', { auth: NO_AUTH }), BudgetExhausted);
    assert.equal(requests.length, 3);
    assert.equal(openLedger(path).sent(), 3);
    rmSync(dir, { recursive: true, force: true });
  });

  test('without a file ledger the budget is per client', async () => {
    const a = new ApiClient(target({ maxRequests: 1 }));
    const b = new ApiClient(target({ maxRequests: 1 }));
    await a.get('/ok', { auth: asKey('test') });
    await b.get('/ok', { auth: asKey('test') });
    await assert.rejects(a.get('/ok', { auth: asKey('test') }), BudgetExhausted);
    assert.equal(requests.length, 2);
  });
});

describe('ApiClient: pacing', () => {
  test('maxRps 20: sequential requests start at least ~50 ms apart', async () => {
    const client = new ApiClient(target({ maxRps: 20 }));
    const started = performance.now();
    for (let i = 0; i < 5; i++) await client.get('/ok', { auth: asKey('test') });
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 0.8 * 4 * 50, `5 requests at 20 rps took ${elapsed.toFixed(0)} ms`);
    // Request k starts no earlier than k intervals after the first (arrival times jitter, so loosely).
    requests.forEach((r, k) => {
      const at = r.at - started;
      assert.ok(at >= 0.8 * k * 50, `request ${k} arrived ${at.toFixed(0)} ms after the start`);
    });
  });

  test('maxRps 20: concurrent requests are spaced too', async () => {
    const client = new ApiClient(target({ maxRps: 20 }));
    const started = performance.now();
    await Promise.all([0, 1, 2, 3].map(() => client.get('/ok', { auth: asKey('test') })));
    const times = requests.map((r) => r.at - started).sort((x, y) => x - y);
    times.forEach((at, k) => {
      assert.ok(at >= 0.8 * k * 50, `concurrent request ${k} arrived ${at.toFixed(0)} ms after the start`);
    });
  });

  test('maxRps 0: no pacing', async () => {
    const client = new ApiClient(target({ maxRps: 0 }));
    const started = performance.now();
    for (let i = 0; i < 10; i++) await client.get('/ok', { auth: asKey('test') });
    assert.ok(performance.now() - started < 1000);
    assert.equal(requests.length, 10);
  });
});

// The three cases wait on backoff (200 + 800 ms each): run them side by side. They touch no shared counter
// that beforeEach resets (the slow route keeps its own).
describe('ApiClient: transport errors', { concurrency: true }, () => {
  test('connection refused: TransportError after 3 attempts with backoff, no key in message or stack', async () => {
    const port = await closedPort();
    const client = new ApiClient(target({ baseURL: `http://127.0.0.1:${port}` }));
    const started = performance.now();
    await assert.rejects(
      client.get('/payments', { auth: asKey('test'), query: [['limit', '1']] }),
      (error: unknown) => {
        assert.ok(error instanceof TransportError);
        assert.equal(error.name, 'TransportError');
        assert.equal(
          error.message,
          `GET http://127.0.0.1:${port}/payments?limit=1 failed after 3 attempt(s): connection refused (is the target running?)`,
        );
        assertKeyFree(error.message, 'TransportError message');
        assertKeyFree(error.stack ?? '', 'TransportError stack');
        return true;
      },
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 0.8 * (200 + 800), `backoff 200 + 800 ms, took ${elapsed.toFixed(0)} ms`);
    assert.equal(client.sent, 3);
  });

  test('after 3 transport failures the target is taken as gone: TargetGone, nothing more is sent', async () => {
    const port = await closedPort();
    const ledger = openLedger();
    for (let i = 0; i < TARGET_GONE_AFTER; i++) ledger.recordTransportFailure();
    const client = new ApiClient(target({ baseURL: `http://127.0.0.1:${port}` }), ledger);
    await assert.rejects(client.get('/payments', { auth: asKey('test') }), (error: unknown) => {
      assert.ok(error instanceof TargetGone);
      assert.match(error.message, /stopped answering \(3 requests failed/);
      return true;
    });
    assert.equal(client.sent, 0);
  });

  test('timeout: TransportError "no answer before API_TIMEOUT_MS" after 3 attempts', async () => {
    const client = new ApiClient(target({ timeoutMs: 150 }));
    const started = performance.now();
    await assert.rejects(client.get('/slow', { auth: asKey('test') }), (error: unknown) => {
      assert.ok(error instanceof TransportError);
      assert.equal(error.message, `GET ${base}/slow failed after 3 attempt(s): no answer before API_TIMEOUT_MS`);
      assertKeyFree(error.message, 'message');
      return true;
    });
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 0.8 * (3 * 150 + 200 + 800), `took ${elapsed.toFixed(0)} ms`);
    assert.equal(slowHits, 3);
    // The 3 s answer was never awaited: the client closed each request at its timeout (the server hears of the last
    // close a moment later).
    for (let i = 0; i < 100 && slowAbandoned < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(slowAbandoned, 3);
  });

  test('a mutated key that is not a valid header value: refused before sending, the error has no key', async () => {
    const newline: KeyMutation = {
      name: 'newline inserted',
      apply: (k) => `${k.slice(0, 12)}\n${k.slice(12)}`,
      shell: (ref) => ref,
    };
    const client = new ApiClient(target());
    await assert.rejects(client.get('/ok', { auth: asKey('test', { mutation: newline }) }), (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.match(
        error.message,
        /Authorization header for .*\$API_TEST_KEY newline inserted is not a valid HTTP header value/,
      );
      assertKeyFree(error.message, 'error message');
      assert.ok(!error.message.includes(TEST_KEY.slice(0, 12)), 'the presented key (first part) is in the message');
      assert.ok(!error.message.includes(TEST_KEY.slice(12)), 'the presented key (second part) is in the message');
      return true;
    });
    assert.equal(client.sent, 0, 'nothing was sent, nothing counted');
  });
});

describe('buildURL, authLabel, curlFor', () => {
  test('buildURL keeps brackets literal and percent-encodes the rest', () => {
    assert.equal(buildURL('http://h', '/p', []), 'http://h/p');
    assert.equal(
      buildURL('http://h/api', '/payments', [
        ['filter[status]', 'COMPLETED'],
        ['sort', '-amount'],
        ['q', 'a b&c=d#e?f/g'],
        ['offset', ''],
        ['limit', '10'],
        ['limit', '20'],
      ]),
      'http://h/api/payments?filter[status]=COMPLETED&sort=-amount&q=a%20b%26c%3Dd%23e%3Ff%2Fg&offset=&limit=10&limit=20',
    );
    assert.equal(buildURL('http://h', '/p', [['x', 'é[]']]), 'http://h/p?x=%C3%A9[]');
  });

  test('authLabel for every kind of auth', () => {
    assert.equal(authLabel(NO_AUTH), 'no Authorization header');
    assert.equal(authLabel({ kind: 'literal', header: 'Basic Zm9v' }), 'Authorization: Basic Zm9v');
    assert.equal(authLabel(asKey('test')), 'Authorization: Bearer $API_TEST_KEY');
    assert.equal(authLabel(asKey('revoked')), 'Authorization: Bearer $API_REVOKED_KEY');
    assert.equal(authLabel(asKey('old', { scheme: 'bearer' })), 'Authorization: bearer $API_OLD_KEY');
    assert.equal(authLabel(asKey('live', { scheme: '' })), 'Authorization: $API_LIVE_KEY (no scheme)');
    assert.equal(
      authLabel(asKey('restricted', { mutation: EXTENDED })),
      'Authorization: Bearer $API_RESTRICTED_KEY extended by one character',
    );
  });

  test('curlFor quotes the URL and references the key by variable', () => {
    assert.equal(curlFor('http://h/p?a=1', NO_AUTH), `curl -sS -g -i 'http://h/p?a=1'`);
    assert.equal(curlFor("http://h/p?q=it's", NO_AUTH), `curl -sS -g -i 'http://h/p?q=it'\\''s'`);
    assert.equal(
      curlFor('http://h/p', { kind: 'literal', header: "Bearer o'k" }),
      `curl -sS -g -i -H 'Authorization: Bearer o'\\''k' 'http://h/p'`,
    );
    assert.equal(
      curlFor('http://h/p', asKey('test')),
      `curl -sS -g -i -H "Authorization: Bearer $API_TEST_KEY" 'http://h/p'`,
    );
    assert.equal(
      curlFor('http://h/p', asKey('live', { scheme: '' })),
      `curl -sS -g -i -H "Authorization: $API_LIVE_KEY" 'http://h/p'`,
    );
    assert.equal(
      curlFor('http://h/p', asKey('test', { mutation: EXTENDED })),
      `curl -sS -g -i -H "Authorization: Bearer \${API_TEST_KEY}x" 'http://h/p'`,
    );
  });
});
