/**
 * The reporter that ends a run: it collects every check's record (reporters/records.ts) and, at the end, assembles the
 * run's request log, summarises the records into the rule matrix and the outcome (reporters/summary.ts), writes every
 * report of the set (reporters/reports.ts) into the run's folder — a shard's own (`-- --shard=2/3`:
 * <reports>/shard-2-of-3/, never over another shard's; `payment-api-conformance merge` makes one matrix of them) —
 * prints the matrix, and writes a baseline when asked. What it knows of the run it reads from the run context by field
 * (core/model/run-context.ts); the run's ledger is handed in (playwright.config.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { today } from '../core/model/baseline.ts';
import { REPORT_FILES, RUN_OUTPUTS, shardFolder } from '../core/model/outputs.ts';
import type { WatchCost } from '../core/model/provenance.ts';
import { RULES, type RuleId, ruleIdOfTitle } from '../core/model/rules.ts';
import { type LedgerCounts, NO_LEDGER, type RunContext, readRun } from '../core/model/run-context.ts';
import { redact } from '../core/model/secrets.ts';
import { type CheckRecord, notRunRecord } from '../core/model/verdict.ts';
import { stripAnsi } from './ansi.ts';
import { baselineFrom } from './baseline.ts';
import { recordOfResult } from './records.ts';
import { writeReports, writeSetUpReports } from './reports.ts';
import { writeRequestLog } from './requests.ts';
import { type Summary, summarize } from './summary.ts';
import { consoleTable, headline, outcomeLine, targetPhrase } from './summary-text.ts';

export default class EndOfRunReporter implements Reporter {
  /** Each selected check by test id, with its rule, title and collection (another than payments). */
  private readonly selected = new Map<string, { rule: RuleId; title: string; collection?: string }>();
  /** Each check's record by test id: a retried check counts once, by its last attempt. */
  private readonly records = new Map<string, CheckRecord>();
  private readonly globalErrors: string[] = [];
  private outputDir: string;
  private shard: { current: number; total: number } | null = null;
  private started = Date.now();
  /** `playwright test --list`: nothing ran, so nothing is judged and no earlier result is overwritten. */
  private listOnly = false;
  /** The run's request ledger (playwright.config.ts hands it in): every request of the run, counted. */
  private readonly ledger: LedgerCounts;

  /** `outputDir`: the reports folder when there is no run context (a unit test); else the run's. */
  constructor(options: { outputDir?: string; ledger?: LedgerCounts } = {}) {
    this.outputDir = options.outputDir ?? readRun()?.reports ?? 'reports';
    this.ledger = options.ledger ?? NO_LEDGER;
  }

  onBegin(config?: FullConfig, suite?: Suite): void {
    this.started = Date.now();
    this.listOnly = process.argv.includes('--list');
    this.shard = config?.shard ?? null;
    if (this.shard) this.outputDir = join(this.outputDir, shardFolder(this.shard));
    for (const test of suite?.allTests() ?? []) {
      const rule = ruleIdOfTitle(test.title);
      const collection = test.annotations.find((a) => a.type === 'collection')?.description;
      if (rule) this.selected.set(test.id, { rule, title: test.title, ...(collection ? { collection } : {}) });
    }
  }

  /** Errors outside any check, e.g. global setup's "unreachable": the run could not judge. */
  onError(error: TestError): void {
    const line = stripAnsi(error.message ?? error.value ?? 'an error outside the checks')
      .trim()
      .split('\n')[0];
    this.globalErrors.push(line ?? '');
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const record = recordOfResult(test, result);
    if (record) this.records.set(test.id, record);
  }

  // async only because Reporter types a returned status as a Promise; everything happens before it resolves.
  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    if (this.listOnly) return { status: 'passed' };
    const run = readRun();
    const refusal = this.setUpRefusal(run);
    if (refusal) return refusal;
    this.recordUnstarted(result.status);
    mkdirSync(this.outputDir, { recursive: true });
    const logged = this.assembleRequestLog(run);
    const watchCost = run ? watchCostOf(run.files.watch) : undefined;
    // The answers the watcher kept were judged by the checks of every answer; they are no report.
    if (run) rmSync(run.files.watch, { recursive: true, force: true });
    const records = [...this.records.values()];
    const preflight = run?.preflight?.requests ?? 0;
    // The ledger counts every request of the run (retries, and checks whose worker was replaced);
    // without one, the checks' own counts.
    const requests = this.ledger.sent() || records.reduce((n, r) => n + r.requests, 0) + preflight;
    const summary = summarize(records, {
      seed: run?.seed ?? null,
      status: result.status,
      durationSeconds: Number(((Date.now() - this.started) / 1000).toFixed(2)),
      requests,
      preflightRequests: preflight,
      transportFailures: this.ledger.transportFailures(),
      globalErrors: this.globalErrors,
      strict: run?.strict ?? false,
      shard: this.shard,
      target: run?.target ?? null,
      baseline: run?.baseline ?? null,
      ...(logged ? { requestMethods: logged.methods } : {}),
      ...(watchCost ? { watchCost } : {}),
      ...depthOf(run),
    });
    titleHtmlReport(summary);
    writeReports(this.outputDir, summary);
    this.print(summary, logged && { count: logged.count, requests });
    if (run?.writeBaseline) writeBaselineFile(run.writeBaseline, summary, run);
    // Playwright's own exit code agrees on zero / non-zero; payment-api-conformance exits with outcome.exitCode.
    return { status: summary.outcome.exitCode === 0 ? 'passed' : 'failed' };
  }

  printsToStdio(): boolean {
    return true;
  }

  /**
   * A run refused at its set-up after the configuration (which refused its own before any request): the preflight's
   * finding, or a --grep that selects no check. Its whole set of reports, and its status; undefined otherwise.
   */
  private setUpRefusal(run: RunContext | undefined): { status: FullResult['status'] } | undefined {
    if (run?.preflight?.decision === 'configuration') {
      this.refuse(run, run.preflight.problems, run.preflight.requests);
      const md = shortPath(join(this.outputDir, REPORT_FILES.markdown));
      console.log(`Outcome: bad configuration (exit 2): the preflight's finding above; no check ran. Matrix: ${md}`);
      this.printReports(undefined);
      return { status: 'failed' };
    }
    // Nothing selected and nothing else went wrong (Playwright's own "No tests found" aside): the grep selects nothing.
    const otherErrors = this.globalErrors.filter((e) => !/No tests found/.test(e));
    if (this.selected.size === 0 && run?.grep && otherErrors.length === 0) {
      // A selection that selects nothing is a set-up mistake: say which ids there are.
      const ids = RULES.map((r) => r.id).join(', ');
      const problem = redact(
        `--grep ${JSON.stringify(run.grep)} (CONFORMANCE_GREP) selects no check; the rule ids are: ${ids}`,
      );
      console.error(problem);
      this.refuse(run, [problem]);
      return { status: 'failed' };
    }
    return undefined;
  }

  /** A selected check that never ended did not run: the run was stopped first. */
  private recordUnstarted(status: FullResult['status']): void {
    const stopped = status === 'interrupted' || status === 'timedout';
    for (const [id, check] of this.selected) {
      if (this.records.has(id)) continue;
      const reason = stopped ? `the run was ${status} before it started` : 'it never started';
      this.records.set(
        id,
        notRunRecord({ rule: check.rule, check: check.title, collection: check.collection }, 'interrupted', reason),
      );
    }
  }

  /** Every request of the run, in requests.ndjson and requests.har; each record names the lines of its own. */
  private assembleRequestLog(run: RunContext | undefined) {
    if (!run || !existsSync(run.files.requestLog)) return undefined;
    const logged = writeRequestLog(run.files.requestLog, this.outputDir, run.target.suiteVersion);
    for (const [id, record] of this.records) {
      const lines = logged.lines.get(id);
      if (lines) this.records.set(id, { ...record, requestLines: lines });
    }
    return logged;
  }

  /** The rule matrix on the console, and every report the run wrote. */
  private print(summary: Summary, logged: { count: number; requests: number } | undefined): void {
    // A run that judged nothing (an unreachable target) prints no table of "not run" rows: the error above says
    // why, once.
    const judged = summary.checks.some((c) => c.verdict !== 'not run');
    const md = shortPath(join(this.outputDir, REPORT_FILES.markdown));
    if (judged) console.log(redact(consoleTable(summary, md)));
    else console.log(redact(`${outcomeLine(summary.outcome).replace(/\): .*/, '): no check ran')}. Matrix: ${md}`));
    this.printReports(logged);
  }

  /** Every report the run wrote, named (the request log's lines counted, when the run kept one). */
  private printReports(logged: { count: number; requests: number } | undefined): void {
    const gap =
      !logged || logged.count === logged.requests
        ? ''
        : `, the run counted ${logged.requests}: a process was killed before it logged`;
    const requests = logged ? [`${REPORT_FILES.requests} (${logged.count} lines${gap})`, REPORT_FILES.har] : [];
    const matrix = [REPORT_FILES.markdown, REPORT_FILES.json, REPORT_FILES.html, REPORT_FILES.junit];
    // Playwright's reports: the HTML report and results.json; Allure's results, from which `report` builds its page.
    const playwright = [`${RUN_OUTPUTS.html}/`, RUN_OUTPUTS.results, `${RUN_OUTPUTS.allureResults}/`];
    console.log(`Reports in ${shortPath(this.outputDir)}: ${[...matrix, ...requests, ...playwright].join(', ')}`);
  }

  /** The whole set of reports of a run refused at its set-up (the preflight, a --grep): exit 2. */
  private refuse(run: RunContext, problems: string[], requests = 0): void {
    const summary = writeSetUpReports(this.outputDir, problems, {
      target: run.target,
      seed: run.seed,
      requests,
      durationSeconds: Number(process.uptime().toFixed(2)),
      depth: run.settings.depth.name,
    });
    titleHtmlReport(summary);
  }
}

