import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countViolation,
  enumerationViolation,
  sameSetViolation,
  shortId,
  sliceViolation,
  totalAgreementViolation,
  walkViolation,
} from '../../checks/pages.ts';
import { PAYMENTS } from '../../core/model/collection.ts';
import { asKey } from '../../core/model/credentials.ts';
import { identity } from '../../core/model/listing.ts';
import type { Page, ResultSet } from '../../core/model/result-set.ts';
import { flawsOf } from '../../core/run/set-flaws.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

const rec = (i: number) => ({ id: `p${i}`, status: 'COMPLETED', amount: i });
/** The records p0..p(n-1): the whole result set of these tests. */
const records = (n: number) => Array.from({ length: n }, (_, i) => rec(i));
const page = (data: unknown[], offset: number, limit: number, total: number) =>
  fakeExchange({ json: envelope({ data, offset, limit, total }) });

const LISTING = { collection: PAYMENTS, merchant: 'm1', auth: asKey('test') };

/** A limit-100-style enumeration of `data` at `limit` per page, claiming `total`. */
function resultSet(data: unknown[], total = data.length, { limit = 100, capped = false } = {}): ResultSet {
  const pages: Page[] = [];
  for (let offset = 0; offset === 0 || offset < data.length; offset += limit) {
    pages.push({ offset, exchange: page(data.slice(offset, offset + limit), offset, limit, total) });
  }
  return { listing: LISTING, limit, records: data, total, pages, complete: !capped, flaws: flawsOf(pages, limit, 10) };
}

/** A walk over `data` at limit L: `pageOf(offset)` gives each page's records (defaults to the right slice). */
function walk(
  data: unknown[],
  limit: number,
  pageOf = (offset: number) => data.slice(offset, offset + limit),
): Pick<ResultSet, 'pages' | 'limit'> {
  const pages: Page[] = [];
  for (let offset = 0; offset === 0 || offset < data.length; offset += limit) {
    pages.push({ offset, exchange: page(pageOf(offset), offset, limit, data.length) });
  }
  return { pages, limit };
}

const all = records(25);
const idOf = identity(all);

describe('shortId', () => {
  test('drops the id: prefix and cuts long identities', () => {
    assert.equal(shortId('id:pay_1'), 'pay_1');
    assert.equal(shortId('x'.repeat(50)), `${'x'.repeat(40)}…`);
  });
});

describe('totalAgreementViolation (PAG-TOTAL)', () => {
  const ref = { label: 'offset=0 limit=100', exchange: page(all.slice(0, 10), 0, 100, 25) };
  test('the same total on another page and limit passes', () => {
    assert.equal(
      totalAgreementViolation(ref, { label: 'offset=20 limit=5', exchange: page(all.slice(20), 20, 5, 25) }),
      undefined,
    );
  });
  test('total as the page size fails', () => {
    const v = totalAgreementViolation(ref, { label: 'offset=0 limit=10', exchange: page(all.slice(0, 10), 0, 10, 10) });
    assert.equal(v?.rule, 'PAG-TOTAL');
    assert.match(v?.expected ?? '', /total 25/);
    assert.match(v?.received ?? '', /total 10/);
    assert.equal(v?.related?.[0], ref.exchange);
  });
  test('total counted from the offset fails', () => {
    const other = { label: 'offset=20 limit=5', exchange: page(all.slice(20), 20, 5, 5) };
    assert.equal(totalAgreementViolation(ref, other)?.rule, 'PAG-TOTAL');
  });
  test('a read that is not a usable 200 fails', () => {
    const other = { label: 'sort=amount', exchange: fakeExchange({ status: 500, text: 'boom' }) };
    assert.match(totalAgreementViolation(ref, other)?.received ?? '', /HTTP 500/);
  });
});

describe('countViolation (PAG-TOTAL)', () => {
  test('total = the distinct records enumerated passes; a capped set is not judged', () => {
    assert.equal(countViolation(resultSet(all), idOf, 'the listing'), undefined);
    assert.equal(countViolation(resultSet(all.slice(0, 10), 25, { capped: true }), idOf, 'the listing'), undefined);
  });
  test('a total other than the records enumerated fails', () => {
    const v = countViolation(resultSet(all, 30), idOf, 'the listing');
    assert.equal(v?.rule, 'PAG-TOTAL');
    assert.match(v?.received ?? '', /total 30, 25 distinct/);
  });
});

describe('enumerationViolation (PAG-PARTITION)', () => {
  test('every record once, as many as total, passes', () => {
    assert.equal(enumerationViolation(resultSet(records(250)), identity(records(250)), 'the listing'), undefined);
    assert.equal(enumerationViolation(resultSet([], 0), idOf, 'the listing'), undefined);
  });
  test('a record repeated at a page boundary (offset one low) fails, naming both pages', () => {
    const data = records(250);
    const low = [...data.slice(0, 100), ...data.slice(99, 199), ...data.slice(199)];
    const pages = [0, 100, 200].map((offset) => ({
      offset,
      exchange: page(low.slice(offset, offset + 100), offset, 100, 250),
    }));
    const set: ResultSet = {
      listing: LISTING,
      limit: 100,
      records: low,
      total: 250,
      complete: true,
      pages,
      flaws: flawsOf(pages, 100, 10),
    };
    const v = enumerationViolation(set, identity(data), 'the listing');
    assert.equal(v?.rule, 'PAG-PARTITION');
    assert.match(v?.received ?? '', /p99 at positions 99 and 100/);
    assert.equal(v?.exchange, set.pages[0]?.exchange);
    assert.equal(v?.related?.[0], set.pages[1]?.exchange);
  });
  test('a record skipped at a page boundary (offset one high) fails as a gap', () => {
    const data = records(250);
    const high = [...data.slice(0, 100), ...data.slice(101)];
    const v = enumerationViolation(resultSet(high, 250), identity(data), 'the listing');
    assert.equal(v?.rule, 'PAG-PARTITION');
    assert.match(v?.received ?? '', /249 records: 1 missing/);
  });
  test('a capped enumeration is judged on duplicates only', () => {
    assert.equal(enumerationViolation(resultSet(all.slice(0, 10), 25, { capped: true }), idOf, 'x'), undefined);
  });
});

