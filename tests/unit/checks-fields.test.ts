/**
 * The checks of another collection's filters and sorts (checks/field-order.ts, checks/field-filter.ts): each type's
 * order (numbers, instants whatever their UTC offset, code points, a locale's alphabet), records without the field at
 * one end, a string without a collation judged only by `-f` being the reverse of `f` apart from ties a collation could
 * make, and the filter's matches, total and empty answers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  expectedFieldMatches,
  fieldFilterViolation,
  fieldTotalViolation,
  fullFieldPageViolation,
  unknownValueViolation,
} from '../../checks/field-filter.ts';
import {
  fieldTieSplittingLimits,
  instantOf,
  reverseViolation,
  sameFieldSequenceViolation,
  typedSortViolation,
} from '../../checks/field-order.ts';
import type { Walked } from '../../checks/order.ts';
import { unknownValues } from '../../core/generate/collection-arbitraries.ts';
import type { CollectionSort } from '../../core/model/collection.ts';
import { fieldValueCounts } from '../../core/model/result-set.ts';
import { fakeExchange as exchange } from '../support/exchange.ts';

/** Records read as pages of `size`. */
function walked(records: unknown[], size = 2): Walked {
  const pages = [];
  for (let offset = 0; offset < Math.max(1, records.length); offset += size) {
    const data = records.slice(offset, offset + size);
    pages.push({
      offset,
      exchange: exchange({ json: { success: true, message: 'OK', data, offset, limit: size, total: records.length } }),
    });
  }
  return { records, pages };
}
const rec = (id: number, v: unknown) => ({ id, v });
const sort = (type: CollectionSort['type'], collation?: string): CollectionSort => ({
  field: 'v',
  type,
  ...(collation ? { collation } : {}),
});
const ordered = (values: unknown[], s: CollectionSort, descending = false) =>
  typedSortViolation(walked(values.map((v, i) => rec(i, v))), s, descending, 'SRT-AMOUNT', 'x');

