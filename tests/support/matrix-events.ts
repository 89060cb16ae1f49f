/**
 * Drives the end-of-run reporter as Playwright would, for unit tests: fake test cases and results in,
 * what it wrote (conformance.json, conformance.md) and printed out. Each run writes to its own temp folder.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { publishRun, RUN_VAR, type RunContext } from '../../core/model/run-context.ts';
import EndOfRunReporter from '../../reporters/end-of-run.ts';
import type { RuleRow, Summary } from '../../reporters/summary.ts';

let seq = 0;
/** A test case; each gets its own id unless one is given (the attempts of one retried check share theirs). */
export function fakeTest(title: string, id = `${title}#${++seq}`): TestCase {
  return { id, title, timeout: 120_000, annotations: [], parent: {} } as unknown as TestCase;
}

export interface MatrixRun {
  json: Summary;
  rawJson: string;
  md: string;
  console: string;
  dir: string;
  /** The status onEnd returned to Playwright. */
  returned: FullResult['status'] | undefined;
}

const dirs: string[] = [];
/** Removes every folder the runs wrote (call from `after`). */
export function cleanMatrixRuns(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/**
 * Runs the reporter over the given (test, result) pairs and global errors; returns what it wrote and printed. The
 * selected tests are those of the events and `unfinished` (selected, but never ended).
 */
export async function runMatrix(
  events: Array<[TestCase, TestResult]>,
  status: FullResult['status'] = 'failed',
  globalErrors: string[] = [],
  unfinished: TestCase[] = [],
): Promise<MatrixRun> {
  const dir = mkdtempSync(join(tmpdir(), 'rule-matrix-'));
  dirs.push(dir);
  const out = join(dir, 'nested', 'reports');
  const reporter = new EndOfRunReporter({ outputDir: out });
  const tests = [...new Map([...events.map(([t]) => t), ...unfinished].map((t) => [t.id, t])).values()];
  reporter.onBegin({} as FullConfig, { allTests: () => tests } as unknown as Suite);
  for (const message of globalErrors) reporter.onError({ message });
  for (const [t, r] of events) reporter.onTestEnd(t, r);
  const printed: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  let returned: FullResult['status'] | undefined;
  try {
    returned = (await reporter.onEnd({ status, startTime: new Date(), duration: 1 } as FullResult)).status;
  } finally {
    console.log = original;
  }
  const rawJson = readFileSync(join(out, 'conformance.json'), 'utf8');
  return {
    json: JSON.parse(rawJson) as Summary,
    rawJson,
    md: readFileSync(join(out, 'conformance.md'), 'utf8'),
    console: printed.join('\n'),
    dir: out,
    returned,
  };
}

export function row(s: Summary, id: string): RuleRow {
  const found = s.rules.find((r) => r.id === id);
  assert.ok(found, `no row for ${id}`);
  return found;
}

/** Runs `body` with a run context published (a run's facts, as playwright.config.ts publishes them), then removes it. */
export async function withRun<T>(over: Partial<RunContext>, body: () => Promise<T>): Promise<T> {
  const nowhere = join(tmpdir(), 'no-such-run');
  const run: RunContext = {
    pid: process.pid,
    startedAt: Date.now(),
    target: {
      baseURL: 'http://127.0.0.1:3417',
      bundledMock: true,
      profile: 'mock',
      configured: [],
      missing: [],
      suiteVersion: '0.1.0',
    },
    settings: {} as RunContext['settings'],
    seed: 1,
    strict: false,
    baseline: null,
    reports: nowhere,
    matrixDir: nowhere,
    shard: null,
    files: {
      ledger: join(nowhere, 'ledger'),
      requestLog: join(nowhere, 'log'),
      watch: join(nowhere, 'watch'),
      checks: join(nowhere, 'checks'),
    },
    ...over,
  };
  publishRun(run);
  try {
    return await body();
  } finally {
    delete process.env[RUN_VAR];
  }
}
