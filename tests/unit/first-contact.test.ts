/**
 * What a first contact with a real target needs besides the preflight (tests/unit/preflight.test.ts): the pace learned
 * from the target's own signals (core/client/pace.ts), the mock's rate limit and distance (mock/throttle.ts), a check's
 * derived time limit (core/run/limits.ts), the progress line and the console reporter it rides on, the reports lock,
 * and the tables' "not run (interrupted)".
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ApiClient } from '../../core/client/http.ts';
import { openLedger } from '../../core/client/ledger.ts';
import { emptyPace, heed, rateSignalOf, takeSlot } from '../../core/client/pace.ts';
import { NO_AUTH } from '../../core/model/credentials.ts';
import { LOCK_FILE } from '../../core/model/outputs.ts';
import { checkTimeLimitMs, MIN_CHECK_LIMIT_MS } from '../../core/run/limits.ts';
import { startMock } from '../../mock/index.ts';
import { playwrightListReporter } from '../../reporters/console.ts';
import { progressLine } from '../../reporters/progress.ts';
import { clearRun } from '../../reporters/reports.ts';
import { heldMessage, holderOf, lockReports, releaseReports } from '../../reporters/reports-lock.ts';
import { verdictLabel } from '../../reporters/summary-text.ts';
import { testTarget } from '../support/target.ts';
import { busiestWindow } from '../support/windows.ts';

const dir = mkdtempSync(join(tmpdir(), 'first-contact-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the rate a target allows, from its own signals', () => {
  test('RateLimit-Policy and RateLimit in the draft forms, RateLimit-*, X-RateLimit-* (reset as seconds or epoch)', () => {
    const now = 1_800_000_000_000;
    assert.deepEqual(
      rateSignalOf(200, { 'ratelimit-policy': '"default";q=8;w=1', ratelimit: '"default";r=3;t=1' }, now),
      {
        status: 200,
        policy: { limit: 8, windowMs: 1000 },
        remaining: 3,
        resetMs: 1000,
      },
    );
    assert.deepEqual(rateSignalOf(200, { 'ratelimit-policy': '100;w=60', 'ratelimit-remaining': '0' }, now), {
      status: 200,
      policy: { limit: 100, windowMs: 60_000 },
      remaining: 0,
    });
    assert.deepEqual(rateSignalOf(200, { ratelimit: 'limit=10, remaining=4, reset=2' }, now), {
      status: 200,
      remaining: 4,
      resetMs: 2000,
    });
    const epoch = String(now / 1000 + 30);
    assert.deepEqual(rateSignalOf(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epoch }, now), {
      status: 200,
      remaining: 0,
      resetMs: 30_000,
    });
    assert.deepEqual(rateSignalOf(429, { 'retry-after': '2' }, now), { status: 429, retryAfterMs: 2000 });
    assert.deepEqual(
      rateSignalOf(200, { 'retry-after': '2' }, now),
      { status: 200 },
      'Retry-After of a 200 means nothing',
    );
  });

  test('a policy paces the run just under it; a 429 pauses everyone for its Retry-After and slows a little', () => {
    const state = emptyPace();
    const now = 1000;
    assert.equal(heed(state, { status: 200, policy: { limit: 8, windowMs: 1000 } }, now, now, 1), true);
    assert.equal(state.intervalUs, 127_500, '1/8 s, 2 % wider');
    assert.equal(heed(state, { status: 200, policy: { limit: 8, windowMs: 1000 } }, now, now, 2), false, 'no news');
    const slots = Array.from({ length: 9 }, () => takeSlot(state, now, 0));
    assert.equal(busiestWindow(slots, 1000), 8, 'never more than the policy in any second');
    // A 429 of a request started under this pace: everyone waits for the Retry-After; one alone is jitter, a second
    // within 30 s slows the pace by 5 %.
    const before = state.intervalUs;
    assert.equal(heed(state, { status: 429, retryAfterMs: 1000 }, now + 1, now + 2, 10), true);
    assert.equal(state.pausedUntil, now + 2 + 1000);
    assert.equal(state.intervalUs, before);
    assert.ok(takeSlot(state, now + 3, 0) >= now + 1002);
    assert.equal(heed(state, { status: 429, retryAfterMs: 1000 }, now + 5000, now + 5001, 40), true);
    assert.equal(state.intervalUs, Math.ceil(before * 1.05));
    // API_MAX_RPS is a ceiling the learned rate never lifts.
    assert.ok(takeSlot(state, now + 3, 1000) - takeSlot(state, now + 3, 1000) <= -1000);
  });

  test('without headers, the first 429 estimates the rate from the requests that went through', () => {
    const state = emptyPace();
    // 8 went through, the 9th was refused with Retry-After: 1 → about 8 per second.
    assert.equal(heed(state, { status: 429, retryAfterMs: 1000 }, 5, 10, 9), true);
    assert.equal(state.intervalUs, 127_500, '1/8 s, 2 % wider');
    // The first request already refused says nothing of the rate: only the pause.
    const fresh = emptyPace();
    heed(fresh, { status: 429, retryAfterMs: 0 }, 5, 10, 1);
    assert.equal(fresh.intervalUs, 0);
  });

  test('against the mock allowing 8 req/s: a 429 is never returned, and no second of start slots holds more than 8', async () => {
    const arrivals: number[] = [];
    const mock = await startMock({ rateLimit: 8, onRequest: () => arrivals.push(performance.now()) });
    // The start slots the ledger hands out are the pace the suite keeps; when each request reaches the mock also
    // depends on how busy the machine is (a stalled event loop sends late, then on time), which no client controls.
    const ledger = openLedger();
    const slots: number[] = [];
    const reserve = ledger.reserve.bind(ledger);
    ledger.reserve = (budget, rps) => {
      const slot = reserve(budget, rps);
      if (slot !== undefined) slots.push(slot);
      return slot;
    };
    const client = new ApiClient(testTarget({ baseURL: mock.url, maxRequests: 100 }), ledger);
    try {
      const started = performance.now();
      let throttled = 0;
      for (let i = 0; i < 24; i++) {
        const e = await client.get('/merchant/status', { auth: NO_AUTH });
        if (e.status === 429) throttled += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      assert.equal(throttled, 0, 'a 429 is retried, never returned');
      // Every attempt the client made took its slot, a retry too: on a busy machine a stalled event loop sends late,
      // then several at once, the mock refuses one with a 429 (before its onRequest sees it) and the client asks again.
      assert.equal(client.sent, slots.length, 'every request sent had its slot');
      assert.ok(arrivals.length <= slots.length, `${arrivals.length} arrivals for ${slots.length} slots`);
      // The first answer teaches the pace; from the second request on, no second of slots holds more than 8.
      assert.ok(busiestWindow(slots.slice(1), 1000) <= 8, `${busiestWindow(slots.slice(1), 1000)} slots in one second`);
      // A hang guard only (23 intervals at 8/s are 2.9 s): how close the pace comes to the allowed rate is
      // measured by `npm run bench`, not bounded here, where a busy machine would make it a false alarm.
      assert.ok(seconds < 3 * (24 / 8 + 1), `${seconds.toFixed(2)} s for 24 requests at 8/s`);
    } finally {
      await client.close();
      await mock.stop();
    }
  });
});

describe('the mock: --rate-limit and --latency (mock/throttle.ts)', () => {
  test('beyond N requests in a second: 429 with Retry-After and RateLimit headers; each request held latencyMs', async () => {
    const mock = await startMock({ rateLimit: 3, latencyMs: 40 });
    try {
      const answers = [];
      const started = performance.now();
      for (let i = 0; i < 4; i++) answers.push(await fetch(`${mock.url}/merchant/status`));
      assert.ok(performance.now() - started >= 4 * 40 * 0.9, 'each request was held 40 ms');
      assert.deepEqual(
        answers.map((a) => a.status),
        [401, 401, 401, 429],
      );
      const refused = answers[3] as Response;
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(refused.headers.get('ratelimit-policy'), '"default";q=3;w=1');
      assert.match(refused.headers.get('ratelimit') ?? '', /^"default";r=0;t=1$/);
      assert.equal((answers[0] as Response).headers.get('ratelimit'), '"default";r=2;t=1');
    } finally {
      await mock.stop();
    }
  });
});

describe("a check's time limit (core/run/limits.ts)", () => {
  const base = { timeoutMs: 10_000, maxRps: 0, maxRequests: 5000 };
  test('never under 120 s; grows with the pace, the workers sharing it and the answer time; replaced when set', () => {
    assert.equal(checkTimeLimitMs({ ...base, timeoutMs: 100 }, { workers: 2 }), MIN_CHECK_LIMIT_MS);
    const remote = checkTimeLimitMs({ ...base, maxRps: 10 }, { workers: 1 });
    assert.equal(remote, 30_000 + 400 * 100 + 3 * 31_000 + 30_000);
    assert.ok(checkTimeLimitMs({ ...base, maxRps: 10 }, { workers: 2 }) > remote);
    assert.ok(
      checkTimeLimitMs(base, { workers: 2, learnedRps: 2 }) > checkTimeLimitMs(base, { workers: 2, learnedRps: 8 }),
    );
    assert.ok(checkTimeLimitMs(base, { workers: 1, latencyMs: 3000 }) >= 400 * 4500);
    assert.equal(checkTimeLimitMs({ ...base, checkTimeoutMs: 5000 }, { workers: 1 }), 5000);
  });
});

describe('the console', () => {
  test("Playwright's list reporter is there to ride on (the pinned playwright/lib/runner)", () => {
    assert.equal(typeof playwrightListReporter(), 'function');
  });

  test('a progress line: requests, budget left, rules finished, elapsed, an estimate, the pace', () => {
    assert.equal(
      progressLine({
        phase: 'checks',
        elapsedMs: 40_000,
        sent: 320,
        budget: 5000,
        rules: { finished: 12, total: 30 },
        checks: { finished: 20, total: 56 },
        learnedRps: 7.77,
        maxRps: 0,
        requestsLeft: 1000,
      }),
      'progress: 320 requests sent (4680 of API_MAX_REQUESTS=5000 left), 12/30 rules finished (20/56 checks), 40 s elapsed, about 2 min 5 s to go at this pace (about 1000 requests left) (8.0 req/s so far, the target allows about 7.8/s)',
    );
    assert.match(
      progressLine({
        phase: 'checks',
        elapsedMs: 10_000,
        sent: 3,
        budget: 60,
        rules: { finished: 0, total: 5 },
        checks: { finished: 0, total: 9 },
        maxRps: 2,
        pausedMs: 1500,
      }),
      /no estimate yet \(0\.3 req\/s so far, API_MAX_RPS=2, paused 2 s for the target's Retry-After\)$/,
    );
  });

  test('a rule that did not run says why in the tables', () => {
    assert.equal(verdictLabel({ verdict: 'not run', cause: 'interrupted' }), 'not run (interrupted)');
    assert.equal(verdictLabel({ verdict: 'pass' }), 'pass');
  });
});

describe('one run per reports folder', () => {
  test('a second run finds the first holding it, by pid; a lock whose process is gone is taken over', () => {
    const reports = join(dir, 'reports');
    assert.equal(lockReports(reports), undefined, 'taken');
    assert.equal(lockReports(reports), undefined, 'taken again by the same process');
    // Another process holds it: this one (the test runner's parent is alive).
    writeFileSync(join(reports, LOCK_FILE), JSON.stringify({ pid: process.ppid, started: 'then' }));
    const holder = holderOf(reports);
    assert.deepEqual(holder, { pid: process.ppid, started: 'then' });
    assert.equal(lockReports(reports)?.pid, process.ppid);
    assert.match(
      heldMessage(reports, holder as never),
      /another run \(pid \d+, started then\) is writing its reports to .*--reports DIR/,
    );
    // A process that is gone (a run killed with SIGKILL) holds nothing.
    writeFileSync(join(reports, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, started: 'then' }));
    assert.equal(lockReports(reports), undefined);
    releaseReports(reports);
    assert.equal(holderOf(reports), undefined);
  });

  test("the run that takes the folder clears what an earlier run wrote there, and nothing that is not a run's", () => {
    const reports = join(dir, 'cleared');
    const runFiles = [
      'conformance.json',
      'junit.xml',
      'requests.ndjson',
      'results.json',
      '.requests',
      '.requests.slot',
    ];
    const runDirs = ['html', 'allure-results', 'allure-report', 'test-results', '.request-log', 'blob'];
    const shards = ['shard-1-of-2', 'shard-2-of-2'];
    for (const d of [...runDirs, ...shards, 'notes']) mkdirSync(join(reports, d), { recursive: true });
    for (const f of [...runFiles, 'mine.txt', LOCK_FILE, 'notes/a.md', 'shard-1-of-2/conformance.json'])
      writeFileSync(join(reports, f), 'x');
    clearRun(reports, 'shard-2-of-2');
    assert.deepEqual(
      readdirSync(reports).sort(),
      [LOCK_FILE, 'mine.txt', 'notes', 'shard-1-of-2'],
      'a sibling shard stays',
    );
    clearRun(reports);
    assert.deepEqual(readdirSync(reports).sort(), [LOCK_FILE, 'mine.txt', 'notes']);
  });
});
