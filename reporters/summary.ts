/**
 * The rule matrix of a run, from its checks' records: one row per rule of the catalogue (the most telling verdict of
 * its checks, one line of evidence, notes, requests), the run's outcome, and the files and console lines that show
 * them (conformance.json, conformance.md). The rule-matrix reporter summarises one run; `payment-api-conformance
 * merge` summarises the records of several shards as one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { WatchCost } from '../core/model/provenance.ts';
import { RULES } from '../core/model/rules.ts';
import { describeInputs, describeTarget, type TargetInfo } from '../core/model/run-context.ts';
import { redact } from '../core/model/secrets.ts';
import {
  type Cause,
  type CheckRecord,
  evidenceOf,
  RULE_SEVERITY,
  type RuleVerdict,
  ruleVerdictOf,
} from '../core/model/verdict.ts';
import {
  type BaselineInput,
  type Deviations,
  expiredLine,
  expiredLines,
  fixedLine,
  judgeBaseline,
  knownLine,
  unjudgedLine,
  unseenLine,
} from './baseline.ts';
import { mayFollow } from './blame.ts';
import { type CollectionCell, cellsOf, collectionsOf, gridLines, gridMarkdown } from './collections-grid.ts';
import { badConfiguration, decideOutcome, type Outcome } from './outcome.ts';

export interface RuleRow {
  id: string;
  section: string;
  level: string;
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

/** The methods the run sent, as its request log holds them: `GET only`, `GET, HEAD, OPTIONS`. */
export function methodsOf(s: Pick<Summary, 'requestMethods'>): string {
  const m = s.requestMethods;
  if (!m || m.length === 0) return 'safe methods only';
  return m.length === 1 ? `${m[0]} only` : m.join(', ');
}

/** What a run refused at its set-up knows of itself: the target when the configuration named one, its seed. */
export interface SetUpRun {
  target?: TargetInfo | null;
  seed?: number | null;
  /** Requests sent before the refusal (the preflight's); none when the configuration was refused. */
  requests?: number;
  /** Seconds from the run's start to its refusal. */
  durationSeconds?: number;
}

/**
 * The rule matrix of a run refused at its set-up (a configuration, a baseline or a --grep refused, or the preflight's
 * finding): the outcome "bad configuration" (exit 2) decided by the problems, no check, and every count a number, so
 * that every report of the set reads it like any other run's.
 */
export function setUpSummary(problems: string[], run: SetUpRun = {}): Summary {
  const requests = run.requests ?? 0;
  return {
    schemaVersion: SCHEMA_VERSION,
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
    outcome: badConfiguration(problems),
    verdicts: {},
    rules: [],
    checks: [],
  };
}