/** The run's depth and time budget, as the summary keeps them (a run context of an older suite has none). */
function depthOf(run: RunContext | undefined): Pick<Summary, 'depth' | 'maxTimeMs'> {
  const settings = run?.settings;
  return {
    ...(settings?.depth ? { depth: settings.depth.name } : {}),
    ...(settings?.maxTimeMs ? { maxTimeMs: settings.maxTimeMs } : {}),
  };
}

/** --write-baseline: a baseline of the run's failures, for the team to edit. */
function writeBaselineFile(file: string, summary: Summary, run: RunContext): void {
  const written = baselineFrom(summary.checks, today(), run.baseline?.entries, summary.seed);
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, redact(`${JSON.stringify(written, null, 2)}\n`));
  const n = written.entries.length;
  console.log(
    `Baseline written: ${shortPath(resolve(file))} (${n} entr${n === 1 ? 'y' : 'ies'}); ` +
      'edit each reason and date, then run with --baseline',
  );
}

/**
 * Playwright's HTML report (after this reporter in the config) takes its title from here: the outcome, then the target
 * (its base URL and profile), which its first screen shows.
 */
function titleHtmlReport(summary: Summary): void {
  process.env.PLAYWRIGHT_HTML_TITLE = redact(
    `Payment API conformance: ${headline(summary)} · ${targetPhrase(summary.target)}`,
  );
}

/** A path as the user would type it: relative to the current directory when inside it. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** What watching every answer cost the run: every process's account (core/run/watch.ts), summed; undefined without. */
function watchCostOf(dir: string): WatchCost | undefined {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir).filter((f) => f.endsWith('.cost.json'));
  if (files.length === 0) return undefined;
  const sum: WatchCost = { answers: 0, observeMs: 0, keyScanMs: 0, judgeMs: 0 };
  const fields = Object.keys(sum) as Array<keyof WatchCost>;
  for (const f of files) {
    const part = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Partial<WatchCost>;
    for (const k of fields) sum[k] += part[k] ?? 0;
  }
  for (const k of fields) sum[k] = Math.round(sum[k]);
  return sum;
}
