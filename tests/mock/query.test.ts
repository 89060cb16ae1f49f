/**
 * The clean mock's payments list: envelope, pagination, cap, invalid values, filter, sort
 * (§2, §4.2, §8; reading.md "Pagination"). Expected values come from the data set itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateDataset, listingKey, STATUSES } from '../../mock/data.ts';
import { MESSAGES } from '../../mock/errors.ts';
import { IDENTITY, type RunningMock, startMock } from '../../mock/index.ts';
import { assertEnvelope, call, ids, list, MERCHANTS, type PaymentJson, page, walk } from './support.ts';

let mock: RunningMock;
let base: string;
before(async () => {
  mock = await startMock();
  base = mock.url;
});
after(() => mock.stop());

const SANDBOX = MERCHANTS.sandbox;
/** The sandbox listing in creation order: the clean mock's unsorted order. */
const truth = generateDataset(IDENTITY.seed).listings.get(listingKey(SANDBOX, 'test')) ?? [];
const TOTAL = truth.length;
const truthIds = truth.map((p) => p.id);

/** Amount order with ties in ascending id (the default `ties` variant). */
function sortedIds(records: readonly { id: string; amount: number | string }[], dir: 1 | -1): string[] {
  return [...records]
    .sort((a, b) => dir * (Number(a.amount) - Number(b.amount)) || (a.id < b.id ? -1 : 1))
    .map((r) => r.id);
}

async function paramError(query: string, param: string, message: string) {
  const res = await call(base, list(SANDBOX, query));
  assert.equal(res.status, 400, `${query}: ${res.text}`);
  assert.deepEqual(res.body, { success: false, message }, `${query} (param ${param})`);
}

describe('ENV-SCHEMA, PAG-DEFAULT, PAG-ECHO', () => {
  test('no parameters: offset 0, the default limit 10, total 237', async () => {
    const env = await page(base, SANDBOX);
    assert.deepEqual(Object.keys(env), ['success', 'message', 'data', 'offset', 'limit', 'total']);
    assertEnvelope(env, 0, IDENTITY.defaultLimit);
    assert.equal(env.total, TOTAL);
    assert.deepEqual(ids(env.data), truthIds.slice(0, 10));
  });
  test('records carry id, merchantId, amount, currency, status, createdAt', async () => {
    const env = await page(base, SANDBOX, 'limit=1');
    assert.deepEqual(env.data[0], { ...truth[0] });
  });
  test('offset and limit are echoed as sent (leading zeros read as decimal)', async () => {
    assertEnvelope(await page(base, SANDBOX, 'offset=13&limit=9'), 13, 9);
    assertEnvelope(await page(base, SANDBOX, 'offset=010&limit=007'), 10, 7);
  });
  test('unknown query parameters are ignored', async () => {
    const env = await page(base, SANDBOX, 'page=3&foo=bar&filter[currency]=EUR');
    assertEnvelope(env, 0, 10);
    assert.deepEqual(ids(env.data), truthIds.slice(0, 10));
  });
});

describe('PAG-SIZE, PAG-TOTAL, PAG-PARTITION, PAG-EMPTY', () => {
  for (const limit of [1, 7, 25, 100]) {
    test(`pages of ${limit} partition the listing, in a stable order`, async () => {
      const { records, total } = await walk(base, SANDBOX, '', limit);
      assert.equal(total, TOTAL);
      assert.deepEqual(ids(records), truthIds);
    });
  }
  test('any window is the matching slice', async () => {
    for (const [offset, limit] of [
      [0, 1],
      [5, 3],
      [99, 100],
      [230, 10],
      [236, 5],
    ] as const) {
      const env = await page(base, SANDBOX, `offset=${offset}&limit=${limit}`);
      assertEnvelope(env, offset, limit);
      assert.deepEqual(ids(env.data), truthIds.slice(offset, offset + limit));
    }
  });
  test('offset >= total: 200, data [], total unchanged', async () => {
    for (const offset of [TOTAL, TOTAL + 1, 100_000, Number.MAX_SAFE_INTEGER]) {
      const env = await page(base, SANDBOX, `offset=${offset}`);
      assertEnvelope(env, offset, 10);
      assert.deepEqual(env.data, []);
      assert.equal(env.total, TOTAL);
    }
  });
  test('total 0 gives data []', async () => {
    const env = await page(base, SANDBOX, 'filter[status]=SETTLED');
    assert.equal(env.total, 0);
    assert.deepEqual(env.data, []);
  });
});

describe('LIM-CAP: never more than 100 records (over-limit=clamp)', () => {
  for (const limit of ['100', '101', '1000', '9'.repeat(40)]) {
    test(`limit=${limit.length > 10 ? '9 x40' : limit}`, async () => {
      const env = await page(base, SANDBOX, `limit=${limit}`);
      assertEnvelope(env, 0, IDENTITY.maxLimit);
      assert.equal(env.data.length, 100);
    });
  }
});

