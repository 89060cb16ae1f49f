/**
 * The run's outcome and exit code, decided from the rule matrix alone (never from Playwright's exit code),
 * so every way of running the suite agrees: the end-of-run reporter writes it into conformance.json, and
 * `payment-api-conformance` exits with its code.
 *   0 conformant:        every MUST check that ran passed, and each selected one ran
 *   1 nonconformant:     a rule failed (its disposition, core/model/disposition.ts: a MUST rule; with
 *                        CONFORMANCE_STRICT=1 an advisory one, or a MUST rule not exercised, too)
 *   2 bad configuration: a set-up mistake, no check ran: the configuration, the command's options or the baseline
 *                        refused, a --grep that selects nothing, or the preflight's finding (reporters/reports.ts)
 *   3 inconclusive:      the target was unreachable, stopped answering, or the request budget ran out before
 *                        every MUST check ran, or a MUST check ended inconclusive (the data changed under it)
 * A failure outranks everything: a rule seen broken is broken, even if the target went away afterwards.
 */

import type { FullResult } from '@playwright/test/reporter';
import { disposition } from '../core/model/disposition.ts';
import { EXIT_CODES, type OutcomeResult } from '../core/model/outputs.ts';
import type { Level } from '../core/model/rules.ts';
import { describeDuration } from '../core/model/time-budget.ts';
import type { Cause, RuleVerdict } from '../core/model/verdict.ts';

export interface Outcome {
  result: OutcomeResult;
  exitCode: 0 | 1 | 2 | 3;
  /**
   * What the verdict covers when the run selected a subset (`--grep`, `--shard`, the live checklist): `for the 3
   * selected rules`. Absent for a run of every rule.
   */
  scope?: string;
  /**
   * What decided it, one line each: the failed rules — the likely causes first, then those that may follow from
   * them —, the reasons it is inconclusive, or what passed.
   */
  decidedBy: string[];
  /** When some failed rules may follow from others: the rules whose failures depend on no other (the likely causes). */
  likelyCauses?: string[];
}

/** The part of a rule's row of the rule matrix the outcome reads. */
export interface JudgedRule {
  id: string;
  level: Level;
  /** `known`: every failure of the rule is a known deviation of the run's baseline (it does not fail the run). */
  verdict: RuleVerdict;
  /** Why the rule has no pass or fail verdict (its most telling check's cause). */
  cause?: Cause;
  evidence: string;
  checks: number;
  /** The failing rules every finding of this rule may follow from (reporters/blame.ts): not a likely cause. */
  mayFollowFrom?: string[];
}

export interface RunFacts {
  rules: JudgedRule[];
  status: FullResult['status'] | string;
  /** Errors outside any check (global setup: an unreachable target; a worker that crashed). */
  globalErrors: string[];
  /** Requests that failed in transport after their retries. */
  transportFailures: number;
  /** CONFORMANCE_STRICT=1: an advisory finding fails the run too. */
  strict: boolean;
  /** Entries of the run's baseline past their date, one line each: each fails the run (reporters/baseline.ts). */
  baselineExpired?: string[];
  /** The run's time budget (--max-time) and how many checks it left out, when it had one. */
  timeBudget?: { maxTimeMs: number; checksNotRun: number };
}

const outcome = (result: OutcomeResult, decidedBy: string[]): Outcome => ({
  result,
  exitCode: EXIT_CODES[result],
  decidedBy,
});

export function decideOutcome(facts: RunFacts): Outcome {
  const decided = decide(facts);
  if (decided.result === 'bad configuration') return decided;
  // A run that left rules out says so: its verdict holds for the rules it judged, not for the API.
  const notSelected = facts.rules.filter((r) => r.verdict === 'not run' && r.cause === 'not selected');
  const outOfTime = facts.rules.filter((r) => r.verdict === 'not run' && r.cause === 'time budget');
  const judged = facts.rules.length - notSelected.length - outOfTime.length;
  const lines = [
    ...(notSelected.length ? [`not selected, not judged: ${notSelected.map((r) => r.id).join(', ')}`] : []),
    ...timeBudgetLines(facts.timeBudget, outOfTime),
  ];
  if (lines.length === 0 || judged <= 0) return decided;
  const scope = outOfTime.length
    ? `for the ${judged} rule(s) judged in the time budget`
    : notSelected.length
      ? `for the ${judged} selected rule(s)`
      : undefined;
  return { ...decided, ...(scope ? { scope } : {}), decidedBy: [...decided.decidedBy, ...lines] };
}

