/**
 * Time to verdict (npm test, stage `time-to-verdict`): the suite as a CI user runs it against a polite remote sandbox,
 * the bundled mock allowing 10 requests a second, 40 ms away (`npm run mock -- --rate-limit 10 --latency 40`, here in
 * process). The console must never be silent for 10 s — the preflight, the workers' start, the pace and the checks of
 * every answer included — and must end naming every report it wrote; a run with `--max-time` starts no request after
 * its budget, judges what it can and names the rest, by rule, in the outcome and the reports. The only time bounds
 * are the console's own promise (10 s) and hang guards.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES } from '../../core/model/outputs.ts';
import { startMock } from '../../mock/index.ts';
import { againstMock, runSuite, type SuiteRun } from '../../scripts/run-suite.ts';

export interface TimeResult {
  scenario: string;
  problems: string[];
  detail: string;
}

/** What the console promises: a progress line at least this often. */
const PROMISED_MS = 10_000;

/** A run of the suite against the mock at 10 requests a second, 40 ms away; `args` its options. */
async function againstSlowMock(dir: string, args: string[]): Promise<SuiteRun> {
  rmSync(dir, { recursive: true, force: true });
  const mock = await startMock({ port: 0, rateLimit: 10, latencyMs: 40 });
  try {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, FORCE_COLOR: '0', ...againstMock(mock.env) };
    return await runSuite({ ...env, CONFORMANCE_REPORTS_DIR: dir }, { args, timed: true, timeoutMs: 300_000 });
  } finally {
    await mock.stop();
  }
}

/** The longest silence between progress lines, from the start to the rule matrix, and where it was. */
function longestSilence(run: SuiteRun): { ms: number; after: string } {
  const lines = run.lines ?? [];
  const end = lines.find((l) => l.line.startsWith('Rule matrix ('))?.at ?? run.seconds * 1000;
  const marks = [
    { at: 0, line: '(the start)' },
    ...lines.filter((l) => l.line.startsWith('progress: ')),
    { at: end, line: '' },
  ];
  let worst = { ms: 0, after: '' };
  for (let i = 1; i < marks.length; i++) {
    const gap = (marks[i]?.at ?? 0) - (marks[i - 1]?.at ?? 0);
    if (gap > worst.ms) worst = { ms: gap, after: (marks[i - 1]?.line ?? '').slice(0, 80) };
  }
  return worst;
}

/** The end of the console names every report the run wrote, and each is there. */
function reportsNamed(run: SuiteRun, dir: string): string[] {
  const line = run.stdout.split('\n').find((l) => l.startsWith('Reports in ')) ?? '';
  const problems: string[] = [];
  for (const file of Object.values(REPORT_FILES)) {
    if (!line.includes(file)) problems.push(`the end does not name ${file}`);
    if (!existsSync(join(dir, file))) problems.push(`${file} was not written`);
  }
  return problems;
}

async function progressEveryTenSeconds(): Promise<TimeResult> {
  const dir = 'reports/time-to-verdict/progress';
  // About 200 requests at 10 a second: the preflight, the header grammar's checks, the checks of every answer.
  const run = await againstSlowMock(dir, ['--grep', 'AUTH-INVALID']);
  const silence = longestSilence(run);
  const problems = [
    ...(run.status === 0 ? [] : [`exit ${run.status}: ${run.stdout.trim().split('\n').slice(-2).join(' | ')}`]),
    ...(silence.ms <= PROMISED_MS
      ? []
      : [`${(silence.ms / 1000).toFixed(1)} s without a progress line after "${silence.after}"`]),
    ...reportsNamed(run, dir),
  ];
  const count = (run.lines ?? []).filter((l) => l.line.startsWith('progress: ')).length;
  return {
    scenario: 'a slow, rate-limited mock (10 req/s, 40 ms): a progress line at least every 10 s, every report named',
    problems,
    detail: `exit ${run.status} in ${run.seconds.toFixed(1)} s, ${count} progress lines, at most ${(silence.ms / 1000).toFixed(1)} s apart`,
  };
}

