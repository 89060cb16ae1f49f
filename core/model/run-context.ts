/**
 * The run's context: its facts — the target and its settings, the profile, the seed, strictness, which checks run, the
 * known deviations, the reports folder and the run's shared files, the bundled mock's port, what the preflight found —
 * resolved once by playwright.config.ts (core/run/config.ts `runContext`), completed by global setup (the bundled
 * mock's address, the preflight), and published as one JSON object in CONFORMANCE_RUN before the workers start (they
 * inherit it). Workers and reporters read it by field (`readRun`); nothing re-reads the variables it came from. It
 * never holds a key: a worker takes the keys from the environment (core/run/config.ts `runTarget`).
 */
import type { BaselineInput } from './baseline.ts';
import { KEY_VARS } from './credentials.ts';
import type { Target } from './target.ts';
import { describeDuration } from './time-budget.ts';

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
  decision: 'go' | 'configuration' | 'unreachable';
  /** What stops the run, one sentence each with its fix. */
  problems: string[];
  /** What the reader should know that does not stop the run (a byte order mark, compressed answers). */
  notes: string[];
  /** Requests the preflight sent. */
  requests: number;
  /** The median time its requests took to be answered, in ms. */
  latencyMs?: number;
}

/** The target's settings as the run context carries them: the validated configuration without its keys. */
type TargetSettings = Omit<Target, 'keys' | 'grep' | 'strict' | 'fcSeed'>;

/** Where the run keeps what its processes share, in its reports folder (RUN_OUTPUTS). */
export interface RunFiles {
  /** The request ledger (core/client/ledger.ts): the budget, the count, the pace, for every worker. */
  ledger: string;
  /** Each process's request log (core/client/request-log.ts), assembled into requests.ndjson at the end. */
  requestLog: string;
  /** Each process's watched answers (core/run/watch.ts), judged by the checks of every answer. */
  watch: string;
  /** The run's check log (core/run/check-log.ts): the plan, and what each check began and cost, for the time budget. */
  checks: string;
}

export interface RunContext {
  /** The run's main process, which resolved and published it. */
  pid: number;
  /** When the command started (ms since epoch): the run-wide clock of the time budget (--max-time). */
  startedAt: number;
  /** Which target, as every report names it. */
  target: TargetInfo;
  settings: TargetSettings;
  /** The run's seed (FC_SEED, else picked): every property derives its own from it and its check's title. */
  seed: number;
  /** CONFORMANCE_STRICT=1: advisory findings and MUST rules not exercised fail the run. */
  strict: boolean;
  /** --grep (CONFORMANCE_GREP) as given; absent: every check (the live profile's checklist aside). */
  grep?: string;
  /** The known deviations (--baseline), read and validated with the configuration; null without. */
  baseline: BaselineInput | null;
  /** --write-baseline: where to write a baseline of this run's failures. */
  writeBaseline?: string;
  /** The reports folder, and the folder of this run's rule matrix (a shard's own, under it). */
  reports: string;
  matrixDir: string;
  shard: { current: number; total: number } | null;
  files: RunFiles;
  /** The bundled mock's port: the one asked for (0: any free port), then the one it listens on (global setup). */
  mockPort?: number;
  /** What the preflight found, before any check (global setup). */
  preflight?: PreflightReport;
}

/** The environment variable that carries the run context to the workers and reporters. */
export const RUN_VAR = 'CONFORMANCE_RUN';
/** When the command started (ms since epoch), set by the command for the run it starts: the time budget's clock. */
export const STARTED_VAR = 'CONFORMANCE_STARTED_AT';

/** Publishes the run context (main process): the workers started after inherit it. */
export function publishRun(run: RunContext, env: NodeJS.ProcessEnv = process.env): void {
  env[RUN_VAR] = JSON.stringify(run);
}

/** The optional inputs, by variable name: the keys beyond the test key, and the merchants beyond the sandbox one. */
const OPTIONAL_INPUTS = [
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

/** The run's depth and time budget in words: `depth quick, time budget 60 s`. */
export function describeDepth(settings: Pick<Target, 'depth' | 'maxTimeMs' | 'depthNamed'>): string {
  const budget = settings.maxTimeMs > 0 ? `, time budget ${describeDuration(settings.maxTimeMs)}` : '';
  // Unnamed under a time budget, the depth is planned after the preflight (global setup says which).
  const planned =
    settings.maxTimeMs > 0 && !settings.depthNamed ? ' (or quick, planned at the pace the preflight sees)' : '';
  return `depth ${settings.depth.name}${planned}${budget}`;
}

/** The optional inputs in one line: `optional inputs: API_LIVE_KEY, LIVE_MERCHANT_ID; not configured: …`. */
export function describeInputs(t: TargetInfo): string {
  const list = (names: string[]) => (names.length ? names.join(', ') : 'none');
  return `optional inputs configured: ${list(t.configured)}; not configured: ${list(t.missing)}`;
}

/** The run context as the main process published it; undefined outside a run (unit tests, scripts, the proof). */
export function readRun(env: NodeJS.ProcessEnv = process.env): RunContext | undefined {
  const raw = env[RUN_VAR];
  if (!raw) return undefined;
  try {
    const run = JSON.parse(raw) as RunContext;
    return typeof run?.target?.baseURL === 'string' && typeof run.files?.ledger === 'string' ? run : undefined;
  } catch {
    return undefined;
  }
}
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
