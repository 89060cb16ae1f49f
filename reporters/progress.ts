/**
 * The progress line of a slow run, printed at least every 10 s while checks are running (reporters/console.ts): what
 * was sent and what is left of the budget, how many rules are finished, how long it has taken and an estimate of what
 * is left from the pace so far, so that a run against a slow or rate-limited target is never silent for minutes.
 */

/** How often a line is printed while checks run (and not before the run is this old). */
export const PROGRESS_EVERY_MS = 10_000;

export interface ProgressFacts {
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
}

const seconds = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s >= 120 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
};

/** One line: `progress: 340 requests sent (4660 of API_MAX_REQUESTS=5000 left), 12/30 rules finished, …`. */
export function progressLine(f: ProgressFacts): string {
  const rate = f.elapsedMs > 0 ? (f.sent * 1000) / f.elapsedMs : 0;
  const left = Math.max(0, f.budget - f.sent);
  const pace = [
    `${rate.toFixed(1)} req/s so far`,
    ...(f.learnedRps ? [`the target allows about ${f.learnedRps.toFixed(1)}/s`] : []),
    ...(f.maxRps > 0 ? [`API_MAX_RPS=${f.maxRps}`] : []),
    ...(f.pausedMs ? [`paused ${seconds(f.pausedMs)} for the target's Retry-After`] : []),
  ].join(', ');
  const remaining = f.checks.total - f.checks.finished;
  const estimate =
    f.checks.finished > 0 && remaining > 0
      ? `about ${seconds((f.elapsedMs * remaining) / f.checks.finished)} to go at this pace`
      : 'no estimate yet';
  return (
    `progress: ${f.sent} requests sent (${left} of API_MAX_REQUESTS=${f.budget} left), ` +
    `${f.rules.finished}/${f.rules.total} rules finished (${f.checks.finished}/${f.checks.total} checks), ` +
    `${seconds(f.elapsedMs)} elapsed, ${estimate} (${pace})`
  );
}
