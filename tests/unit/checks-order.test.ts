import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { comparatorOf, compareAmounts } from '../../checks/compare.ts';
import { orderViolation, pageOf, permutationViolation, sortViolation, type Walked } from '../../checks/order.ts';
import { orderedWalkViolation, sameSequenceViolation, tieSplittingLimits, walkLimits } from '../../checks/sequence.ts';
import { type CollectionSort, PAYMENTS } from '../../core/model/collection.ts';
import { asKey } from '../../core/model/credentials.ts';
import type { SetSource } from '../../core/model/result-set.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

const rec = (id: string, amount: number | string) => ({ id, status: 'COMPLETED', amount });
/** Payments' sort: amount, a number every record has. */
const AMOUNT: CollectionSort = { field: 'amount', type: 'number' };
const ASC = { sort: AMOUNT, descending: false, required: true };

/** A walk of pages, each page a list of [id, amount]; the offsets follow the page sizes. Its pages break nothing. */
function walked(...pages: Array<Array<[string, number | string]>>): Walked & SetSource {
  let offset = 0;
  const exchanges = pages.map((page) => {
    const data = page.map(([id, amount]) => rec(id, amount));
    const e = fakeExchange({
      json: envelope({ data, offset, limit: 2, total: 99 }),
      query: [['offset', String(offset)]],
    });
    const at = offset;
    offset += page.length;
    return { offset: at, exchange: e };
  });
  const listing = { collection: PAYMENTS, merchant: 'm1', auth: asKey('test') };
  return {
    records: pages.flat().map(([id, amount]) => rec(id, amount)),
    pages: exchanges,
    listing,
    limit: 2,
    flaws: [],
  };
}

describe('compareAmounts / the number comparator', () => {
  test('numbers compare numerically', () => {
    assert.equal(compareAmounts(9, 10), -1);
    assert.equal(compareAmounts(10, 10), 0);
    assert.equal(compareAmounts(-5, -50), 1);
  });
  test('numeric strings compare numerically, not as text', () => {
    assert.equal(compareAmounts('9', '10'), -1);
    assert.equal(compareAmounts('100', '99'), 1);
    assert.equal(compareAmounts('1.50', '1.5'), 0);
    assert.equal(compareAmounts('007', '7'), 0);
    assert.equal(compareAmounts('-0', '0'), 0);
    assert.equal(compareAmounts('-2', '-10'), 1);
    assert.equal(compareAmounts('0.09', '0.1'), -1);
  });
  test('long decimal strings compare exactly', () => {
    assert.equal(compareAmounts('12345678901234567891', '12345678901234567890'), 1);
  });
  test('mixed number and string compare numerically', () => {
    assert.equal(compareAmounts('10', 9), 1);
    assert.equal(compareAmounts(2.5, '2.50'), 0);
    assert.equal(compareAmounts(1e21, '5'), 1);
  });
  test('a number is a finite number or a decimal string only', () => {
    const compare = comparatorOf(AMOUNT);
    assert.equal(compare?.(12, '12.0'), 0);
    for (const bad of ['12 EUR', '', '1e3', null, true, Number.NaN])
      assert.ok(Number.isNaN(compare?.(bad, 1)), String(bad));
  });
});

