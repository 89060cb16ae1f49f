/**
 * Sorts of any type (checks/compare.ts, checks/order.ts, checks/sequence.ts): each type's order (numbers, instants
 * whatever their UTC offset, code points, a locale's alphabet), records without the field at one end, a string without
 * a collation judged only by `-f` being the reverse of `f` apart from ties a collation could make, and ties in one
 * order on every request.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { instantOf } from '../../checks/compare.ts';
import { sortViolation, type Walked } from '../../checks/order.ts';
import { reverseViolation, sameSequenceViolation, tieSplittingLimits } from '../../checks/sequence.ts';
import type { CollectionSort } from '../../core/model/collection.ts';
import { fakeExchange as exchange } from '../support/exchange.ts';

/** A string field without a collation. */
const STRING: CollectionSort = { field: 'v', type: 'string' };

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
  sortViolation(walked(values.map((v, i) => rec(i, v))), s, descending, 'SRT-AMOUNT', 'x');

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
    assert.equal(sameSequenceViolation(walked(ref.records, 3), ref, STRING, 'SRT-AMOUNT', 'x'), undefined);
    const swapped = walked([ref.records[1], ref.records[0], ...ref.records.slice(2)]);
    assert.match(
      sameSequenceViolation(swapped, ref, STRING, 'SRT-AMOUNT', 'x')?.received ?? '',
      /a tie came in another order/,
    );
    assert.deepEqual(tieSplittingLimits(ref.records, STRING, 1, 4, 3), [1, 3]);
  });
});