/** The rule matrix of these records. */
export function summarize(records: readonly CheckRecord[], info: RunInfo): Summary {
  // Known deviations are marked on their records first (reporters/baseline.ts): the rows, the outcome and every
  // report read the marks.
  const judged = info.baseline ? judgeBaseline(records, info.baseline, info.seed) : undefined;
  const checks = [...(judged?.records ?? records)].sort((a, b) => order(a.rule) - order(b.rule));
  const follows = mayFollow(checks);
  const collections = collectionsOf(checks);
  const rows = RULES.map((r) => {
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

/** A rule's row: the most telling verdict of its checks (SEVERITY), its evidence, notes and requests. */
export function ruleRow(r: (typeof RULES)[number], checks: readonly CheckRecord[]): RuleRow {
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
  return { ...base, verdict, ...cause, evidence, checks: checks.length, requests, notes: said };
}

/** Writes conformance.json and conformance.md into `dir`, secret-free. */
export function writeSummary(dir: string, summary: Summary): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/conformance.json`, redact(`${JSON.stringify(summary, null, 2)}\n`));
  writeFileSync(`${dir}/conformance.md`, redact(markdown(summary)));
}

const rerun = (seed: number | null) => (seed === null ? 'no seed' : `seed ${seed} — rerun with FC_SEED=${seed}`);
/** A row's evidence as the tables show it: what a failure may follow from, and the notes. */
const withNotes = (r: RuleRow) => {
  const evidence = r.mayFollowFrom ? `${r.evidence} (may follow from ${r.mayFollowFrom.join(', ')})` : r.evidence;
  return r.notes.length ? `${evidence} [${r.notes.join('; ')}]` : evidence;
};

/**
 * The headline of every report: the outcome, then what a reader asks next (the rules that failed, the known
 * deviations, the rules not exercised): `nonconformant (exit 1): 1 rule failed (PAG-TOTAL); 1 known deviation (PAG-SIZE)`.
 */
export function headline(s: Pick<Summary, 'outcome' | 'rules' | 'deviations'>): string {
  const o = s.outcome;
  const ids = (v: RuleRow['verdict']) => s.rules.filter((r) => r.verdict === v).map((r) => r.id);
  const count = (n: number, one: string, many: string, list: string[] = []) =>
    n === 0 ? [] : [`${n} ${n === 1 ? one : many}${list.length ? ` (${list.join(', ')})` : ''}`];
  const failed = ids('fail');
  // The likely causes first, then the rules that may follow from them.
  const following = s.rules.filter((r) => r.verdict === 'fail' && r.mayFollowFrom).map((r) => r.id);
  const causes = failed.filter((id) => !following.includes(id));
  const blamed = following.length
    ? [
        `likely cause${causes.length > 1 ? 's' : ''} ${causes.join(', ')}; may follow from ${causes.length > 1 ? 'them' : 'it'}: ${following.join(', ')}`,
      ]
    : failed;
  const parts =
    o.result === 'bad configuration' || o.result === 'inconclusive'
      ? o.decidedBy.slice(0, 1)
      : [
          ...count(failed.length, 'rule failed', 'rules failed', blamed),
          ...count(s.deviations?.expired.length ?? 0, 'baseline entry expired', 'baseline entries expired'),
          ...(failed.length === 0 && o.result === 'conformant' ? o.decidedBy.slice(0, 1) : []),
        ];
  // Rules with a known failure, whether or not a new one fails them too.
  const known = s.rules.filter((r) => s.deviations?.known.some((k) => k.rule === r.id)).map((r) => r.id);
  const unshown = ids('not exercised');
  parts.push(
    ...count(known.length, 'known deviation', 'known deviations', known),
    ...count(unshown.length, 'rule not exercised', 'rules not exercised', unshown),
  );
  return `${o.result}${o.scope ? ` ${o.scope}` : ''} (exit ${o.exitCode})${parts.length ? `: ${parts.join('; ')}` : ''}`;
}

/** The baseline's lines for the reports: how many failures it knew, then its expired, fixed and unjudged entries. */
export function baselineLines(d: Deviations | undefined, withKnown = false): string[] {
  if (!d) return [];
  const n = d.known.length;
  return [
    ...(withKnown ? d.known.map(knownLine) : n > 0 ? [`${n} failure${n === 1 ? '' : 's'} known (listed above)`] : []),
    ...d.expired.map(expiredLine),
    ...d.fixed.map(fixedLine),
    ...(d.unseen ?? []).map(unseenLine),
    ...d.unjudged.map(unjudgedLine),
  ];
}

/** The request log of a check, relative to the reports folder: its own (a merged shard's), or the run's. */
export const requestLogOf = (c: Pick<CheckRecord, 'requestLog'>): string => c.requestLog ?? 'requests.ndjson';

/** `requests.ndjson lines 120–160`: where a check's requests are, when the run logged them. */
export const requestLinesOf = (c: Pick<CheckRecord, 'requestLines' | 'requestLog'>): string | undefined =>
  c.requestLines ? `${requestLogOf(c)} lines ${c.requestLines[0]}–${c.requestLines[1]}` : undefined;

/** The checks that failed (new failures and findings first, then known ones), with where their requests are. */
function findingLines(s: Summary): string[] {
  const findings = s.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'advisory');
  const sorted = [...findings.filter((c) => !c.known), ...findings.filter((c) => c.known)];
  return sorted.map((c) => {
    const what = c.known
      ? `known (${c.known.reason}, until ${c.known.until})`
      : c.verdict === 'fail'
        ? 'new failure'
        : 'advisory';
    const where = requestLinesOf(c);
    return `${what}: ${c.check}${where ? ` — its requests: ${where}` : ''}`;
  });
}

/**
 * Whether the outcome line leaves out what the headline says: known deviations, rules not exercised, which failed
 * rules are the likely causes.
 */
const inShort = (s: Summary) =>
  (s.deviations?.known.length ?? 0) > 0 ||
  (s.deviations?.expired.length ?? 0) > 0 ||
  s.rules.some((r) => r.verdict === 'not exercised' || r.mayFollowFrom);

/** The outcome in one line: `conformant for the 2 selected rules (exit 0): …`. */
export function outcomeLine(o: Outcome, max = 3): string {
  const more = o.decidedBy.length > max ? `; and ${o.decidedBy.length - max} more` : '';
  return `Outcome: ${o.result}${o.scope ? ` ${o.scope}` : ''} (exit ${o.exitCode}): ${o.decidedBy.slice(0, max).join('; ')}${more}`;
}

/** A row's verdict as the tables show it: a rule that did not run says why (`not run (interrupted)`). */
export const verdictLabel = (r: Pick<RuleRow, 'verdict' | 'cause'>): string =>
  r.verdict === 'not run' && r.cause ? `not run (${r.cause})` : r.verdict;

/** The checks a stopped run never ran (Ctrl-C, a global timeout). */
const interrupted = (s: Summary) => s.checks.filter((c) => c.verdict === 'not run' && c.cause === 'interrupted');

/** The console's rule matrix: the table, the requests, the outcome. */
export function consoleTable(s: Summary, matrixPath: string): string {
  const rows = s.rules;
  const w = Math.max(...rows.map((r) => r.id.length));
  const v = Math.max(13, ...rows.map((r) => verdictLabel(r).length));
  const lines = rows.map(
    (r) =>
      `  ${r.id.padEnd(w)}  ${r.level.padEnd(8)}  ${verdictLabel(r).padEnd(v)}  ${String(r.requests).padStart(5)}  ${withNotes(r)}`,
  );
  const head = `  ${'rule'.padEnd(w)}  level     ${'verdict'.padEnd(v)}  reqs  evidence`;
  const stopped = interrupted(s).length;
  const gone = s.transportFailures
    ? [`The target failed to answer ${s.transportFailures} request(s) after retries; checks after that were not run.`]
    : [];
  const preflight = s.preflightRequests ? `, ${s.preflightRequests} of them the preflight` : '';
  const verdicts = RULE_SEVERITY.filter((v) => s.verdicts[v]).map((v) => `${s.verdicts[v]} ${v}`);
  const findings = findingLines(s);
  const deviations = baselineLines(s.deviations);
  return [
    '',
    `Rule matrix (${rerun(s.seed)}${s.shard ? `, shard ${s.shard.current}/${s.shard.total}` : ''})`,
    ...(s.target ? [`Target: ${describeTarget(s.target)}; ${describeInputs(s.target)}`] : []),
    head,
    ...lines,
    ...gridLines(rows, s.collections ?? []),
    '',
    ...(findings.length ? ['Findings:', ...findings.map((l) => `  ${l}`), ''] : []),
    ...(deviations.length ? [`Baseline ${s.deviations?.file}:`, ...deviations.map((l) => `  ${l}`), ''] : []),
    ...gone,
    ...(stopped ? [`${stopped} check(s) did not run (interrupted): listed in ${matrixPath}.`] : []),
    `Requests sent: ${s.requests} (${methodsOf(s)}${preflight}) in ${s.durationSeconds.toFixed(1)} s. Rules: ${verdicts.join(', ')}. ` +
      `Matrix: ${matrixPath}`,
    outcomeLine(s.outcome),
    ...(inShort(s) ? [`In short: ${headline(s)}`] : []),
  ].join('\n');
}

/** The target in conformance.md: where, which profile and inputs, which suite. */
export function targetLines(t: TargetInfo | null | undefined): string[] {
  return t ? [`Target: ${describeTarget(t)}.`, '', `${describeInputs(t)}.`, ''] : [`Target: ${NO_TARGET}.`, ''];
}

/** What every report says of the target of a run that stopped before its configuration named one. */
export const NO_TARGET = 'not determined (the run stopped before its configuration named one)';

/** The target in one short phrase for titles and properties: its base URL and profile, never a key or a query. */
export const targetPhrase = (t: TargetInfo | null | undefined): string =>
  t ? `${t.baseURL}${t.bundledMock ? ' (the bundled mock)' : ''}, profile ${t.profile}` : NO_TARGET;

function markdown(s: Summary): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  const shard = s.shard ? ` Shard ${s.shard.current} of ${s.shard.total}.` : '';
  const findings = findingLines(s);
  const deviations = baselineLines(s.deviations);
  return [
    '# Conformance rule matrix',
    '',
    `Outcome: **${s.outcome.result}**${s.outcome.scope ? ` ${s.outcome.scope}` : ''} (exit ${s.outcome.exitCode}).${shard}`,
    ...(inShort(s) ? ['', `In short: ${esc(headline(s))}.`] : []),
    '',
    ...s.outcome.decidedBy.map((line) => `- ${esc(line)}`),
    '',
    ...targetLines(s.target),
    `Run status: ${s.status}; ${s.requests} requests (${methodsOf(s)}) in ${s.durationSeconds} s; ${rerun(s.seed)}.`,
    '',
    // A run refused at its set-up judged no rule: no table of rules that did not run.
    ...(s.rules.length
      ? [
          '| rule | section | level | verdict | requests | evidence |',
          '|---|---|---|---|---|---|',
          ...s.rules.map(
            (r) =>
              `| ${r.id} | ${r.section} | ${r.level} | ${verdictLabel(r)} | ${r.requests} | ${esc(withNotes(r))} |`,
          ),
          '',
          ...gridMarkdown(s.rules, s.collections ?? []),
        ]
      : []),
    ...(findings.length ? ['Findings:', '', ...findings.map((l) => `- ${esc(l)}`), ''] : []),
    ...(interrupted(s).length
      ? ['## Not run (interrupted)', '', ...interrupted(s).map((c) => `- ${esc(c.check)}: ${esc(c.reason ?? '')}`), '']
      : []),
    ...(deviations.length
      ? [`Baseline \`${s.deviations?.file}\`:`, '', ...deviations.map((l) => `- ${esc(l)}`), '']
      : []),
  ].join('\n');
}
