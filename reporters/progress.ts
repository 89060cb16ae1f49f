/**
 * The progress line of a run, printed at least every 10 s from the start to the last check (reporters/console.ts),
 * whatever the target does — the preflight, the workers' start, waits on a 429's Retry-After, retries: what was sent
 * and what is left of the budget, how many rules are finished, how long it has taken and an estimate of what is left,
 * so that a run against a slow or rate-limited target is never silent.
 *
 * The estimate counts requests, not checks (checks differ a hundredfold in what they send: a status check 1 request,
 * the coverage phase 230), and comes from this run alone, no committed table: the requests the unfinished checks will
 * send, each at the mean of what the checks that ended sent, at the pace measured so far.
 */
import { describeDuration } from '../core/model/time-budget.ts';

/** How often a line is printed at least (and not before the run is this old). */
export const PROGRESS_EVERY_MS = 10_000;

/** What the run is doing when no check runs. */
type Phase = 'starting' | 'checks' | 'between projects';

export interface ProgressFacts {
  phase: Phase;
  elapsedMs: number;
  /** Requests of the run so far (the ledger's count) and its budget (API_MAX_REQUESTS). */
  sent: number;
  budget: number;
  rules: { finished: number; total: number };
  checks: { finished: number; total: number };
  /** The rate learned from the target (req/s), if any. */
  learnedRps?: number;
  /** The configured pace (API_MAX_RPS), 0 for none. */
  maxRps: number;
  /** A 429's pause in force, ms left. */
  pausedMs?: number;
  /** The requests the unfinished checks will send (`requestsLeft`), when known. */
  requestsLeft?: number;
  /** The time budget (--max-time), ms left of it, when the run has one. */
  timeLeftMs?: number;
}

/**
 * The requests the unfinished checks will send: each at the mean of what the ended checks sent (none ended: unknown),
 * less what the running ones sent already (`inFlight`).
 */
export function requestsLeft(
  ended: ReadonlyArray<{ requests: number }>,
  unfinished: number,
  inFlight = 0,
): number | undefined {
  if (ended.length === 0) return undefined;
  const mean = ended.reduce((n, f) => n + f.requests, 0) / ended.length;
  return Math.max(0, Math.round(mean * unfinished - inFlight));
}

const seconds = (ms: number) => {
  const s = Math.round(Math.max(0, ms) / 1000);
  return s >= 120 ? describeDuration(s * 1000) : `${s} s`;
};

/** The pace in words: `8.0 req/s so far, the target allows about 10.0/s, …`. */
function paceWords(f: ProgressFacts, rate: number): string {
  return [
    `${rate.toFixed(1)} req/s so far`,
    ...(f.learnedRps ? [`the target allows about ${f.learnedRps.toFixed(1)}/s`] : []),
    ...(f.maxRps > 0 ? [`API_MAX_RPS=${f.maxRps}`] : []),
    ...(f.pausedMs ? [`paused ${seconds(f.pausedMs)} for the target's Retry-After`] : []),
    ...(f.timeLeftMs !== undefined ? [`${seconds(f.timeLeftMs)} left of the time budget`] : []),
  ].join(', ');
}

/** One line: `progress: 340 requests sent (4660 of API_MAX_REQUESTS=5000 left), 12/30 rules finished, …`. */
export function progressLine(f: ProgressFacts): string {
  const rate = f.elapsedMs > 0 ? (f.sent * 1000) / f.elapsedMs : 0;
  const left = Math.max(0, f.budget - f.sent);
  const sent = `progress: ${f.sent} requests sent (${left} of API_MAX_REQUESTS=${f.budget} left)`;
  if (f.phase === 'starting') {
    return `${sent}, ${seconds(f.elapsedMs)} elapsed: the preflight and the workers' start, no check ended yet (${paceWords(f, rate)})`;
  }
  const remaining = f.checks.total - f.checks.finished;
  const estimate =
    f.requestsLeft === undefined || rate === 0 || remaining === 0
      ? 'no estimate yet'
      : f.requestsLeft === 0
        ? `the last ${remaining === 1 ? 'check' : `${remaining} checks`} finishing`
        : `about ${seconds((f.requestsLeft * 1000) / rate)} to go at this pace (about ${f.requestsLeft} requests left)`;
  const between = f.phase === 'between projects' ? ', the checks of every answer starting' : '';
  return (
    `${sent}, ${f.rules.finished}/${f.rules.total} rules finished (${f.checks.finished}/${f.checks.total} checks)${between}, ` +
    `${seconds(f.elapsedMs)} elapsed, ${estimate} (${paceWords(f, rate)})`
  );
}
