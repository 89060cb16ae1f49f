/**
 * The door checks' mechanisms: candidates from the target, the collections and the vocabularies
 * (core/generate/door-candidates.ts, door-vocabulary.ts), answers compared beyond their echo (core/model/answer-shape.ts),
 * the pairwise query shapes (core/generate/query-shapes.ts), and the exploration against the bundled mock
 * (core/run/doors.ts): each fault found by its rule through the mechanism, with the door it opened split out of its
 * batch; a clean mock and legal variants clean.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiClient } from '../../core/client/http.ts';
import { addShown, candidatePool, observe, resolveCandidates, shownOf } from '../../core/generate/door-candidates.ts';
import { BUILT_IN, parseVocabulary } from '../../core/generate/door-vocabulary.ts';
import { coveringArray, queryShapes } from '../../core/generate/query-shapes.ts';
import { learnEcho, sameAnswer, shapeOf } from '../../core/model/answer-shape.ts';
import { describeTally } from '../../core/model/door-tally.ts';
import type { RuleId } from '../../core/model/rules.ts';
import { RuleViolation } from '../../core/model/verdict.ts';
import { checkContext } from '../../core/run/check.ts';
import { doorCheck } from '../../core/run/door-check.ts';
import { exploreDoors } from '../../core/run/doors.ts';
import { startMock } from '../../mock/index.ts';
import { fakeExchange } from '../support/exchange.ts';
import { mockTarget } from '../support/target.ts';

describe('candidates: what the target showed, the collections, the vocabularies', () => {
  const listing = fakeExchange({
    json: { success: true, data: [{ id: 'pay_1', merchantId: 'msb_1', amount: 5 }], offset: 0, limit: 10, total: 1 },
    headers: {
      'set-cookie': 'sid=abcdefghijklmnopqrstuv; Path=/, theme=dark',
      'x-request-id': 'req_00000001',
      link: '</payments/n1/merchant/msb_1/payments?cursor=c2&page_token=zz>; rel="next"',
      date: 'Tue, 01 Dec 2026 10:00:00 GMT',
    },
  });
  const observed = observe([listing]);

  test("record and envelope fields, cookies handed out, headers and link parameters are observed; HTTP's own are not", () => {
    assert.deepEqual([...observed.recordFields.keys()], ['id', 'merchantId', 'amount']);
    assert.deepEqual(
      [...observed.cookies],
      [
        ['sid', 'abcdefghijklmnopqrstuv'],
        ['theme', 'dark'],
      ],
    );
    assert.deepEqual([...observed.headers.keys()], ['x-request-id', 'link']);
    assert.deepEqual([...observed.linkParams.keys()], ['cursor', 'page_token']);
  });

  test('header names the target lists (CORS, Vary) are candidates that carry a key, the documented ones are not', () => {
    const cors = fakeExchange({
      headers: { 'access-control-allow-headers': 'Authorization, Content-Type, X-Gateway-Credential', vary: 'Origin' },
    });
    const pool = candidatePool({ observed: observe([cors]), merchants: [], collections: [], vocabularies: [] });
    const gateway = pool.find((c) => c.channel === 'header' && c.name === 'X-Gateway-Credential');
    assert.equal(gateway?.source, 'target');
    // The key first: a quick run sends each candidate's first value only.
    assert.equal(gateway?.values[0], '{key}', 'a name of unknown meaning is tried with the key first');
    assert.ok((gateway?.values.length ?? 0) > 1, 'and with what each other class would carry');
    assert.ok(!pool.some((c) => /^(authorization|content-type)$/i.test(c.name)), 'documented headers stay out');
  });

  test('what any answer of the run showed is kept once per process and becomes a candidate of the doors', () => {
    const refusal = fakeExchange({ status: 403, headers: { vary: 'Authorization, X-Session-Key', 'x-trace': 't1' } });
    const known = new Set<string>();
    const shown = shownOf(refusal, known);
    assert.deepEqual(shown, { headers: [['x-trace', 't1']], headerNames: ['Authorization', 'X-Session-Key'] });
    assert.equal(shownOf(refusal, known), undefined, 'a name already kept is not kept again');
    assert.equal(shownOf(fakeExchange({ headers: { date: 'Tue, 01 Dec 2026 10:00:00 GMT' } }), new Set()), undefined);
    const observed = addShown(observe([]), [shown ?? {}]);
    const pool = candidatePool({ observed, merchants: [], collections: [], vocabularies: [] });
    const session = pool.find((c) => c.channel === 'header' && c.name === 'X-Session-Key');
    assert.equal(session?.values[0], '{key}', 'a name seen in a 403 only is tried with the key first');
    // Envelope fields and link parameters as well; records' fields are the canonical listings' (not kept).
    assert.deepEqual(shownOf(listing, new Set())?.linkParams, [
      ['cursor', 'c2'],
      ['page_token', 'zz'],
    ]);
    assert.equal(shownOf(listing, new Set())?.envelopeFields?.[0]?.[0], 'success');
  });

  test('one candidate per name and channel (the first source), never a documented input, never a key in a URL', () => {
    const pool = candidatePool({
      observed,
      merchants: ['msb_1', 'msb_2'],
      collections: [],
      vocabularies: [{ source: 'vocabulary', entries: BUILT_IN }],
    });
    const names = pool.map((c) => `${c.channel}:${c.name}`);
    assert.equal(new Set(names).size, names.length);
    for (const documented of [
      'query:offset',
      'query:limit',
      'query:filter[status]',
      'query:sort',
      'header:Authorization',
    ])
      assert.ok(!names.includes(documented), documented);
    const merchantId = pool.find((c) => c.name === 'merchantId' && c.channel === 'query');
    assert.equal(merchantId?.source, 'target', 'the target named it first');
    assert.equal(merchantId?.klass, 'identity', 'its values are merchant ids');
    assert.equal(pool.find((c) => c.channel === 'cookie' && c.name === 'sid')?.klass, 'credentials');
    const resolved = resolveCandidates(pool, { merchants: ['msb_2'], paths: ['/p'], keys: ['test'] });
    assert.ok(resolved.filter((c) => c.channel === 'query').every((c) => c.values.every((v) => typeof v === 'string')));
    assert.deepEqual(resolved.find((c) => c.name === 'X-Api-Key')?.values, [{ slot: 'test' }]);
    assert.deepEqual(resolved.find((c) => c.name === 'merchant_id' && c.channel === 'query')?.values, ['msb_2']);
  });

  test('a vocabulary is data: the built-in one is valid; a user file is refused whole for what it cannot be', () => {
    assert.deepEqual(parseVocabulary(JSON.stringify({ entries: BUILT_IN }), 'built-in').problems, []);
    assert.ok(BUILT_IN.every((e) => e.source.length > 0));
    const bad = parseVocabulary(
      JSON.stringify({
        entries: [
          { name: 'X-HTTP-Method-Override', in: ['header'], class: 'debug', source: 'x' },
          { name: 'a b', in: ['header'], class: 'debug', source: 'x' },
          { name: 'ok', in: ['body'], class: 'nope', source: '' },
        ],
      }),
      'mine.json',
    );
    assert.equal(bad.entries.length, 0);
    assert.equal(bad.problems.length, 5);
    assert.match(bad.problems[0] ?? '', /never sent \(a method override/);
    assert.deepEqual(parseVocabulary('{', 'x.json').problems, ['x.json is not JSON']);
  });
});

describe('answers compared beyond their echo', () => {
  const answer = (json: unknown, headers: Record<string, string> = {}) =>
    shapeOf({ status: 200, headers, text: JSON.stringify(json), json });
  const data = [{ id: 'p1' }, { id: 'p2' }];

  test('what moves between two answers to one request, and what quotes the query, is no difference', () => {
    const plain = answer({ data, requestId: 'r1' }, { 'x-request-id': 'a' });
    const again = answer({ data, requestId: 'r2' }, { 'x-request-id': 'b' });
    const inert = answer({ data, requestId: 'r3', ignored: ['zqabc'] }, { 'x-request-id': 'c' });
    const echo = learnEcho(plain, again, inert);
    const batch = answer(
      { data, requestId: 'r4', ignored: ['merchant_id', 'debug', 'scope'] },
      { 'x-request-id': 'd' },
    );
    assert.ok(sameAnswer(plain, batch, echo), 'an echo of every name, at any index');
    assert.ok(!sameAnswer(plain, answer({ data: [{ id: 'p9' }], requestId: 'r5' }), echo), 'other records');
    assert.ok(!sameAnswer(plain, answer({ data, requestId: 'r6' }, { 'x-debug': '1' }), echo), 'a header more');
  });

  test('a server that refuses what it does not know teaches no echo', () => {
    const plain = answer({ data });
    const refused = shapeOf({ status: 400, headers: {}, text: '{"e":1}', json: { e: 1 } });
    assert.equal(learnEcho(plain, plain, refused).ignored.size, 0);
  });
});

describe('query shapes: every pair of two features in some query', () => {
  test('a covering array of strength 2, the same on every call', () => {
    const sizes = [2, 3, 2, 3];
    const rows = coveringArray(sizes);
    for (let i = 0; i < sizes.length; i++)
      for (let j = i + 1; j < sizes.length; j++)
        for (let a = 0; a < (sizes[i] as number); a++)
          for (let b = 0; b < (sizes[j] as number); b++)
            assert.ok(
              rows.some((r) => r[i] === a && r[j] === b),
              `${i}=${a},${j}=${b}`,
            );
    assert.ok(rows.length <= 10);
    assert.deepEqual(queryShapes(10), queryShapes(10));
    assert.ok(
      queryShapes(10).some((q) => q.sort === '-amount' && q.offset === 30),
      'sorted past the first pages',
    );
  });
});

/** The door check of `rule` against the mock with these faults and variants: its violation, if any, and its context. */
async function doorsOn(rule: RuleId, opts: { faults?: string[]; variants?: string[] } = {}) {
  const mock = await startMock({ port: 0, ...opts });
  try {
    const t = mockTarget(mock.env, { fcSeed: 7 });
    const ctx = checkContext(t, new ApiClient(t), rule);
    let thrown: unknown;
    try {
      await doorCheck(ctx);
    } catch (error) {
      thrown = error;
    }
    const run = await exploreDoors(ctx, rule, ctx.depth.name);
    return { violation: thrown instanceof RuleViolation ? thrown.violation : undefined, thrown, ctx, run };
  } finally {
    await mock.stop();
  }
}

