import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  ABSURD_OFFSET,
  describeWindow,
  filterArb,
  inCapLimitArb,
  limitArb,
  MAX_LIMIT,
  ODD_INPUTS,
  oddValueArb,
  offsetArb,
  overCapLimitArb,
  sortArb,
  unknownStatusArb,
  windowArb,
  windowToQuery,
} from '../../fixtures/arbitraries.ts';

const SEED = 1712;
const STATUSES = ['COMPLETED', 'PENDING', 'FAILED'];

function sampleOf<T>(arb: fc.Arbitrary<T>, numRuns = 2000): T[] {
  return fc.sample(arb, { seed: SEED, numRuns });
}

describe('offsetArb', () => {
  test('covers omitted, 0, inside, around the end and absurd offsets', () => {
    const values = sampleOf(offsetArb(237));
    for (const expected of [undefined, 0, 236, 237, 238]) {
      assert.ok(values.includes(expected), `offsetArb(237) never gave ${expected}`);
    }
    assert.ok(
      values.some((v) => v !== undefined && v > 0 && v < 236),
      'no offset strictly inside',
    );
    assert.ok(
      values.some((v) => v !== undefined && v > 238 && v <= 237 + 1001),
      'no offset past the end',
    );
    assert.ok(
      values.some((v) => v !== undefined && v >= ABSURD_OFFSET),
      'no absurd offset',
    );
  });

  test('only non-negative safe integers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (total) => {
        for (const v of fc.sample(offsetArb(total), 50)) {
          assert.ok(v === undefined || (Number.isSafeInteger(v) && v >= 0), `offset ${v}`);
        }
      }),
      { seed: SEED, numRuns: 50 },
    );
  });

  test('total 0 still works', () => {
    const values = sampleOf(offsetArb(0), 500);
    assert.ok(values.includes(0) && values.includes(1));
  });
});

describe('limit arbitraries', () => {
  test('limitArb covers omitted, 1, 100 and over the cap', () => {
    const values = sampleOf(limitArb());
    for (const expected of [undefined, 1, 10, 99, MAX_LIMIT]) {
      assert.ok(values.includes(expected), `limitArb never gave ${expected}`);
    }
    assert.ok(
      values.some((v) => v !== undefined && v > MAX_LIMIT),
      'no limit over the cap',
    );
    assert.ok(values.every((v) => v === undefined || (Number.isInteger(v) && v >= 1)));
  });

  test('inCapLimitArb stays in 1..100 and reaches both edges', () => {
    const values = sampleOf(inCapLimitArb());
    assert.ok(values.every((v) => Number.isInteger(v) && v >= 1 && v <= MAX_LIMIT));
    assert.ok(values.includes(1) && values.includes(MAX_LIMIT));
  });

  test('overCapLimitArb stays over the cap, up to 10^9, and favours 101', () => {
    const values = sampleOf(overCapLimitArb());
    assert.ok(values.every((v) => Number.isInteger(v) && v > MAX_LIMIT && v <= 10 ** 9));
    assert.ok(values.filter((v) => v === MAX_LIMIT + 1).length > values.length / 20, '101 is rare');
  });
});

describe('status arbitraries', () => {
  test('unknownStatusArb never returns a known status or the empty string', () => {
    for (const statuses of [STATUSES, [], ['completed'], ['UNKNOWN', 'NO_SUCH_STATUS', 'Completed']]) {
      const values = sampleOf(unknownStatusArb(statuses), 1000);
      const bad = values.filter((v) => v === '' || statuses.includes(v));
      assert.deepEqual(bad, [], `statuses ${JSON.stringify(statuses)}`);
    }
  });

  test('unknownStatusArb gives case-changed and space-padded variants of seen statuses', () => {
    const values = sampleOf(unknownStatusArb(['PENDING']));
    for (const expected of ['pending', 'Pending', 'completed', ' PENDING', 'PENDING ']) {
      assert.ok(values.includes(expected), `never gave ${JSON.stringify(expected)}`);
    }
  });

  test('filterArb gives seen statuses, COMPLETED, unknown values and omitted', () => {
    const values = sampleOf(filterArb(['PENDING', 'FAILED']));
    for (const expected of [undefined, 'PENDING', 'FAILED', 'COMPLETED']) {
      assert.ok(values.includes(expected), `never gave ${expected}`);
    }
    assert.ok(
      values.some((v) => v !== undefined && !['PENDING', 'FAILED', 'COMPLETED'].includes(v)),
      'no unknown',
    );
  });
});

