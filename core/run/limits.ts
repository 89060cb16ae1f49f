/**
 * A check's time limit, derived rather than fixed: a check against a slow or rate-limited target may take minutes
 * and is not stuck, one against the bundled mock takes milliseconds. The limit covers the requests a check may plan
 * (PLANNED_REQUESTS, or the whole budget when that is smaller) at the run's pace (API_MAX_RPS or the rate learned from
 * the target, shared by the workers) or at the target's observed answer time (the preflight's), whichever is slower;
 * plus the time the target may take to be declared gone (TARGET_GONE_AFTER requests, each up to three attempts of
 * API_TIMEOUT_MS with backoff) and a few 429 pauses. CONFORMANCE_CHECK_TIMEOUT_MS replaces it.
 */
import { TARGET_GONE_AFTER } from '../client/http.ts';
import { MAX_PAUSE_MS } from '../client/pace.ts';
import type { Target } from '../model/target.ts';

/** The requests one check may send, for its time limit (the deepest checks send a few hundred on a large set). */
const PLANNED_REQUESTS = 400;
/** Never less than Playwright's usual limit. */
export const MIN_CHECK_LIMIT_MS = 120_000;

interface PaceFacts {
  /** Workers sharing the pace. */
  workers: number;
  /** The rate learned from the target (req/s), if any. */
  learnedRps?: number;
  /** The target's observed answer time (ms), the preflight's median. */
  latencyMs?: number;
}

/** The time limit of one check, in ms. */
export function checkTimeLimitMs(
  target: Pick<Target, 'timeoutMs' | 'maxRps' | 'maxRequests' | 'checkTimeoutMs'>,
  pace: PaceFacts,
): number {
  if (target.checkTimeoutMs) return target.checkTimeoutMs;
  const rates = [target.maxRps, pace.learnedRps ?? 0].filter((r) => r > 0);
  const rate = rates.length > 0 ? Math.min(...rates) : 0;
  const paced = rate > 0 ? (Math.max(1, pace.workers) * 1000) / rate : 0;
  const perRequest = Math.max(paced, (pace.latencyMs ?? 0) * 1.5);
  const planned = Math.min(target.maxRequests, PLANNED_REQUESTS) * perRequest;
  const gone = TARGET_GONE_AFTER * (3 * target.timeoutMs + 1000);
  return Math.ceil(Math.max(MIN_CHECK_LIMIT_MS, 30_000 + planned + gone + MAX_PAUSE_MS));
}
