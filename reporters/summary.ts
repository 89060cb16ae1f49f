/**
 * The rule matrix of a run, computed from its checks' records: one row per rule of the catalogue (the most telling
 * verdict of its checks, one line of evidence, notes, requests), the run's outcome, and what the baseline made of the
 * run — what conformance.json holds (`Summary`). The end-of-run reporter summarises one run; `payment-api-conformance
 * merge` summarises the records of several shards as one. Rendered by reporters/summary-text.ts, written by
 * reporters/reports.ts.
 */

import type { BaselineInput } from '../core/model/baseline.ts';
import type { DepthName } from '../core/model/depth.ts';
import { addTally, type DoorTally } from '../core/model/door-tally.ts';
import type { WatchCost } from '../core/model/provenance.ts';
import { isGeneral, type Level, RULES } from '../core/model/rules.ts';
import type { TargetInfo } from '../core/model/run-context.ts';
import {
  type Cause,
  type CheckRecord,
  evidenceOf,
  RULE_SEVERITY,
  type RuleVerdict,
  ruleVerdictOf,
} from '../core/model/verdict.ts';
import { type Deviations, expiredLines, judgeBaseline } from './baseline.ts';
import { mayFollow } from './blame.ts';
import { type CollectionCell, cellsOf, collectionsOf } from './collections-grid.ts';
import { badConfiguration, decideOutcome, type Outcome, type RunFacts } from './outcome.ts';

export interface RuleRow {
  id: string;
  section: string;
  level: Level;
  verdict: RuleVerdict;
  cause?: Cause;
  evidence: string;
  checks: number;
  requests: number;
  notes: string[];
  /** The failing rules every finding of this rule may follow from (reporters/blame.ts): it is not a likely cause. */
  mayFollowFrom?: string[];
  /** With other collections than payments (`--collections`): the rule on each (reporters/collections-grid.ts). */
  collections?: Record<string, CollectionCell>;
  /** The candidate inputs its door checks tried, by source (specs/doors.spec.ts); absent without door checks. */
  doors?: DoorTally;
}

/** What a run was, besides its checks: enough to decide its outcome again when shards are merged. */
export interface RunInfo {
  /** The run's seed: FC_SEED reruns the same requests. */
  seed: number | null;
  status: string;
  durationSeconds: number;
  requests: number;
  preflightRequests: number;
  transportFailures: number;
  /** Errors outside any check (an unreachable target, a crashed worker). */
  globalErrors: string[];
  strict: boolean;
  /** The shard this run was (`--shard=2/3`), if any. */
  shard: { current: number; total: number } | null;
  /** Which API was checked: base URL, profile, the optional inputs configured (names only), the suite's version. */
  target?: TargetInfo | null;
  /** The known deviations the run was judged against (--baseline), if any: kept so that merge judges alike. */
  baseline?: BaselineInput | null;
  /** The methods the run's request log holds (GET, HEAD, OPTIONS: the suite is read-only); absent without a log. */
  requestMethods?: string[];
  /** What watching every answer cost the run, in CPU milliseconds (core/run/watch.ts); absent when nothing watched. */
  watchCost?: WatchCost;
  /** How deep the run searched (--depth); a conformance.json of an older version has none: standard. */
  depth?: DepthName;
  /** The run's time budget in ms (--max-time), when it had one. */
  maxTimeMs?: number;
}

/** What conformance.json holds. */
export interface Summary extends RunInfo {
  schemaVersion: number;
  outcome: Outcome;
  verdicts: Record<string, number>;
  rules: RuleRow[];
  /** Every check's record, in catalogue order of their rules. */
  checks: CheckRecord[];
  /** What the baseline made of the run (known, fixed, expired entries), when there was one. */
  deviations?: Deviations;
  /** The collections the run checked, payments first, when it was given others (`--collections`): the grid's columns. */
  collections?: string[];
}

/** conformance.json's layout version: bumped when a field changes meaning or goes away. */
export const SCHEMA_VERSION = 2;

const order = (id: string) => RULES.findIndex((r) => r.id === id);

/** What a run refused at its set-up knows of itself: the target when the configuration named one, its seed. */
export interface SetUpRun {
  target?: TargetInfo | null;
  seed?: number | null;
  /** Requests sent before the refusal (the preflight's); none when the configuration was refused. */
  requests?: number;
  /** Seconds from the run's start to its refusal. */
  durationSeconds?: number;
  depth?: DepthName;
}

/**
 * The rule matrix of a run refused at its set-up (a configuration, a baseline or a --grep refused, or the preflight's
 * finding): the outcome "bad configuration" (exit 2) decided by the problems, no check, and every count a number, so
 * that every report of the set reads it like any other run's.
 */