describe('sortArb and windowArb', () => {
  test('sortArb gives exactly amount, -amount and omitted', () => {
    assert.deepEqual(new Set(sampleOf(sortArb(), 300)), new Set(['amount', '-amount', undefined]));
  });

  test('windowArb omits keys rather than holding undefined', () => {
    for (const w of sampleOf(windowArb(237, STATUSES), 500)) {
      for (const [key, value] of Object.entries(w)) assert.notEqual(value, undefined, `${key} in ${JSON.stringify(w)}`);
    }
  });

  test('windowArb mostly gives in-range windows, and some of every kind', () => {
    const windows = sampleOf(windowArb(237, STATUSES));
    const inRange = windows.filter(
      (w) => w.offset !== undefined && w.offset < 237 && w.limit !== undefined && w.limit <= MAX_LIMIT,
    );
    assert.ok(inRange.length > windows.length / 3, `${inRange.length} of ${windows.length} in range`);
    assert.ok(windows.some((w) => w.offset === undefined));
    assert.ok(windows.some((w) => w.limit === undefined));
    assert.ok(windows.some((w) => w.limit !== undefined && w.limit > MAX_LIMIT));
    assert.ok(windows.some((w) => w.offset !== undefined && w.offset >= 237));
    assert.ok(windows.some((w) => w.status === 'COMPLETED' && w.sort === '-amount'));
  });

  test('a failing property shrinks to the simplest window', () => {
    for (const seed of [SEED, 1, 2, 3]) {
      const details = fc.check(
        fc.property(windowArb(237, STATUSES), (w) => w.limit === undefined || w.limit < 50),
        { seed },
      );
      assert.equal(details.failed, true);
      const [w] = details.counterexample ?? [];
      // Both branches of windowArb shrink to this: offset omitted or 0, no filter, no sort, the smallest bad limit.
      assert.ok(w?.offset === undefined || w.offset === 0, JSON.stringify(w));
      assert.deepEqual({ ...w, offset: undefined }, { offset: undefined, limit: 50 }, `seed ${seed}`);
    }
  });

  test('offsets and limits shrink across their zones', () => {
    const offset = fc.check(
      fc.property(offsetArb(237), (o) => o === undefined || o < 1000),
      { seed: SEED },
    );
    assert.deepEqual(offset.counterexample, [1000]);
    const limit = fc.check(
      fc.property(limitArb(), (l) => l === undefined || l <= MAX_LIMIT),
      { seed: SEED },
    );
    assert.deepEqual(limit.counterexample, [MAX_LIMIT + 1]);
  });
});

describe('windowToQuery and describeWindow', () => {
  const full = { offset: 3, limit: 10, status: 'COMPLETED', sort: '-amount' };

  test('pairs in order, omitted parameters left out', () => {
    assert.deepEqual(windowToQuery(full), [
      ['offset', '3'],
      ['limit', '10'],
      ['filter[status]', 'COMPLETED'],
      ['sort', '-amount'],
    ]);
    assert.deepEqual(windowToQuery({ limit: 0, status: '' }), [
      ['limit', '0'],
      ['filter[status]', ''],
    ]);
    assert.deepEqual(windowToQuery({}), []);
  });

  test('a readable one-liner', () => {
    assert.equal(describeWindow(full), 'offset=3 limit=10 filter[status]=COMPLETED sort=-amount');
    assert.equal(describeWindow({ limit: 100 }), 'limit=100');
    assert.equal(describeWindow({ status: ' COMPLETED' }), 'filter[status]=" COMPLETED"');
    assert.equal(describeWindow({ status: '' }), 'filter[status]=""');
    assert.equal(describeWindow({}), '(no query parameters)');
  });
});

describe('oddValueArb', () => {
  const names = new Set(['offset', 'limit', 'filter[status]', 'filter', 'sort', 'limit[]']);

  test('the catalogue has unique labels and covers the listed kinds', () => {
    const labels = ODD_INPUTS.map((o) => o.label);
    assert.equal(new Set(labels).size, labels.length, 'duplicate labels');
    for (const expected of [
      'limit=-1 (negative)',
      'offset=-1 (negative)',
      'limit=0 (zero limit)',
      'limit=1.5 (non-integer)',
      'offset= (empty)',
      'limit=1e2 (exponent)',
      'offset=0x10 (hex)',
      'limit=+5 (leading plus)',
      'offset= 5 (leading space)',
      'limit=abc (letters)',
      `offset=${'9'.repeat(30)} (huge, 30 digits)`,
      'limit=5&limit=7 (repeated parameter)',
      'offset=0&offset=3 (repeated parameter)',
      'filter[status]= (empty)',
      'sort= (empty)',
    ]) {
      assert.ok(labels.includes(expected), `missing ${expected}`);
    }
    assert.ok(labels.some((l) => l.startsWith('filter[status]=') && l.endsWith('(very long)')));
    assert.ok(labels.some((l) => l.startsWith('sort=') && l.endsWith('(very long)')));
  });

  test('every case is non-empty query pairs on the listing parameters', () => {
    const cases = sampleOf(oddValueArb(), 1000);
    for (const c of cases) {
      assert.ok(c.label.length > 0 && c.label.length <= 90, `label ${c.label}`);
      assert.ok(c.pairs.length > 0, c.label);
      for (const pair of c.pairs) {
        assert.equal(pair.length, 2, c.label);
        assert.ok(names.has(pair[0]), `${c.label}: parameter ${pair[0]}`);
        assert.equal(typeof pair[1], 'string', c.label);
      }
    }
    const labels = new Set(cases.map((c) => c.label));
    assert.ok(labels.size > cases.length / 5, `only ${labels.size} distinct labels in ${cases.length}`);
  });

  test('the 30-digit case really has 30 digits and the repeated cases repeat', () => {
    const huge = ODD_INPUTS.find((o) => o.label.startsWith('limit=9') && o.label.includes('30 digits'));
    assert.deepEqual(huge?.pairs, [['limit', '9'.repeat(30)]]);
    const repeated = ODD_INPUTS.find((o) => o.label === 'limit=5&limit=7 (repeated parameter)');
    assert.deepEqual(repeated?.pairs, [
      ['limit', '5'],
      ['limit', '7'],
    ]);
  });
});
