import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  caseChanged,
  expectedMatches,
  filteredTotalViolation,
  fullPageViolation,
  statusViolation,
  unknownStatusViolation,
  withStatus,
} from '../../checks/filter.ts';
import { statusCounts } from '../../core/model/result-set.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

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

describe('statusCounts / withStatus / expectedMatches', () => {
  test('statuses by frequency, then name', () => {
    assert.deepEqual(statusCounts([...records, { status: 3 }, {}]), [
      ['COMPLETED', 3],
      ['FAILED', 1],
      ['PENDING', 1],
    ]);
  });
  test('withStatus matches exactly, case included', () => {
    assert.deepEqual(
      withStatus(records, 'COMPLETED').map((r) => (r as { id: string }).id),
      ['a', 'c', 'e'],
    );
    assert.deepEqual(withStatus(records, 'completed'), []);
  });
  test('exact count for a whole set, a range for a capped one', () => {
    assert.deepEqual(expectedMatches({ records, total: 5, complete: true }, 'COMPLETED'), { min: 3, max: 3 });
    // 5 of 20 read: at least the 3 matches read, at most 20 - 2 non-matches read.
    assert.deepEqual(expectedMatches({ records, total: 20, complete: false }, 'COMPLETED'), { min: 3, max: 18 });
  });
});

describe('caseChanged', () => {
  test('lower-case and capitalised forms that are not known statuses', () => {
    assert.deepEqual(caseChanged(new Set(['COMPLETED', 'pending', 'Pending'])), ['completed', 'Completed']);
  });
});

describe('statusViolation (FLT-STATUS)', () => {
  const walk = (data: unknown[]) => ({ records: data, pages: [{ offset: 0, exchange: page(data) }] });
  test('only records of the status pass', () => {
    assert.equal(statusViolation(walk(withStatus(records, 'COMPLETED')), 'COMPLETED', 'FLT-STATUS'), undefined);
    assert.equal(statusViolation(walk([]), 'COMPLETED', 'FLT-STATUS'), undefined);
  });
  test('another status (the filter ignored) fails, naming the record', () => {
    const v = statusViolation(walk(records), 'COMPLETED', 'FLT-STATUS');
    assert.equal(v?.rule, 'FLT-STATUS');
    assert.match(v?.received ?? '', /2 of 5 records .*record #1 \(id b.*"PENDING"/);
  });
  test('a case-changed status is another status; the rule is the caller’s', () => {
    const v = statusViolation(walk([rec('a', 'completed')]), 'COMPLETED', 'SRT-FILTER');
    assert.equal(v?.rule, 'SRT-FILTER');
  });
});

describe('filteredTotalViolation (FLT-STATUS)', () => {
  test('total equal to the matches passes; inside the range of a capped set passes', () => {
    assert.equal(filteredTotalViolation(page([], { total: 3 }), 'COMPLETED', { min: 3, max: 3 }, 5), undefined);
    assert.equal(filteredTotalViolation(page([], { total: 10 }), 'COMPLETED', { min: 3, max: 18 }, 20), undefined);
  });
  test('the unfiltered total fails, with a hint', () => {
    const v = filteredTotalViolation(page([], { total: 5 }), 'COMPLETED', { min: 3, max: 3 }, 5);
    assert.equal(v?.rule, 'FLT-STATUS');
    assert.match(v?.received ?? '', /total 5 \(the unfiltered total\)/);
  });
  test('a non-200 fails', () => {
    assert.equal(
      filteredTotalViolation(fakeExchange({ status: 500, text: 'boom' }), 'X', { min: 0, max: 0 }, 5)?.rule,
      'FLT-STATUS',
    );
  });
});

describe('unknownStatusViolation (FLT-STATUS)', () => {
  test('a 4xx or an empty 200 passes', () => {
    assert.equal(
      unknownStatusViolation(fakeExchange({ status: 400, json: { success: false } }), 'completed'),
      undefined,
    );
    assert.equal(unknownStatusViolation(fakeExchange({ status: 422, json: {} }), 'completed'), undefined);
    assert.equal(unknownStatusViolation(page([], { total: 0 }), 'completed'), undefined);
  });
  test('records (case-insensitive match) fail', () => {
    const v = unknownStatusViolation(page([rec('a', 'COMPLETED')], { total: 3 }), 'completed');
    assert.equal(v?.rule, 'FLT-STATUS');
    assert.match(v?.received ?? '', /total 3 and 1 records/);
  });
  test('an empty page with a non-zero total fails; a 5xx fails', () => {
    assert.equal(unknownStatusViolation(page([], { total: 237 }), 'NOPE')?.rule, 'FLT-STATUS');
    assert.equal(unknownStatusViolation(fakeExchange({ status: 500, text: 'x' }), 'NOPE')?.rule, 'FLT-STATUS');
  });
});

describe('fullPageViolation (FLT-BEFORE-PAGE)', () => {
  const n = (count: number) => withStatus(records, 'COMPLETED').slice(0, count);
  test('full pages while matches remain, then the rest, then empty', () => {
    assert.equal(fullPageViolation(page(n(2)), 'COMPLETED', { offset: 0, limit: 2 }, 3), undefined);
    assert.equal(fullPageViolation(page(n(1)), 'COMPLETED', { offset: 2, limit: 2 }, 3), undefined);
    assert.equal(fullPageViolation(page([]), 'COMPLETED', { offset: 4, limit: 2 }, 3), undefined);
  });
  test('a short page while matches remain (filtered after slicing) fails', () => {
    const v = fullPageViolation(page(n(1), { total: 3 }), 'COMPLETED', { offset: 0, limit: 2 }, 3);
    assert.equal(v?.rule, 'FLT-BEFORE-PAGE');
    assert.match(v?.expected ?? '', /2 records \(3 COMPLETED records in all/);
  });
  test('a non-200 fails', () => {
    assert.equal(
      fullPageViolation(fakeExchange({ status: 400, json: {} }), 'COMPLETED', { offset: 0, limit: 2 }, 3)?.rule,
      'FLT-BEFORE-PAGE',
    );
  });
});
