/**
 * The progress line's estimate (reporters/progress.ts): the time left comes from the requests the unfinished checks
 * will send — each one's measured cost, scaled by how this target compares — at the pace so far, not from the number
 * of checks left; and every check of specs/ has a cost (`npm run costs` writes them).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHECK_COSTS, progressLine, requestsLeft } from '../../reporters/progress.ts';
import { isTitleOf, specTitles } from '../../scripts/check-costs.ts';

const COSTS = { 'A cheap': 10, 'B walk': 100, 'C coverage': 230 };
const line = (requestsLeft: number | undefined, finished = 2) =>
  progressLine({
    elapsedMs: 60_000,
    sent: 480,
    budget: 5000,
    rules: { finished: 1, total: 3 },
    checks: { finished, total: 3 },
    maxRps: 0,
    requestsLeft,
  });

describe('requestsLeft: what the unfinished checks will send', () => {
  test('their costs, scaled by how the finished checks compared with theirs on this target', () => {
    // The finished check sent twice its cost: this target's listings are larger; the rest will too.
    assert.equal(requestsLeft(COSTS, [{ title: 'A cheap', requests: 20 }], ['B walk', 'C coverage']), 660);
    assert.equal(requestsLeft(COSTS, [], ['A cheap', 'B walk', 'C coverage']), 340, 'nothing finished: as measured');
  });

  test('less what the running checks sent already; never below 0', () => {
    assert.equal(requestsLeft(COSTS, [{ title: 'A cheap', requests: 10 }], ['C coverage'], 200), 30);
    assert.equal(requestsLeft(COSTS, [{ title: 'A cheap', requests: 10 }], ['C coverage'], 500), 0);
  });

  test('a check the table lacks costs its mean', () => {
    assert.equal(requestsLeft(COSTS, [], ['D new']), 113);
  });

  test('the expensive check left last: the estimate says minutes where counting checks would say seconds', () => {
    // Two cheap checks ended in 60 s (480 requests, 8/s); the coverage phase is left: 230 × 3 requests, not 1/3 of 60 s.
    const left = requestsLeft(
      { 'A cheap': 80, 'B cheap': 80, 'C coverage': 230 },
      [
        { title: 'A cheap', requests: 240 },
        { title: 'B cheap', requests: 240 },
      ],
      ['C coverage'],
    );
    assert.equal(left, 690);
    assert.equal(
      line(left),
      'progress: 480 requests sent (4520 of API_MAX_REQUESTS=5000 left), 1/3 rules finished (2/3 checks), 60 s elapsed, about 86 s to go at this pace (about 690 requests left) (8.0 req/s so far)',
    );
  });

  test('no estimate before the pace is known; the last checks running once their requests are spent', () => {
    assert.match(line(undefined), /, 60 s elapsed, no estimate yet \(8\.0 req\/s so far\)$/);
    assert.match(line(0), /, 60 s elapsed, the last check finishing \(8\.0 req\/s so far\)$/);
    assert.match(line(0, 1), /, the last 2 checks finishing /);
  });
});

test('every check of specs/ has a measured cost (npm run costs), and every cost a check', () => {
  const titles = specTitles();
  const costed = Object.keys(CHECK_COSTS);
  assert.ok(titles.length > 50, `${titles.length} titles found in specs/`);
  assert.deepEqual(
    titles.filter((t) => !costed.some((c) => (typeof t === 'string' ? c === t : t.test(c)))).map(String),
    [],
    'checks without a cost: run npm run costs',
  );
  assert.deepEqual(
    costed.filter((c) => !isTitleOf(titles, c)),
    [],
    'costs of checks that are gone: run npm run costs',
  );
});
