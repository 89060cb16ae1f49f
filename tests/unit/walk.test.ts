import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiClient } from '../../core/client/http.ts';
import { asKey } from '../../core/model/credentials.ts';
import type { Exchange, QueryPairs } from '../../core/model/exchange.ts';
import { pageHolding } from '../../core/model/result-set.ts';
import type { RuleId } from '../../core/model/rules.ts';
import { checkContext } from '../../core/run/check.ts';
import { confirmed, DataChanged, enumerate, Unusable, walk } from '../../core/run/walk.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';
import { testTarget } from '../support/target.ts';

/** A check's context over a fake client: the rule its unusable pages fail. */
const ctxOf = (api: ApiClient, rule: RuleId, target = testTarget()) => checkContext(target, api, rule);

const LISTING = { merchant: 'm1', auth: asKey('test') };
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
    const growing = fakeApi(records(30), { total: (o) => 30 + o });
    await assert.rejects(walk(ctxOf(growing.api, 'PAG-TOTAL', target), LISTING, { limit: 10 }), DataChanged);
    await assert.rejects(
      walk(ctxOf(fakeApi(records(30)).api, 'PAG-TOTAL', target), LISTING, { limit: 10, total: 29 }),
      DataChanged,
    );
  });
});

describe('enumerate, confirmed, pageHolding', () => {
  test('enumerate reads a listing once per client', async () => {
    const { api, sent } = fakeApi(records(150));
    const [a, b] = await Promise.all([
      enumerate(ctxOf(api, 'PAG-TOTAL'), LISTING),
      enumerate(ctxOf(api, 'PAG-TOTAL'), LISTING),
    ]);
    assert.equal(a, b);
    assert.deepEqual(sent, ['0/100', '100/100']);
  });
  test('confirmed repeats the reference request: a total that depends on the window is not changing data', async () => {
    const v = { rule: 'PAG-TOTAL' as const, expected: 'x', received: 'y' };
    const { api, sent } = fakeApi(records(150), { total: (_o, l) => l });
    assert.equal(await confirmed(ctxOf(api, 'PAG-TOTAL'), LISTING, 100, v), v);
    assert.deepEqual(sent, ['0/100']);
    await assert.rejects(confirmed(ctxOf(fakeApi(records(151)).api, 'PAG-TOTAL'), LISTING, 150, v), DataChanged);
    assert.equal(await confirmed(ctxOf(fakeApi([]).api, 'PAG-TOTAL'), LISTING, 0, undefined), undefined);
  });
  test('pageHolding finds the page of a record and where the page starts', async () => {
    const w = await walk(ctxOf(fakeApi(records(25)).api, 'PAG-PARTITION'), LISTING, { limit: 10 });
    assert.deepEqual([pageHolding(w, 0).start, pageHolding(w, 13).start, pageHolding(w, 24).page?.offset], [0, 10, 20]);
  });
});
