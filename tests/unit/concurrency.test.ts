/**
 * Requests in flight together (core/run/concurrency.ts): the lanes the configuration gives, the order of each burst,
 * and the checks against the bundled mock — clean, and with each fault of state shared between requests
 * (mock/faults/shared-state.ts), which a run of one request at a time never sees.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiClient } from '../../core/client/http.ts';
import type { RuleId } from '../../core/model/rules.ts';
import { RuleViolation } from '../../core/model/verdict.ts';
import { checkContext } from '../../core/run/check.ts';
import { burstOrders, concurrencyCheck, lanesOf } from '../../core/run/concurrency.ts';
import { startMock } from '../../mock/index.ts';
import { mockTarget } from '../support/target.ts';

describe('lanes and bursts', async () => {
  const mock = await startMock({ port: 0 });
  const t = mockTarget(mock.env, { fcSeed: 7 });
  await mock.stop();
  const lanes = lanesOf(t);

  test('every credential the configuration has, on the listing its rule is about, refused and allowed', () => {
    assert.deepEqual(
      lanes.refused.map((l) => l.expectation.rule),
      ['AUTH-MISSING', 'AUTH-MISSING', 'AUTH-INVALID', 'AUTH-REVOKED', 'AUTH-FORBIDDEN', 'MODE-LIVE-SANDBOX'],
    );
    assert.deepEqual(
      lanes.allowed.map((l) => l.expectation.rule),
      ['MODE-TEST-SANDBOX', 'MODE-TEST-SANDBOX', 'MODE-TEST-LIVE', 'MODE-LIVE-LIVE', 'AUTH-STATUS'],
    );
    const bare = lanesOf({ ...t, keys: { test: t.keys.test }, merchants: { sandbox: t.merchants.sandbox } });
    assert.equal(bare.refused.length + bare.allowed.length, 5, 'no key or merchant that is not configured');
  });

  test('refused first, then allowed first, then permutations drawn from the seed, the same for the same seed', () => {
    const all = [...lanes.refused, ...lanes.allowed];
    const [first, second, ...drawn] = burstOrders(lanes, 6, 7);
    assert.deepEqual(first, all);
    assert.deepEqual(second, [...lanes.allowed, ...lanes.refused]);
    assert.equal(drawn.length, 4);
    for (const order of drawn) assert.deepEqual(new Set(order), new Set(all), 'each a permutation of every lane');
    assert.deepEqual(burstOrders(lanes, 6, 7), burstOrders(lanes, 6, 7));
    assert.equal(burstOrders(lanes, 1, 7).length, 1);
  });
});

/** The concurrency check of `rule` against the mock with these faults: its violation, if any, and its notes. */
async function checkOn(rule: RuleId, faults: string[] = []) {
  const mock = await startMock({ port: 0, faults });
  try {
    const t = mockTarget(mock.env, { fcSeed: 7 });
    const ctx = checkContext(t, new ApiClient(t), rule);
    try {
      await concurrencyCheck(ctx);
      return { ctx };
    } catch (error) {
      if (!(error instanceof RuleViolation)) throw error;
      return { ctx, violation: error.violation };
    }
  } finally {
    await mock.stop();
  }
}

describe('the concurrency checks against the bundled mock', () => {
  test('clean: every rule passes', async () => {
    for (const rule of [
      'AUTH-MISSING',
      'AUTH-FORBIDDEN',
      'MODE-TEST-SANDBOX',
      'MER-ISOLATION',
      'MODE-ISOLATION',
    ] as const) {
      const { violation, ctx } = await checkOn(rule);
      assert.equal(violation, undefined, `${rule}: ${violation?.received}`);
      assert.match([...ctx.notes].join(' '), /requests in 2 burst\(s\)/);
    }
  });

  test('a principal kept in shared state: the restricted key, held while a test-key request arrives, is served', async () => {
    const { violation } = await checkOn('AUTH-FORBIDDEN', ['principal-in-shared-state']);
    assert.equal(violation?.rule, 'AUTH-FORBIDDEN');
    assert.match(violation?.received ?? '', /in flight together with/);
  });

  test("a query builder shared between requests: a page held while another listing arrives echoes the other's", async () => {
    const { violation } = await checkOn('PAG-ECHO', ['query-in-shared-state']);
    assert.equal(violation?.rule, 'PAG-ECHO');
    const { violation: size } = await checkOn('PAG-SIZE', ['query-in-shared-state']);
    assert.equal(size, undefined, 'a page answered whole as another query is of the right size for what it echoes');
  });

  test("a merchant kept in shared state: a listing held while another merchant's arrives shows its records", async () => {
    const { violation } = await checkOn('MER-ISOLATION', ['merchant-in-shared-state']);
    assert.equal(violation?.rule, 'MER-ISOLATION');
    assert.match(violation?.expected ?? '', /no record on both/);
  });
});
