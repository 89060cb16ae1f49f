/**
 * The target as the suite sees it once its configuration is validated (core/run/config.ts loads it): where the API
 * is, which keys and merchants it was given (key values stay in memory, never in a report), and how politely and how
 * thoroughly to check it.
 */
import type { KeySlot } from './credentials.ts';
import type { DepthProfile } from './depth.ts';

export interface Target {
  /** Base URL without a trailing slash; may carry a path prefix. */
  baseURL: string;
  keys: { test: string } & Partial<Record<Exclude<KeySlot, 'test'>, string>>;
  merchants: { sandbox: string; live?: string; otherSandbox?: string };
  /** The default `limit` the target promises (API_DEFAULT_LIMIT, the spec's "typically 10"). */
  defaultLimit: number;
  profile: string;
  /** True when the suite runs against the bundled mock that it starts itself. */
  bundledMock: boolean;
  loopback: boolean;
  /** Requests per second at most; 0 = no limit. */
  maxRps: number;
  /** Hard request budget for the whole run (every worker). */
  maxRequests: number;
  /** Whole-set checks enumerate at most this many records. */
  maxRecords: number;
  timeoutMs: number;
  /** CONFORMANCE_CHECK_TIMEOUT_MS: one check's time limit, when the user sets it (else derived: core/run/limits.ts). */
  checkTimeoutMs?: number;
  strict: boolean;
  fcSeed: number | undefined;
  /** Cases per property at depth standard, its examples counted (FC_NUM_RUNS); the depth scales the drawn ones. */
  fcNumRuns: number;
  /** A vocabulary file of the user's (API_VOCABULARY, `--vocabulary`), absolute: more names for the door checks. */
  vocabulary?: string;
  /** How deep the run searches (--depth, CONFORMANCE_DEPTH): what every check may spend (core/model/depth.ts). */
  depth: DepthProfile;
  /**
   * The user named the depth (--depth, CONFORMANCE_DEPTH): a time budget then never changes it. Unnamed, a run with a
   * time budget plans its depth once the preflight has seen the target's pace (core/model/time-budget.ts).
   */
  depthNamed?: true;
  /** The run's time budget in ms (--max-time, CONFORMANCE_MAX_TIME); 0: none (core/model/time-budget.ts). */
  maxTimeMs: number;
  /**
   * Which checks run: CONFORMANCE_GREP (`--grep`) over the titles and, for the live profile, only the cutover
   * checklist (@cutover); both must match, so a grep never widens a live run. Undefined: every check.
   */
  grep: RegExp | undefined;
}

/** The profiles the package ships an example for (`.env.<name>.example`). */
export const PROFILE_EXAMPLES = ['sandbox', 'live'] as const;
