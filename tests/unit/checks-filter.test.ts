/**
 * The filter checks (checks/filter.ts) on payments' `status` and on another collection's field: only matching records
 * (exactly, case included; a scalar read as text), the total counted in the unfiltered set, a value no record has
 * answered by a 4xx or an empty 200, full pages while matches remain.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  caseChanged,
  expectedMatches,
  filteredTotalViolation,
  filterViolation,
  fullPageViolation,
  matching,
  unknownValueViolation,
} from '../../checks/filter.ts';
import { fieldValueCounts } from '../../core/model/result-set.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

const status = (value: string) => ({ field: 'status', value });
const COMPLETED = status('COMPLETED');

const rec = (id: string, status: string) => ({ id, status, amount: 1 });
const records = [
  rec('a', 'COMPLETED'),
  rec('b', 'PENDING'),
  rec('c', 'COMPLETED'),
  rec('d', 'FAILED'),
  rec('e', 'COMPLETED'),
];
const page = (data: unknown[], extra: { offset?: number; limit?: number; total?: number } = {}) =>
  fakeExchange({ json: envelope({ data, ...extra }) });

describe('fieldValueCounts / matching / expectedMatches', () => {
  test('values by frequency, then value; a scalar counts as its text', () => {
    assert.deepEqual(fieldValueCounts([...records, { status: 3 }, {}], 'status'), [
      ['COMPLETED', 3],
      ['3', 1],
      ['FAILED', 1],
      ['PENDING', 1],
    ]);
  });
  test('matching is exact, case included', () => {
    assert.deepEqual(
      matching(records, COMPLETED).map((r) => (r as { id: string }).id),
      ['a', 'c', 'e'],
    );
    assert.deepEqual(matching(records, status('completed')), []);
    assert.equal(matching([{ n: 3 }], { field: 'n', value: '3' }).length, 1);
  });
  test('exact count for a whole set, a range for a capped one', () => {
    assert.deepEqual(expectedMatches({ records, total: 5, complete: true }, COMPLETED), { min: 3, max: 3 });
    // 5 of 20 read: at least the 3 matches read, at most 20 - 2 non-matches read.
    assert.deepEqual(expectedMatches({ records, total: 20, complete: false }, COMPLETED), { min: 3, max: 18 });
  });
});

describe('caseChanged', () => {
  test('lower-case and capitalised forms that are not known statuses', () => {
    assert.deepEqual(caseChanged(new Set(['COMPLETED', 'pending', 'Pending'])), ['completed', 'Completed']);
  });
});

describe('filterViolation (FLT-STATUS, SRT-FILTER)', () => {
  const walk = (data: unknown[]) => ({ records: data, pages: [{ offset: 0, exchange: page(data) }] });
  test('only records of the value pass', () => {
    assert.equal(filterViolation(walk(matching(records, COMPLETED)), COMPLETED, 'FLT-STATUS'), undefined);
    assert.equal(filterViolation(walk([]), COMPLETED, 'FLT-STATUS'), undefined);
    assert.equal(filterViolation(walk([{ id: 4, v: 3 }]), { field: 'v', value: '3' }, 'FLT-STATUS'), undefined);
  });
  test('another value (the filter ignored) fails, naming the record', () => {
    const v = filterViolation(walk(records), COMPLETED, 'FLT-STATUS');
    assert.equal(v?.rule, 'FLT-STATUS');
    assert.match(v?.received ?? '', /2 of 5 records .*record #1 \(id b, status "PENDING"\)/);
  });
  test('a case-changed value is another value; the rule is the caller’s', () => {
    const v = filterViolation(walk([rec('a', 'completed')]), COMPLETED, 'SRT-FILTER');
    assert.equal(v?.rule, 'SRT-FILTER');
  });
});

describe('filteredTotalViolation (FLT-STATUS)', () => {
  test('total equal to the matches passes; inside the range of a capped set passes', () => {
    assert.equal(
      filteredTotalViolation(page([], { total: 3 }), COMPLETED, { min: 3, max: 3 }, 5, 'FLT-STATUS'),
      undefined,
    );
    assert.equal(
      filteredTotalViolation(page([], { total: 10 }), COMPLETED, { min: 3, max: 18 }, 20, 'FLT-STATUS'),
      undefined,
    );
  });
  test('the unfiltered total fails, with a hint', () => {
    const v = filteredTotalViolation(page([], { total: 5 }), COMPLETED, { min: 3, max: 3 }, 5, 'FLT-STATUS');
    assert.equal(v?.rule, 'FLT-STATUS');
    assert.match(v?.received ?? '', /total 5 \(the unfiltered total\)/);
  });
  test('a non-200 fails', () => {
    assert.equal(
      filteredTotalViolation(
        fakeExchange({ status: 500, text: 'boom' }),
        status('X'),
        { min: 0, max: 0 },
        5,
        'FLT-STATUS',
      )?.rule,
      'FLT-STATUS',
    );
  });
});

describe('unknownValueViolation (FLT-STATUS)', () => {
  test('a 4xx or an empty 200 passes', () => {
    assert.equal(
      unknownValueViolation(fakeExchange({ status: 400, json: { success: false } }), status('completed'), 'FLT-STATUS'),
      undefined,
    );
    assert.equal(
      unknownValueViolation(fakeExchange({ status: 422, json: {} }), status('completed'), 'FLT-STATUS'),
      undefined,
    );
    assert.equal(unknownValueViolation(page([], { total: 0 }), status('completed'), 'FLT-STATUS'), undefined);
  });
  test('records (case-insensitive match) fail', () => {
    const v = unknownValueViolation(page([rec('a', 'COMPLETED')], { total: 3 }), status('completed'), 'FLT-STATUS');
    assert.equal(v?.rule, 'FLT-STATUS');
    assert.match(v?.received ?? '', /total 3 and 1 records/);
  });
  test('an empty page with a non-zero total fails; a 5xx fails', () => {
    assert.equal(unknownValueViolation(page([], { total: 237 }), status('NOPE'), 'FLT-STATUS')?.rule, 'FLT-STATUS');
    assert.equal(
      unknownValueViolation(fakeExchange({ status: 500, text: 'x' }), status('NOPE'), 'FLT-STATUS')?.rule,
      'FLT-STATUS',
    );
  });
});

describe('fullPageViolation (FLT-BEFORE-PAGE)', () => {
  const n = (count: number) => matching(records, COMPLETED).slice(0, count);
  test('full pages while matches remain, then the rest, then empty', () => {
    assert.equal(fullPageViolation(page(n(2)), COMPLETED, { offset: 0, limit: 2 }, 3), undefined);
    assert.equal(fullPageViolation(page(n(1)), COMPLETED, { offset: 2, limit: 2 }, 3), undefined);
    assert.equal(fullPageViolation(page([]), COMPLETED, { offset: 4, limit: 2 }, 3), undefined);
  });
  test('a short page while matches remain (filtered after slicing) fails', () => {
    const v = fullPageViolation(page(n(1), { total: 3 }), COMPLETED, { offset: 0, limit: 2 }, 3);
    assert.equal(v?.rule, 'FLT-BEFORE-PAGE');
    assert.match(v?.expected ?? '', /2 records \(3 matches in all/);
  });
  test('a non-200 fails', () => {
    assert.equal(
      fullPageViolation(fakeExchange({ status: 400, json: {} }), COMPLETED, { offset: 0, limit: 2 }, 3)?.rule,
      'FLT-BEFORE-PAGE',
    );
  });
});

describe('a filter never widens to a pattern', () => {
  test('a value no record has, answered with records, fails: `dup%` must not find `duplicate`', () => {
    const f = { field: 'reason', value: 'dup%' };
    const one = page([{ id: 1, reason: 'duplicate' }], { total: 1 });
    assert.match(
      unknownValueViolation(one, f, 'FLT-STATUS')?.received ?? '',
      /1 records, e.g. id 1, reason "duplicate"/,
    );
  });
});
