/**
 * The rule-matrix reporter: collects every check's record (reporters/records.ts) and, at the end of the run, writes
 * the rule matrix and the outcome (reporters/summary.ts) to <outputDir>/conformance.json and conformance.md and
 * prints it. A sharded run (`-- --shard=2/3`) writes into <outputDir>/shard-2-of-3/, never over another shard's
 * result; `payment-api-conformance merge` makes one matrix of them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { openLedger } from '../core/client/ledger.ts';
import { today } from '../core/model/baseline.ts';
import { WATCH_VAR, type WatchCost } from '../core/model/provenance.ts';
import { RULES, type RuleId, ruleIdOfTitle } from '../core/model/rules.ts';
import { readPreflight, readTargetInfo } from '../core/model/run-context.ts';
import { redact } from '../core/model/secrets.ts';
import type { CheckRecord } from '../core/model/verdict.ts';
import { stripAnsi } from './ansi.ts';
import { BaselineError, type BaselineInput, baselineFrom, readBaseline } from './baseline.ts';
import { recordOfResult } from './records.ts';
import { writeReports, writeSetUpReports } from './reports.ts';
import { HAR_FILE, REQUESTS_FILE, writeRequestLog } from './requests.ts';
import { consoleTable, headline, outcomeLine, type Summary, summarize, targetPhrase } from './summary.ts';

export type { RuleRow, Summary } from './summary.ts';
export { SCHEMA_VERSION } from './summary.ts';

/** Where a shard's results go, under the run's reports folder (the command reads its outcome there too). */
export const shardFolder = (shard: { current: number; total: number }) => `shard-${shard.current}-of-${shard.total}`;

