/**
 * The rule matrix: at the end of every run, one row per rule of the catalogue with its verdict (pass, fail,
 * skipped with reason, inconclusive, advisory, not run), one line of evidence and the requests its checks
 * sent. Printed to the console and written to <outputDir>/conformance.md and conformance.json, with the run's
 * outcome and exit code (reporters/outcome.ts) and what decided it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { openLedger } from '../core/client/ledger.ts';
import { RULES, type RuleId, ruleIdOfTitle } from '../core/model/rules.ts';
import { redact } from '../core/model/secrets.ts';
import { stripAnsi } from './ansi.ts';
import { badConfiguration, decideOutcome, type Outcome } from './outcome.ts';

export type Verdict = 'fail' | 'advisory' | 'inconclusive' | 'pass' | 'skipped' | 'not run';
const SEVERITY: Verdict[] = ['fail', 'advisory', 'inconclusive', 'pass', 'skipped', 'not run'];

export interface RuleRow {
  id: string;
  section: string;
  level: string;
  verdict: Verdict;
  evidence: string;
  checks: number;
  requests: number;
}

/** What conformance.json holds (schemaVersion 1). */
export interface Summary {
  schemaVersion: number;
  /** The run's seed: FC_SEED reruns the same requests. */
  seed: number | null;
  outcome: Outcome;
  status: FullResult['status'];
  durationSeconds: number;
  requests: number;
  probeRequests: number;
  requestMethods: string[];
  transportFailures: number;
  verdicts: Record<string, number>;
  rules: RuleRow[];
}

interface CheckOutcome {
  verdict: Verdict;
  evidence: string;
  requests: number;
}

/** Errors that say the target or the budget gave out, not that the target answered wrongly. */
const UNJUDGED = /^(TransportError|TargetGone|BudgetExhausted)\b/m;

export default class RuleMatrixReporter implements Reporter {
  /** Each check's outcome by rule, keyed by test id: a retried check counts once, by its last attempt. */
  private readonly outcomes = new Map<RuleId, Map<string, CheckOutcome>>();
  private readonly globalErrors: string[] = [];
  private readonly outputDir: string;
  private started = Date.now();

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  onBegin(): void {
    this.started = Date.now();
  }

  /** Errors outside any check, e.g. global setup's "unreachable": the run could not judge. */
  onError(error: TestError): void {
    const line = stripAnsi(error.message ?? error.value ?? 'an error outside the checks')
      .trim()
      .split('\n')[0];
    this.globalErrors.push(line ?? '');
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const id = ruleIdOfTitle(test.title);
    if (!id) return;
    // Playwright copies the result's runtime annotations onto the test before onTestEnd: read one list, not both.
    const notes = result.annotations?.length ? result.annotations : test.annotations;
    const note = (type: string) => notes.find((a) => a.type === type)?.description;
    const requests = notes.filter((a) => a.type === 'requests').reduce((n, a) => n + Number(a.description ?? 0), 0);
    let outcome: CheckOutcome;
    if (result.status === 'passed') {
      const advisory = note('advisory');
      outcome = advisory
        ? { verdict: 'advisory', evidence: evidenceOf(advisory), requests }
        : { verdict: 'pass', evidence: test.title.slice(id.length + 1), requests };
    } else if (result.status === 'skipped') {
      const inconclusive = note('inconclusive');
      const skip = flat(note('skip') ?? 'skipped');
      // "not checked": the budget ran out or the target stopped answering before this check (fixtures/test.ts).
      outcome =
        inconclusive || skip.startsWith('not checked:')
          ? { verdict: 'inconclusive', evidence: inconclusive ? flat(inconclusive) : skip, requests }
          : { verdict: 'skipped', evidence: skip, requests };
    } else {
      const message = stripAnsi(result.errors.map((e) => e.message ?? '').join('\n'));
      const unjudged = result.status !== 'failed' || UNJUDGED.test(message);
      const evidence = result.status === 'failed' ? evidenceOf(message) : `${result.status} before it ended`;
      outcome = { verdict: unjudged ? 'inconclusive' : 'fail', evidence, requests };
    }
    const capped = note('capped');
    if (capped) outcome.evidence = `${outcome.evidence} [capped: ${capped}]`;
    const checks = this.outcomes.get(id) ?? new Map<string, CheckOutcome>();
    checks.set(test.id, outcome);
    this.outcomes.set(id, checks);
  }

