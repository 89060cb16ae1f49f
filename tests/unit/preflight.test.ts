/**
 * The preflight (core/run/preflight.ts): its decisions as a pure function of what its requests saw, each case of
 * docs/reading.md "How the preflight decides"; then against the bundled mock, in-process: the set-up mistakes people
 * make on their first day are named, and no fault of the mock (an API that is wrong) is mistaken for one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KeySlot } from '../../core/model/credentials.ts';
import type { Target } from '../../core/model/target.ts';
import { cleanLocation, runPreflight } from '../../core/run/preflight.ts';
import {
  decide,
  type PreflightFacts,
  type Probe,
  type Seen,
  suggestedBase,
} from '../../core/run/preflight-decision.ts';
import { FAULTS, startMock } from '../../mock/index.ts';
import { testTarget } from '../support/target.ts';

const BASE = 'https://api.example.com';
type Answer = Extract<Seen, { kind: 'answer' }>;
const json = (status: number): Answer => ({
  kind: 'answer',
  status,
  body: 'json',
  contentType: 'application/json',
  ms: 5,
});
const status = (auth: 'none' | KeySlot, seen: Seen): Probe => ({
  endpoint: 'status',
  auth,
  path: '/merchant/status',
  seen,
});
const list = (auth: KeySlot, merchant: Probe['merchant'], seen: Seen): Probe => ({
  endpoint: 'list',
  auth,
  merchant,
  path: `/payments/n1/merchant/m/payments`,
  seen,
});
const facts = (probes: Probe[], over: Partial<PreflightFacts> = {}): PreflightFacts => ({
  baseURL: BASE,
  merchants: { SANDBOX_MERCHANT_ID: 'msb_1', LIVE_MERCHANT_ID: 'mlv_1' },
  probes,
  liveSlots: ['live'],
  ...over,
});

describe('decide: what the preflight concludes from what it saw', () => {
  test('a healthy API: go, nothing said', () => {
    const d = decide(
      facts([
        status('none', json(401)),
        status('test', json(200)),
        list('test', 'SANDBOX_MERCHANT_ID', json(200)),
        status('live', json(200)),
        list('live', 'LIVE_MERCHANT_ID', json(200)),
        list('test', 'LIVE_MERCHANT_ID', json(200)),
      ]),
    );
    assert.deepEqual(d, { decision: 'go', problems: [], notes: [] });
  });

  test('unreachable (exit 3): the reason as the transport said it', () => {
    const d = decide(
      facts([status('none', { kind: 'failed', reason: 'GET … failed: connection refused', code: 'ECONNREFUSED' })]),
    );
    assert.equal(d.decision, 'unreachable');
    assert.deepEqual(d.problems, [`Target ${BASE} is unreachable, no check was run. GET … failed: connection refused`]);
  });

  test('a target that stalls or resets "does not answer" (exit 3)', () => {
    for (const seen of [
      { kind: 'failed', reason: 'no answer before API_TIMEOUT_MS', timeout: 'answer' },
      { kind: 'failed', reason: 'ECONNRESET (socket hang up)', code: 'ECONNRESET' },
    ] as Seen[]) {
      const d = decide(facts([status('none', seen)]));
      assert.equal(d.decision, 'unreachable');
      assert.match(d.problems[0] as string, /^Target https:\/\/api\.example\.com does not answer, no check was run\./);
    }
  });

  test('https:// to plain HTTP, http:// to TLS: the scheme the target speaks, and the URL to use (exit 3)', () => {
    const plain = decide(facts([status('none', { kind: 'failed', reason: 'x', code: 'EPROTO', speaks: 'http' })]));
    assert.equal(plain.decision, 'unreachable');
    assert.match(
      plain.problems[0] as string,
      /it speaks plain HTTP, not TLS .*use http:\/\/: API_BASE_URL=http:\/\/api\.example\.com$/,
    );
    const tls = decide(
      facts(
        [status('none', { kind: 'failed', reason: 'x', code: 'ECONNRESET', speaks: 'https', speaksUntrusted: true })],
        {
          baseURL: 'http://api.example.com:8443/p',
        },
      ),
    );
    assert.match(
      tls.problems[0] as string,
      /it speaks TLS, not plain HTTP .*API_BASE_URL=https:\/\/api\.example\.com:8443\/p, and trust its certificate \(NODE_EXTRA_CA_CERTS/,
    );
  });

  test('a redirect is never followed: the Location (no query) and the base URL it suggests (exit 2)', () => {
    const seen: Seen = { ...json(302), body: 'empty', location: 'https://login.example.net/sso/merchant/status' };
    const d = decide(facts([status('none', seen)]));
    assert.equal(d.decision, 'configuration');
    assert.equal(
      d.problems[0],
      `Target ${BASE} answers GET /merchant/status without a key with a redirect, HTTP 302 to https://login.example.net/sso/merchant/status (another host); the suite follows no redirect (a key must never go to another host): set API_BASE_URL to https://login.example.net/sso if that is the API.`,
    );
    const elsewhere = decide(facts([status('none', { ...json(301), location: 'https://www.example.com/' })]));
    assert.match(
      elsewhere.problems[0] as string,
      /set API_BASE_URL to the API's own address, not a gateway that redirects\.$/,
    );
  });

  test('not the API: no answer was JSON (an HTML page, a static server) — what came back, what a base URL is (exit 2)', () => {
    const html: Seen = {
      kind: 'answer',
      status: 404,
      body: 'html',
      contentType: 'text/html',
      title: 'Error response',
      ms: 1,
    };
    const d = decide(facts([status('none', html), status('test', html), list('test', 'SANDBOX_MERCHANT_ID', html)]));
    assert.equal(d.decision, 'configuration');
    assert.match(
      d.problems[0] as string,
      /^Target https:\/\/api\.example\.com is not the payment API: GET \/merchant\/status without a key answered HTTP 404 text\/html \(an HTML page titled "Error response"\), and none of its 3 answer\(s\) was JSON\. API_BASE_URL is the address the suite appends \/merchant\/status and .* \(a path prefix is allowed/,
    );
  });

  test('not the API: 404 on /merchant/status for every key, nothing listed (a wrong path prefix) (exit 2)', () => {
    const d = decide(
      facts([status('none', json(401)), status('test', json(404)), list('test', 'SANDBOX_MERCHANT_ID', json(404))], {
        baseURL: `${BASE}/v2`,
        answeringBase: BASE,
      }),
    );
    assert.equal(d.decision, 'configuration');
    assert.match(
      d.problems[0] as string,
      /answers 404 to GET \/merchant\/status for every key \(API_TEST_KEY\).* API_BASE_URL=https:\/\/api\.example\.com\.$/,
    );
    // …but a listing that answers means the API is there and /merchant/status is broken: AUTH-STATUS judges it.
    const judged = decide(
      facts([status('none', json(401)), status('test', json(404)), list('test', 'SANDBOX_MERCHANT_ID', json(200))]),
    );
    assert.equal(judged.decision, 'go');
  });

  test('a key refused with 401 on both endpoints while another is accepted, or every key refused (exit 2)', () => {
    const d = decide(
      facts([
        status('none', json(401)),
        status('test', json(401)),
        list('test', 'SANDBOX_MERCHANT_ID', json(401)),
        status('live', json(200)),
        list('live', 'LIVE_MERCHANT_ID', json(200)),
      ]),
    );
    assert.equal(d.decision, 'configuration');
    assert.deepEqual(d.problems, [
      "API_TEST_KEY is refused with 401 on both endpoints (/merchant/status and its merchant's listing) while API_LIVE_KEY is accepted: expired, revoked or deleted? Set API_TEST_KEY to a current key of this environment.",
    ]);
    const alone = decide(
      facts([status('none', json(401)), status('test', json(401)), list('test', 'SANDBOX_MERCHANT_ID', json(401))]),
    );
    assert.equal(alone.decision, 'configuration');
    assert.match(
      alone.problems[0] as string,
      /^API_TEST_KEY is refused with 401 on both endpoints .*: expired or deleted, or a key of another environment than https:\/\/api\.example\.com\?/,
    );
  });

  test('never hides a real fault: a key accepted on one endpoint and refused on the other goes on to the rules', () => {
    for (const [s, l] of [
      [200, 401],
      [401, 200],
      [401, 403],
    ]) {
      const d = decide(
        facts([
          status('none', json(401)),
          status('test', json(s as number)),
          list('test', 'SANDBOX_MERCHANT_ID', json(l as number)),
        ]),
      );
      assert.equal(d.decision, 'go', `status ${s}, listing ${l}`);
    }
  });

  test('a merchant no accepted key of its mode finds (exit 2); one found by another key goes on to the rules', () => {
    const nowhere = decide(
      facts([status('none', json(401)), status('test', json(200)), list('test', 'SANDBOX_MERCHANT_ID', json(404))]),
    );
    assert.deepEqual(nowhere.problems, [
      "SANDBOX_MERCHANT_ID=msb_1 is not found: API_TEST_KEY, accepted by /merchant/status, gets 404 on its listing. Set SANDBOX_MERCHANT_ID to a merchant of that key's account.",
    ]);
    // The live key's 404 on a sandbox merchant is the rule (MODE-LIVE-SANDBOX), not evidence of a missing merchant.
    const liveOnSandbox = decide(
      facts([
        status('none', json(401)),
        status('test', json(200)),
        list('test', 'SANDBOX_MERCHANT_ID', json(200)),
        status('live', json(200)),
        list('live', 'SANDBOX_MERCHANT_ID', json(404)),
      ]),
    );
    assert.equal(liveOnSandbox.decision, 'go');
    // The live merchant found by the live key but not by the test key: MODE-TEST-LIVE judges it.
    const oneKey = decide(
      facts([
        status('none', json(401)),
        status('test', json(200)),
        list('test', 'SANDBOX_MERCHANT_ID', json(200)),
        status('live', json(200)),
        list('live', 'LIVE_MERCHANT_ID', json(200)),
        list('test', 'LIVE_MERCHANT_ID', json(404)),
      ]),
    );
    assert.equal(oneKey.decision, 'go');
  });

  test("a 403 to a key that lacks the permission is no evidence: the other keys' 404 decides (exit 2)", () => {
    // An API that checks the permission before it looks the merchant up answers the restricted key 403 on any
    // merchant, known or not.
    const permissionFirst = decide(
      facts([
        status('none', json(401)),
        status('test', json(200)),
        list('test', 'SANDBOX_MERCHANT_ID', json(404)),
        status('restricted', json(200)),
        list('restricted', 'SANDBOX_MERCHANT_ID', json(403)),
      ]),
    );
    assert.deepEqual(permissionFirst, {
      decision: 'configuration',
      problems: [
        "SANDBOX_MERCHANT_ID=msb_1 is not found: API_TEST_KEY, accepted by /merchant/status, gets 404 on its listing. Set SANDBOX_MERCHANT_ID to a merchant of that key's account.",
      ],
      notes: [],
    });
    // Every key that may list it answered 403: nothing says the merchant is missing, the rules judge.
    const onlyForbidden = decide(
      facts([
        status('none', json(401)),
        status('test', json(200)),
        list('test', 'SANDBOX_MERCHANT_ID', json(403)),
        status('restricted', json(200)),
        list('restricted', 'SANDBOX_MERCHANT_ID', json(403)),
      ]),
    );
    assert.equal(onlyForbidden.decision, 'go');
    // A key that finds it still outweighs the others' 404.
    const foundByOne = decide(
      facts([
        status('none', json(401)),
        status('test', json(200)),
        list('test', 'SANDBOX_MERCHANT_ID', json(200)),
        status('restricted', json(200)),
        list('restricted', 'SANDBOX_MERCHANT_ID', json(404)),
      ]),
    );
    assert.equal(foundByOne.decision, 'go');
  });

  test('notes that do not stop the run: a byte order mark, compressed answers', () => {
    const bom: Seen = { ...json(200), body: 'json-bom', encoding: 'gzip' };
    const d = decide(
      facts([
        status('none', { ...json(401), body: 'json-bom' }),
        status('test', bom),
        list('test', 'SANDBOX_MERCHANT_ID', bom),
      ]),
    );
    assert.equal(d.decision, 'go');
    assert.equal(d.notes.length, 2);
    assert.match(d.notes[0] as string, /byte order mark \(U\+FEFF\), which RFC 8259 §8\.1 forbids/);
    assert.match(d.notes[1] as string, /Content-Encoding: gzip/);
  });

  test('a Location keeps its scheme, host and path only; the base URL it suggests drops the path asked', () => {
    assert.equal(
      cleanLocation('/login?token=secret&next=/x#f', 'http://user:pw@api.example.com/merchant/status'),
      'http://api.example.com/login',
    );
    assert.equal(suggestedBase('https://b.example/api/merchant/status', '/merchant/status'), 'https://b.example/api');
    assert.equal(suggestedBase('https://b.example/login', '/merchant/status'), undefined);
  });
});

/** The bundled mock as a target: its own keys, merchants and URL. */
async function onMock(over: (env: Record<string, string>) => Partial<Target>, faults: string[] = []) {
  const mock = await startMock({ port: 0, faults });
  const env = mock.env as unknown as Record<string, string>;
  try {
    const target = testTarget({
      baseURL: mock.url,
      keys: { test: env.API_TEST_KEY as string, live: env.API_LIVE_KEY, restricted: env.API_RESTRICTED_KEY },
      merchants: {
        sandbox: env.SANDBOX_MERCHANT_ID as string,
        live: env.LIVE_MERCHANT_ID,
        otherSandbox: env.OTHER_SANDBOX_MERCHANT_ID,
      },
      maxRequests: 50,
      ...over(env),
    });
    return await runPreflight(target);
  } finally {
    await mock.stop();
  }
}

