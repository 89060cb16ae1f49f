/**
 * The rule matrix in words: the headline every report opens with, the outcome line, the console's table and
 * conformance.md, and the lines they share (the target, the baseline's entries, where a check's requests are).
 * Computed by reporters/summary.ts; written by reporters/reports.ts.
 */

import { DEFAULT_DEPTH } from '../core/model/depth.ts';
import { disposition } from '../core/model/disposition.ts';
import { REPORT_FILES } from '../core/model/outputs.ts';
import { describeInputs, describeTarget, type TargetInfo } from '../core/model/run-context.ts';
import { describeDuration } from '../core/model/time-budget.ts';
import { type CheckRecord, RULE_SEVERITY } from '../core/model/verdict.ts';
import {
  type Deviations,
  expiredLine,
  fixedLine,
  knownLine,
  placeholderLine,
  unjudgedLine,
  unseenLine,
} from './baseline.ts';
import { gridLines, gridMarkdown } from './collections-grid.ts';
import type { Outcome } from './outcome.ts';
import type { RuleRow, Summary } from './summary.ts';

/** The methods the run sent, as its request log holds them: `GET only`, `GET, HEAD, OPTIONS`. */
export function methodsOf(s: Pick<Summary, 'requestMethods'>): string {
  const m = s.requestMethods;
  if (!m || m.length === 0) return 'safe methods only';
  return m.length === 1 ? `${m[0]} only` : m.join(', ');
}

const rerun = (seed: number | null) => (seed === null ? 'no seed' : `seed ${seed} — rerun with FC_SEED=${seed}`);
/** A row's evidence as the tables show it: what a failure may follow from, and the notes. */
const withNotes = (r: RuleRow) => {
  const evidence = r.mayFollowFrom ? `${r.evidence} (may follow from ${r.mayFollowFrom.join(', ')})` : r.evidence;
  return r.notes.length ? `${evidence} [${r.notes.join('; ')}]` : evidence;
};

/** The rules that fail the run: their disposition (core/model/disposition.ts), the one the outcome is decided by. */
export const failingRules = (s: Pick<Summary, 'rules'> & { strict?: boolean }): RuleRow[] =>
  s.rules.filter(
    (r) => disposition({ of: 'rule', verdict: r.verdict, level: r.level }, { strict: !!s.strict }) === 'fail',
  );

/**
 * The headline of every report: the outcome, then what a reader asks next (the rules that failed, the known
 * deviations, the rules not exercised): `nonconformant (exit 1): 1 rule failed (PAG-TOTAL); 1 known deviation (PAG-SIZE)`.
 */
export function headline(s: Pick<Summary, 'outcome' | 'rules' | 'deviations'> & { strict?: boolean }): string {
  const o = s.outcome;
  const ids = (v: RuleRow['verdict']) => s.rules.filter((r) => r.verdict === v).map((r) => r.id);
  const count = (n: number, one: string, many: string, list: string[] = []) =>
    n === 0 ? [] : [`${n} ${n === 1 ? one : many}${list.length ? ` (${list.join(', ')})` : ''}`];
  // The rules that fail the run, as the outcome decides it (an advisory finding too, with CONFORMANCE_STRICT=1).
  const failing = failingRules(s);
  const failed = failing.map((r) => r.id);
  // The likely causes first, then the rules that may follow from them (from a known deviation, when no cause fails).
  const following = failing.filter((r) => r.mayFollowFrom).map((r) => r.id);
  const causes = failed.filter((id) => !following.includes(id));
  const blamed =
    following.length && causes.length
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
    ...(d.placeholders ?? []).map(placeholderLine),
  ];
}

/** The request log of a check, relative to the reports folder: its own (a merged shard's), or the run's. */
export const requestLogOf = (c: Pick<CheckRecord, 'requestLog'>): string => c.requestLog ?? REPORT_FILES.requests;

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

/**
 * A row's verdict as the tables show it: a rule that did not run says why (`not run (interrupted)`), one the run's
 * depth could not judge says which depth (`not exercised (quick)`).
 */
export const verdictLabel = (r: Pick<RuleRow, 'verdict' | 'cause'>, depth: string = DEFAULT_DEPTH): string =>
  r.verdict === 'not run' && r.cause
    ? `not run (${r.cause})`
    : r.verdict === 'not exercised' && r.cause === 'depth'
      ? `not exercised (${depth})`
      : r.verdict;

/** The run's depth and time budget, as the reports name them: `depth quick, time budget 60 s`. */
export const depthPhrase = (s: Pick<Summary, 'depth' | 'maxTimeMs'>): string =>
  `depth ${s.depth ?? DEFAULT_DEPTH}${s.maxTimeMs ? `, time budget ${describeDuration(s.maxTimeMs)}` : ''}`;

