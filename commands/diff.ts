/**
 * `payment-api-conformance diff A B [--markdown FILE]`: what changed between two runs (last night's and tonight's,
 * the sandbox and the mock), read field by field from their conformance.json files (A and B: the files, or folders
 * holding one, or a sharded run's folder, merged): the rules newly failing and newly passing, other changes of a rule's
 * verdict, the checks whose evidence changed, those that became or stopped being "not exercised" or "not run", and
 * the target and seed of each run. Console text, and Markdown with --markdown.
 * Exit: 1 when B has a MUST rule failing that A did not fail; else 0; 2 for bad usage or an unreadable input.
 */

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_DEPTH } from '../core/model/depth.ts';
import { EXIT_CODES } from '../core/model/outputs.ts';
import { family, titleForms } from '../core/model/rules.ts';
import { redact } from '../core/model/secrets.ts';
import { type CheckRecord, RULE_SEVERITY, type RuleVerdict } from '../core/model/verdict.ts';
import type { RuleRow, Summary } from '../reporters/summary.ts';
import { headline } from '../reporters/summary-text.ts';
import { commandArgs } from './options.ts';
import { mergeResults, readResult, resultFiles } from './results.ts';

const USAGE = 'Usage: payment-api-conformance diff A B [--markdown FILE]   (A, B: conformance.json files or folders)';

interface RunShown {
  label: string;
  target: string;
  seed: number | null;
  headline: string;
  requests: number;
  /** How deep it searched (a conformance.json of an older version: standard). */
  depth: string;
}

interface RuleChange {
  rule: string;
  level: string;
  a: RuleVerdict;
  b: RuleVerdict;
  /** B's evidence (A's when B has none to show). */
  evidence: string;
}

interface CheckChange {
  check: string;
  rule: string;
  a: string;
  b: string;
}

interface RunDiff {
  a: RunShown;
  b: RunShown;
  newlyFailing: RuleChange[];
  newlyPassing: RuleChange[];
  otherRuleChanges: RuleChange[];
  evidence: CheckChange[];
  notExercised: CheckChange[];
  notRun: CheckChange[];
  onlyInA: string[];
  onlyInB: string[];
  /** MUST rules failing in B that A did not fail: they decide the exit code. */
  mustRegressions: string[];
  /** When A and B searched at different depths: what that means for the comparison. */
  depthWarning?: string;
}

/** A run's target as conformance.json names it (a `target` field when the run wrote one). */
function targetOf(s: Summary): string {
  const t = (s as { target?: unknown }).target;
  if (typeof t === 'string') return t;
  if (t && typeof t === 'object') {
    const { name, baseURL, url } = t as { name?: unknown; baseURL?: unknown; url?: unknown };
    const where = typeof baseURL === 'string' ? baseURL : typeof url === 'string' ? url : undefined;
    if (typeof name === 'string') return where ? `${name} (${where})` : name;
    if (where) return where;
  }
  return 'not recorded in this conformance.json';
}

const shown = (label: string, s: Summary): RunShown => ({
  label,
  target: targetOf(s),
  seed: s.seed,
  headline: headline(s),
  requests: s.requests,
  depth: s.depth ?? DEFAULT_DEPTH,
});

/** A warning when two runs searched at different depths: checks one judged the other may have drawn less of. */
function depthWarning(a: RunShown, b: RunShown): string | undefined {
  if (a.depth === b.depth) return undefined;
  return `warning: A ran at depth ${a.depth}, B at depth ${b.depth}: a check that passes at one depth and fails at the other may only have drawn other cases, and "not exercised (quick)" is no change of the API; compare runs of one depth`;
}

const failing = (v: RuleVerdict) => v === 'fail' || v === 'advisory';

/** A check's state in words: its verdict, with its evidence or reason. */
function state(c: CheckRecord | undefined): string {
  if (!c) return 'absent';
  const v = c.known ? `known (${c.known.reason}, until ${c.known.until})` : c.verdict;
  const why = c.received ?? c.reason;
  return why ? `${v}: ${why}` : v;
}

/**
 * A's verdict of what B's row judges. A rule of a family (FLT-STATUS, FLT-FIELD) is compared on the collections B's
 * row covers, in A's row of the same id or, for a run from before the general ids, of its family: the refunds cell of
 * A's FLT-STATUS for B's FLT-FIELD, its payments cell for B's FLT-STATUS.
 */
