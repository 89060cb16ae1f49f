/**
 * The time budget (--max-time; core/model/time-budget.ts decides, core/run/time-budget.ts keeps the run's check log):
 * one run-wide clock from the command's start, costs measured in this run alone, the most telling checks first; a check
 * that cannot finish declines ("not run (time budget)"), one running at the end is stopped by its client, and the
 * outcome and every report name what was left out.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { ApiClient, TimeBudgetSpent } from '../../core/client/http.ts';
import { openLedger } from '../../core/client/ledger.ts';
import { NO_AUTH } from '../../core/model/credentials.ts';
import { DEPTH_PROFILES } from '../../core/model/depth.ts';
import type { RunContext } from '../../core/model/run-context.ts';
import {
  admit,
  type BudgetFacts,
  deadlineOf,
  describeDuration,
  expectedRps,
  firstOfRule,
  parseDuration,
  planOrder,
  wallPerRequest,
} from '../../core/model/time-budget.ts';
import { RuleViolation } from '../../core/model/verdict.ts';
import { ConfigError, resolveTarget } from '../../core/run/config.ts';
import { forAll } from '../../core/run/property.ts';
import { recordOf } from '../../core/run/record.ts';
import { checkBudget, plannedRun, writePlan } from '../../core/run/time-budget.ts';
import { bundledMockEnv } from '../../fixtures/mock-target.ts';
import { summarize } from '../../reporters/summary.ts';
import { consoleTable, markdown } from '../../reporters/summary-text.ts';
import { checkRecord, runInfo } from '../support/records.ts';
import { testTarget } from '../support/target.ts';

const dir = mkdtempSync(join(tmpdir(), 'time-budget-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('--max-time: a duration, refused like every setting', () => {
  test('seconds, minutes, hours and their sums; a bare number is seconds', () => {
    assert.deepEqual(
      ['60s', '90', '5m', '1h30m', '1m30s', '2min', '1500ms'].map(parseDuration),
      [60_000, 90_000, 300_000, 5_400_000, 90_000, 120_000, 1500],
    );
    for (const bad of ['', 'soon', '60x', '-5s', '1m junk']) assert.equal(parseDuration(bad), undefined, bad);
    assert.deepEqual(
      [describeDuration(4200), describeDuration(60_000), describeDuration(150_000)],
      ['4.2 s', '60 s', '2 min 30 s'],
    );
  });

  test("CONFORMANCE_MAX_TIME in the target; none by default but quick's own 30 s; none: none; a bad one is a configuration error", () => {
    const resolve = (env: NodeJS.ProcessEnv) => resolveTarget(env, bundledMockEnv);
    assert.equal(resolve({}).maxTimeMs, 0);
    assert.equal(resolve({ CONFORMANCE_DEPTH: 'deep' }).maxTimeMs, 0);
    assert.equal(resolve({ CONFORMANCE_MAX_TIME: '60s' }).maxTimeMs, 60_000);
    assert.equal(resolve({ CONFORMANCE_DEPTH: 'quick' }).maxTimeMs, 30_000);
    assert.equal(resolve({ CONFORMANCE_DEPTH: 'quick', CONFORMANCE_MAX_TIME: '90s' }).maxTimeMs, 90_000);
    assert.equal(resolve({ CONFORMANCE_DEPTH: 'quick', CONFORMANCE_MAX_TIME: 'none' }).maxTimeMs, 0);
    for (const bad of ['soon', '0s', '500ms']) {
      assert.throws(
        () => resolve({ CONFORMANCE_MAX_TIME: bad }),
        (e: unknown) =>
          e instanceof ConfigError &&
          /^CONFORMANCE_MAX_TIME \(--max-time\) must be a duration/.test(e.problems[0] ?? ''),
      );
    }
  });
});

describe('the plan and the admission', () => {
  const checks = [
    { id: 'env-1', rule: 'ENV-SCHEMA', level: 'MUST' as const },
    { id: 'env-2', rule: 'ENV-SCHEMA', level: 'MUST' as const },
    { id: 'adv-1', rule: 'ADV-SCHEME', level: 'ADVISORY' as const },
    { id: 'pag-1', rule: 'PAG-SIZE', level: 'MUST' as const },
  ];

  test("every rule's first check before any second one, MUST rules before advisory ones", () => {
    assert.deepEqual(planOrder(checks), ['env-1', 'pag-1', 'adv-1', 'env-2']);
  });

  test('a rule judged whole over every answer of the run has no first check of its own: its checks rank second', () => {
    const key = { id: 'key-1', rule: 'KEY-SECRET', level: 'MUST' as const, judgedLast: true };
    assert.deepEqual(planOrder([key, ...checks]), ['env-1', 'pag-1', 'adv-1', 'key-1', 'env-2']);
    assert.deepEqual([...firstOfRule([key, ...checks])], ['env-1', 'adv-1', 'pag-1']);
  });

  const facts = (over: Partial<BudgetFacts>): BudgetFacts => ({
    now: 0,
    deadline: 10_000,
    order: planOrder(checks),
    begun: new Set(),
    ended: [],
    workers: 1,
    ...over,
  });

  test('nothing measured yet: a check starts while time is left; none once the time is spent', () => {
    assert.deepEqual(admit('env-2', facts({})), { start: true });
    const spent = admit('env-1', facts({ now: 10_000 }));
    assert.deepEqual(spent, { start: false, reason: 'the time budget was spent before it could start' });
  });

  test('at the mean cost so far, a check starts only when the more telling checks not begun fit too', () => {
    const ended = [{ id: 'x', requests: 20, ms: 3000 }];
    // 10 s left, 3 s a check: env-2 comes after env-1, pag-1 and adv-1, not begun: 4 × 3 s > 10 s.
    const declined = admit('env-2', facts({ ended }));
    assert.equal(declined.start, false);
    assert.match(
      declined.start ? '' : declined.reason,
      /^the time budget could not hold it after 3 more telling check\(s\) not started yet: 10 s left, about 12 s needed at 3\.0 s a check like it so far$/,
    );
    assert.deepEqual(admit('env-2', facts({ ended, workers: 2 })), { start: true }, 'two at once: 6 s');
    assert.deepEqual(admit('env-2', facts({ ended, begun: new Set(['env-1', 'pag-1']) })), { start: true });
    assert.deepEqual(admit('env-1', facts({ ended })), { start: true }, 'the most telling check fits by itself');
  });

  test("short of time: a rule's further check declines while first checks wait and they and it cannot fit", () => {
    const first = new Set(['env-1', 'pag-1', 'adv-1']);
    // 100 ms a request so far; 10 s left; a check sent 10 requests.
    const ended = [{ id: 'x', requests: 10, ms: 1000 }];
    // pag-1 waits: twice its share of the 100 requests left over the 2 checks not begun (100), and env-2's 10: 11 s.
    const short = admit('env-2', facts({ ended, first, begun: new Set(['env-1', 'adv-1']), requestsLeft: 100 }));
    assert.equal(short.start, false);
    assert.match(
      short.start ? '' : short.reason,
      /^the time budget keeps its 10 s for the 1 rule\(s\) not judged yet: their first checks and this one \(about 110 requests, at 100 ms each so far\) need about 11 s$/,
    );
    // Spread over more checks not begun, a waiting first check's share is smaller: 2 × 100 / 4 + 10 requests, 6 s.
    const wide = facts({ ended, first, begun: new Set(['env-1', 'adv-1']), requestsLeft: 100 });
    assert.deepEqual(admit('env-2', { ...wide, order: [...wide.order, 'x1', 'x2'] }), { start: true });
    // What a first check sent so far weighs more when it is more: 2 waiting × 30 + 20 requests, 8 s of the 7 s left.
    const firsts = [
      { id: 'env-1', requests: 30, ms: 3000 },
      { id: 'y', requests: 10, ms: 1000 },
    ];
    const late = facts({ ended: firsts, first, begun: new Set(['env-1']), requestsLeft: 20, now: 3000 });
    assert.equal(admit('env-2', late).start, false);
    // Nothing waits, or the check is a MUST rule's first one: the mean-cost admission as before.
    assert.deepEqual(
      admit('env-2', facts({ ended, first, begun: new Set(['env-1', 'pag-1', 'adv-1']), requestsLeft: 500 })),
      { start: true },
    );
    assert.deepEqual(admit('pag-1', facts({ ended, first, requestsLeft: 500 })), { start: true });
    // An advisory rule's first check gives way while the MUST rules' waiting first checks and its own, at what a
    // first check sent so far (10 requests at 100 ms; twice a share of the 10 requests left is less), cannot fit: 2 × 1 s.
    const advisory = new Set(['adv-1']);
    const firstEnded = [{ id: 'env-1', requests: 10, ms: 1000 }];
    const short2 = (now: number, begun: string[]) =>
      admit('adv-1', facts({ ended: firstEnded, first, advisory, begun: new Set(begun), requestsLeft: 10, now }));
    const adv = short2(8500, ['env-1']);
    assert.match(
      adv.start ? '' : adv.reason,
      /^the time budget keeps its 1\.5 s for the 1 MUST rule\(s\) not judged yet: their first checks and this one \(about 20 requests at 100 ms each so far\) need about 2\.0 s$/,
    );
    assert.deepEqual(short2(7500, ['env-1']), { start: true }, '2.5 s left: both fit');
    assert.deepEqual(short2(8500, ['env-1', 'pag-1']), { start: true }, 'no MUST rule waits');
  });

  test("a rule's first check not begun weighs the mean of the first checks that ended, when above the mean", () => {
    const first = new Set(['env-1', 'pag-1', 'adv-1']);
    const ended = [
      { id: 'env-1', requests: 30, ms: 4000 },
      { id: 'y', requests: 2, ms: 200 },
      { id: 'z', requests: 2, ms: 200 },
    ];
    // Mean 1.47 s; firsts 4 s: env-2 waits for pag-1 and adv-1 (8 s) and costs 1.47 s itself: 9.5 s of 10 s.
    assert.deepEqual(admit('env-2', facts({ ended, first, begun: new Set(['env-1']) })), { start: true });
    const declined = admit('env-2', facts({ ended, first, begun: new Set(['env-1']), now: 1000 }));
    assert.equal(declined.start, false);
  });

  test('the checks judged last keep the end of the budget: the others stop 5 s (or a twentieth) earlier', () => {
    assert.equal(deadlineOf(1000, 60_000, true), 61_000);
    assert.equal(deadlineOf(1000, 60_000, false), 56_000);
    assert.equal(deadlineOf(0, 600_000, false), 570_000);
    assert.equal(deadlineOf(0, 8000, false), 6000, 'never more than a quarter of a short budget');
  });

  test('once a pace is measured, the others stop what the checks of every answer ask at it earlier (2 s at least)', () => {
    // 15 requests at 100 ms and a second to judge: 2.5 s.
    assert.equal(deadlineOf(0, 30_000, false, 100), 27_500);
    assert.equal(deadlineOf(0, 30_000, false, 10), 28_000, 'a fast target: 2 s');
    assert.equal(deadlineOf(0, 30_000, false, 1000), 22_500, 'a slow one: never more than a quarter');
    assert.equal(deadlineOf(0, 30_000, true, 1000), 30_000);
    assert.equal(wallPerRequest([{ id: 'a', requests: 10, ms: 2000 }], 2), 100);
    assert.equal(wallPerRequest([], 2), undefined);
  });
});

describe("the run's check log", () => {
  const run = (maxTimeMs: number, file: string): RunContext =>
    ({ startedAt: Date.now(), settings: { maxTimeMs }, files: { checks: file } }) as unknown as RunContext;

  test('no time budget: no log, nothing to ask', () => {
    assert.equal(
      checkBudget(run(0, join(dir, 'none')), 'a', { project: 'checks', last: false, workers: 2 }),
      undefined,
    );
  });

  test('the plan, each check begun and ended, read back by the next', () => {
    const file = join(dir, 'checks');
    writePlan(file, [
      { id: 'a', rule: 'ENV-SCHEMA', level: 'MUST', project: 'checks' },
      { id: 'b', rule: 'ENV-SCHEMA', level: 'MUST', project: 'checks' },
      { id: 'c', rule: 'PAG-SIZE', level: 'MUST', project: 'checks' },
    ]);
    const r = run(60_000, file);
    const a = checkBudget(r, 'a', { project: 'checks', last: false, workers: 1 });
    assert.deepEqual(a?.admit(), { start: true });
    a?.ended(30, 40_000);
    // 40 s a check: b, after c (not begun), needs 80 s of the 55 s left.
    const b = checkBudget(r, 'b', { project: 'checks', last: false, workers: 1 });
    assert.equal(b?.admit().start, false);
    const c = checkBudget(r, 'c', { project: 'checks', last: false, workers: 1 });
    assert.equal(c?.admit().start, true);
  });
});

describe('a check meets the end of the budget', () => {
  test('its client sends nothing at or after the deadline: TimeBudgetSpent, the ledger untouched', async () => {
    const ledger = openLedger();
    const api = new ApiClient(testTarget({ baseURL: 'http://127.0.0.1:9' }), ledger);
    const release = api.until(Date.now() - 1);
    await assert.rejects(api.get('/merchant/status', { auth: NO_AUTH }), TimeBudgetSpent);
    release();
    assert.equal(ledger.sent(), 0);
    await api.close();
  });

  test('its record: not run (time budget), with what it sent', () => {
    const ctx = { rule: 'PAG-SIZE' as const, title: 'PAG-SIZE a', notes: new Set<string>(), unexercised: [] };
    const r = recordOf(ctx, { threw: true, error: new TimeBudgetSpent() }, 12);
    assert.deepEqual(
      [r.verdict, r.cause, r.reason, r.requests],
      ['not run', 'time budget', 'the time budget (--max-time) ran out while it ran after 12 request(s)', 12],
    );
  });

  test('a property that found a failure keeps it when the time runs out while it shrinks', async () => {
    let calls = 0;
    const target = testTarget({ fcSeed: 3 });
    await assert.rejects(
      forAll(
        { target, title: 'PAG-SIZE shrink' },
        fc.integer({ min: 0, max: 1000 }),
        async (n) => {
          calls += 1;
          if (calls > 1) throw new TimeBudgetSpent();
          return { rule: 'PAG-SIZE', expected: 'nothing', received: String(n) };
        },
        { describe: String, examples: [500] },
      ),
      (e: unknown) => e instanceof RuleViolation && /Received: 500/.test(e.message),
    );
  });
});

describe('the outcome and the reports name what the budget left out', () => {
  const summary = summarize(
    [
      checkRecord('ENV-SCHEMA first pages', 'pass'),
      checkRecord('ENV-SCHEMA every page', 'not run', {
        cause: 'time budget',
        reason: 'the time budget could not hold it',
      }),
      checkRecord('PAG-SIZE any request', 'not run', { cause: 'time budget', reason: 'the time budget was spent' }),
    ],
    runInfo({ maxTimeMs: 60_000 }),
  );

  test('conformant for the rules judged in the time budget, the rest named', () => {
    const o = summary.outcome;
    assert.equal(o.result, 'conformant');
    assert.equal(o.scope, 'for the 1 rule(s) judged in the time budget');
    assert.ok(
      o.decidedBy.includes(
        'time budget 60 s (--max-time): 2 check(s) not run (time budget); rules not judged: PAG-SIZE',
      ),
      o.decidedBy.join('\n'),
    );
  });

  test('the console and conformance.md list the checks it left out', () => {
    const text = consoleTable(summary, 'conformance.md');
    assert.match(text, /, depth standard, time budget 60 s\)/);
    assert.match(text, / PAG-SIZE +MUST +not run \(time budget\) /);
    assert.match(text, /^2 check\(s\) not run \(time budget\): listed in conformance\.md\.$/m);
    assert.match(
      markdown(summary),
      /## Not run \(time budget\)\n\n- ENV-SCHEMA every page: the time budget could not hold it\n/,
    );
  });
});

describe('a time budget with no depth named: the depth planned at the pace the preflight saw', () => {
  const settings = (over: Partial<RunContext['settings']> = {}) =>
    ({
      maxTimeMs: 60_000,
      depth: DEPTH_PROFILES.standard,
      maxRps: 0,
      loopback: true,
      ...over,
    }) as RunContext['settings'];
  const run = (over: Partial<RunContext['settings']> = {}): RunContext =>
    ({ startedAt: 0, settings: settings(over) }) as unknown as RunContext;
  const seen = { latencyMs: 40, learnedRps: 10, collections: 0 };

  test('the pace: the lowest of the configured cap, the announced rate and what the answer time allows', () => {
    assert.equal(expectedRps({ maxRps: 0, workers: 2 }), Number.POSITIVE_INFINITY);
    assert.equal(expectedRps({ maxRps: 0, learnedRps: 10, latencyMs: 40, workers: 2 }), 10);
    assert.equal(expectedRps({ maxRps: 5, learnedRps: 10, latencyMs: 40, workers: 2 }), 5);
    assert.equal(expectedRps({ maxRps: 0, latencyMs: 400, workers: 1 }), 2.5);
  });

  test("quick when standard's requests would not fit the time left; standard when they do", () => {
    const slow = plannedRun(run(), seen, 5000);
    assert.equal(slow.run.settings.depth.name, 'quick');
    assert.match(slow.reason ?? '', /standard's ~1,750 requests take about 2 min 5[0-9] s at 10 requests\/s/);
    // A fast target (the bundled mock: no announced rate, answers in a millisecond) keeps standard.
    const fast = plannedRun(run(), { latencyMs: 1, collections: 0 }, 5000);
    assert.equal(fast.run.settings.depth.name, 'standard');
    assert.equal(fast.reason, undefined);
    // A long budget holds standard at 10 requests a second.
    assert.equal(plannedRun(run({ maxTimeMs: 600_000 }), seen, 5000).run.settings.depth.name, 'standard');
  });

  test('a named depth, no budget, or a depth other than standard: never changed', () => {
    for (const over of [{ depthNamed: true as const }, { maxTimeMs: 0 }, { depth: DEPTH_PROFILES.deep }]) {
      const r = run(over);
      assert.equal(plannedRun(r, seen, 5000).run, r);
    }
    assert.equal(resolveTarget({ CONFORMANCE_DEPTH: 'standard' }, bundledMockEnv).depthNamed, true);
    assert.equal(resolveTarget({}, bundledMockEnv).depthNamed, undefined);
  });

  test('each declared collection counts at the depth below', () => {
    const one = plannedRun(run({ maxTimeMs: 200_000 }), { ...seen, collections: 1 }, 0);
    assert.equal(one.run.settings.depth.name, 'quick');
    assert.equal(plannedRun(run({ maxTimeMs: 200_000 }), seen, 0).run.settings.depth.name, 'standard');
  });
});