  // async only because Reporter types a returned status as a Promise; everything happens before it resolves.
  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    const rows: RuleRow[] = RULES.map((r) => {
      const list = [...(this.outcomes.get(r.id)?.values() ?? [])];
      const requests = list.reduce((n, o) => n + o.requests, 0);
      if (list.length === 0) {
        const configured = r.id === 'CFG-KEYS' && result.status !== 'interrupted';
        return {
          ...base(r),
          verdict: configured ? 'pass' : 'not run',
          evidence: configured ? 'configured keys validated before any request' : 'no check selected',
          checks: 0,
          requests,
        };
      }
      const worst = list.reduce((a, b) => (SEVERITY.indexOf(b.verdict) < SEVERITY.indexOf(a.verdict) ? b : a));
      const passed = list.filter((o) => o.verdict === 'pass').length;
      const cappedNote = list.find((o) => o.evidence.includes('[capped:'))?.evidence.match(/\[capped: .*\]$/)?.[0];
      const evidence =
        worst.verdict === 'pass'
          ? `${passed}/${list.length} checks passed${cappedNote ? ` ${cappedNote}` : ''}`
          : worst.evidence;
      return { ...base(r), verdict: worst.verdict, evidence, checks: list.length, requests };
    });
    const probe = Number(process.env.CONFORMANCE_PROBE_REQUESTS ?? 0);
    // The ledger counts every request of the run (retries, and checks whose worker was replaced);
    // without one, the checks' own counts.
    const ledger = openLedger();
    const requests = ledger.sent() || rows.reduce((n, r) => n + r.requests, 0) + probe;
    const gone = ledger.transportFailures();
    const seconds = (Date.now() - this.started) / 1000;
    const counts = Object.fromEntries(SEVERITY.map((v) => [v, rows.filter((r) => r.verdict === v).length]));
    const outcome = decideOutcome({
      rules: rows,
      status: result.status,
      globalErrors: this.globalErrors,
      transportFailures: gone,
    });
    const summary: Summary = {
      schemaVersion: SCHEMA_VERSION,
      seed: runSeed(),
      outcome,
      status: result.status,
      durationSeconds: Number(seconds.toFixed(2)),
      requests,
      probeRequests: probe,
      requestMethods: ['GET'],
      transportFailures: gone,
      verdicts: counts,
      rules: rows,
    };
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(`${this.outputDir}/conformance.json`, redact(`${JSON.stringify(summary, null, 2)}\n`));
    writeFileSync(`${this.outputDir}/conformance.md`, redact(markdown(rows, summary)));
    // A run that judged nothing (an unreachable target, a bad grep) prints no table of "not run" rows: the
    // error above says why, once.
    const judged = rows.some((r) => r.checks > 0);
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

/** conformance.json's layout version: bumped when a field changes meaning or goes away. */
export const SCHEMA_VERSION = 1;

/**
 * The rule matrix of a run the config loader refused (playwright.config.ts, before any request): the outcome
 * "bad configuration" (exit 2) and the problems, which name variables, never values.
 */
export function writeConfigErrorMatrix(outputDir: string, problems: string[]): void {
  const outcome = badConfiguration(problems);
  const summary = { schemaVersion: SCHEMA_VERSION, seed: null, outcome, status: 'not started', requests: 0, rules: [] };
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

const flat = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

function base(r: (typeof RULES)[number]) {
  return { id: r.id, section: r.section, level: r.level };
}

/** The most telling line of a failure: its "Received:" line, else its first line. */
function evidenceOf(message: string): string {
  const clean = stripAnsi(message);
  const received = clean.split('\n').find((l) => l.trim().startsWith('Received:'));
  const line = (received ?? clean.split('\n')[0] ?? '').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function consoleTable(rows: RuleRow[], s: Summary, matrix: string): string {
  const w = Math.max(...rows.map((r) => r.id.length));
  const lines = rows.map(
    (r) =>
      `  ${r.id.padEnd(w)}  ${r.level.padEnd(8)}  ${r.verdict.padEnd(12)}  ${String(r.requests).padStart(5)}  ${r.evidence}`,
  );
  const head = `  ${'rule'.padEnd(w)}  level     verdict       reqs  evidence`;
  const gone = s.transportFailures
    ? [`The target failed to answer ${s.transportFailures} request(s) after retries; checks after that were not run.`]
    : [];
  const probe = s.probeRequests ? `, ${s.probeRequests} of them the reachability probe` : '';
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
    `Requests sent: ${s.requests} (GET only${probe}) in ${s.durationSeconds.toFixed(1)} s. Rules: ${verdicts.join(', ')}. ` +
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
    ...rows.map((r) => `| ${r.id} | ${r.section} | ${r.level} | ${r.verdict} | ${r.requests} | ${esc(r.evidence)} |`),
    '',
  ].join('\n');
}
