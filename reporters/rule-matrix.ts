/**
 * The rule matrix: at the end of every run, one row per rule of the catalogue with its verdict, one line of evidence,
 * its notes and the requests its checks sent — read by field from each check's record (core/model/verdict.ts), never
 * from a message. Printed to the console and written to <outputDir>/conformance.md and conformance.json, with every
 * check's record and the run's outcome and exit code (reporters/outcome.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
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
import { RULES, type RuleId, ruleIdOfTitle } from '../core/model/rules.ts';
import { redact } from '../core/model/secrets.ts';
import { type Cause, type CheckRecord, evidenceOf, SEVERITY, type Verdict } from '../core/model/verdict.ts';
import { stripAnsi } from './ansi.ts';
import { badConfiguration, decideOutcome, type Outcome } from './outcome.ts';
import { recordOfResult } from './records.ts';

export interface RuleRow {
  id: string;
  section: string;
  level: string;
  verdict: Verdict;
  cause?: Cause;
  evidence: string;
  checks: number;
  requests: number;
  notes: string[];
}

/** What conformance.json holds. */
export interface Summary {
  schemaVersion: number;
  /** The run's seed: FC_SEED reruns the same requests. */
  seed: number | null;
  outcome: Outcome;
  status: FullResult['status'];
  durationSeconds: number;
  requests: number;
  preflightRequests: number;
  requestMethods: string[];
  transportFailures: number;
  verdicts: Record<string, number>;
  rules: RuleRow[];
  /** Every check's record, in catalogue order of their rules. */
  checks: CheckRecord[];
}

/** conformance.json's layout version: bumped when a field changes meaning or goes away. */
export const SCHEMA_VERSION = 2;