/** What the time budget left out, in the outcome: the rules it left unjudged, the checks it left out. */
function timeBudgetLines(budget: RunFacts['timeBudget'], outOfTime: JudgedRule[]): string[] {
  if (!budget || budget.checksNotRun === 0) return [];
  const rules = outOfTime.length ? `; rules not judged: ${outOfTime.map((r) => r.id).join(', ')}` : '';
  return [
    `time budget ${describeDuration(budget.maxTimeMs)} (--max-time): ${budget.checksNotRun} check(s) not run (time budget)${rules}`,
  ];
}

function decide(facts: RunFacts): Outcome {
  // What fails the run is the rules' disposition (core/model/disposition.ts): with CONFORMANCE_STRICT=1 an advisory
  // finding, and a MUST rule the data could not exercise, too.
  const failed = facts.rules.filter(
    (r) => disposition({ of: 'rule', verdict: r.verdict, level: r.level }, { strict: facts.strict }) === 'fail',
  );
  const expired = facts.baselineExpired ?? [];
  if (failed.length > 0 || expired.length > 0) {
    const strict = (r: JudgedRule) =>
      r.verdict === 'fail' ? '' : `, ${r.verdict === 'advisory' ? '' : 'not exercised, '}CONFORMANCE_STRICT=1`;
    // The rules whose evidence depends on no other failure first (the likely causes), then those that may follow.
    const causes = failed.filter((r) => !r.mayFollowFrom);
    const following = failed.filter((r) => r.mayFollowFrom);
    const line = (r: JudgedRule) =>
      `${r.id} (${r.level}${strict(r)}) failed${r.mayFollowFrom ? `, may follow from ${r.mayFollowFrom.join(', ')}` : ''}: ${r.evidence}`;
    const decided = outcome('nonconformant', [...[...causes, ...following].map(line), ...expired]);
    return following.length > 0 && causes.length > 0 ? { ...decided, likelyCauses: causes.map((r) => r.id) } : decided;
  }
  const must = facts.rules.filter((r) => r.level === 'MUST');
  const reasons = [
    ...facts.globalErrors,
    ...(facts.status === 'interrupted' ? ['the run was interrupted before every check ended'] : []),
    ...(facts.status === 'timedout' ? ['the run reached its global timeout before every check ended'] : []),
    ...(facts.transportFailures > 0
      ? [`the target failed to answer ${facts.transportFailures} request(s) after retries`]
      : []),
    ...must.filter((r) => r.verdict === 'inconclusive').map((r) => `${r.id} inconclusive: ${r.evidence}`),
  ];
  const judged: RuleVerdict[] = ['pass', 'inconclusive', 'not exercised', 'known'];
  if (reasons.length === 0 && !must.some((r) => judged.includes(r.verdict))) reasons.push('no MUST check ran');
  if (reasons.length > 0) return outcome('inconclusive', reasons);
  const passed = must.filter((r) => r.verdict === 'pass').length;
  const ids = (rows: JudgedRule[]) => rows.map((r) => r.id).join(', ');
  const notExercised = must.filter((r) => r.verdict === 'not exercised');
  const needs = must.filter((r) => r.verdict === 'not run' && r.cause === 'needs input');
  const advisory = facts.rules.filter((r) => r.verdict === 'advisory');
  const known = facts.rules.filter((r) => r.verdict === 'known');
  return outcome('conformant', [
    `${passed} MUST rule(s) passed`,
    ...(known.length ? [`known deviations (baseline), not failing the run: ${ids(known)}`] : []),
    ...(notExercised.length ? [`not exercised: ${notExercised.map((r) => `${r.id} (${r.evidence})`).join(', ')}`] : []),
    ...(needs.length ? [`not run for a missing optional input: ${ids(needs)}`] : []),
    ...(advisory.length ? [`advisory findings: ${ids(advisory)}`] : []),
  ]);
}

/** The outcome of a config the loader refused: the problems name variables, never values. */
export function badConfiguration(problems: string[]): Outcome {
  return outcome('bad configuration', problems);
}