function verdictInA(rowsA: ReadonlyMap<string, RuleRow>, rb: RuleRow): RuleVerdict | undefined {
  const members = family(rb.id);
  const ra = rowsA.get(rb.id) ?? members.map((id) => rowsA.get(id)).find((r) => r !== undefined);
  if (!ra || members.length === 1 || !rb.collections) return ra?.verdict;
  if (!ra.collections) return ra.id === rb.id ? ra.verdict : undefined;
  const cells = Object.keys(rb.collections).flatMap((c) => {
    const cell = ra.collections?.[c];
    return cell ? [cell.verdict] : [];
  });
  if (cells.length === 0) return undefined;
  return cells.reduce((x, y) => (RULE_SEVERITY.indexOf(y) < RULE_SEVERITY.indexOf(x) ? y : x));
}

/** What changed from run A to run B. */
export function diffRuns(a: Summary, b: Summary, labels: [string, string] = ['A', 'B']): RunDiff {
  const rowsA = new Map(a.rules.map((r) => [r.id, r]));
  const newlyFailing: RuleChange[] = [];
  const newlyPassing: RuleChange[] = [];
  const otherRuleChanges: RuleChange[] = [];
  for (const rb of b.rules) {
    const ra = rowsA.get(rb.id);
    const va: RuleVerdict = verdictInA(rowsA, rb) ?? 'not run';
    if (va === rb.verdict) continue;
    const change = (row: RuleRow): RuleChange => ({
      rule: rb.id,
      level: rb.level,
      a: va,
      b: rb.verdict,
      evidence: row.evidence,
    });
    if (failing(rb.verdict) && !(va === 'fail' || (va === 'advisory' && rb.verdict === 'advisory'))) {
      newlyFailing.push(change(rb));
    } else if (rb.verdict === 'pass' && (failing(va) || va === 'known')) {
      newlyPassing.push(change(ra ?? rb));
    } else {
      otherRuleChanges.push(change(rb));
    }
  }
  // A check written before a general id is paired by its title in that id's family (FLT-STATUS refunds: …).
  const checksA = new Map(a.checks.flatMap((c) => titleForms(c.check).map((t) => [t, c] as const)));
  const checksB = new Map(b.checks.map((c) => [c.check, c]));
  const evidence: CheckChange[] = [];
  const notExercised: CheckChange[] = [];
  const notRun: CheckChange[] = [];
  for (const [title, cb] of checksB) {
    const ca = checksA.get(title);
    if (!ca) continue;
    const item = { check: title, rule: cb.rule, a: state(ca), b: state(cb) };
    if (failing(ca.verdict) && failing(cb.verdict)) {
      if (ca.expected !== cb.expected || ca.received !== cb.received) evidence.push(item);
    } else if ((ca.verdict === 'not exercised') !== (cb.verdict === 'not exercised')) {
      notExercised.push(item);
    } else if (ca.verdict === 'not exercised' && ca.reason !== cb.reason) {
      notExercised.push(item);
    } else if (
      (ca.verdict === 'not run') !== (cb.verdict === 'not run') ||
      (cb.verdict === 'not run' && ca.cause !== cb.cause)
    ) {
      notRun.push(item);
    }
  }
  const mustRegressions = b.rules
    .filter((r) => r.level === 'MUST' && r.verdict === 'fail' && verdictInA(rowsA, r) !== 'fail')
    .map((r) => r.id);
  const [shownA, shownB] = [shown(labels[0], a), shown(labels[1], b)];
  const warning = depthWarning(shownA, shownB);
  return {
    a: shownA,
    b: shownB,
    ...(warning ? { depthWarning: warning } : {}),
    newlyFailing,
    newlyPassing,
    otherRuleChanges,
    evidence,
    notExercised,
    notRun,
    onlyInA: a.checks.map((c) => c.check).filter((t) => !titleForms(t).some((f) => checksB.has(f))),
    onlyInB: [...checksB.keys()].filter((t) => !checksA.has(t)),
    mustRegressions,
  };
}

const runLine = (r: RunShown) =>
  `${r.label}: ${r.headline} — target ${r.target}; depth ${r.depth}; seed ${r.seed ?? 'none'}; ${r.requests} requests`;
const ruleLine = (c: RuleChange) => `${c.rule} (${c.level}): ${c.a} → ${c.b} — ${c.evidence}`;
const checkLine = (c: CheckChange) => `${c.check}\n      A: ${c.a}\n      B: ${c.b}`;

/** The verdict of the diff in one line. */
function diffVerdict(d: RunDiff): string {
  return d.mustRegressions.length > 0
    ? `B fails ${d.mustRegressions.length} MUST rule(s) that A did not: ${d.mustRegressions.join(', ')} (exit 1)`
    : 'B fails no MUST rule that A did not (exit 0)';
}