export default class RuleMatrixReporter implements Reporter {
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

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  onBegin(config?: FullConfig, suite?: Suite): void {
    this.started = Date.now();
    this.listOnly = process.argv.includes('--list');
    this.shard = config?.shard ?? null;
    if (this.shard) this.outputDir = `${this.outputDir}/${shardFolder(this.shard)}`;
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
    // The preflight found a set-up mistake (it said which, above): bad configuration, nothing was judged.
    const found = readPreflight();
    if (found?.verdict === 'configuration') {
      this.refuse(found.problems, found.requests);
      const md = shortPath(`${this.outputDir}/conformance.md`);
      console.log(`Outcome: bad configuration (exit 2): the preflight's finding above; no check ran. Matrix: ${md}`);
      return { status: 'failed' };
    }
    let baseline: BaselineInput | null = null;
    const baselineFile = process.env.CONFORMANCE_BASELINE?.trim();
    try {
      baseline = baselineFile ? readBaseline(baselineFile, today()) : null;
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      console.error(error.message);
      this.refuse([error.message]);
      return { status: 'failed' };
    }
    const grep = process.env.CONFORMANCE_GREP?.trim();
    // Nothing selected and nothing else went wrong (Playwright's own "No tests found" aside): the grep selects nothing.
    const otherErrors = this.globalErrors.filter((e) => !/No tests found/.test(e));
    if (this.selected.size === 0 && grep && otherErrors.length === 0) {
      // A selection that selects nothing is a set-up mistake: say which ids there are.
      const ids = RULES.map((r) => r.id).join(', ');
      const problem = `--grep ${JSON.stringify(grep)} (CONFORMANCE_GREP) selects no check; the rule ids are: ${ids}`;
      console.error(problem);
      this.refuse([problem]);
      return { status: 'failed' };
    }
    const stopped = result.status === 'interrupted' || result.status === 'timedout';
    // A selected check that never ended did not run: the run was stopped first.
    for (const [id, check] of this.selected) {
      if (this.records.has(id)) continue;
      const reason = stopped ? `the run was ${result.status} before it started` : 'it never started';
      const record: CheckRecord = {
        rule: check.rule,
        check: check.title,
        ...(check.collection ? { collection: check.collection } : {}),
        verdict: 'not run',
        cause: 'interrupted',
        reason,
        reproduction: [],
        requests: 0,
        notes: [],
      };
      this.records.set(id, record);
    }
    // Every request of the run, in requests.ndjson and requests.har; each record names the lines of its own.
    const log = process.env.CONFORMANCE_REQUEST_LOG?.trim();
    mkdirSync(this.outputDir, { recursive: true });
    const logged = log ? writeRequestLog(log, this.outputDir, ownVersion()) : undefined;
    // The answers the watcher kept were judged by the checks of every answer; they are no report.
    const watched = process.env[WATCH_VAR]?.trim();
    const watchCost = watched ? watchCostOf(watched) : undefined;
    if (watched) rmSync(watched, { recursive: true, force: true });
    for (const [id, record] of this.records) {
      const lines = logged?.lines.get(id);
      if (lines) this.records.set(id, { ...record, requestLines: lines });
    }
    const records = [...this.records.values()];
    const preflight = Number(process.env.CONFORMANCE_PREFLIGHT_REQUESTS ?? 0);
    // The ledger counts every request of the run (retries, and checks whose worker was replaced);
    // without one, the checks' own counts.
    const ledger = openLedger();
    const requests = ledger.sent() || records.reduce((n, r) => n + r.requests, 0) + preflight;
    const summary = summarize(records, {
      seed: runSeed(),
      status: result.status,
      durationSeconds: Number(((Date.now() - this.started) / 1000).toFixed(2)),
      requests,
      preflightRequests: preflight,
      transportFailures: ledger.transportFailures(),
      globalErrors: this.globalErrors,
      strict: process.env.CONFORMANCE_STRICT === '1',
      shard: this.shard,
      target: readTargetInfo() ?? null,
      baseline,
      ...(logged ? { requestMethods: logged.methods } : {}),
      ...(watchCost ? { watchCost } : {}),
    });
    titleHtmlReport(summary);
    writeReports(this.outputDir, summary);
    // A run that judged nothing (an unreachable target) prints no table of "not run" rows: the error above says
    // why, once.
    const judged = records.some((c) => c.verdict !== 'not run');
    const md = shortPath(`${this.outputDir}/conformance.md`);
    if (judged) console.log(redact(consoleTable(summary, md)));
    else console.log(redact(`${outcomeLine(summary.outcome).replace(/\): .*/, '): no check ran')}. Matrix: ${md}`));
    if (logged) {
      const short = shortPath(join(this.outputDir, REQUESTS_FILE));
      const gap =
        logged.count === requests ? '' : ` (the run counted ${requests}: a process was killed before it logged)`;
      console.log(`Requests: ${short} (${logged.count} lines${gap}) and ${shortPath(join(this.outputDir, HAR_FILE))}`);
    }
    const write = process.env.CONFORMANCE_WRITE_BASELINE?.trim();
    if (write) {
      const written = baselineFrom(summary.checks, today(), baseline?.entries, summary.seed);
      mkdirSync(dirname(resolve(write)), { recursive: true });
      writeFileSync(write, redact(`${JSON.stringify(written, null, 2)}\n`));
      console.log(
        `Baseline written: ${shortPath(resolve(write))} (${written.entries.length} entr${written.entries.length === 1 ? 'y' : 'ies'}); ` +
          'edit each reason and date, then run with --baseline',
      );
    }
    // Playwright's own exit code agrees on zero / non-zero; payment-api-conformance exits with outcome.exitCode.
    return { status: summary.outcome.exitCode === 0 ? 'passed' : 'failed' };
  }

  printsToStdio(): boolean {
    return true;
  }

  /** The whole set of reports of a run refused at its set-up (the preflight, the baseline, a --grep): exit 2. */
  private refuse(problems: string[], requests = 0): void {
    const summary = writeSetUpReports(this.outputDir, problems, {
      target: readTargetInfo() ?? null,
      seed: runSeed(),
      requests,
      durationSeconds: Number(process.uptime().toFixed(2)),
    });
    titleHtmlReport(summary);
  }
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

/** This package's version (its package.json, above this module in a clone and in dist/). */
function ownVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'payment-api-conformance') return pkg.version ?? '';
  }
  return '';
}

/** The run's seed, which playwright.config.ts picked or took from FC_SEED; null when there is none. */
function runSeed(): number | null {
  const raw = process.env.FC_SEED?.trim();
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
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