export function setUpSummary(problems: string[], run: SetUpRun = {}): Summary {
  const requests = run.requests ?? 0;
  const info: RunInfo = {
    seed: run.seed ?? null,
    status: 'not started',
    durationSeconds: run.durationSeconds ?? 0,
    requests,
    preflightRequests: requests,
    transportFailures: 0,
    globalErrors: [],
    strict: false,
    shard: null,
    target: run.target ?? null,
    ...(run.depth ? { depth: run.depth } : {}),
  };
  return summarize([], info, problems);
}

/**
 * The rule matrix of these records. A run refused at its set-up (`refusedBy`, its problems) judged no rule: its
 * outcome is "bad configuration" (exit 2), decided by the problems, with no row.
 */
export function summarize(records: readonly CheckRecord[], info: RunInfo, refusedBy?: string[]): Summary {
  if (refusedBy) {
    const { baseline: _unjudged, ...run } = info;
    return {
      schemaVersion: SCHEMA_VERSION,
      ...run,
      outcome: badConfiguration(refusedBy),
      verdicts: {},
      rules: [],
      checks: [],
    };
  }
  // Known deviations are marked on their records first (reporters/baseline.ts): the rows, the outcome and every
  // report read the marks.
  const judged = info.baseline ? judgeBaseline(records, info.baseline, info.seed) : undefined;
  const checks = [...(judged?.records ?? records)].sort((a, b) => order(a.rule) - order(b.rule));
  const follows = mayFollow(checks);
  const collections = collectionsOf(checks);
  // A general rule (FLT-FIELD) has a row where a collection reports it: with payments alone, its instance does.
  const rows = RULES.filter((r) => !isGeneral(r.id) || checks.some((c) => c.rule === r.id)).map((r) => {
    const own = checks.filter((c) => c.rule === r.id);
    const row = ruleRow(r, own);
    const from = follows.get(r.id);
    const withFrom = from ? { ...row, mayFollowFrom: from } : row;
    return collections.length
      ? { ...withFrom, collections: cellsOf(own, collections, (cs) => ruleRow(r, cs)) }
      : withFrom;
  });
  const outcome = decideOutcome({
    rules: rows,
    status: info.status,
    globalErrors: info.globalErrors,
    transportFailures: info.transportFailures,
    strict: info.strict,
    baselineExpired: expiredLines(judged?.deviations),
    timeBudget: timeBudgetOf(checks, info.maxTimeMs),
  });
  const verdicts = Object.fromEntries(RULE_SEVERITY.map((v) => [v, rows.filter((r) => r.verdict === v).length]));
  return {
    schemaVersion: SCHEMA_VERSION,
    ...info,
    outcome,
    verdicts,
    rules: rows,
    checks,
    ...(judged ? { deviations: judged.deviations } : {}),
    ...(collections.length ? { collections } : {}),
  };
}

/** What the time budget left out: its checks not run for it, when the run had one. */
function timeBudgetOf(checks: readonly CheckRecord[], maxTimeMs: number | undefined): RunFacts['timeBudget'] {
  if (!maxTimeMs) return undefined;
  return { maxTimeMs, checksNotRun: checks.filter((c) => c.verdict === 'not run' && c.cause === 'time budget').length };
}

/** A rule's row: the most telling verdict of its checks (SEVERITY), its evidence, notes and requests. */
function ruleRow(r: (typeof RULES)[number], checks: readonly CheckRecord[]): RuleRow {
  const base = { id: r.id, section: r.section, level: r.level };
  const requests = checks.reduce((n, c) => n + c.requests, 0);
  // What the data left unshown is said even where another check of the rule passed.
  const unshown = checks.filter((c) => c.verdict === 'not exercised').map((c) => `not exercised: ${c.reason}`);
  const notes = [...new Set([...checks.flatMap((c) => c.notes), ...unshown])];
  if (checks.length === 0) {
    return { ...base, verdict: 'not run', cause: 'not selected', evidence: 'not selected', checks: 0, requests, notes };
  }
  // The most telling check; among equals, one whose evidence depends on no other rule's failure.
  const rank = (c: CheckRecord) => 2 * RULE_SEVERITY.indexOf(ruleVerdictOf(c)) + (c.derivedFrom?.length ? 1 : 0);
  const worst = checks.reduce((a, b) => (rank(b) < rank(a) ? b : a));
  const verdict = ruleVerdictOf(worst);
  const passed = checks.filter((c) => c.verdict === 'pass').length;
  const known = worst.known ? `known (${worst.known.reason}, until ${worst.known.until}): ` : '';
  const evidence = verdict === 'pass' ? `${passed}/${checks.length} checks passed` : `${known}${evidenceOf(worst)}`;
  const cause = worst.cause ? { cause: worst.cause } : {};
  // A note that only repeats the evidence goes.
  const said = notes.filter((n) => n !== `not exercised: ${evidence}`);
  const tallies = checks.flatMap((c) => (c.doors ? [c.doors] : []));
  const doors = tallies.length ? { doors: tallies.reduce(addTally, {}) } : {};
  return { ...base, verdict, ...cause, evidence, checks: checks.length, requests, notes: said, ...doors };
}
