/**
 * The rule matrix of a run, from its checks' records: one row per rule of the catalogue (the most telling verdict of
 * its checks, one line of evidence, notes, requests), the run's outcome, and the files and console lines that show
 * them (conformance.json, conformance.md). The rule-matrix reporter summarises one run; `payment-api-conformance
 * merge` summarises the records of several shards as one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { RULES } from '../core/model/rules.ts';
import { describeInputs, describeTarget, type TargetInfo } from '../core/model/run-context.ts';
import { redact } from '../core/model/secrets.ts';
import { type Cause, type CheckRecord, evidenceOf, SEVERITY, type Verdict } from '../core/model/verdict.ts';
import { decideOutcome, type Outcome } from './outcome.ts';

export interface RuleRow {
  id: string;
  section: string;
  level: string;
  verdict: Verdict;
  cause?: Cause;
  evidence: string;
  checks: number;
  requests: number;
  notes: string[];
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
}

/** What conformance.json holds. */
export interface Summary extends RunInfo {
  schemaVersion: number;
  outcome: Outcome;
  requestMethods: string[];
  verdicts: Record<string, number>;
  rules: RuleRow[];
  /** Every check's record, in catalogue order of their rules. */
  checks: CheckRecord[];
}

/** conformance.json's layout version: bumped when a field changes meaning or goes away. */
export const SCHEMA_VERSION = 2;

const order = (id: string) => RULES.findIndex((r) => r.id === id);

/** The rule matrix of these records. */
export function summarize(records: readonly CheckRecord[], info: RunInfo): Summary {
  const checks = [...records].sort((a, b) => order(a.rule) - order(b.rule));
  const rows = RULES.map((r) =>
    ruleRow(
      r,
      checks.filter((c) => c.rule === r.id),
    ),
  );
  const outcome = decideOutcome({
    rules: rows,
    status: info.status,
    globalErrors: info.globalErrors,
    transportFailures: info.transportFailures,
    strict: info.strict,
  });
  const verdicts = Object.fromEntries(SEVERITY.map((v) => [v, rows.filter((r) => r.verdict === v).length]));
  return {
    schemaVersion: SCHEMA_VERSION,
    ...info,
    outcome,
    requestMethods: ['GET'],
    verdicts,
    rules: rows,
    checks,
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
  const worst = checks.reduce((a, b) => (SEVERITY.indexOf(b.verdict) < SEVERITY.indexOf(a.verdict) ? b : a));
  const passed = checks.filter((c) => c.verdict === 'pass').length;
  const evidence = worst.verdict === 'pass' ? `${passed}/${checks.length} checks passed` : evidenceOf(worst);
  const cause = worst.cause ? { cause: worst.cause } : {};
  return { ...base, verdict: worst.verdict, ...cause, evidence, checks: checks.length, requests, notes };
}

/** Writes conformance.json and conformance.md into `dir`, secret-free. */
export function writeSummary(dir: string, summary: Summary): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/conformance.json`, redact(`${JSON.stringify(summary, null, 2)}\n`));
  writeFileSync(`${dir}/conformance.md`, redact(markdown(summary)));
}

const rerun = (seed: number | null) => (seed === null ? 'no seed' : `seed ${seed} — rerun with FC_SEED=${seed}`);
const withNotes = (r: RuleRow) => (r.notes.length ? `${r.evidence} [${r.notes.join('; ')}]` : r.evidence);

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
  const verdicts = SEVERITY.filter((v) => s.verdicts[v]).map((v) => `${s.verdicts[v]} ${v}`);
  return [
    '',
    `Rule matrix (${rerun(s.seed)}${s.shard ? `, shard ${s.shard.current}/${s.shard.total}` : ''})`,
    ...(s.target ? [`Target: ${describeTarget(s.target)}; ${describeInputs(s.target)}`] : []),
    head,
    ...lines,
    '',
    ...gone,
    ...(stopped ? [`${stopped} check(s) did not run (interrupted): listed in ${matrixPath}.`] : []),
    `Requests sent: ${s.requests} (GET only${preflight}) in ${s.durationSeconds.toFixed(1)} s. Rules: ${verdicts.join(', ')}. ` +
      `Matrix: ${matrixPath}`,
    outcomeLine(s.outcome),
  ].join('\n');
}

/** The target in conformance.md: where, which profile and inputs, which suite. */
export function targetLines(t: TargetInfo | null | undefined): string[] {
  return t ? [`Target: ${describeTarget(t)}.`, '', `${describeInputs(t)}.`, ''] : [];
}

function markdown(s: Summary): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  const shard = s.shard ? ` Shard ${s.shard.current} of ${s.shard.total}.` : '';
  return [
    '# Conformance rule matrix',
    '',
    `Outcome: **${s.outcome.result}**${s.outcome.scope ? ` ${s.outcome.scope}` : ''} (exit ${s.outcome.exitCode}).${shard}`,
    '',
    ...s.outcome.decidedBy.map((line) => `- ${esc(line)}`),
    '',
    ...targetLines(s.target),
    `Run status: ${s.status}; ${s.requests} GET requests in ${s.durationSeconds} s; ${rerun(s.seed)}.`,
    '',
    '| rule | section | level | verdict | requests | evidence |',
    '|---|---|---|---|---|---|',
    ...s.rules.map(
      (r) => `| ${r.id} | ${r.section} | ${r.level} | ${verdictLabel(r)} | ${r.requests} | ${esc(withNotes(r))} |`,
    ),
    '',
    ...(interrupted(s).length
      ? ['## Not run (interrupted)', '', ...interrupted(s).map((c) => `- ${esc(c.check)}: ${esc(c.reason ?? '')}`), '']
      : []),
  ].join('\n');
}