describe('the door checks against the bundled mock', () => {
  test('clean: no violation of any rule, nothing split, every source counted', async () => {
    for (const rule of ['AUTH-MISSING', 'MER-ISOLATION'] as const) {
      const { thrown, run, ctx } = await doorsOn(rule);
      assert.equal(thrown, undefined, rule);
      assert.equal(run.cases.filter((c) => c.kind === 'split').length, 0);
      assert.match(describeTally(ctx.doors ?? {}), /from the target, \d+ from the vocabulary/);
    }
  });

  test('an identity from a query parameter: MER-ISOLATION, the batch split down to the parameter', async () => {
    const { violation, run } = await doorsOn('MER-ISOLATION', { faults: ['merchant-from-query'] });
    assert.equal(violation?.rule, 'MER-ISOLATION');
    const doors = run.cases.filter((c) => c.kind === 'split' && c.added.inputs.length === 1);
    assert.ok(
      doors.some((c) => c.added.inputs[0]?.candidate.name === 'merchant_id'),
      'the door itself',
    );
  });

  test('a key in another header and a cookie the server handed out: AUTH-MISSING, the smallest door first', async () => {
    const header = await doorsOn('AUTH-MISSING', { faults: ['key-in-x-api-key'] });
    assert.match(header.violation?.expected ?? '', /with X-Api-Key: \$API_TEST_KEY/);
    const cookie = await doorsOn('AUTH-MISSING', { faults: ['session-cookie-accepted'] });
    assert.match(cookie.violation?.expected ?? '', /with cookie sid=s_/);
  });

  test('a strict server (400 for any parameter it does not know, now and then a 503 to come back to): clean', async () => {
    for (const rule of ['AUTH-MISSING', 'MER-ISOLATION', 'LIM-CAP'] as const) {
      const { thrown } = await doorsOn(rule, { variants: ['unknown-params=reject', 'busy=retry-after'] });
      assert.equal(thrown, undefined, rule);
    }
  });
});
