import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiClient, Exchange, QueryPairs } from '../../core/client/http.ts';
import { asKey } from '../../core/client/http.ts';
import { confirmed, DataChanged, enumerate, pageHolding, Unusable, walk } from '../../core/run/walk.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';
import { testTarget } from '../support/target.ts';

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
    const w = await walk(api, target, LISTING, { limit: 10, rule: 'PAG-PARTITION' });
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
    await walk(exact.api, target, LISTING, { limit: 10, rule: 'PAG-TOTAL' });
    assert.deepEqual(exact.sent, ['0/10', '10/10', '20/10']);
    const understated = fakeApi(records(30), { total: (_o, l) => l });
    const w = await walk(understated.api, target, LISTING, { limit: 10, rule: 'PAG-TOTAL' });
    assert.equal(w.records.length, 20, 'the page past the reported total was read');
    assert.equal(w.total, 10);
  });
  test('a target that ignores offset is read a bounded number of pages', async () => {
    const data = records(25);
    const { api, sent } = fakeApi(data, {
      answer: () => fakeExchange({ json: envelope({ data: data.slice(0, 10), limit: 10, total: 25 }) }),
    });
    const w = await walk(api, target, LISTING, { limit: 10, rule: 'PAG-PARTITION' });
    assert.equal(sent.length, 4);
    assert.equal(w.records.length, 40);
  });
  test('maxPages and API_MAX_RECORDS stop the walk, which is then incomplete', async () => {
    const pages = await walk(fakeApi(records(100)).api, target, LISTING, {
      limit: 10,
      rule: 'SRT-AMOUNT',
      maxPages: 3,
    });
    assert.deepEqual([pages.pages.length, pages.complete], [3, false]);
    const capped = await walk(fakeApi(records(500)).api, testTarget({ maxRecords: 100 }), LISTING, {
      limit: 50,
      rule: 'PAG-TOTAL',
    });
    assert.deepEqual([capped.records.length, capped.complete], [100, false]);
  });
  test('a page that is not a usable 200 fails the given rule; a total that moves is DataChanged', async () => {
    const broken = fakeApi(records(30), {
      answer: (o) => (o === 10 ? fakeExchange({ status: 500, text: 'boom' }) : undefined),
    });
    await assert.rejects(walk(broken.api, target, LISTING, { limit: 10, rule: 'FLT-STATUS' }), (e: Unusable) => {
      assert.ok(e instanceof Unusable);
      assert.equal(e.violation.rule, 'FLT-STATUS');
      assert.match(e.violation.received, /HTTP 500/);
      return true;
    });
    const growing = fakeApi(records(30), { total: (o) => 30 + o });
    await assert.rejects(walk(growing.api, target, LISTING, { limit: 10, rule: 'PAG-TOTAL' }), DataChanged);
    await assert.rejects(
      walk(fakeApi(records(30)).api, target, LISTING, { limit: 10, rule: 'PAG-TOTAL', total: 29 }),
      DataChanged,
    );
  });
});

describe('enumerate, confirmed, pageHolding', () => {
  test('enumerate reads a listing once per client', async () => {
    const { api, sent } = fakeApi(records(150));
    const [a, b] = await Promise.all([
      enumerate(api, testTarget(), LISTING, 'PAG-TOTAL'),
      enumerate(api, testTarget(), LISTING, 'PAG-TOTAL'),
    ]);
    assert.equal(a, b);
    assert.deepEqual(sent, ['0/100', '100/100']);
  });
  test('confirmed repeats the reference request: a total that depends on the window is not changing data', async () => {
    const v = { rule: 'PAG-TOTAL' as const, expected: 'x', received: 'y' };
    const { api, sent } = fakeApi(records(150), { total: (_o, l) => l });
    assert.equal(await confirmed(api, LISTING, 100, v), v);
    assert.deepEqual(sent, ['0/100']);
    await assert.rejects(confirmed(fakeApi(records(151)).api, LISTING, 150, v), DataChanged);
    assert.equal(await confirmed(fakeApi([]).api, LISTING, 0, undefined), undefined);
  });
  test('pageHolding finds the page of a record and where the page starts', async () => {
    const w = await walk(fakeApi(records(25)).api, testTarget(), LISTING, { limit: 10, rule: 'PAG-PARTITION' });
    assert.deepEqual([pageHolding(w, 0).start, pageHolding(w, 13).start, pageHolding(w, 24).page?.offset], [0, 10, 20]);
  });
});
