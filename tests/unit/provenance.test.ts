/** Record provenance over every answer (checks/provenance.ts) and the watcher that keeps the answers (core/run/watch.ts). */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  crossing,
  echoedBy,
  isRecord,
  keyLeakViolations,
  provenanceViolations,
  unexercised,
} from '../../checks/provenance.ts';
import { BASIC_CREDENTIALS, keyMutations } from '../../core/generate/key-mutations.ts';
import { asKey, NO_AUTH } from '../../core/model/credentials.ts';
import { paymentsPath } from '../../core/model/listing.ts';
import type { Provenance, Scope, WatchedAnswer } from '../../core/model/provenance.ts';
import {
  AnswerWatch,
  foldMerchantId,
  presenterOf,
  readWatchedAnswers,
  scopeOf,
  watchAnswers,
} from '../../core/run/watch.ts';
import { fakeExchange as exchange } from '../support/exchange.ts';
import { testTarget } from '../support/target.ts';

const target = testTarget({
  keys: {
    test: 'sk_test_UnitTestKey01',
    live: 'sk_live_UnitLiveKey01',
    restricted: 'sk_test_UnitRestricted1',
    revoked: 'sk_test_UnitRevoked001',
  },
  merchants: { sandbox: 'msb_1', live: 'mlv_1', otherSandbox: 'msb_2' },
});
const SANDBOX: Provenance = { merchant: 'sandbox', mode: 'test' };
const LIVE: Provenance = { merchant: 'live', mode: 'live' };
const LIVE_TEST: Provenance = { merchant: 'live', mode: 'test' };
const OTHER: Provenance = { merchant: 'otherSandbox', mode: 'test' };
const scope = (over: Partial<Scope>): Scope => ({
  presenter: 'test',
  mode: 'test',
  method: 'GET',
  endpoint: 'list',
  merchant: 'sandbox',
  ...over,
});

const pay = (id: string | number, over: Record<string, unknown> = {}) => ({
  id,
  merchantId: 'msb_1',
  amount: 1200,
  currency: 'EUR',
  status: 'COMPLETED',
  ...over,
});

function answer(over: Partial<WatchedAnswer>): WatchedAnswer {
  return {
    project: 'checks',
    check: null,
    status: 200,
    request: 'GET /payments/n1/merchant/msb_1/payments (Authorization: Bearer $API_TEST_KEY)',
    query: [],
    curl: 'curl x',
    scope: scope({}),
    ...over,
  };
}

describe('crossing: which rule a record shown to a request breaks', () => {
  test('no valid key: the rule the access oracle gives the request', () => {
    assert.equal(crossing(scope({ presenter: 'none', mode: undefined }), SANDBOX), 'AUTH-MISSING');
    assert.equal(crossing(scope({ presenter: 'invalid', mode: undefined }), SANDBOX), 'AUTH-INVALID');
    assert.equal(
      crossing(scope({ presenter: 'invalid', mode: undefined, merchant: 'unknown' }), SANDBOX),
      'AUTH-FIRST',
    );
    assert.equal(
      crossing(scope({ presenter: 'revoked', mode: undefined, endpoint: 'status', merchant: undefined }), SANDBOX),
      'AUTH-REVOKED',
    );
    assert.equal(crossing(scope({ presenter: 'restricted' }), SANDBOX), 'AUTH-FORBIDDEN');
  });
  test('a valid key: its own mode, and on a listing its own merchant', () => {
    assert.equal(crossing(scope({}), SANDBOX), undefined);
    assert.equal(crossing(scope({ merchant: 'live' }), LIVE_TEST), undefined);
    assert.equal(crossing(scope({ merchant: 'live' }), LIVE), 'MODE-ISOLATION');
    assert.equal(crossing(scope({ presenter: 'live', mode: 'live', merchant: 'live' }), LIVE_TEST), 'MODE-ISOLATION');
    assert.equal(
      crossing(scope({ presenter: 'live', mode: 'live', merchant: 'sandbox' }), SANDBOX),
      'MODE-LIVE-SANDBOX',
    );
    assert.equal(crossing(scope({}), OTHER), 'MER-ISOLATION');
    assert.equal(crossing(scope({ merchant: 'unknown' }), OTHER), undefined, 'an id the configuration does not know');
    assert.equal(crossing(scope({ endpoint: 'status', merchant: undefined }), OTHER), undefined);
  });
});

