/**
 * First contact with every declared collection (core/run/preflight-collections.ts): the preflight asks each one's
 * listing once with a key that may list it; a 404 or an HTML page there is a set-up mistake (exit 2) that names the
 * collection, its path and what came back; any other answer goes on to the rules. Against the bundled mock, which
 * serves the example refunds.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Collection, PAYMENTS } from '../../core/model/collection.ts';
import { runPreflight } from '../../core/run/preflight.ts';
import { collectionSteps, unservedCollections } from '../../core/run/preflight-collections.ts';
import { FAULTS, startMock } from '../../mock/index.ts';
import { everyKeyTarget, testTarget } from '../support/target.ts';

const collection = (over: Partial<Collection> = {}): Collection => ({
  ...PAYMENTS,
  name: 'refunds',
  path: '/payments/n1/merchant/{merchantId}/refunds',
  source: 'my-collections.json line 4 (/collections/0)',
  ...over,
});

describe('collectionSteps: each collection once, with a key that may list it', () => {
  test('the test key on the sandbox merchant; the live key on the live merchant for a live-only listing', () => {
    const t = everyKeyTarget();
    const steps = collectionSteps(t, [
      collection(),
      collection({ name: 'payouts', access: { scope: 'merchant', modes: ['live'], restrictedKey: 'unknown' } }),
      collection({ name: 'users', path: '/orgs/{orgId}/users', params: { orgId: 'o 1' } }),
    ]);
    assert.deepEqual(
      steps.map((s) => [s.collection, s.auth, s.path]),
      [
        ['refunds', 'test', '/payments/n1/merchant/msb_1/refunds'],
        ['payouts', 'live', '/payments/n1/merchant/mlv_1/refunds'],
        ['users', 'test', '/orgs/o%201/users'],
      ],
    );
  });

  test('a live-only listing without the live key or merchant is not asked', () => {
    const live = collection({ access: { scope: 'merchant', modes: ['live'], restrictedKey: 'unknown' } });
    assert.deepEqual(collectionSteps(testTarget(), [live]), []);
  });
});

describe('unservedCollections: what is a set-up mistake', () => {
  const step = { collection: 'refunds', source: 'c.json line 3 (/collections/0)', path: '/r', auth: 'test' as const };
  const answer = (status: number, body: 'json' | 'html' = 'json') =>
    ({ kind: 'answer', status, body, contentType: body === 'html' ? 'text/html' : 'application/json', ms: 1 }) as const;

  test('a 404 and an HTML page, each named with its path and what came back', () => {
    const [notFound, html] = unservedCollections([
      { ...step, seen: answer(404) },
      { ...step, collection: 'users', seen: answer(200, 'html') },
    ]);
    assert.match(
      notFound ?? '',
      /^Collection refunds \(c\.json line 3 \(\/collections\/0\)\): GET \/r\?limit=1 with API_TEST_KEY answered HTTP 404 application\/json \(JSON\)/,
    );
    assert.match(notFound ?? '', /check its path in c\.json \(it is appended to API_BASE_URL\)/);
    assert.match(html ?? '', /^Collection users .* answered HTTP 200 text\/html \(an HTML page\)/);
  });

  test('a 401, 403, 400 or 5xx is no set-up mistake: the rules judge it; a transport failure neither', () => {
    const seen = [401, 403, 400, 500].map((status) => ({ ...step, seen: answer(status) }));
    const failed = { ...step, seen: { kind: 'failed', reason: 'reset' } as const };
    assert.deepEqual(unservedCollections([...seen, failed]), []);
  });
});

describe('runPreflight with collections, against the bundled mock', () => {
  async function preflight(collections: Collection[], faults: string[] = []) {
    const mock = await startMock({ port: 0, faults });
    const env = mock.env as unknown as Record<string, string>;
    try {
      const target = testTarget({
        baseURL: mock.url,
        keys: { test: env.API_TEST_KEY as string },
        merchants: { sandbox: env.SANDBOX_MERCHANT_ID as string },
      });
      return await runPreflight(target, undefined, collections);
    } finally {
      await mock.stop();
    }
  }

  test('the example refunds: go, one request more', async () => {
    const r = await preflight([collection()]);
    assert.equal(r.decision, 'go', r.problems.join('\n'));
  });

  test('no fault of the mock, switched on for the collection alone, is taken for a set-up mistake', async () => {
    let tried = 0;
    for (const f of FAULTS) {
      // A fault of the keys the mock issues acts on every path: it cannot be switched on for one collection.
      const r = await preflight([collection()], [`${f.name}@refunds`]).catch((e: Error) => {
        if (e.name === 'FaultError') return undefined;
        throw e;
      });
      if (!r) continue;
      tried += 1;
      assert.equal(r.decision, 'go', `${f.name}@refunds: ${r.problems.join('\n')}`);
    }
    assert.ok(tried > 50, `${tried} faults switched on for the collection`);
  });

  test('a path one letter off: bad configuration, naming the collection', async () => {
    const r = await preflight([
      collection(),
      collection({ name: 'refundz', path: '/payments/n1/merchant/{merchantId}/refundz' }),
    ]);
    assert.equal(r.decision, 'configuration');
    assert.equal(r.problems.length, 1);
    assert.match(
      r.problems[0] ?? '',
      /^Collection refundz \(my-collections\.json line 4 .*\/refundz\?limit=1 .*HTTP 404/,
    );
  });
});