/** The diff as console text. */
export function diffText(d: RunDiff): string {
  const section = (title: string, lines: string[]) =>
    lines.length ? [`${title} (${lines.length}):`, ...lines.map((l) => `  ${l}`), ''] : [];
  const changed = [
    d.newlyFailing,
    d.newlyPassing,
    d.otherRuleChanges,
    d.evidence,
    d.notExercised,
    d.notRun,
    d.onlyInA,
    d.onlyInB,
  ];
  return redact(
    [
      ...(d.depthWarning ? [d.depthWarning, ''] : []),
      runLine(d.a),
      runLine(d.b),
      '',
      ...section('Rules newly failing in B', d.newlyFailing.map(ruleLine)),
      ...section('Rules newly passing in B', d.newlyPassing.map(ruleLine)),
      ...section('Other changes of a rule verdict', d.otherRuleChanges.map(ruleLine)),
      ...section('Checks failing in both, with other evidence', d.evidence.map(checkLine)),
      ...section('Checks "not exercised" in one run only, or for another reason', d.notExercised.map(checkLine)),
      ...section('Checks not run in one run only, or for another cause', d.notRun.map(checkLine)),
      ...section('Checks only in A', d.onlyInA),
      ...section('Checks only in B', d.onlyInB),
      ...(changed.every((c) => c.length === 0) ? ['No rule or check changed.', ''] : []),
      diffVerdict(d),
    ].join('\n'),
  );
}

/** The diff as Markdown. */
export function diffMarkdown(d: RunDiff): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rules = (title: string, rows: RuleChange[]) =>
    rows.length
      ? [
          `## ${title}`,
          '',
          '| rule | level | A | B | evidence |',
          '|---|---|---|---|---|',
          ...rows.map((c) => `| ${c.rule} | ${c.level} | ${c.a} | ${c.b} | ${esc(c.evidence)} |`),
          '',
        ]
      : [];
  const checks = (title: string, rows: CheckChange[]) =>
    rows.length
      ? [
          `## ${title}`,
          '',
          '| check | A | B |',
          '|---|---|---|',
          ...rows.map((c) => `| ${esc(c.check)} | ${esc(c.a)} | ${esc(c.b)} |`),
          '',
        ]
      : [];
  const list = (title: string, items: string[]) =>
    items.length ? [`## ${title}`, '', ...items.map((i) => `- ${esc(i)}`), ''] : [];
  return redact(
    [
      '# Conformance: what changed from A to B',
      '',
      `**${diffVerdict(d)}**`,
      '',
      ...(d.depthWarning ? [`> ${esc(d.depthWarning)}`, ''] : []),
      '| run | outcome | target | depth | seed | requests |',
      '|---|---|---|---|---|---|',
      ...[d.a, d.b].map(
        (r) =>
          `| ${r.label} | ${esc(r.headline)} | ${esc(r.target)} | ${r.depth} | ${r.seed ?? 'none'} | ${r.requests} |`,
      ),
      '',
      ...rules('Rules newly failing in B', d.newlyFailing),
      ...rules('Rules newly passing in B', d.newlyPassing),
      ...rules('Other changes of a rule verdict', d.otherRuleChanges),
      ...checks('Checks failing in both, with other evidence', d.evidence),
      ...checks('Checks "not exercised" in one run only, or for another reason', d.notExercised),
      ...checks('Checks not run in one run only, or for another cause', d.notRun),
      ...list('Checks only in A', d.onlyInA),
      ...list('Checks only in B', d.onlyInB),
    ].join('\n'),
  );
}

/** A run from a path: a conformance.json, a folder holding one, or a sharded run's folder (its shards merged). */
function readSummary(path: string): Summary {
  const files = resultFiles(path);
  const results = files.map(readResult);
  if (results.length === 1) return results[0] as Summary;
  return mergeResults(results);
}

export async function main(args: string[]): Promise<number> {
  const parsed = commandArgs('diff', args, { markdown: { type: 'string' } } as const, USAGE, true);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) {
    console.error(`diff: name two runs, A and B\n${USAGE}`);
    return EXIT_CODES['bad configuration'];
  }
  const runs: Summary[] = [];
  for (const path of positionals) {
    try {
      const run = readSummary(path);
      if (!Array.isArray(run.rules) || !Array.isArray(run.checks)) throw new Error(`${path} is not a conformance.json`);
      runs.push(run);
    } catch (error) {
      console.error(`diff: ${path}: ${(error as Error).message}`);
      return EXIT_CODES['bad configuration'];
    }
  }
  const d = diffRuns(
    runs[0] as Summary,
    runs[1] as Summary,
    positionals.map((p, i) => `${'AB'[i]} (${p})`) as [string, string],
  );
  console.log(diffText(d));
  if (values.markdown) {
    writeFileSync(resolve(values.markdown), `${diffMarkdown(d)}\n`);
    console.log(`Markdown: ${values.markdown}`);
  }
  return d.mustRegressions.length > 0 ? EXIT_CODES.nonconformant : 0;
}
