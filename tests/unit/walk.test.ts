import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiClient } from '../../core/client/http.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import { asKey } from '../../core/model/credentials.ts';
import type { Exchange, QueryPairs } from '../../core/model/exchange.ts';
import { pageHolding } from '../../core/model/result-set.ts';
import type { RuleId } from '../../core/model/rules.ts';
import { DataChanged, dataChangedUnder, sameData } from '../../core/run/changes.ts';
import { checkContext } from '../../core/run/check.ts';
import { enumerate, forgetSets, sharedPage, Unusable, walk } from '../../core/run/walk.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';
import { testTarget } from '../support/target.ts';

/** A check's context over a fake client: the rule its unusable pages fail. */
const ctxOf = (api: ApiClient, rule: RuleId, target = testTarget()) => checkContext(target, api, rule);

const LISTING = { collection: PAYMENTS, merchant: 'm1', auth: asKey('test') };
const records = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}`, status: 'COMPLETED', amount: i }));

/** A fake client over `data`: `total(offset, limit)` says what each page reports; `answer` may replace a page. */
function fakeApi(
  data: unknown[],
  opts: { total?: (o: number, l: number) => number; answer?: (o: number) => Exchange | undefined } = {},
) {
  const sent: string[] = [];
  const api = {
    get: async (_path: string, { query = [] }: { query?: QueryPairs }) => {
      const q = Object.fromEntries(query);
      const [offset, limit] = [Number(q.offset ?? 0), Number(q.limit ?? 10)];
      sent.push(`${offset}/${limit}`);
      const replaced = opts.answer?.(offset);
      if (replaced) return replaced;
      const total = opts.total?.(offset, limit) ?? data.length;
      return fakeExchange({
        json: envelope({ data: data.slice(offset, offset + limit), offset, limit, total }),
        query,
      });
    },
  };
  return { api: api as unknown as ApiClient, sent };
}

describe('walk', () => {
  const target = testTarget();
  test('reads pages at 0, L, 2L … up to total and concatenates them', async () => {
    const { api, sent } = fakeApi(records(25));
    const w = await walk(ctxOf(api, 'PAG-PARTITION', target), LISTING, { limit: 10 });
    assert.deepEqual(sent, ['0/10', '10/10', '20/10']);
    assert.equal(w.records.length, 25);
    assert.equal(w.total, 25);
    assert.equal(w.complete, true);
    assert.deepEqual(
      w.pages.map((p) => p.offset),
      [0, 10, 20],
    );
  });
  test('a full last page is followed by one more, which shows a total that understates the set', async () => {
    const exact = fakeApi(records(20));
    await walk(ctxOf(exact.api, 'PAG-TOTAL', target), LISTING, { limit: 10 });
    assert.deepEqual(exact.sent, ['0/10', '10/10', '20/10']);
    const understated = fakeApi(records(30), { total: (_o, l) => l });
    const w = await walk(ctxOf(understated.api, 'PAG-TOTAL', target), LISTING, { limit: 10 });
    assert.equal(w.records.length, 20, 'the page past the reported total was read');
    assert.equal(w.total, 10);
  });
  test('a target that ignores offset is read a bounded number of pages', async () => {
    const data = records(25);
    const { api, sent } = fakeApi(data, {
      answer: () => fakeExchange({ json: envelope({ data: data.slice(0, 10), limit: 10, total: 25 }) }),
    });
    const w = await walk(ctxOf(api, 'PAG-PARTITION', target), LISTING, { limit: 10 });
    assert.equal(sent.length, 4);
    assert.equal(w.records.length, 40);
  });
  test('maxPages and API_MAX_RECORDS stop the walk, which is then incomplete', async () => {
    const pages = await walk(ctxOf(fakeApi(records(100)).api, 'SRT-AMOUNT', target), LISTING, {
      limit: 10,
      maxPages: 3,
    });
    assert.deepEqual([pages.pages.length, pages.complete], [3, false]);
    const ctx = ctxOf(fakeApi(records(500)).api, 'PAG-TOTAL', testTarget({ maxRecords: 100 }));
    const capped = await walk(ctx, LISTING, { limit: 50 });
    assert.deepEqual([capped.records.length, capped.complete], [100, false]);
    assert.deepEqual(
      [...ctx.notes],
      ['merchant m1 (Authorization: Bearer $API_TEST_KEY): read 100 of 500 records (API_MAX_RECORDS=100)'],
    );
  });
  test('a page that is not a usable 200 fails the given rule; a total that moves is DataChanged', async () => {
    const broken = fakeApi(records(30), {
      answer: (o) => (o === 10 ? fakeExchange({ status: 500, text: 'boom' }) : undefined),
    });
    await assert.rejects(walk(ctxOf(broken.api, 'FLT-STATUS', target), LISTING, { limit: 10 }), (e: Unusable) => {
      assert.ok(e instanceof Unusable);
      assert.equal(e.violation.rule, 'FLT-STATUS');
      assert.match(e.violation.received, /HTTP 500/);
      return true;
    });
    // A total that grows with every request: the same page asked again answers another total.
    let asked = 0;
    const growing = fakeApi(records(30), { total: () => 30 + asked++ });
    await assert.rejects(walk(ctxOf(growing.api, 'PAG-TOTAL', target), LISTING, { limit: 10 }), DataChanged);
  });
  test('a total that depends on the query but repeats itself is not changing data: the walk reads on', async () => {
    const afterOffset = fakeApi(records(30), { total: (o) => 30 - o });
    const w = await walk(ctxOf(afterOffset.api, 'PAG-TOTAL', target), LISTING, { limit: 10 });
    assert.equal(w.records.length, 30);
    assert.equal(w.total, 30, "the set's total is its first page's");
    assert.ok(afterOffset.sent.length > 3, 'the disagreeing pages were asked again');
  });
});

describe('the data-changed judgment (core/run/changes.ts)', () => {
  const first = (api: ApiClient) =>
    api.get('/p', {
      query: [
        ['offset', '0'],
        ['limit', '100'],
      ],
      auth: asKey('test'),
    });
  test("sameData: equal totals need no second look; a total that repeats is the API's; one that moves is a change", async () => {
    const { api, sent } = fakeApi(records(150), { total: (o) => 150 - o });
    const [a, b] = [await first(api), await api.get('/p', { query: [['offset', '100']], auth: asKey('test') })];
    await sameData(ctxOf(api, 'PAG-TOTAL'), a, a);
    assert.equal(sent.length, 2);
    await sameData(ctxOf(api, 'PAG-TOTAL'), a, b);
    assert.equal(sent.length, 4, 'both asked again');
    let n = 0;
    const moving = fakeApi(records(10), { total: () => 10 + n++ });
    const c = await first(moving.api);
    const d = await first(moving.api);
    await assert.rejects(sameData(ctxOf(moving.api, 'PAG-TOTAL'), c, d), (e: DataChanged) => {
      assert.ok(e instanceof DataChanged);
      assert.match(
        e.message,
        /GET \/payments\/n1\/merchant\/m1\/payments\?offset=0&limit=100 \(Authorization: Bearer \$API_TEST_KEY\) answered total 10, then 12/,
      );
      return true;
    });
  });
  test('dataChangedUnder asks the first read of each set again, once: nothing moved, or which request did', async () => {
    const still = fakeApi(records(40));
    const reads = [await first(still.api), await first(still.api)];
    assert.equal(await dataChangedUnder(ctxOf(still.api, 'PAG-TOTAL'), reads), undefined);
    assert.equal(still.sent.length, 3, 'two reads of one set: one asked again');
    let n = 0;
    const moving = fakeApi(records(40), { total: () => 40 + n++ });
    const change = await dataChangedUnder(ctxOf(moving.api, 'PAG-TOTAL'), [await first(moving.api)]);
    assert.match(change?.message ?? '', /answered total 40, then 41/);
  });
});

describe('enumerate, pageHolding', () => {
  test('enumerate reads a listing once per client', async () => {
    const { api, sent } = fakeApi(records(150));
    const [a, b] = await Promise.all([
      enumerate(ctxOf(api, 'PAG-TOTAL'), LISTING),
      enumerate(ctxOf(api, 'PAG-TOTAL'), LISTING),
    ]);
    assert.equal(a, b);
    assert.deepEqual(sent, ['0/100', '100/100']);
  });
  test('sharedPage answers the same request once per client, to every check that asks, until the data changed', async () => {
    const { api, sent } = fakeApi(records(30));
    const [one, two] = [ctxOf(api, 'PAG-ECHO'), ctxOf(api, 'PAG-SIZE')];
    const a = await sharedPage(one, LISTING, { offset: 5, limit: 5 });
    assert.equal(await sharedPage(two, LISTING, { offset: 5, limit: 5 }), a);
    assert.deepEqual(two.reads, [a], "the shared answer is one of the asking check's reads");
    await sharedPage(two, LISTING, { offset: 5, limit: 6 });
    forgetSets(two);
    await sharedPage(one, LISTING, { offset: 5, limit: 5 });
    assert.deepEqual(sent, ['5/5', '5/6', '5/5'], 'read again once the sets were forgotten');
  });
  test('pageHolding finds the page of a record and where the page starts', async () => {
    const w = await walk(ctxOf(fakeApi(records(25)).api, 'PAG-PARTITION'), LISTING, { limit: 10 });
    assert.deepEqual([pageHolding(w, 0).start, pageHolding(w, 13).start, pageHolding(w, 24).page?.offset], [0, 10, 20]);
  });
});