describe('runPreflight against the bundled mock', () => {
  test('the clean mock: go, in a handful of requests', async () => {
    const r = await onMock(() => ({}));
    assert.equal(r.decision, 'go', r.problems.join('\n'));
    assert.ok(r.requests <= 10, `${r.requests} requests`);
  });

  test('the first day: a revoked key, a never-issued key, an unknown merchant, a wrong path prefix', async () => {
    const cases: Array<[string, (env: Record<string, string>) => Partial<Target>, RegExp]> = [
      [
        'revoked',
        (e) => ({ keys: { test: e.API_REVOKED_KEY as string, live: e.API_LIVE_KEY } }),
        /^API_TEST_KEY is refused with 401/,
      ],
      [
        'never issued',
        (e) => ({ keys: { test: 'sk_test_NeverIssuedKey0123456789', live: e.API_LIVE_KEY } }),
        /^API_TEST_KEY is refused/,
      ],
      [
        'unknown merchant',
        (e) => ({ merchants: { sandbox: 'msb_nope', live: e.LIVE_MERCHANT_ID } }),
        /^SANDBOX_MERCHANT_ID=msb_nope is not found/,
      ],
      [
        'prefix',
        (e) => ({ baseURL: `${e.API_BASE_URL}/api/v1` }),
        /answers 404 to GET \/merchant\/status for every key .* one level up|two levels/,
      ],
    ];
    for (const [name, over, expected] of cases) {
      const r = await onMock(over);
      assert.equal(r.decision, 'configuration', name);
      assert.equal(r.problems.length, 1, name);
      assert.match(r.problems[0] as string, expected, name);
    }
  });

  test('no fault of the mock (an API that is wrong) is taken for a set-up mistake: the rules judge every one', async () => {
    const mistaken: string[] = [];
    for (const fault of FAULTS) {
      if (fault.name === 'live-key-format') continue; // the config refuses its keys before any request (CFG-KEYS)
      const r = await onMock(() => ({}), [fault.name]);
      if (r.decision !== 'go') mistaken.push(`${fault.name}: ${r.problems.join(' ')}`);
    }
    assert.deepEqual(mistaken, []);
  });
});
