/**
 * The console of a run: Playwright's list reporter (one line per check), plus a progress line at least every 10 s
 * while checks run (reporters/progress.ts: requests sent and budget left from the run's ledger, rules finished, time
 * elapsed and an estimate from the requests the unfinished checks will send). The line goes through the list reporter's own output path, so that its live terminal
 * display (which rewrites the line of each check when it ends) stays in step. The list reporter is Playwright's own
 * class (playwright/lib/runner, the version @playwright/test pins); tests/unit/progress.test.ts proves it is there.
 */
import { createRequire } from 'node:module';
import type { FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { ruleIdOfTitle } from '../core/model/rules.ts';
import { type LedgerCounts, NO_LEDGER, readRun } from '../core/model/run-context.ts';
import { CHECK_COSTS, PROGRESS_EVERY_MS, progressLine, requestsLeft } from './progress.ts';
import { recordOfResult } from './records.ts';

/** What the console reporter uses of Playwright's list reporter (a v2 reporter). */
interface ListReporter {
  onBegin(suite: Suite): void;
  onTestBegin(test: TestCase, result: TestResult): void;
  onTestEnd(test: TestCase, result: TestResult): void;
  onStdOut(chunk: string | Buffer, test?: TestCase, result?: TestResult): void;
  onEnd(result: FullResult): Promise<void> | void;
}
type ListReporterClass = new (options?: Record<string, unknown>) => ListReporter;

/** Playwright's list reporter, from the playwright package that @playwright/test depends on. */
export function playwrightListReporter(): ListReporterClass {
  const fromTest = createRequire(createRequire(import.meta.url).resolve('@playwright/test/package.json'));
  const { ListReporter } = fromTest('playwright/lib/runner') as { ListReporter?: ListReporterClass };
  if (typeof ListReporter !== 'function')
    throw new Error("Playwright's list reporter (playwright/lib/runner) is missing");
  return ListReporter;
}

interface ConsoleOptions {
  /** API_MAX_REQUESTS and API_MAX_RPS of the run, for the progress line. */
  budget?: number;
  maxRps?: number;
  /** The run's request ledger: requests sent and the pace. */
  ledger?: LedgerCounts;
  [option: string]: unknown;
}

export default class ConsoleReporter extends playwrightListReporter() {
  private readonly budget: number;
  private readonly maxRps: number;
  private started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private running = 0;
  private readonly checks = { finished: 0, total: 0 };
  /** Each rule's checks: how many there are, how many have ended. */
  private readonly rules = new Map<string, { total: number; finished: number }>();
  /** The checks not ended yet, by title, and what the ended ones sent: the requests left (progress.ts). */
  private readonly unfinished = new Set<string>();
  private readonly finished: Array<{ title: string; requests: number }> = [];
  private readonly ledger: LedgerCounts;

  constructor(options: ConsoleOptions = {}) {
    const { budget, maxRps, ledger, ...list } = options;
    super(list);
    this.budget = budget ?? 0;
    this.maxRps = maxRps ?? 0;
    this.ledger = ledger ?? NO_LEDGER;
  }

  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    this.started = Date.now();
    for (const test of suite.allTests()) {
      this.checks.total += 1;
      this.unfinished.add(test.title);
      const rule = ruleIdOfTitle(test.title) ?? test.title;
      const row = this.rules.get(rule) ?? { total: 0, finished: 0 };
      row.total += 1;
      this.rules.set(rule, row);
    }
    this.timer = setInterval(() => this.tick(), PROGRESS_EVERY_MS);
    this.timer.unref();
  }

  override onTestBegin(test: TestCase, result: TestResult): void {
    super.onTestBegin(test, result);
    this.running += 1;
  }

  override onTestEnd(test: TestCase, result: TestResult): void {
    super.onTestEnd(test, result);
    this.running = Math.max(0, this.running - 1);
    // A retried check ends more than once; it finishes once.
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    this.checks.finished += 1;
    const row = this.rules.get(ruleIdOfTitle(test.title) ?? test.title);
    if (row) row.finished += 1;
    this.unfinished.delete(test.title);
    this.finished.push({ title: test.title, requests: recordOfResult(test, result)?.requests ?? 0 });
  }

  override async onEnd(result: FullResult): Promise<void> {
    clearInterval(this.timer);
    await super.onEnd(result);
  }

  /** A progress line while checks run. */
  private tick(): void {
    if (this.running === 0 || this.checks.finished >= this.checks.total) return;
    const ledger = this.ledger;
    const pace = ledger.pace();
    const sent = ledger.sent();
    // What the running checks sent so far: the run's requests less the preflight's and the ended checks'.
    const ended = this.finished.reduce((n, f) => n + f.requests, 0);
    const inFlight = sent - (readRun()?.preflight?.requests ?? 0) - ended;
    const line = progressLine({
      elapsedMs: Date.now() - this.started,
      sent,
      requestsLeft: requestsLeft(CHECK_COSTS, this.finished, [...this.unfinished], inFlight),
      budget: this.budget,
      rules: {
        finished: [...this.rules.values()].filter((r) => r.finished >= r.total).length,
        total: this.rules.size,
      },
      checks: { ...this.checks },
      learnedRps: pace.learnedRps,
      maxRps: this.maxRps,
      pausedMs: pace.pausedUntil ? pace.pausedUntil - Date.now() : undefined,
    });
    this.onStdOut(`${line}\n`);
  }
}