/** The requests of a run, from its request log: when each started (ms since epoch). */
function requestStarts(dir: string): number[] {
  const log = join(dir, REPORT_FILES.requests);
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => Date.parse((JSON.parse(l) as { time: string }).time));
}

/**
 * A run under a time budget of `budget` s against the slow mock (`args`: its options): no request after the budget,
 * exit 0 for the rules it judged, every rule not run named by the time budget, the outcome naming what it left out.
 */
async function underBudget(dir: string, budget: number, args: string[]) {
  const spawned = Date.now();
  const run = await againstSlowMock(dir, args);
  const summary = JSON.parse(readFileSync(join(dir, REPORT_FILES.json), 'utf8')) as {
    outcome: { result: string; scope?: string; decidedBy: string[] };
    rules: Array<{ id: string; verdict: string; cause?: string }>;
    depth?: string;
  };
  const late = requestStarts(dir).filter((t) => t > spawned + budget * 1000);
  const unnamed = summary.rules.filter((r) => r.verdict === 'not run' && r.cause !== 'time budget');
  const judged = summary.rules.filter((r) => r.verdict !== 'not run').length;
  const problems = [
    ...(run.status === 0 ? [] : [`exit ${run.status}, expected 0 for the rules it judged`]),
    ...(late.length ? [`${late.length} request(s) started after the ${budget} s budget`] : []),
    ...(unnamed.length ? [`rules not run for another reason: ${unnamed.map((r) => r.id).join(', ')}`] : []),
    ...(judged > 0 ? [] : ['no rule judged']),
    ...(summary.outcome.decidedBy.some((l) => l.startsWith(`time budget ${budget} s (--max-time): `))
      ? []
      : ['the outcome does not name what the time budget left out']),
    ...(run.seconds <= 2 * budget ? [] : [`hung: ${run.seconds.toFixed(1)} s`]),
  ];
  return { run, summary, judged, problems };
}

async function maxTime(): Promise<TimeResult> {
  const dir = 'reports/time-to-verdict/max-time';
  const budget = 30;
  // The standard run sends about 1,700 requests: at 10 a second it cannot end in 30 s (the run plans quick).
  const { run, summary, judged, problems: under } = await underBudget(dir, budget, ['--max-time', `${budget}s`]);
  const problems = [
    ...under,
    // No depth named: standard's requests cannot fit 30 s at 10 a second, so the run plans quick and says so.
    ...(summary.depth === 'quick' && /depth: quick, planned for the time budget/.test(run.stdout)
      ? []
      : [`depth ${summary.depth}: quick not planned for the budget, or not said`]),
  ];
  return {
    scenario: `--max-time ${budget}s against the same mock: no request after the budget, the rest named by the outcome`,
    problems,
    detail: `exit ${run.status} in ${run.seconds.toFixed(1)} s (${budget} s + 10 %: ${(budget * 1.1).toFixed(0)} s); ${judged} rules judged; ${summary.outcome.result} ${summary.outcome.scope ?? ''}`,
  };
}

/** quick with no --max-time: its own budget (30 s, core/model/depths.json) holds against the same mock. */
async function quickOwnBudget(): Promise<TimeResult> {
  const dir = 'reports/time-to-verdict/quick';
  const budget = 30;
  const { run, judged, problems } = await underBudget(dir, budget, ['--depth', 'quick']);
  return {
    scenario: `--depth quick against the same mock: its own ${budget} s budget, no request after it, the rest named`,
    problems,
    detail: `exit ${run.status} in ${run.seconds.toFixed(1)} s; ${judged} rules judged`,
  };
}

export async function runTimeToVerdict(): Promise<TimeResult[]> {
  // One after the other: each holds the machine's pace to 10 requests a second.
  return [await progressEveryTenSeconds(), await maxTime(), await quickOwnBudget()];
}
