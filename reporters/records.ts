/**
 * A check's record as a reporter reads it: the `check record` attachment its settle wrote (fixtures/test.ts). A check
 * that ended without one never reached its end — it timed out, the run was stopped, or its fixtures failed — and gets
 * the record that says so; such a check judged nothing.
 */
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { ruleIdOfTitle } from '../core/model/rules.ts';
import { redact } from '../core/model/secrets.ts';
import { CHECK_RECORD_ATTACHMENT, type CheckRecord, notRunRecord } from '../core/model/verdict.ts';
import { stripAnsi } from './ansi.ts';

/** The record of a check's result; undefined for a test whose title names no rule. */
export function recordOfResult(test: TestCase, result: TestResult): CheckRecord | undefined {
  const rule = ruleIdOfTitle(test.title);
  if (!rule) return undefined;
  const attached = result.attachments.find((a) => a.name === CHECK_RECORD_ATTACHMENT && a.body);
  if (attached?.body) return JSON.parse(attached.body.toString('utf8')) as CheckRecord;
  // A collection's check is annotated with its collection (fixtures/collections.ts): its record names it too.
  const collection = test.annotations.find((a) => a.type === 'collection')?.description;
  const base = {
    rule,
    check: test.title,
    ...(collection ? { collection } : {}),
    reproduction: [],
    requests: 0,
    notes: [],
  };
  switch (result.status) {
    case 'timedOut':
      return {
        ...base,
        verdict: 'inconclusive',
        cause: 'timeout',
        reason:
          `the check reached its time limit (${Math.round(test.timeout / 1000)} s) before it ended: raise ` +
          "CONFORMANCE_CHECK_TIMEOUT_MS (the limit is derived from API_TIMEOUT_MS, the pace and the target's answer time)",
      };
    case 'interrupted':
    case 'skipped':
      return notRunRecord(
        { rule, check: test.title, collection },
        'interrupted',
        'the run was stopped before it ended',
      );
    default: {
      // Its fixtures failed before the check began (a target the worker could not resolve, a mock that did not start).
      const first = stripAnsi(result.errors[0]?.message ?? result.status).split('\n')[0] ?? '';
      return {
        ...base,
        verdict: 'inconclusive',
        cause: 'crash',
        reason: redact(`the check could not start: ${first}`),
      };
    }
  }
}
