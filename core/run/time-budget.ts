/**
 * The run's time budget (--max-time) as the checks meet it (core/model/time-budget.ts decides): the run's check log, a
 * file every process of the run shares (the run context's `files.checks`): the plan, written once by the console
 * reporter when Playwright knows every check, then a line as each check begins (or declines) and ends, with what it
 * sent and how long it took. Before a check starts, `checkBudget` reads the log and asks whether it fits; a check that
 * starts has its client stopped at its project's deadline. Lines are appended whole (O_APPEND), one per event.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { publishedCollections } from '../model/collection.ts';
import { DEPTH_PROFILES, type DepthProfile, depthBelow } from '../model/depth.ts';
import type { RunContext } from '../model/run-context.ts';
import {
  type Admission,
  admit,
  type CheckCost,
  deadlineOf,
  expectedRps,
  firstOfRule,
  type PlannedCheck,
  plannedDepth,
  planOrder,
  wallPerRequest,
} from '../model/time-budget.ts';

/** A check in the plan: its project, whether it is its rule's first, whether its rule is advisory. */
type PlanEntry = { id: string; project: string; first?: true; advisory?: true };

type LogLine =
  | { plan: PlanEntry[] }
  | { begin: string; declined?: true }
  | { end: string; requests: number; ms: number };

const append = (file: string, line: LogLine) => appendFileSync(file, `${JSON.stringify(line)}\n`);

/** The plan of the run (the console reporter, when the checks are known): every check, most telling first. */
export function writePlan(file: string, checks: ReadonlyArray<PlannedCheck & { project: string }>): void {
  const project = new Map(checks.map((c) => [c.id, c.project]));
  // A rule's first check in each project (a project is a collection: its rules are judged apart).
  const first = new Set<string>();
  const advisory = new Set(checks.filter((c) => c.level === 'ADVISORY').map((c) => c.id));
  for (const name of new Set(project.values())) {
    for (const id of firstOfRule(checks.filter((c) => c.project === name))) first.add(id);
  }
  append(file, {
    plan: planOrder(checks).map((id) => ({
      id,
      project: project.get(id) as string,
      ...(first.has(id) ? { first: true as const } : {}),
      ...(advisory.has(id) ? { advisory: true as const } : {}),
    })),
  });
}

/** What the log says so far. */
function readLog(file: string) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // no plan yet (a run without a console reporter): every check only has to fit by itself
  }
  const plan: PlanEntry[] = [];
  const begun = new Set<string>();
  const ended: CheckCost[] = [];
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    const line = JSON.parse(raw) as LogLine;
    if ('plan' in line) plan.push(...line.plan);
    else if ('begin' in line) begun.add(line.begin);
    else ended.push({ id: line.end, requests: line.requests, ms: line.ms });
  }
  return { plan, begun, ended };
}

/** The requests a default run at `depth` is tuned to stay within, each declared collection searched one depth below. */
const requestBound = (depth: DepthProfile, collections: number) =>
  depth.requestBound + collections * depthBelow(depth).requestBound;

interface CheckBudget {
  /** When the check's client stops sending (ms since epoch). */
  deadline: number;
  /** Whether the check starts (it is logged as begun either way: a check that declined never runs). */
  admit(): Admission;
  /** Logs a check that does not run for another reason (an optional input missing): none waits for it. */
  skipped(): void;
  /** Logs what the check cost. */
  ended(requests: number, ms: number): void;
}

/**
 * The time budget of one check (its test id), or undefined when the run has none. `last`: a check of every answer,
 * run after every other check (its deadline is the run's own end); `workers`: the checks that run at once.
 */
export function checkBudget(
  run: RunContext | undefined,
  id: string,
  opts: { project: string; last: boolean; workers: number },
): CheckBudget | undefined {
  const maxTimeMs = run?.settings.maxTimeMs ?? 0;
  if (!run || maxTimeMs <= 0) return undefined;
  const file = run.files.checks;
  // Read once: the check asks to start right after (fixtures/test.ts). The end of the checks of every answer keeps
  // what they ask at the pace the run measured so far.
  const log = readLog(file);
  const deadline = deadlineOf(run.startedAt, maxTimeMs, opts.last, wallPerRequest(log.ended, opts.workers));
  return {
    deadline,
    admit() {
      const mine = log.plan.filter((p) => p.project === opts.project);
      const order = mine.map((p) => p.id);
      const first = new Set(mine.filter((p) => p.first).map((p) => p.id));
      const advisory = new Set(mine.filter((p) => p.advisory).map((p) => p.id));
      // The checks judged last read what every answer showed, with few requests of their own: each starts while
      // time is left, and the client stops it at the run's end.
      const ended = opts.last ? [] : log.ended.filter((c) => order.length === 0 || order.includes(c.id));
      const sent = ended.reduce((n, c) => n + c.requests, 0);
      // A run context of an older suite has no depth: the rest of the run is not weighed.
      const depth = run.settings.depth as DepthProfile | undefined;
      const requestsLeft = depth ? requestBound(depth, publishedCollections().length) - sent : undefined;
      const facts = {
        now: Date.now(),
        deadline,
        order,
        begun: log.begun,
        ended,
        workers: opts.workers,
        first,
        advisory,
        ...(requestsLeft === undefined ? {} : { requestsLeft }),
      };
      const admission = admit(id, facts);
      append(file, admission.start ? { begin: id } : { begin: id, declined: true });
      return admission;
    },
    skipped() {
      append(file, { begin: id, declined: true });
    },
    ended(requests, ms) {
      append(file, { end: id, requests, ms: Math.round(ms) });
    },
  };
}

/**
 * The run as a time budget plans it once the preflight has seen the target (global setup): at quick when the user
 * named no depth and standard's requests would not fit the time left at the pace seen (the configured cap, the rate
 * the target announced, its answer time); the run unchanged otherwise, with the reason when it changed.
 */
export function plannedRun(
  run: RunContext,
  seen: { latencyMs?: number; learnedRps?: number; collections: number },
  now = Date.now(),
): { run: RunContext; reason?: string } {
  const s = run.settings;
  if (s.maxTimeMs <= 0 || s.depthNamed || s.depth.name !== 'standard') return { run };
  const bound = (d: typeof s.depth) => requestBound(d, seen.collections);
  const plan = plannedDepth({
    leftMs: deadlineOf(run.startedAt, s.maxTimeMs, false) - now,
    rps: expectedRps({
      maxRps: s.maxRps,
      learnedRps: seen.learnedRps,
      latencyMs: seen.latencyMs,
      workers: s.loopback ? 2 : 1,
    }),
    requests: { standard: bound(DEPTH_PROFILES.standard), quick: bound(DEPTH_PROFILES.quick) },
  });
  if (!plan) return { run };
  return { run: { ...run, settings: { ...s, depth: DEPTH_PROFILES[plan.depth] } }, reason: plan.reason };
}
