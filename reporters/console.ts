/**
 * The console of a run: Playwright's list reporter (one line per check), plus a progress line at least every 10 s
 * from the start to the last check (reporters/progress.ts: requests sent and budget left from the run's ledger, rules
 * finished, time elapsed and an estimate from what the checks that ended sent). It also hands the run's checks to
 * the time budget's plan once Playwright knows them. The line goes through the list reporter's own output path, so
 * that its live terminal display (which rewrites the line of each check when it ends) stays in step. The list reporter is Playwright's own
 * class (playwright/lib/runner, the version @playwright/test pins); tests/unit/progress.test.ts proves it is there.
 */
import { createRequire } from 'node:module';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { DOORS_SPEC, EVERY_ANSWER_SPEC, RULES, ruleIdOfTitle } from '../core/model/rules.ts';
import { type LedgerCounts, NO_LEDGER, readRun } from '../core/model/run-context.ts';
import type { PlannedCheck } from '../core/model/time-budget.ts';
import { PROGRESS_EVERY_MS, type ProgressFacts, progressLine, requestsLeft } from './progress.ts';
import { recordOfResult } from './records.ts';

/** What the console reporter uses of Playwright's list reporter (a v2 reporter). */
interface ListReporter {
  onConfigure(config: FullConfig): void;
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
  /** Hands the run's checks to the time budget's plan, once they are known (core/run/time-budget.ts). */
  plan?: (checks: Array<PlannedCheck & { project: string }>) => void;
  /** Called once every check but those of every answer has ended (they wait for it: specs/every-answer.spec.ts). */
  othersEnded?: () => void;
  /** Called once every check but the door checks and those of every answer has ended (specs/doors.spec.ts waits). */
  beforeDoorsEnded?: () => void;
  [option: string]: unknown;
}

/** The spec file that declares a check (its own location is the helper that declared it: fixtures/collections.ts). */
function specFile(test: TestCase): string {
  let suite: Suite | undefined = test.parent;
  while (suite && suite.type !== 'file') suite = suite.parent;
  return suite?.location?.file ?? '';
}

/** How often the progress line's clock looks: a line at most PROGRESS_EVERY_MS after the last, whatever happens. */
const TICK_MS = 500;
/**
 * A line is due this long before the promise runs out: the runner's thread may be busy for a few seconds (loading and
 * transpiling the specs on a loaded machine) when the clock would look, and the promise is kept from the command's start.
 */
const SLACK_MS = 3_000;

export default class ConsoleReporter extends playwrightListReporter() {
  private readonly budget: number;
  private readonly maxRps: number;
  private started = Date.now();
  private lastLine = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private running = 0;
  private begun = false;
  private readonly checks = { finished: 0, total: 0 };
  /** Each rule's checks: how many there are, how many have ended. */
  private readonly rules = new Map<string, { total: number; finished: number }>();
  /** What each ended check sent: the estimate's measured costs (progress.ts). */
  private readonly finished: Array<{ requests: number }> = [];
  private readonly ledger: LedgerCounts;
  private readonly plan: ConsoleOptions['plan'];
  private othersEnded: ConsoleOptions['othersEnded'];
  private beforeDoorsEnded: ConsoleOptions['beforeDoorsEnded'];
  /** The checks not ended yet, but those of every answer (they run last). */
  private readonly others = new Set<string>();
  /** The checks the door checks wait for: every other but those of every answer. */
  private readonly beforeDoors = new Set<string>();

  constructor(options: ConsoleOptions = {}) {
    const { budget, maxRps, ledger, plan, othersEnded, beforeDoorsEnded, ...list } = options;
    super(list);
    this.budget = budget ?? 0;
    this.maxRps = maxRps ?? 0;
    this.ledger = ledger ?? NO_LEDGER;
    this.plan = plan;
    this.othersEnded = othersEnded;
    this.beforeDoorsEnded = beforeDoorsEnded;
  }

  // The clock starts with the command (the run context's start), before Playwright and global setup: the preflight
  // and the workers' start are progress too.
  override onConfigure(config: FullConfig): void {
    super.onConfigure(config);
    this.started = readRun()?.startedAt ?? Date.now();
    this.lastLine = this.started;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
    this.tick(); // a start that already took most of the promised time says so now
  }

  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    this.begun = true;
    const planned: Array<PlannedCheck & { project: string }> = [];
    for (const test of suite.allTests()) {
      this.checks.total += 1;
      const rule = ruleIdOfTitle(test.title) ?? test.title;
      const row = this.rules.get(rule) ?? { total: 0, finished: 0 };
      row.total += 1;
      this.rules.set(rule, row);
      // The checks of every answer run last whatever the plan (each starts while time is left): the plan is the others'.
      if (EVERY_ANSWER_SPEC.test(specFile(test))) continue;
      this.others.add(test.id);
      if (!DOORS_SPEC.test(specFile(test))) this.beforeDoors.add(test.id);
      const known = RULES.find((r) => r.id === rule);
      const judgedLast = !!known && 'wholeOverEveryAnswer' in known;
      planned.push({
        id: test.id,
        rule,
        level: known?.level ?? 'MUST',
        project: test.parent.project()?.name ?? '',
        ...(judgedLast ? { judgedLast } : {}),
      });
    }
    this.plan?.(planned);
    this.endOthers();
  }

  /** Tells the checks of every answer, once, that every other check has ended. */
  private endOthers(): void {
    if (this.beforeDoors.size === 0 && this.beforeDoorsEnded) {
      this.beforeDoorsEnded();
      this.beforeDoorsEnded = undefined;
    }
    if (this.others.size > 0 || !this.othersEnded) return;
    this.othersEnded();
    this.othersEnded = undefined;
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
    this.finished.push({ requests: recordOfResult(test, result)?.requests ?? 0 });
    this.others.delete(test.id);
    this.beforeDoors.delete(test.id);
    this.endOthers();
  }

  override async onEnd(result: FullResult): Promise<void> {
    clearInterval(this.timer);
    await super.onEnd(result);
  }

  /** A progress line when the last one is PROGRESS_EVERY_MS old (less the slack), until the last check ends. */
  private tick(): void {
    if (this.begun && this.checks.finished >= this.checks.total) return;
    if (Date.now() - this.lastLine < PROGRESS_EVERY_MS - SLACK_MS) return;
    this.lastLine = Date.now();
    this.onStdOut(`${progressLine(this.facts())}\n`);
  }

  private facts(): ProgressFacts {
    const ledger = this.ledger;
    const pace = ledger.pace();
    const sent = ledger.sent();
    const run = readRun();
    // What the running checks sent so far: the run's requests less the preflight's and the ended checks'.
    const ended = this.finished.reduce((n, f) => n + f.requests, 0);
    const inFlight = sent - (run?.preflight?.requests ?? 0) - ended;
    const maxTimeMs = run?.settings.maxTimeMs ?? 0;
    return {
      phase: !this.begun ? 'starting' : this.running === 0 ? 'between projects' : 'checks',
      elapsedMs: Date.now() - this.started,
      sent,
      requestsLeft: requestsLeft(this.finished, this.checks.total - this.checks.finished, inFlight),
      budget: this.budget,
      rules: {
        finished: [...this.rules.values()].filter((r) => r.finished >= r.total).length,
        total: this.rules.size,
      },
      checks: { ...this.checks },
      learnedRps: pace.learnedRps,
      maxRps: this.maxRps,
      pausedMs: pace.pausedUntil ? pace.pausedUntil - Date.now() : undefined,
      ...(run && maxTimeMs > 0 ? { timeLeftMs: run.startedAt + maxTimeMs - Date.now() } : {}),
    };
  }
}