describe('sortViolation (SRT-AMOUNT)', () => {
  test('ascending across pages, with ties, passes', () => {
    assert.equal(
      sortViolation(
        walked(
          [
            ['a', 1],
            ['b', 5],
          ],
          [
            ['c', 5],
            ['d', 10],
          ],
        ),
        AMOUNT,
        false,
        'SRT-AMOUNT',
        'x',
        true,
      ),
      undefined,
    );
  });
  test('descending passes for -amount and fails for amount', () => {
    const w = walked(
      [
        ['a', 10],
        ['b', 5],
      ],
      [['c', 1]],
    );
    assert.equal(sortViolation(w, AMOUNT, true, 'SRT-AMOUNT', 'x', true), undefined);
    const v = sortViolation(w, AMOUNT, false, 'SRT-AMOUNT', 'x', true);
    assert.equal(v?.rule, 'SRT-AMOUNT');
    assert.match(v?.received ?? '', /whole listing is descending/);
  });
  test('numeric strings sorted numerically pass; in text order they fail with a hint', () => {
    assert.equal(
      sortViolation(
        walked([
          ['a', '9'],
          ['b', '10'],
          ['c', '100'],
        ]),
        AMOUNT,
        false,
        'SRT-AMOUNT',
        'x',
        true,
      ),
      undefined,
    );
    const v = sortViolation(
      walked([
        ['a', '10'],
        ['b', '100'],
        ['c', '9'],
      ]),
      AMOUNT,
      false,
      'SRT-AMOUNT',
      'x',
      true,
    );
    assert.equal(v?.rule, 'SRT-AMOUNT');
    assert.match(v?.received ?? '', /text order/);
  });
  test('each page sorted but not the whole listing fails at the page boundary, citing both pages', () => {
    const w = walked(
      [
        ['a', 5],
        ['b', 8],
      ],
      [
        ['c', 1],
        ['d', 9],
      ],
    );
    const v = sortViolation(w, AMOUNT, false, 'SRT-FILTER', 'x', true);
    assert.equal(v?.rule, 'SRT-FILTER');
    assert.match(v?.received ?? '', /#1 .* before record #2 .*page boundary at offset 2/);
    assert.equal(v?.exchange, w.pages[1]?.exchange);
    assert.deepEqual(v?.related, [w.pages[0]?.exchange]);
  });
  test('a record without a numeric amount is a violation', () => {
    const v = sortViolation(
      walked([
        ['a', 1],
        ['b', 'n/a'],
      ]),
      AMOUNT,
      false,
      'SRT-AMOUNT',
      'x',
      true,
    );
    assert.equal(v?.rule, 'SRT-AMOUNT');
    assert.match(v?.received ?? '', /record #1/);
  });
});

describe('permutationViolation', () => {
  const all = walked([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ]).records;
  test('the same records in another order pass', () => {
    assert.equal(
      permutationViolation(
        walked(
          [['c', 3]],
          [
            ['a', 1],
            ['b', 2],
          ],
        ),
        all,
        'SRT-AMOUNT',
        'x',
      ),
      undefined,
    );
  });
  test('a record on two pages is a duplicate', () => {
    const v = permutationViolation(
      walked(
        [
          ['a', 1],
          ['b', 2],
        ],
        [
          ['b', 2],
          ['c', 3],
        ],
      ),
      all,
      'SRT-AMOUNT',
      'x',
    );
    assert.equal(v?.rule, 'SRT-AMOUNT');
    assert.match(v?.received ?? '', /#1 and #2 are the same record/);
  });
  test('a gap is reported as missing records', () => {
    const v = permutationViolation(walked([['a', 1]], [['c', 3]]), all, 'FLT-BEFORE-PAGE', 'x');
    assert.equal(v?.rule, 'FLT-BEFORE-PAGE');
    assert.match(v?.received ?? '', /1 missing .*id b/);
  });
  test('a record that is not expected is reported', () => {
    const v = permutationViolation(
      walked([
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['z', 4],
      ]),
      all,
      'SRT-FILTER',
      'x',
    );
    assert.match(v?.received ?? '', /#3 \(id z/);
  });
  test('records without ids are compared by their JSON', () => {
    const noId = [
      { amount: 1, status: 'X' },
      { amount: 2, status: 'X' },
    ];
    const w = {
      records: [noId[1], noId[0]],
      pages: [{ offset: 0, exchange: fakeExchange({ json: envelope({ data: noId }) }) }],
    };
    assert.equal(permutationViolation(w, noId, 'SRT-AMOUNT', 'x'), undefined);
    assert.equal(
      permutationViolation({ ...w, records: [noId[0], noId[0]] }, noId, 'SRT-AMOUNT', 'x')?.rule,
      'SRT-AMOUNT',
    );
  });
});

describe('sameSequenceViolation (ties in one order on every request)', () => {
  const reference = walked([
    ['a', 1],
    ['b', 5],
    ['c', 5],
    ['d', 9],
  ]);
  test('the same sequence at another limit passes, a prefix too', () => {
    assert.equal(
      sameSequenceViolation(
        walked([['a', 1]], [['b', 5]], [['c', 5]], [['d', 9]]),
        reference,
        AMOUNT,
        'SRT-AMOUNT',
        'x',
      ),
      undefined,
    );
    assert.equal(
      sameSequenceViolation(
        walked([
          ['a', 1],
          ['b', 5],
        ]),
        reference,
        AMOUNT,
        'SRT-AMOUNT',
        'x',
      ),
      undefined,
    );
  });
  test('a tie in another order is a violation naming the tie', () => {
    const v = sameSequenceViolation(
      walked(
        [['a', 1]],
        [['c', 5]],
        [
          ['b', 5],
          ['d', 9],
        ],
      ),
      reference,
      AMOUNT,
      'SRT-AMOUNT',
      'x',
    );
    assert.equal(v?.rule, 'SRT-AMOUNT');
    assert.match(v?.received ?? '', /tie came in another order/);
    assert.match(v?.expected ?? '', /record #1 .*id b/);
  });
});

describe('tieSplittingLimits / pageOf', () => {
  test('limits that put a page boundary inside a tie group', () => {
    const sorted = walked([
      ['a', 1],
      ['b', 5],
      ['c', 5],
      ['d', 9],
      ['e', 9],
      ['f', 9],
    ]).records;
    // ties start new records at indices 2, 4, 5
    assert.deepEqual(tieSplittingLimits(sorted, AMOUNT, 1, 5, 6), [1, 2, 4, 5]);
    assert.deepEqual(tieSplittingLimits(sorted, AMOUNT, 3, 3, 6), []);
    assert.deepEqual(tieSplittingLimits(sorted, AMOUNT, 1, 1, 2), []); // page 2 starts at 1: no tie there
  });
  test('pageOf finds the page and its start', () => {
    const w = walked(
      [
        ['a', 1],
        ['b', 2],
      ],
      [['c', 3]],
    );
    assert.deepEqual(pageOf(w, 2), { page: w.pages[1]?.exchange, start: 2 });
    assert.deepEqual(pageOf(w, 0), { page: w.pages[0]?.exchange, start: 0 });
  });
});

describe('orderedWalkViolation / walkLimits', () => {
  const reference = walked([
    ['a', 1],
    ['b', 5],
    ['c', 5],
  ]);
  const all = reference.records;
  test('a whole walk, sorted, complete and in the reference order, passes', () => {
    const w = {
      ...walked(
        [
          ['a', 1],
          ['b', 5],
        ],
        [['c', 5]],
      ),
      complete: true,
    };
    assert.equal(orderedWalkViolation(w, ASC, reference, all, 'SRT-AMOUNT', 'x'), undefined);
  });
  test('a difference of records or sequence names what the compared sets break; an order broken in the walk does not', () => {
    const short = {
      ...reference,
      flaws: [
        { rule: 'PAG-SIZE' as const, why: 'page at offset 0 holds 1 record where … call for 2 records', offsets: [0] },
      ],
    };
    const gap = { ...walked([['a', 1]], [['c', 5]]), complete: true };
    assert.deepEqual(orderedWalkViolation(gap, ASC, reference, all, 'SRT-AMOUNT', 'x', [short])?.derivedFrom, [
      {
        rule: 'PAG-SIZE',
        why: 'the expectation was computed from merchant m1 (Authorization: Bearer $API_TEST_KEY) read at limit 2, whose page at offset 0 holds 1 record where … call for 2 records',
      },
    ]);
    const prefix = { ...walked([['a', 1]], [['c', 5]]), complete: false };
    assert.equal(orderedWalkViolation(prefix, ASC, short, all, 'SRT-AMOUNT', 'x')?.derivedFrom?.[0]?.rule, 'PAG-SIZE');
    const unsorted = { ...walked([['b', 5]], [['a', 1]]), complete: true };
    const v = orderedWalkViolation(unsorted, ASC, short, all, 'SRT-AMOUNT', 'x', [short]);
    assert.match(v?.expected ?? '', /ascending/);
    assert.equal(v?.derivedFrom, undefined);
  });
  test('a gap fails only when the walk reached the end', () => {
    const w = walked([
      ['a', 1],
      ['c', 5],
    ]);
    assert.match(
      orderedWalkViolation({ ...w, complete: true }, ASC, reference, all, 'SRT-AMOUNT', 'x')?.received ?? '',
      /missing/,
    );
    // An incomplete walk is a prefix: compared with the reference's sequence, where it differs at #1.
    assert.match(
      orderedWalkViolation({ ...w, complete: false }, ASC, reference, all, 'SRT-AMOUNT', 'x')?.received ?? '',
      /tie/,
    );
  });
  test('walk limits keep a walk within the page bound and over more than one page', () => {
    assert.deepEqual(walkLimits(237, 6), { min: 40, max: 100 });
    assert.deepEqual(walkLimits(130, 4, 49), { min: 24, max: 49 });
    assert.deepEqual(walkLimits(19, 6), { min: 4, max: 18 });
    assert.deepEqual(walkLimits(0, 6), { min: 1, max: 1 });
    assert.deepEqual(walkLimits(100_000, 6), { min: 50, max: 100 });
  });
});

describe('orderViolation: the order across pages where payments may have appeared (issue 28 item 6)', () => {
  const known = [rec('a', 5), rec('b', 9), rec('c', 1), rec('d', 12)];
  test('pages sorted each on its own: a record read before the walk, listed after one it sorts before, stands', () => {
    const w = walked(
      [
        ['a', 5],
        ['b', 9],
      ],
      [
        ['c', 1],
        ['d', 12],
      ],
    );
    const v = orderViolation(w, ASC, 'SRT-AMOUNT', 'x', known);
    assert.equal(v?.standsUnderGrowth, true);
    assert.match(v?.received ?? '', /id c/);
  });
  test('a payment that appeared between two pages and sorts before the first page: a violation growth explains', () => {
    // 5 9 | 7 9: y (7) appeared after the first page was read, pushing b (9) onto the second page too.
    const w = walked(
      [
        ['a', 5],
        ['b', 9],
      ],
      [
        ['y', 7],
        ['b', 9],
      ],
    );
    const v = orderViolation(w, ASC, 'SRT-AMOUNT', 'x', known);
    assert.ok(v, 'the order broken across pages is still reported');
    assert.notEqual(v?.standsUnderGrowth, true, 'but not as a fact that stands under growth');
  });
  test('nothing known before the walk: no cross-page violation stands', () => {
    const w = walked(
      [
        ['a', 5],
        ['b', 9],
      ],
      [
        ['c', 1],
        ['d', 12],
      ],
    );
    assert.notEqual(orderViolation(w, ASC, 'SRT-AMOUNT', 'x', [])?.standsUnderGrowth, true);
  });
  test('two records of one page out of order stand under growth', () => {
    const w = walked([
      ['b', 9],
      ['a', 5],
    ]);
    assert.equal(orderViolation(w, ASC, 'SRT-AMOUNT', 'x', [])?.standsUnderGrowth, true);
  });
});
