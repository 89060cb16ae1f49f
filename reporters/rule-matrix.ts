/**
 * The rule matrix: at the end of every run, one row per rule of the catalogue with its verdict (pass, fail,
 * skipped with reason, inconclusive, advisory, not run), one line of evidence and the requests its checks
 * sent. Printed to the console and written to <outputDir>/conformance.md and conformance.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { openLedger } from '../fixtures/ledger.ts';
import { RULES, type RuleId, ruleIdOfTitle } from '../fixtures/rules.ts';
import { redact } from '../fixtures/secrets.ts';
import { stripAnsi } from './ansi.ts';

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

interface Outcome {
  verdict: Verdict;
  evidence: string;
  requests: number;
}

export default class RuleMatrixReporter implements Reporter {
  private readonly outcomes = new Map<RuleId, Outcome[]>();
  private readonly outputDir: string;
  private started = Date.now();

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  onBegin(): void {
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const id = ruleIdOfTitle(test.title);
    if (!id) return;
    // Playwright copies the result's runtime annotations onto the test before onTestEnd: read one list, not both.
    const notes = result.annotations?.length ? result.annotations : test.annotations;
    const note = (type: string) => notes.find((a) => a.type === type)?.description;
    const requests = notes.filter((a) => a.type === 'requests').reduce((n, a) => n + Number(a.description ?? 0), 0);
    let outcome: Outcome;
    if (result.status === 'passed') {
      const advisory = note('advisory');
      outcome = advisory
        ? { verdict: 'advisory', evidence: evidenceOf(advisory), requests }
        : { verdict: 'pass', evidence: test.title.slice(id.length + 1), requests };
    } else if (result.status === 'skipped') {
      const inconclusive = note('inconclusive');
      outcome = inconclusive
        ? { verdict: 'inconclusive', evidence: flat(inconclusive), requests }
        : { verdict: 'skipped', evidence: flat(note('skip') ?? 'skipped'), requests };
    } else {
      const message = result.errors.map((e) => e.message ?? '').join('\n') || result.status;
      outcome = { verdict: 'fail', evidence: evidenceOf(message), requests };
    }
    const capped = note('capped');
    if (capped) outcome.evidence = `${outcome.evidence} [capped: ${capped}]`;
    const list = this.outcomes.get(id) ?? [];
    list.push(outcome);
    this.outcomes.set(id, list);
  }

  onEnd(result: FullResult): void {
    const rows: RuleRow[] = RULES.map((r) => {
      const list = this.outcomes.get(r.id) ?? [];
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
    const summary = {
      schemaVersion: SCHEMA_VERSION,
      seed: runSeed(),
      status: result.status,
      durationSeconds: Number(seconds.toFixed(2)),
      requests,
      requestMethods: ['GET'],
      transportFailures: gone,
      verdicts: counts,
      rules: rows,
    };
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(`${this.outputDir}/conformance.json`, redact(`${JSON.stringify(summary, null, 2)}\n`));
    writeFileSync(`${this.outputDir}/conformance.md`, redact(markdown(rows, summary)));
    console.log(redact(consoleTable(rows, summary.seed)));
    if (gone > 0) {
      console.log(`The target failed to answer ${gone} request(s) after retries; checks after that were not run.`);
    }
    console.log(
      `Requests sent: ${requests} (GET only${probe ? `, ${probe} of them the reachability probe` : ''}) in ${seconds.toFixed(1)} s. ` +
        `Rules: ${SEVERITY.filter((v) => counts[v])
          .map((v) => `${counts[v]} ${v}`)
          .join(', ')}. ` +
        `Matrix: ${this.outputDir}/conformance.md`,
    );
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** conformance.json's layout version: bumped when a field changes meaning or goes away. */
export const SCHEMA_VERSION = 1;

/** The run's seed, which playwright.config.ts picked or took from FC_SEED; null when there is none. */
function runSeed(): number | null {
  const raw = process.env.FC_SEED?.trim();
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}

const rerun = (seed: number | null) => (seed === null ? 'no seed' : `seed ${seed} — rerun with FC_SEED=${seed}`);

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

function consoleTable(rows: RuleRow[], seed: number | null): string {
  const w = Math.max(...rows.map((r) => r.id.length));
  const lines = rows.map(
    (r) =>
      `  ${r.id.padEnd(w)}  ${r.level.padEnd(8)}  ${r.verdict.padEnd(12)}  ${String(r.requests).padStart(5)}  ${r.evidence}`,
  );
  const head = `  ${'rule'.padEnd(w)}  level     verdict       reqs  evidence`;
  return ['', `Rule matrix (${rerun(seed)})`, head, ...lines, ''].join('\n');
}

function markdown(
  rows: RuleRow[],
  s: { status: string; durationSeconds: number; requests: number; seed: number | null },
): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  return [
    '# Conformance rule matrix',
    '',
    `Run status: ${s.status}; ${s.requests} GET requests in ${s.durationSeconds} s; ${rerun(s.seed)}.`,
    '',
    '| rule | section | level | verdict | requests | evidence |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.id} | ${r.section} | ${r.level} | ${r.verdict} | ${r.requests} | ${esc(r.evidence)} |`),
    '',
  ].join('\n');
}
