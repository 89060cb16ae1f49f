/**
 * The progress line's estimate (reporters/progress.ts): the time left comes from the requests the unfinished checks
 * will send — each at the mean of what the checks that ended sent in this run, no committed table — at the pace so
 * far, not from the number of checks left; and a line for every phase of the run, the start and the wait between the
 * checks and the checks of every answer included.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ProgressFacts, progressLine, requestsLeft } from '../../reporters/progress.ts';

const line = (over: Partial<ProgressFacts> = {}) =>
  progressLine({
    phase: 'checks',
    elapsedMs: 60_000,
    sent: 480,
    budget: 5000,
    rules: { finished: 1, total: 3 },
    checks: { finished: 2, total: 3 },
    maxRps: 0,
    ...over,
  });

describe('requestsLeft: what the unfinished checks will send, measured in this run', () => {
  test('each unfinished check at the mean of what the ended ones sent', () => {
    assert.equal(requestsLeft([{ requests: 20 }, { requests: 100 }], 2), 120);
    assert.equal(requestsLeft([], 3), undefined, 'nothing ended: nothing measured, no estimate');
  });

  test('less what the running checks sent already; never below 0', () => {
    assert.equal(requestsLeft([{ requests: 10 }], 3, 20), 10);
    assert.equal(requestsLeft([{ requests: 10 }], 1, 500), 0);
  });

  test('the estimate follows the pace measured so far', () => {
    // Two checks ended in 60 s (480 requests, 8/s), at 240 each: the one left sends about 240 more, 30 s.
    const left = requestsLeft([{ requests: 240 }, { requests: 240 }], 1);
    assert.equal(left, 240);
    assert.equal(
      line({ requestsLeft: left }),
      'progress: 480 requests sent (4520 of API_MAX_REQUESTS=5000 left), 1/3 rules finished (2/3 checks), 60 s elapsed, about 30 s to go at this pace (about 240 requests left) (8.0 req/s so far)',
    );
  });
});

describe('progressLine in every phase', () => {
  test('no estimate before the pace is known; the last checks running once their requests are spent', () => {
    assert.match(line(), /, 60 s elapsed, no estimate yet \(8\.0 req\/s so far\)$/);
    assert.match(line({ requestsLeft: 0 }), /, 60 s elapsed, the last check finishing \(8\.0 req\/s so far\)$/);
    assert.match(line({ requestsLeft: 0, checks: { finished: 1, total: 3 } }), /, the last 2 checks finishing /);
  });

  test('before the checks: the preflight and the workers starting', () => {
    assert.equal(
      line({ phase: 'starting', sent: 9, elapsedMs: 12_000 }),
      "progress: 9 requests sent (4991 of API_MAX_REQUESTS=5000 left), 12 s elapsed: the preflight and the workers' start, no check ended yet (0.8 req/s so far)",
    );
  });

  test('between the checks and the checks of every answer; the time budget left', () => {
    assert.match(line({ phase: 'between projects' }), /\(2\/3 checks\), the checks of every answer starting, /);
    assert.match(line({ timeLeftMs: 21_400 }), /, 21 s left of the time budget\)$/);
    assert.match(line({ pausedMs: 3000, learnedRps: 9.8 }), /the target allows about 9\.8\/s, paused 3 s for /);
  });
});