describe('records are matched as records, not as values', () => {
  test('the id and more of its fields, none different', () => {
    assert.ok(isRecord(pay('pay_test_0001'), pay('pay_test_0001')));
    assert.ok(isRecord({ id: 'pay_test_0001', amount: 1200 }, pay('pay_test_0001')), 'a long string id and one field');
    assert.ok(!isRecord({ id: 'pay_test_0001' }, pay('pay_test_0001')), 'the id alone');
    assert.ok(!isRecord(pay('pay_test_0001', { amount: 5 }), pay('pay_test_0001')), 'another amount: another record');
    assert.ok(!isRecord({ id: 7, amount: 1200 }, pay(7)), 'a small id needs two fields');
    assert.ok(isRecord({ id: 7, amount: 1200, currency: 'EUR' }, pay(7)));
  });
  test('values the request holds are no evidence (an error echoing the merchant id)', () => {
    const echoed = echoedBy(
      'GET /payments/n1/merchant/msb_1/payments?limit=5 (Authorization: Bearer $API_RESTRICTED_KEY)',
    );
    const error = { id: 7, merchantId: 'msb_1', message: 'forbidden', path: '/payments/n1/merchant/msb_1/payments' };
    assert.ok(!isRecord(error, pay(7), echoed));
    assert.ok(!isRecord({ id: 7, merchantId: 'msb_1', currency: 'EUR' }, pay(7), echoed), 'one real field is not two');
    assert.ok(isRecord({ id: 7, merchantId: 'msb_1', currency: 'EUR', amount: 1200 }, pay(7), echoed));
  });
  test('a record without an id: by its whole content', () => {
    const r = { merchantId: 'msb_1', amount: 3, status: 'PENDING' };
    assert.ok(isRecord({ ...r, extra: 1 }, r));
    assert.ok(!isRecord({ merchantId: 'msb_1', amount: 3 }, r));
  });
});

