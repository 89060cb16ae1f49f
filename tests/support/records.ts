/**
 * Check records and Playwright results carrying them, for the reporters' unit tests: what settle (fixtures/test.ts)
 * attaches at the end of every check.
 */
import type { TestResult } from '@playwright/test/reporter';
import { ruleIdOfTitle } from '../../core/model/rules.ts';
import { CHECK_RECORD_ATTACHMENT, type CheckRecord, type Verdict } from '../../core/model/verdict.ts';
import type { RunInfo } from '../../reporters/summary.ts';

/** The record of the check titled `title` (its first word is the rule id). */
export function checkRecord(title: string, verdict: Verdict, extra: Partial<CheckRecord> = {}): CheckRecord {
  const rule = ruleIdOfTitle(title);
  if (!rule) throw new Error(`"${title}" does not start with a rule id`);
  return { rule, check: title, verdict, reproduction: [], requests: 0, notes: [], ...extra };
}

/** A failed check's record: Expected and Received as given. */
export const failed = (title: string, received = 'something else', extra: Partial<CheckRecord> = {}) =>
  checkRecord(title, 'fail', { expected: 'what the rule requires', received, ...extra });

/** A Playwright result with the record attached (none: a check that never reached its end). */
export function resultWith(status: TestResult['status'], record?: CheckRecord, errors: string[] = []): TestResult {
  const attachments = record
    ? [{ name: CHECK_RECORD_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(record)) }]
    : [];
  return {
    status,
    errors: errors.map((message) => ({ message })),
    annotations: [],
    attachments,
  } as unknown as TestResult;
}

/** What a run was besides its checks, for summaries built in tests: a seed, a status, ten requests. */
export const runInfo = (over: Partial<RunInfo> = {}): RunInfo => ({
  seed: 7,
  status: 'passed',
  durationSeconds: 1,
  requests: 10,
  preflightRequests: 1,
  transportFailures: 0,
  globalErrors: [],
  strict: false,
  shard: null,
  ...over,
});
