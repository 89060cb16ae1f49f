import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sharedRecordsViolation } from '../../checks/isolation.ts';
import type { IsolatedListing } from '../../core/model/result-set.ts';
import { envelope, fakeExchange } from '../support/exchange.ts';

/** A listing of the given records, served as one page. */
function listing(label: string, records: unknown[]): IsolatedListing {
  const page = fakeExchange({
    json: envelope({ data: records, limit: 100 }),
    path: `/payments/n1/merchant/${label}/payments`,
  });
  return { label, records, pages: [{ exchange: page }] };
}

const pay = (id: string, amount = 1) => ({ id, status: 'COMPLETED', amount });

describe('sharedRecordsViolation (MODE-ISOLATION, MER-ISOLATION)', () => {
  test('disjoint listings pass', () => {
    assert.equal(
      sharedRecordsViolation('MER-ISOLATION', listing('a', [pay('p1'), pay('p2')]), listing('b', [pay('p3')])),
      undefined,
    );
  });

  test('an empty listing passes', () => {
    assert.equal(sharedRecordsViolation('MODE-ISOLATION', listing('a', []), listing('b', [pay('p1')])), undefined);
  });

  test('a record in both listings is a violation of the given rule, with the pages that hold it', () => {
    const a = listing('test', [pay('p1'), pay('p2')]);
    const b = listing('live', [pay('p9'), pay('p2', 500)]);
    const v = sharedRecordsViolation('MODE-ISOLATION', a, b);
    assert.equal(v?.rule, 'MODE-ISOLATION');
    assert.match(v?.received ?? '', /^1 shared record\(s\): id:p2$/);
    assert.match(v?.expected ?? '', /no record in both test \(2 records\) and live \(2 records\)/);
    assert.equal(v?.exchange, a.pages[0]?.exchange);
    assert.deepEqual(v?.related, [b.pages[0]?.exchange]);
  });

  test('records are compared by id when every record has one, so equal amounts do not count', () => {
    const v = sharedRecordsViolation('MER-ISOLATION', listing('a', [pay('p1', 7)]), listing('b', [pay('p2', 7)]));
    assert.equal(v, undefined);
  });

  test('without ids, records are compared by their whole JSON', () => {
    const rec = { status: 'COMPLETED', amount: 42 };
    const v = sharedRecordsViolation(
      'MER-ISOLATION',
      listing('a', [rec]),
      listing('b', [{ ...rec }, { status: 'X', amount: 1 }]),
    );
    assert.equal(v?.rule, 'MER-ISOLATION');
    assert.equal(
      sharedRecordsViolation('MER-ISOLATION', listing('a', [rec]), listing('b', [{ ...rec, amount: 43 }])),
      undefined,
    );
  });

  test('many shared records are counted and only the first few shown', () => {
    const recs = Array.from({ length: 5 }, (_, i) => pay(`p${i}`));
    const v = sharedRecordsViolation('MER-ISOLATION', listing('a', recs), listing('b', recs));
    assert.match(v?.received ?? '', /^5 shared record\(s\): id:p0, id:p1, id:p2, …$/);
  });
});