export default class RuleMatrixReporter implements Reporter {
  /** Each selected check by test id, with its rule and title; the record replaces nothing until it ends. */
  private readonly selected = new Map<string, { rule: RuleId; title: string }>();
  /** Each check's record by test id: a retried check counts once, by its last attempt. */
  private readonly records = new Map<string, CheckRecord>();
  private readonly globalErrors: string[] = [];
  private readonly outputDir: string;
  private started = Date.now();

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  onBegin(_config?: FullConfig, suite?: Suite): void {
    this.started = Date.now();
    for (const test of suite?.allTests() ?? []) {
      const rule = ruleIdOfTitle(test.title);
      if (rule) this.selected.set(test.id, { rule, title: test.title });
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
    const stopped = result.status === 'interrupted' || result.status === 'timedout';
    // A selected check that never ended did not run: the run was stopped first.
    for (const [id, check] of this.selected) {
      if (this.records.has(id)) continue;
      const reason = stopped ? `the run was ${result.status} before it started` : 'it never started';
      this.records.set(id, {
        rule: check.rule,
        check: check.title,
        verdict: 'not run',
        cause: 'interrupted',
        reason,
        reproduction: [],
        requests: 0,
        notes: [],
      });
    }
    const checks = [...this.records.values()].sort(
      (a, b) => RULES.findIndex((r) => r.id === a.rule) - RULES.findIndex((r) => r.id === b.rule),
    );
    const rows = RULES.map((r) =>
      ruleRow(
        r,
        checks.filter((c) => c.rule === r.id),
      ),
    );
    const preflight = Number(process.env.CONFORMANCE_PREFLIGHT_REQUESTS ?? 0);
    // The ledger counts every request of the run (retries, and checks whose worker was replaced);
    // without one, the checks' own counts.
    const ledger = openLedger();
    const requests = ledger.sent() || rows.reduce((n, r) => n + r.requests, 0) + preflight;
    const gone = ledger.transportFailures();
    const seconds = (Date.now() - this.started) / 1000;
    const counts = Object.fromEntries(SEVERITY.map((v) => [v, rows.filter((r) => r.verdict === v).length]));
    const outcome = decideOutcome({
      rules: rows,
      status: result.status,
      globalErrors: this.globalErrors,
      transportFailures: gone,
      strict: process.env.CONFORMANCE_STRICT === '1',
    });
    const summary: Summary = {
      schemaVersion: SCHEMA_VERSION,
      seed: runSeed(),
      outcome,
      status: result.status,
      durationSeconds: Number(seconds.toFixed(2)),
      requests,
      preflightRequests: preflight,
      requestMethods: ['GET'],
      transportFailures: gone,
      verdicts: counts,
      rules: rows,
      checks,
    };
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(`${this.outputDir}/conformance.json`, redact(`${JSON.stringify(summary, null, 2)}\n`));
    writeFileSync(`${this.outputDir}/conformance.md`, redact(markdown(rows, summary)));
    // A run that judged nothing (an unreachable target, a bad grep) prints no table of "not run" rows: the
    // error above says why, once.
    const judged = checks.some((c) => c.verdict !== 'not run');
    const md = shortPath(`${this.outputDir}/conformance.md`);
    if (judged) console.log(redact(consoleTable(rows, summary, md)));
    else console.log(`Outcome: ${outcome.result} (exit ${outcome.exitCode}): no check ran. Matrix: ${md}`);
    // Playwright's own exit code agrees on zero / non-zero; payment-api-conformance exits with outcome.exitCode.
    return { status: outcome.exitCode === 0 ? 'passed' : 'failed' };
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** A rule's row: the most telling verdict of its checks (SEVERITY), its evidence, notes and requests. */
export function ruleRow(r: (typeof RULES)[number], checks: readonly CheckRecord[]): RuleRow {
  const base = { id: r.id, section: r.section, level: r.level };
  const requests = checks.reduce((n, c) => n + c.requests, 0);
  const notes = [...new Set(checks.flatMap((c) => c.notes))];
  if (checks.length === 0) {
    return { ...base, verdict: 'not run', cause: 'not selected', evidence: 'not selected', checks: 0, requests, notes };
  }
  const worst = checks.reduce((a, b) => (SEVERITY.indexOf(b.verdict) < SEVERITY.indexOf(a.verdict) ? b : a));
  const passed = checks.filter((c) => c.verdict === 'pass').length;
  const evidence = worst.verdict === 'pass' ? `${passed}/${checks.length} checks passed` : evidenceOf(worst);
  const cause = worst.cause ? { cause: worst.cause } : {};
  return { ...base, verdict: worst.verdict, ...cause, evidence, checks: checks.length, requests, notes };
}

/**
 * The rule matrix of a run the config loader refused (playwright.config.ts, before any request): the outcome
 * "bad configuration" (exit 2) and the problems, which name variables, never values.
 */
export function writeConfigErrorMatrix(outputDir: string, problems: string[]): void {
  const outcome = badConfiguration(problems);
  const summary = {
    schemaVersion: SCHEMA_VERSION,
    seed: null,
    outcome,
    status: 'not started',
    requests: 0,
    rules: [],
    checks: [],
  };
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(`${outputDir}/conformance.json`, redact(`${JSON.stringify(summary, null, 2)}\n`));
  const md = [
    '# Conformance rule matrix',
    '',
    'Not started: bad configuration (exit 2).',
    '',
    ...problems.map((p) => `- ${p}`),
  ];
  writeFileSync(`${outputDir}/conformance.md`, redact(`${md.join('\n')}\n`));
}

/** The run's seed, which playwright.config.ts picked or took from FC_SEED; null when there is none. */
function runSeed(): number | null {
  const raw = process.env.FC_SEED?.trim();
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}

const rerun = (seed: number | null) => (seed === null ? 'no seed' : `seed ${seed} — rerun with FC_SEED=${seed}`);

/** A path as the user would type it: relative to the current directory when inside it. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

const withNotes = (r: RuleRow) => (r.notes.length ? `${r.evidence} [${r.notes.join('; ')}]` : r.evidence);

function consoleTable(rows: RuleRow[], s: Summary, matrix: string): string {
  const w = Math.max(...rows.map((r) => r.id.length));
  const lines = rows.map(
    (r) =>
      `  ${r.id.padEnd(w)}  ${r.level.padEnd(8)}  ${r.verdict.padEnd(13)}  ${String(r.requests).padStart(5)}  ${withNotes(r)}`,
  );
  const head = `  ${'rule'.padEnd(w)}  level     verdict        reqs  evidence`;
  const gone = s.transportFailures
    ? [`The target failed to answer ${s.transportFailures} request(s) after retries; checks after that were not run.`]
    : [];
  const preflight = s.preflightRequests ? `, ${s.preflightRequests} of them the preflight` : '';
  const verdicts = SEVERITY.filter((v) => s.verdicts[v]).map((v) => `${s.verdicts[v]} ${v}`);
  const { result, exitCode, decidedBy } = s.outcome;
  const more = decidedBy.length > 3 ? `; and ${decidedBy.length - 3} more` : '';
  return [
    '',
    `Rule matrix (${rerun(s.seed)})`,
    head,
    ...lines,
    '',
    ...gone,
    `Requests sent: ${s.requests} (GET only${preflight}) in ${s.durationSeconds.toFixed(1)} s. Rules: ${verdicts.join(', ')}. ` +
      `Matrix: ${matrix}`,
    `Outcome: ${result} (exit ${exitCode}): ${decidedBy.slice(0, 3).join('; ')}${more}`,
  ].join('\n');
}

function markdown(rows: RuleRow[], s: Summary): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  return [
    '# Conformance rule matrix',
    '',
    `Outcome: **${s.outcome.result}** (exit ${s.outcome.exitCode}).`,
    '',
    ...s.outcome.decidedBy.map((line) => `- ${esc(line)}`),
    '',
    `Run status: ${s.status}; ${s.requests} GET requests in ${s.durationSeconds} s; ${rerun(s.seed)}.`,
    '',
    '| rule | section | level | verdict | requests | evidence |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.id} | ${r.section} | ${r.level} | ${r.verdict} | ${r.requests} | ${esc(withNotes(r))} |`),
    '',
  ].join('\n');
}