describe('INP-ROBUST: invalid values are a 400 (invalid=400), never a 5xx', () => {
  const offsets = ['-1', 'abc', '1.5', '1e2', '', ' 1', '+1', '0x1', '9007199254740992', '1'.repeat(400), '%E2%82%AC'];
  for (const value of offsets) {
    test(`offset=${value.slice(0, 20)}`, () => paramError(`offset=${value}`, 'offset', MESSAGES.invalidOffset));
  }
  const limits = ['0', '-1', '-0', 'abc', '1.5', '1e2', '', '0x10', 'Infinity', 'NaN'];
  for (const value of limits) {
    test(`limit=${value}`, () => paramError(`limit=${value}`, 'limit', MESSAGES.invalidLimit));
  }
  for (const query of [
    'limit=5&limit=7',
    'offset=1&offset=1',
    'sort=amount&sort=amount',
    'filter[status]=PENDING&filter%5Bstatus%5D=FAILED',
  ]) {
    test(`repeated parameter: ${query}`, () => paramError(query, 'repeated', MESSAGES.repeatedParameter));
  }
  test('malformed percent-encoding in values and names', async () => {
    await paramError('limit=%zz', 'limit', MESSAGES.invalidLimit);
    const env = await page(base, SANDBOX, '%=%&%%%=1&a%ZZb=3');
    assertEnvelope(env, 0, 10);
  });
});

describe('FLT-STATUS, FLT-BEFORE-PAGE', () => {
  for (const status of STATUSES) {
    test(`filter[status]=${status}: only ${status}, total = its count, pages full`, async () => {
      const expected = truth.filter((p) => p.status === status).map((p) => p.id);
      const { records, total } = await walk(base, SANDBOX, `filter[status]=${status}`, 10);
      assert.equal(total, expected.length);
      assert.ok(records.every((r) => r.status === status));
      assert.deepEqual(ids(records), expected);
    });
  }
  test('filter totals add up to the unfiltered total', async () => {
    let sum = 0;
    for (const status of STATUSES) sum += (await page(base, SANDBOX, `filter[status]=${status}&limit=1`)).total;
    assert.equal(sum, TOTAL);
  });
  test('matching is exact: completed (lower case) and unknown statuses match nothing (unknown-status=empty)', async () => {
    for (const value of ['completed', 'Completed', 'SETTLED', 'COMPLETED%20', '%00', 'COMPLETED,PENDING']) {
      const env = await page(base, SANDBOX, `filter[status]=${value}`);
      assert.deepEqual([env.total, env.data], [0, []], value);
    }
  });
  test('an empty filter value is invalid: 400', () =>
    paramError('filter[status]=', 'filter[status]', MESSAGES.invalidStatus));
  test('the percent-encoded parameter name works the same', async () => {
    const env = await page(base, SANDBOX, 'filter%5Bstatus%5D=COMPLETED');
    assert.equal(env.total, truth.filter((p) => p.status === 'COMPLETED').length);
  });
});

describe('SRT-AMOUNT, SRT-FILTER', () => {
  for (const [sort, dir] of [
    ['amount', 1],
    ['-amount', -1],
  ] as const) {
    test(`sort=${sort}: numeric order across pages, ties in ascending id`, async () => {
      const { records } = await walk(base, SANDBOX, `sort=${sort}`, 25);
      assert.deepEqual(ids(records), sortedIds(truth, dir));
    });
    test(`sort=${sort}: the same order on every request and at every limit`, async () => {
      const a = await walk(base, SANDBOX, `sort=${sort}`, 7);
      const b = await walk(base, SANDBOX, `sort=${sort}`, 100);
      assert.deepEqual(ids(a.records), ids(b.records));
    });
    test(`filter[status]=COMPLETED&sort=${sort}: the filtered set, globally sorted`, async () => {
      const { records, total } = await walk(base, SANDBOX, `filter[status]=COMPLETED&sort=${sort}`, 10);
      const completed = truth.filter((p) => p.status === 'COMPLETED');
      assert.equal(total, completed.length);
      assert.deepEqual(ids(records), sortedIds(completed, dir));
    });
  }
  test('ties exist in the sorted pages, so tie order is exercised', async () => {
    const { records } = await walk(base, SANDBOX, 'sort=amount', 100);
    const amounts = records.map((r: PaymentJson) => r.amount);
    assert.ok(amounts.some((a, i) => i > 0 && a === amounts[i - 1]));
  });
  for (const value of ['createdAt', '+amount', 'amount,-id', 'AMOUNT', '--amount']) {
    test(`unknown sort ${value}: 400 (unknown-sort=reject)`, () =>
      paramError(`sort=${value}`, 'sort', MESSAGES.invalidSort));
  }
  test('an empty sort value is invalid: 400', () => paramError('sort=', 'sort', MESSAGES.invalidSort));
});
