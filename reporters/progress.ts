/**
 * The progress line of a slow run, printed at least every 10 s while checks are running (reporters/console.ts): what
 * was sent and what is left of the budget, how many rules are finished, how long it has taken and an estimate of what
 * is left, so that a run against a slow or rate-limited target is never silent for minutes.
 *
 * The estimate counts requests, not checks: checks differ a hundredfold in what they send (a status check 1 request,
 * the coverage phase 230), so the time left is the requests the unfinished checks will send — each one's cost measured
 * against the bundled mock (check-costs.json, `npm run costs`), scaled by how the finished checks compared with
 * theirs on this target — at the pace measured so far.
 */
import costs from './check-costs.json' with { type: 'json' };

/** What each check sent in a default run against the bundled mock (`npm run costs`), by title. */
export const CHECK_COSTS: Readonly<Record<string, number>> = costs;

/** How often a line is printed while checks run (and not before the run is this old). */
export const PROGRESS_EVERY_MS = 10_000;

interface ProgressFacts {
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
}

/**
 * The requests the unfinished checks will send: each one's reference cost (its cost against the bundled mock; a check
 * the table lacks costs the table's mean), scaled by what the finished checks sent against theirs, less what the
 * running ones sent already (`inFlight`).
 */
export function requestsLeft(
  reference: Readonly<Record<string, number>>,
  finished: ReadonlyArray<{ title: string; requests: number }>,
  unfinished: readonly string[],
  inFlight = 0,
): number {
  const known = Object.values(reference);
  const mean = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 0;
  const cost = (title: string) => reference[title] ?? mean;
  const expected = finished.reduce((n, f) => n + cost(f.title), 0);
  const sent = finished.reduce((n, f) => n + f.requests, 0);
  const scale = expected > 0 ? sent / expected : 1;
  const planned = unfinished.reduce((n, title) => n + cost(title), 0) * scale;
  return Math.max(0, Math.round(planned - inFlight));
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
    f.requestsLeft === undefined || rate === 0 || remaining === 0
      ? 'no estimate yet'
      : f.requestsLeft === 0
        ? `the last ${remaining === 1 ? 'check' : `${remaining} checks`} finishing`
        : `about ${seconds((f.requestsLeft * 1000) / rate)} to go at this pace (about ${f.requestsLeft} requests left)`;
  return (
    `progress: ${f.sent} requests sent (${left} of API_MAX_REQUESTS=${f.budget} left), ` +
    `${f.rules.finished}/${f.rules.total} rules finished (${f.checks.finished}/${f.checks.total} checks), ` +
    `${seconds(f.elapsedMs)} elapsed, ${estimate} (${pace})`
  );
}