/** The checks the time budget left out (--max-time). */
const outOfTime = (s: Summary) => s.checks.filter((c) => c.verdict === 'not run' && c.cause === 'time budget');

/** The checks a stopped run never ran (Ctrl-C, a global timeout). */
const interrupted = (s: Summary) => s.checks.filter((c) => c.verdict === 'not run' && c.cause === 'interrupted');

/** The console's rule matrix: the table, the requests, the outcome. */
export function consoleTable(s: Summary, matrixPath: string): string {
  const rows = s.rules;
  const label = (r: RuleRow) => verdictLabel(r, s.depth);
  const w = Math.max(...rows.map((r) => r.id.length));
  const v = Math.max(13, ...rows.map((r) => label(r).length));
  const lines = rows.map(
    (r) =>
      `  ${r.id.padEnd(w)}  ${r.level.padEnd(8)}  ${label(r).padEnd(v)}  ${String(r.requests).padStart(5)}  ${withNotes(r)}`,
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
    `Rule matrix (${rerun(s.seed)}, ${depthPhrase(s)}${s.shard ? `, shard ${s.shard.current}/${s.shard.total}` : ''})`,
    ...(s.target ? [`Target: ${describeTarget(s.target)}; ${describeInputs(s.target)}`] : []),
    head,
    ...lines,
    ...gridLines(rows, s.collections ?? []),
    '',
    ...(findings.length ? ['Findings:', ...findings.map((l) => `  ${l}`), ''] : []),
    ...(deviations.length ? [`Baseline ${s.deviations?.file}:`, ...deviations.map((l) => `  ${l}`), ''] : []),
    ...gone,
    ...(stopped ? [`${stopped} check(s) did not run (interrupted): listed in ${matrixPath}.`] : []),
    ...(outOfTime(s).length ? [`${outOfTime(s).length} check(s) not run (time budget): listed in ${matrixPath}.`] : []),
    `Requests sent: ${s.requests} (${methodsOf(s)}${preflight}) in ${s.durationSeconds.toFixed(1)} s. Rules: ${verdicts.join(', ')}. ` +
      `Matrix: ${matrixPath}`,
    outcomeLine(s.outcome),
    ...(inShort(s) ? [`In short: ${headline(s)}`] : []),
  ].join('\n');
}

/** The target in conformance.md: where, which profile and inputs, which suite. */
function targetLines(t: TargetInfo | null | undefined): string[] {
  return t ? [`Target: ${describeTarget(t)}.`, '', `${describeInputs(t)}.`, ''] : [`Target: ${NO_TARGET}.`, ''];
}

/** What every report says of the target of a run that stopped before its configuration named one. */
export const NO_TARGET = 'not determined (the run stopped before its configuration named one)';

/** The target in one short phrase for titles and properties: its base URL and profile, never a key or a query. */
export const targetPhrase = (t: TargetInfo | null | undefined): string =>
  t ? `${t.baseURL}${t.bundledMock ? ' (the bundled mock)' : ''}, profile ${t.profile}` : NO_TARGET;

/** conformance.md. */
export function markdown(s: Summary): string {
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
    `Run status: ${s.status}; ${depthPhrase(s)}; ${s.requests} requests (${methodsOf(s)}) in ${s.durationSeconds} s; ${rerun(s.seed)}.`,
    '',
    // A run refused at its set-up judged no rule: no table of rules that did not run.
    ...(s.rules.length
      ? [
          '| rule | section | level | verdict | requests | evidence |',
          '|---|---|---|---|---|---|',
          ...s.rules.map(
            (r) =>
              `| ${r.id} | ${r.section} | ${r.level} | ${verdictLabel(r, s.depth)} | ${r.requests} | ${esc(withNotes(r))} |`,
          ),
          '',
          ...gridMarkdown(s.rules, s.collections ?? []),
        ]
      : []),
    ...(findings.length ? ['Findings:', '', ...findings.map((l) => `- ${esc(l)}`), ''] : []),
    ...(interrupted(s).length
      ? ['## Not run (interrupted)', '', ...interrupted(s).map((c) => `- ${esc(c.check)}: ${esc(c.reason ?? '')}`), '']
      : []),
    ...(outOfTime(s).length
      ? ['## Not run (time budget)', '', ...outOfTime(s).map((c) => `- ${esc(c.check)}: ${esc(c.reason ?? '')}`), '']
      : []),
    ...(deviations.length
      ? [`Baseline \`${s.deviations?.file}\`:`, '', ...deviations.map((l) => `- ${esc(l)}`), '']
      : []),
  ].join('\n');
}