describe('provenanceViolations over watched answers', () => {
  const sandboxPage = answer({
    learned: { provenance: SANDBOX, records: [pay('pay_test_0001'), pay('pay_test_0002')] },
  });
  test('a refusal to the restricted key carrying a sandbox record fails AUTH-FORBIDDEN, naming both requests', () => {
    const refusal = answer({
      status: 403,
      request: 'GET /payments/n1/merchant/msb_1/payments (Authorization: Bearer $API_RESTRICTED_KEY)',
      curl: 'curl restricted',
      scope: scope({ presenter: 'restricted' }),
      objects: [{ where: 'body', value: pay('pay_test_0002') }],
    });
    const { violations, stats } = provenanceViolations([sandboxPage, refusal], 'AUTH-FORBIDDEN');
    assert.equal(violations.length, 1);
    assert.match(
      violations[0]?.received ?? '',
      /^HTTP 403 \(a refusal\) carried record .*pay_test_0002.* in body \(first read on the test-mode listing of the sandbox merchant by GET/,
    );
    assert.deepEqual(violations[0]?.reproduction, ['curl restricted', 'curl x']);
    assert.deepEqual(stats, {
      records: 2,
      answers: 2,
      byPresenter: { test: 1, restricted: 1 },
      listings: ['sandbox/test'],
    });
    assert.equal(provenanceViolations([sandboxPage, refusal], 'AUTH-MISSING').violations.length, 0, 'only its rule');
  });
  test('one answer holding records of two listings an isolation rule keeps apart, whatever its scope', () => {
    const page = (provenance: Provenance, id: string, merchantId: string) =>
      answer({ learned: { provenance, records: [pay(id, { merchantId })] }, request: `GET ${id}` });
    const pages = [
      page(LIVE, 'pay_live_0001', 'mlv_1'),
      page(SANDBOX, 'pay_test_0001', 'msb_1'),
      page(OTHER, 'pay_test_0002', 'msb_2'),
    ];
    // A merchant id no merchant owns (`%`): an unknown merchant, so no record crosses its scope; the answer holds a
    // live record first, then two sandbox merchants' (the pair is not the first record's).
    const pattern = answer({
      request: 'GET /payments/n1/merchant/%25/payments (Authorization: Bearer $API_LIVE_KEY)',
      scope: scope({ presenter: 'live', mode: 'live', merchant: 'unknown' }),
      objects: [
        { where: 'body', value: pay('pay_live_0001', { merchantId: 'mlv_1' }) },
        { where: 'body', value: pay('pay_test_0001', { merchantId: 'msb_1' }) },
        { where: 'body', value: pay('pay_test_0002', { merchantId: 'msb_2' }) },
      ],
    });
    const mer = provenanceViolations([...pages, pattern], 'MER-ISOLATION').violations;
    assert.equal(mer.length, 1);
    assert.match(
      mer[0]?.expected ?? '',
      /test-mode listing of the sandbox merchant and the test-mode listing of the other sandbox/,
    );
    // The live key shown two test records (its scope's crossings), and the answer holding two modes' records.
    const mode = provenanceViolations([...pages, pattern], 'MODE-ISOLATION').violations;
    assert.equal(mode.filter((v) => v.expected.startsWith('no answer holding records of both')).length, 1);
    const one = answer({ ...pattern, objects: pattern.objects?.slice(1, 2) });
    assert.equal(provenanceViolations([...pages, one], 'MER-ISOLATION').violations.length, 0, 'one listing: none');
  });
  test('a record a request may see is no violation, in a refusal too', () => {
    const own = answer({ status: 400, objects: [{ where: 'body', value: pay('pay_test_0001') }] });
    for (const rule of ['MODE-ISOLATION', 'MER-ISOLATION', 'AUTH-FORBIDDEN'] as const) {
      assert.equal(provenanceViolations([sandboxPage, own], rule).violations.length, 0);
    }
  });
  test('one record on two listings that share none: MODE-ISOLATION across modes, MER-ISOLATION across merchants', () => {
    const liveTest = answer({
      learned: { provenance: LIVE_TEST, records: [pay('x_shared_01', { merchantId: 'mlv_1' })] },
    });
    const live = answer({ learned: { provenance: LIVE, records: [pay('x_shared_01', { merchantId: 'mlv_1' })] } });
    assert.equal(provenanceViolations([liveTest, live], 'MODE-ISOLATION').violations.length, 1);
    assert.equal(provenanceViolations([liveTest, live], 'MER-ISOLATION').violations.length, 0);
    const other = answer({ learned: { provenance: OTHER, records: [pay('pay_test_0001')] } });
    assert.equal(provenanceViolations([sandboxPage, other], 'MER-ISOLATION').violations.length, 1);
  });
  test('integer ids per merchant (the same id, another record) are no shared record', () => {
    const a = answer({ learned: { provenance: SANDBOX, records: [pay(1, { amount: 10 })] } });
    const b = answer({ learned: { provenance: OTHER, records: [pay(1, { merchantId: 'msb_2', amount: 99 })] } });
    assert.equal(provenanceViolations([a, b], 'MER-ISOLATION').violations.length, 0);
  });
  test('KEY-SECRET: every answer that gave a key back', () => {
    const leaks = keyLeakViolations([
      answer({}),
      answer({ status: 401, keyLeak: 'header x-api-key', curl: 'curl leak' }),
    ]);
    assert.deepEqual(
      leaks.map((v) => [v.rule, v.received, v.reproduction]),
      [['KEY-SECRET', 'HTTP 401 gave a key back: header x-api-key', ['curl leak']]],
    );
  });
});

describe('a record written out as text (a run of fields)', () => {
  const page = answer({
    learned: { provenance: SANDBOX, records: [pay('pay_test_0001'), pay(7, { createdAt: '2026-01-02T03:04:05Z' })] },
  });
  const refusal = (
    texts: Array<{ where: string; text: string }>,
    request = 'GET /merchant/status (no Authorization header)',
  ) =>
    answer({
      status: 401,
      request,
      scope: scope({ presenter: 'none', mode: undefined, endpoint: 'status', merchant: undefined }),
      texts,
    });
  const missing = (texts: Array<{ where: string; text: string }>, request?: string) =>
    provenanceViolations([page, refusal(texts, request)], 'AUTH-MISSING').violations;
  test('XML, key=value and a header, beside a long string id', () => {
    assert.equal(
      missing([{ where: 'body', text: '<error><payment id="pay_test_0001"><amount>1200</amount></payment></error>' }])
        .length,
      1,
    );
    assert.equal(missing([{ where: 'headers', text: 'x-last: id=pay_test_0001 amount=1200 EUR' }]).length, 1);
    assert.match(
      missing([{ where: 'body', text: 'last: pay_test_0001 (COMPLETED)' }])[0]?.received ?? '',
      /wrote record .* out as text in body: "…last: pay_test_0001 \(COMPLETED\)…"/,
    );
  });
  test('an id alone, a longer number, values the request holds: no run of fields', () => {
    assert.equal(missing([{ where: 'body', text: 'see pay_test_0001 for details' }]).length, 0);
    assert.equal(missing([{ where: 'body', text: 'id=pay_test_0001 total=12000' }]).length, 0, '12000 is not 1200');
    assert.equal(
      missing(
        [{ where: 'body', text: 'pay_test_0001 merchant msb_1' }],
        'GET /payments/n1/merchant/msb_1/payments (no Authorization header)',
      ).length,
      0,
    );
  });
  test('a small integer id needs three of its values beside it, one a long string', () => {
    assert.equal(missing([{ where: 'body', text: 'request 7 failed: 1200 EUR COMPLETED' }]).length, 0);
    assert.equal(missing([{ where: 'body', text: 'payment 7: 1200 EUR at 2026-01-02T03:04:05Z' }]).length, 1);
  });
});

describe('what the answers could not show', () => {
  const stats = (listings: string[], records = 3) => ({ records, answers: 9, byPresenter: {}, listings });
  test('isolation needs records on both sides of its boundary', () => {
    assert.match(
      unexercised('MODE-ISOLATION', stats(['live/test', 'sandbox/test']), 4) ?? '',
      /records of one mode only/,
    );
    assert.equal(unexercised('MODE-ISOLATION', stats(['live/live', 'live/test']), 4), undefined);
    assert.match(unexercised('MER-ISOLATION', stats(['sandbox/test']), 4) ?? '', /one merchant only/);
    assert.equal(unexercised('MER-ISOLATION', stats(['live/test', 'sandbox/test']), 4), undefined);
    assert.match(unexercised('MODE-LIVE-SANDBOX', stats(['live/live', 'live/test']), 4) ?? '', /no sandbox record/);
  });
  test('the others: records of any listing, and answers to the requests the rule is about', () => {
    assert.match(unexercised('AUTH-FORBIDDEN', stats([], 0), 4) ?? '', /nothing to trace/);
    assert.match(unexercised('AUTH-FORBIDDEN', stats(['sandbox/test']), 0) ?? '', /no answer of the run came/);
    assert.equal(unexercised('AUTH-FORBIDDEN', stats(['sandbox/test']), 1), undefined);
  });
});

describe('the watcher: who asked for what, and what the answer carried', () => {
  test('presenters: none, invalid, revoked, the slot of a valid key (also as Basic credentials)', () => {
    const mutation = keyMutations(target.keys.test)[0];
    assert.deepEqual(
      [
        NO_AUTH,
        { kind: 'literal' as const, header: ' ' },
        { kind: 'literal' as const, header: 'Bearer x' },
        asKey('test', { mutation }),
        asKey('revoked'),
        asKey('old'),
        asKey('restricted'),
        asKey('live', { scheme: 'bearer' }),
        asKey('test', { scheme: 'Basic', mutation: BASIC_CREDENTIALS }),
      ].map((auth) => presenterOf({ auth })),
      ['none', 'none', 'invalid', 'invalid', 'revoked', 'revoked', 'restricted', 'live', 'test'],
    );
  });
  test('merchant ids fold as a lenient lookup reads them', () => {
    assert.deepEqual(['MSB_1', 'msb%5F1', 'ｍｓｂ_1', 'msb_1.', ' msb_1 ', 'msb_1%2520'].map(foldMerchantId), [
      'msb_1',
      'msb_1',
      'msb_1',
      'msb_1',
      'msb_1',
      'msb_1',
    ]);
  });
  test('scope of a request: endpoint, merchant (spellings folded), mode', () => {
    const e = (path: string, auth = asKey('test'), method: 'GET' | 'HEAD' = 'GET') =>
      scopeOf({ path, auth, method }, target);
    assert.deepEqual(e(paymentsPath('msb_2')), {
      presenter: 'test',
      mode: 'test',
      method: 'GET',
      endpoint: 'list',
      merchant: 'otherSandbox',
    });
    assert.deepEqual(e('/payments/n1/merchant/%EF%BD%8Dsb_1/payments/', asKey('live'), 'HEAD'), {
      presenter: 'live',
      mode: 'live',
      method: 'HEAD',
      endpoint: 'list',
      merchant: 'sandbox',
    });
    assert.deepEqual(e('/payments/n1/merchant/msb_9/payments', asKey('restricted')), {
      presenter: 'restricted',
      mode: 'test',
      method: 'GET',
      endpoint: 'list',
      merchant: 'unknown',
    });
    assert.deepEqual(e('/merchant/status', NO_AUTH), { presenter: 'none', method: 'GET', endpoint: 'status' });
  });
  test('a listing a valid key may read: its records learned once per provenance; a refusal: its records as objects', () => {
    const watch = new AnswerWatch(target, 'checks');
    const data = [pay('pay_test_0001'), pay('pay_test_0002')];
    const page = exchange({
      path: paymentsPath('msb_1'),
      json: { success: true, message: 'OK', data, offset: 0, limit: 10, total: 2 },
    });
    assert.deepEqual(watch.see(page).learned, { provenance: SANDBOX, records: data });
    assert.equal(watch.see(page).learned, undefined, 'each record once');
    const spelled = exchange({
      path: '/payments/n1/merchant/MSB_1/payments',
      json: { success: true, data, offset: 0, limit: 10, total: 2 },
    });
    const seen = watch.see(spelled);
    assert.equal(seen.learned, undefined, 'a spelling is judged, never learned from');
    assert.deepEqual(
      seen.objects?.map((o) => o.value.id),
      ['pay_test_0001', 'pay_test_0002'],
    );
    const html = exchange({
      status: 403,
      path: paymentsPath('msb_1'),
      text: `<pre>{&quot;debug&quot;:${JSON.stringify(data[0]).replace(/"/g, '&quot;')}}</pre>`,
      headers: { 'x-debug': JSON.stringify(data[1]) },
    });
    assert.deepEqual(
      watch.see(html).objects?.map((o) => [o.where, o.value.id]),
      [
        ['body (JSON inside the text)', 'pay_test_0001'],
        ['header x-debug', 'pay_test_0002'],
      ],
    );
  });

  test("a listing a valid key may read: its body is learned, its headers are judged as any answer's", () => {
    const watch = new AnswerWatch(target, 'checks');
    const page = exchange({
      path: paymentsPath('msb_1'),
      json: { success: true, message: 'OK', data: [pay('pay_test_0003')], offset: 0, limit: 10, total: 1 },
      headers: { 'x-debug-last': 'id=pay_live_0009 amount=1200 currency=EUR status=COMPLETED merchantId=mlv_1' },
    });
    const seen = watch.see(page);
    assert.ok(seen.learned);
    assert.deepEqual(
      seen.texts?.map((t) => t.where),
      ['headers'],
    );
  });

  test("each project writes its own files: a judge reads its projects' answers and no others", () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-'));
    try {
      const projects = ['fault:a', 'fault:a/b', 'legal:1:2'];
      for (const project of projects) {
        const observers: Array<(e: ReturnType<typeof exchange>) => void> = [];
        const api = {
          observe: (fn: (e: ReturnType<typeof exchange>) => void) => {
            observers.push(fn);
            return () => {};
          },
        };
        const stop = watchAnswers(api as never, target, project, dir);
        for (const fn of observers) fn(exchange({ path: '/merchant/status', status: 200, json: { ok: project } }));
        stop();
      }
      assert.equal(readdirSync(dir).filter((f) => f.endsWith('.ndjson')).length, 3, 'one file per project');
      for (const project of projects) {
        assert.deepEqual(
          readWatchedAnswers([project], dir).map((a) => a.project),
          [project],
        );
      }
      assert.deepEqual(readWatchedAnswers(['fault:'], dir), [], 'a prefix of a name is another project');
      assert.equal(readWatchedAnswers(['fault:a', 'legal:1:2'], dir).length, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