describe('typed sorts', () => {
  test('date-times compare as instants, whatever their UTC offset; fractions beyond milliseconds count', () => {
    assert.ok((instantOf('2025-02-03T11:00:00+02:00')?.ms ?? 0) < (instantOf('2025-02-03T09:30:00Z')?.ms ?? 0));
    assert.equal(instantOf('2025-02-03 09:30'), undefined);
    const asc = [
      '2025-02-03T11:00:00+02:00',
      '2025-02-03T09:30:00Z',
      '2025-02-03T05:00:00-05:00',
      '2025-02-03T10:00:00.0000001Z',
      '2025-02-03T10:00:00.0000002Z',
    ];
    assert.equal(ordered(asc, sort('date-time')), undefined);
    assert.equal(ordered([...asc].reverse(), sort('date-time'), true), undefined);
    // Sorted as text, not as instants (10:00Z, 09:30Z, 09:00Z): caught, across the page boundary too.
    const v = ordered(
      ['2025-02-03T05:00:00-05:00', '2025-02-03T09:30:00Z', '2025-02-03T11:00:00+02:00'],
      sort('date-time'),
    );
    assert.match(v?.received ?? '', /record #0 .* before record #1/);
    const across = ordered(
      ['2025-02-03T09:00:00Z', '2025-02-03T10:00:00Z', '2025-02-03T11:00:00+02:00'],
      sort('date-time'),
    );
    assert.match(across?.received ?? '', /record #1 .* before record #2 .*across the page boundary at offset 2/);
    assert.match(ordered(['2025-02-03', '2025-02-04'], sort('date-time'))?.expected ?? '', /every v is a date-time/);
  });

  test('numbers compare numerically, numbers or numeric strings; a value of another type fails', () => {
    assert.equal(ordered([9, '10', 10.5, '100'], sort('number')), undefined);
    assert.ok(ordered(['10', '9'], sort('number')));
    assert.ok(ordered([1, 'one'], sort('number')));
  });

  test('strings by code point, or by a locale (its alphabet: case and accents may come either way)', () => {
    assert.equal(ordered(['B', 'a', 'é', '李'], sort('string', 'codepoint')), undefined);
    assert.ok(ordered(['a', 'B'], sort('string', 'codepoint')));
    assert.equal(ordered(['a', 'B', 'É', 'e', 'z'], sort('string', 'en')), undefined);
    assert.ok(ordered(['B', 'a'], sort('string', 'en')));
  });

  test('records without the field together, first or last; not between others', () => {
    assert.equal(ordered([1, 2, null, null], sort('number')), undefined);
    assert.equal(ordered([null, 1, 2], sort('number')), undefined);
    assert.match(ordered([1, null, 2], sort('number'))?.expected ?? '', /records without v together, first or last/);
    assert.match(ordered([null, 1, 2, null], sort('number'))?.received ?? '', /record #3 .* has none/);
  });

  test('a date-time out of its ranges is no date-time (no month 13, no February 30); a leap second is', () => {
    for (const bad of [
      '2024-13-45T25:61:61Z',
      '2025-02-30T10:00:00Z',
      '2025-02-03T24:00:00Z',
      '2025-02-03T10:00:00+24:00',
    ])
      assert.equal(instantOf(bad), undefined, bad);
    assert.ok(instantOf('2016-12-31T23:59:60Z'));
    assert.match(
      ordered(['2025-02-03T10:00:00Z', '2025-02-30T10:00:00Z'], sort('date-time'))?.expected ?? '',
      /every v is a date-time/,
    );
  });

  test('a string field holds strings: a number there is another type, with or without a collation', () => {
    assert.match(ordered(['a', 7], sort('string'))?.expected ?? '', /every v is a string/);
    assert.match(ordered(['a', 7], sort('string', 'codepoint'))?.expected ?? '', /every v is a string/);
  });
});

describe('a string without a collation: -f the reverse of f apart from ties', () => {
  const asc = (values: string[]) => walked(values.map((v, i) => rec(i, v)));
  test('the exact reverse passes; ties a collation could make (case, accents, spaces) may keep their order', () => {
    const up = asc(['Ada', 'ada', 'Bob', 'Zoë']);
    const down = walked([up.records[3], up.records[2], up.records[0], up.records[1]]);
    assert.equal(reverseViolation(up, down, 'v', 'SRT-AMOUNT', 'x'), undefined);
    assert.equal(reverseViolation(up, walked([...up.records].reverse()), 'v', 'SRT-AMOUNT', 'x'), undefined);
  });
  test('records of different text kept in one order both ways, or equal values apart, fail', () => {
    const up = asc(['Ada', 'Bob', 'Zed']);
    const v = reverseViolation(up, walked([up.records[2], up.records[0], up.records[1]]), 'v', 'SRT-AMOUNT', 'x');
    assert.match(v?.received ?? '', /v "Ada" and .* v "Bob" are kept in the same order both ways/);
    const apart = asc(['x', 'y', 'x']);
    assert.ok(
      reverseViolation(apart, walked([apart.records[2], apart.records[1], apart.records[0]]), 'v', 'SRT-AMOUNT', 'x'),
    );
  });
  test('both directions read whole must list the same records', () => {
    const up = asc(['Ada', 'Bob', 'Zed']);
    const fewer = reverseViolation(up, walked([up.records[2], up.records[1]]), 'v', 'SRT-AMOUNT', 'x');
    assert.match(fewer?.received ?? '', /sort=-v lists 2 with v, not the same records/);
    const other = reverseViolation(up, walked([up.records[2], up.records[1], rec(9, 'Amy')]), 'v', 'SRT-AMOUNT', 'x');
    assert.match(other?.received ?? '', /not the same records/);
  });
  test('ties in one order on every request; limits that split a tie group', () => {
    const ref = asc(['a', 'a', 'b', 'b', 'c']);
    assert.equal(sameFieldSequenceViolation(walked(ref.records, 3), ref, 'v', 'SRT-AMOUNT', 'x'), undefined);
    const swapped = walked([ref.records[1], ref.records[0], ...ref.records.slice(2)]);
    assert.match(
      sameFieldSequenceViolation(swapped, ref, 'v', 'SRT-AMOUNT', 'x')?.received ?? '',
      /a tie came in another order/,
    );
    assert.deepEqual(fieldTieSplittingLimits(ref.records, 'v', 1, 4, 3), [1, 3]);
  });
});

describe('filters of another field', () => {
  const records = [rec(1, 'a'), rec(2, 'b'), rec(3, 'a'), { id: 4, v: 3 }];
  test('only matching records (a scalar read as text), the total counted in the unfiltered set', () => {
    assert.deepEqual(fieldValueCounts(records, 'v'), [
      ['a', 2],
      ['3', 1],
      ['b', 1],
    ]);
    assert.equal(
      fieldFilterViolation(walked([records[0], records[2]]), { field: 'v', value: 'a' }, 'FLT-STATUS'),
      undefined,
    );
    assert.equal(fieldFilterViolation(walked([records[3]]), { field: 'v', value: '3' }, 'FLT-STATUS'), undefined);
    assert.match(
      fieldFilterViolation(walked(records), { field: 'v', value: 'a' }, 'FLT-STATUS')?.received ?? '',
      /2 of 4 records have another/,
    );
    const want = expectedFieldMatches({ records, total: 4, complete: true }, { field: 'v', value: 'a' });
    assert.deepEqual(want, { min: 2, max: 2 });
    const page = (total: number) =>
      exchange({ json: { success: true, message: 'OK', data: [], offset: 0, limit: 10, total } });
    assert.equal(fieldTotalViolation(page(2), { field: 'v', value: 'a' }, want, 4), undefined);
    assert.match(
      fieldTotalViolation(page(4), { field: 'v', value: 'a' }, want, 4)?.received ?? '',
      /the unfiltered total/,
    );
  });
  test('a value no record has: a 4xx or an empty 200; never a pattern widened', () => {
    const f = { field: 'v', value: 'a%' };
    assert.equal(unknownValueViolation(exchange({ status: 400, json: {} }), f), undefined);
    assert.equal(
      unknownValueViolation(
        exchange({ json: { success: true, message: '', data: [], offset: 0, limit: 10, total: 0 } }),
        f,
      ),
      undefined,
    );
    assert.ok(
      unknownValueViolation(
        exchange({ json: { success: true, message: '', data: [rec(1, 'ab')], offset: 0, limit: 10, total: 1 } }),
        f,
      ),
    );
    const values = unknownValues(new Set(['duplicate', 'fraudulent']));
    assert.ok(values.includes('dup%') && values.includes('duplicat_') && values.includes('%'));
    assert.ok(!values.includes('duplicate'));
  });
  test('filtered pages hold min(limit, matches - offset) records', () => {
    const f = { field: 'v', value: 'a' };
    const page = (n: number) =>
      exchange({
        json: {
          success: true,
          message: 'OK',
          data: Array.from({ length: n }, (_, i) => rec(i, 'a')),
          offset: 0,
          limit: 5,
          total: 7,
        },
      });
    assert.equal(fullFieldPageViolation(page(5), f, { offset: 0, limit: 5 }, 7), undefined);
    assert.match(
      fullFieldPageViolation(page(3), f, { offset: 0, limit: 5 }, 7)?.expected ?? '',
      /5 records \(7 matches in all/,
    );
  });
});
