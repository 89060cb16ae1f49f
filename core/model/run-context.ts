/**
 * What the main process of a run tells its workers and reporters, as JSON in environment variables (set before the
 * workers start, so they inherit it): which target is checked (CONFORMANCE_TARGET, every output names it) and what the
 * preflight found (CONFORMANCE_PREFLIGHT). Read by field, never parsed out of a message. Neither ever holds a key.
 */
import { KEY_VARS } from './credentials.ts';
import type { Target } from './target.ts';

/** Which target a run checks, as every report names it: never a key, never a query. */
export interface TargetInfo {
  /** The base URL (no credentials, no query), or the bundled mock's once it listens. */
  baseURL: string;
  bundledMock: boolean;
  profile: string;
  /** The optional inputs configured, by variable name. */
  configured: string[];
  /** The optional inputs not configured, by variable name (the checks that need them do not run). */
  missing: string[];
  /** The suite's own version (package.json). */
  suiteVersion: string;
}

/** What the preflight (core/run/preflight.ts) concluded, before any check. */
export interface PreflightReport {
  /** go: the checks run; configuration: a set-up mistake (exit 2); unreachable: no answer (exit 3). */
  verdict: 'go' | 'configuration' | 'unreachable';
  /** What stops the run, one sentence each with its fix. */
  problems: string[];
  /** What the reader should know that does not stop the run (a byte order mark, compressed answers). */
  notes: string[];
  /** Requests the preflight sent. */
  requests: number;
  /** The median time its requests took to be answered, in ms. */
  latencyMs?: number;
}

export const TARGET_VAR = 'CONFORMANCE_TARGET';
export const PREFLIGHT_VAR = 'CONFORMANCE_PREFLIGHT';

/** The optional inputs, by variable name: the keys beyond the test key, and the merchants beyond the sandbox one. */
export const OPTIONAL_INPUTS = [
  KEY_VARS.live,
  KEY_VARS.restricted,
  KEY_VARS.revoked,
  KEY_VARS.old,
  'LIVE_MERCHANT_ID',
  'OTHER_SANDBOX_MERCHANT_ID',
] as const;

/** The target as the reports name it. */
export function targetInfo(target: Target, suiteVersion: string): TargetInfo {
  const set: Record<(typeof OPTIONAL_INPUTS)[number], boolean> = {
    [KEY_VARS.live]: !!target.keys.live,
    [KEY_VARS.restricted]: !!target.keys.restricted,
    [KEY_VARS.revoked]: !!target.keys.revoked,
    [KEY_VARS.old]: !!target.keys.old,
    LIVE_MERCHANT_ID: !!target.merchants.live,
    OTHER_SANDBOX_MERCHANT_ID: !!target.merchants.otherSandbox,
  };
  return {
    baseURL: target.baseURL,
    bundledMock: target.bundledMock,
    profile: target.profile,
    configured: OPTIONAL_INPUTS.filter((name) => set[name]),
    missing: OPTIONAL_INPUTS.filter((name) => !set[name]),
    suiteVersion,
  };
}

/** The target in one line: `http://127.0.0.1:3417 (the bundled mock), profile mock, payment-api-conformance 0.1.0`. */
export function describeTarget(t: TargetInfo): string {
  const where = t.bundledMock ? `${t.baseURL} (the bundled mock)` : t.baseURL;
  return `${where}, profile ${t.profile}, payment-api-conformance ${t.suiteVersion}`;
}

/** The optional inputs in one line: `optional inputs: API_LIVE_KEY, LIVE_MERCHANT_ID; not configured: …`. */
export function describeInputs(t: TargetInfo): string {
  const list = (names: string[]) => (names.length ? names.join(', ') : 'none');
  return `optional inputs configured: ${list(t.configured)}; not configured: ${list(t.missing)}`;
}

function readJson<T>(env: NodeJS.ProcessEnv, name: string, valid: (v: unknown) => boolean): T | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    return valid(value) ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The run's target, as the main process published it; undefined outside a run. */
export const readTargetInfo = (env: NodeJS.ProcessEnv = process.env): TargetInfo | undefined =>
  readJson(env, TARGET_VAR, (v) => isObject(v) && typeof v.baseURL === 'string' && Array.isArray(v.configured));

/** The preflight's report, as global setup published it; undefined before it ran (or outside a run). */
export const readPreflight = (env: NodeJS.ProcessEnv = process.env): PreflightReport | undefined =>
  readJson(env, PREFLIGHT_VAR, (v) => isObject(v) && typeof v.verdict === 'string' && Array.isArray(v.problems));

/**
 * What a reporter reads of the run's request ledger (core/client/ledger.ts keeps it for every worker): the requests
 * sent, those that failed in transport, and the pace in force. playwright.config.ts hands the run's ledger to the
 * reporters that show it (the console's progress line, the rule matrix's count); none opens it itself.
 */
export interface LedgerCounts {
  sent(): number;
  transportFailures(): number;
  pace(): { learnedRps?: number; pausedUntil?: number };
}

/** The counts of a run without a ledger (a reporter in a unit test): nothing sent. */
export const NO_LEDGER: LedgerCounts = { sent: () => 0, transportFailures: () => 0, pace: () => ({}) };