describe('sameSetViolation (PAG-PARTITION)', () => {
  const labels: [string, string] = ['the listing', 'sort=amount'];
  test('the same records in another order pass', () => {
    assert.equal(sameSetViolation(resultSet(all), resultSet([...all].reverse()), idOf, labels), undefined);
  });
  test('a sorted set with a record missing and another added fails, naming both', () => {
    const other = [...all.slice(1), rec(99)];
    const v = sameSetViolation(resultSet(all), resultSet(other), idOf, labels);
    assert.equal(v?.rule, 'PAG-PARTITION');
    assert.match(v?.received ?? '', /missing p0; not in the listing: p99/);
  });
});

describe('walkViolation (PAG-PARTITION)', () => {
  test('pages at limit 7 that concatenate to the enumeration pass', () => {
    assert.equal(walkViolation(walk(all, 7), resultSet(all), idOf), undefined);
    assert.equal(walkViolation(walk([], 7), resultSet([], 0), idOf), undefined);
  });
  test('a record on two pages (offset one low) fails', () => {
    const v = walkViolation(
      walk(all, 7, (o) => all.slice(Math.max(0, o - 1), Math.max(0, o - 1) + 7)),
      resultSet(all),
      idOf,
    );
    assert.equal(v?.rule, 'PAG-PARTITION');
    assert.match(v?.received ?? '', /p6 on the pages at offset 0 and 7/);
  });
  test('a record on no page (offset one high) fails', () => {
    const v = walkViolation(
      walk(all, 7, (o) => all.slice(o === 0 ? 0 : o + 1, (o === 0 ? 0 : o + 1) + 7)),
      resultSet(all),
      idOf,
    );
    assert.equal(v?.rule, 'PAG-PARTITION');
    assert.match(v?.received ?? '', /missing: p7/);
  });
  test('the same records in another order than the enumeration fail', () => {
    const swapped = [all[1], all[0], ...all.slice(2)];
    const v = walkViolation(walk(swapped, 7), resultSet(all), idOf);
    assert.match(v?.received ?? '', /position 0 holds p1 instead of p0/);
  });
  test('a record the enumeration does not hold fails', () => {
    const v = walkViolation(walk([...all, rec(99)], 7), resultSet(all), idOf);
    assert.match(v?.received ?? '', /position 25 holds p99 instead of nothing/);
  });
  test('a capped enumeration is compared on the part it covers', () => {
    assert.equal(
      walkViolation(walk(all.slice(0, 14), 7), resultSet(all.slice(0, 10), 25, { capped: true }), idOf),
      undefined,
    );
  });
  test('a page that is not a usable 200 fails', () => {
    const w = walk(all, 7);
    w.pages[1] = { offset: 7, exchange: fakeExchange({ status: 500, text: 'boom' }) };
    assert.match(walkViolation(w, resultSet(all), idOf)?.received ?? '', /HTTP 500/);
  });
});

describe('sliceViolation (PAG-PARTITION)', () => {
  const set = resultSet(all);
  test('the matching slice passes, also at and past the end', () => {
    assert.equal(sliceViolation(page(all.slice(3, 8), 3, 5, 25), { offset: 3, limit: 5 }, set, idOf), undefined);
    assert.equal(sliceViolation(page(all.slice(22), 22, 5, 25), { offset: 22, limit: 5 }, set, idOf), undefined);
    assert.equal(sliceViolation(page([], 30, 5, 25), { offset: 30, limit: 5 }, set, idOf), undefined);
  });
  test('a window shifted by one fails at its first position', () => {
    const v = sliceViolation(page(all.slice(2, 7), 3, 5, 25), { offset: 3, limit: 5 }, set, idOf);
    assert.equal(v?.rule, 'PAG-PARTITION');
    assert.match(v?.received ?? '', /first difference at window position 0/);
  });
  test('records past the end (the last page instead of []) fail', () => {
    assert.equal(
      sliceViolation(page(all.slice(20), 30, 5, 25), { offset: 30, limit: 5 }, set, idOf)?.rule,
      'PAG-PARTITION',
    );
  });
  test('one record short, or one too many, fails', () => {
    assert.equal(
      sliceViolation(page(all.slice(0, 4), 0, 5, 25), { offset: 0, limit: 5 }, set, idOf)?.rule,
      'PAG-PARTITION',
    );
    assert.equal(
      sliceViolation(page(all.slice(0, 6), 0, 5, 25), { offset: 0, limit: 5 }, set, idOf)?.rule,
      'PAG-PARTITION',
    );
  });
  test('beyond a capped enumeration nothing is compared', () => {
    const capped = resultSet(all.slice(0, 10), 25, { capped: true });
    assert.equal(sliceViolation(page(all.slice(8, 13), 8, 5, 25), { offset: 8, limit: 5 }, capped, idOf), undefined);
    assert.equal(
      sliceViolation(page(all.slice(9, 14), 8, 5, 25), { offset: 8, limit: 5 }, capped, idOf)?.rule,
      'PAG-PARTITION',
    );
  });
  test('a response that is not a usable 200 is left to other checks', () => {
    assert.equal(
      sliceViolation(fakeExchange({ status: 400, json: {} }), { offset: 0, limit: 5 }, set, idOf),
      undefined,
    );
  });
});
